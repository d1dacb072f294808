typedef long unsigned int size_t;
typedef unsigned char hip_bf8;
typedef unsigned char hip_fp8;
static inline __attribute__((device)) unsigned char f32_to_fp8(float v, int is_bf8) {
  v = (((*(unsigned*)&v)&0x7F800000)!=0x7F800000)?__builtin_amdgcn_fmed3f(v,is_bf8?57344.0f:448.0f,is_bf8?-57344.0f:-448.0f) : v;
  return (unsigned char)(is_bf8?__builtin_amdgcn_cvt_pk_bf8_f32(v,v,0,false):__builtin_amdgcn_cvt_pk_fp8_f32(v,v,0,false));
}
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
typedef hip_bf8 hip_bf84 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) hip_bf84 make_hip_bf84(hip_bf8 x, hip_bf8 y, hip_bf8 z, hip_bf8 w) { return { x, y, z, w }; }
typedef hip_bf8 hip_bf832 __attribute__((ext_vector_type(32)));
static inline __attribute__((device)) hip_bf832 make_hip_bf832(hip_bf8 x, hip_bf8 y, hip_bf8 z, hip_bf8 w, hip_bf8 a, hip_bf8 b, hip_bf8 c, hip_bf8 d, hip_bf8 e, hip_bf8 f, hip_bf8 g, hip_bf8 h, hip_bf8 i, hip_bf8 j, hip_bf8 k, hip_bf8 l, hip_bf8 v16, hip_bf8 v17, hip_bf8 v18, hip_bf8 v19, hip_bf8 v20, hip_bf8 v21, hip_bf8 v22, hip_bf8 v23, hip_bf8 v24, hip_bf8 v25, hip_bf8 v26, hip_bf8 v27, hip_bf8 v28, hip_bf8 v29, hip_bf8 v30, hip_bf8 v31) { return { x, y, z, w, a, b, c, d, e, f, g, h, i, j, k, l, v16, v17, v18, v19, v20, v21, v22, v23, v24, v25, v26, v27, v28, v29, v30, v31 }; }
typedef float float4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) float4 make_float4(float x, float y, float z, float w) { return { x, y, z, w }; }
#define __WMMA_16_16_128_float8_e5m2_float __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 64))) r_8_8_64_2_2_2_2_2(hip_bf8* data0_16384, hip_bf8* data1_16384, hip_bf8* data2_16384) {
  int gidx0 = __ockl_get_group_id(0); /* 8 */
  int lidx0 = __ockl_get_local_id(0); /* 64 */
  int alu0 = ((lidx0>>3)&1);
  int alu1 = ((lidx0>>2)&1);
  int alu2 = ((lidx0>>1)&1);
  int alu3 = (lidx0&1);
  int alu4 = ((gidx0<<4)+(alu0<<3)+(alu1<<2)+(alu2<<1)+alu3);
  int alu5 = (lidx0>>4);
  int alu6 = (alu4+(alu5<<12));
  hip_bf8 val0 = (*(data2_16384+(alu6+128)));
  hip_bf8 val1 = (*(data2_16384+(alu6+256)));
  hip_bf8 val2 = (*(data2_16384+(alu6+384)));
  hip_bf8 val3 = (*(data2_16384+(alu6+512)));
  hip_bf8 val4 = (*(data2_16384+(alu6+640)));
  hip_bf8 val5 = (*(data2_16384+(alu6+768)));
  hip_bf8 val6 = (*(data2_16384+(alu6+896)));
  hip_bf8 val7 = (*(data2_16384+(alu6+1024)));
  hip_bf8 val8 = (*(data2_16384+(alu6+1152)));
  hip_bf8 val9 = (*(data2_16384+(alu6+1280)));
  hip_bf8 val10 = (*(data2_16384+(alu6+1408)));
  hip_bf8 val11 = (*(data2_16384+(alu6+1536)));
  hip_bf8 val12 = (*(data2_16384+(alu6+1664)));
  hip_bf8 val13 = (*(data2_16384+(alu6+1792)));
  hip_bf8 val14 = (*(data2_16384+(alu6+1920)));
  hip_bf8 val15 = (*(data2_16384+(alu6+2048)));
  hip_bf8 val16 = (*(data2_16384+(alu6+2176)));
  hip_bf8 val17 = (*(data2_16384+(alu6+2304)));
  hip_bf8 val18 = (*(data2_16384+(alu6+2432)));
  hip_bf8 val19 = (*(data2_16384+(alu6+2560)));
  hip_bf8 val20 = (*(data2_16384+(alu6+2688)));
  hip_bf8 val21 = (*(data2_16384+(alu6+2816)));
  hip_bf8 val22 = (*(data2_16384+(alu6+2944)));
  hip_bf8 val23 = (*(data2_16384+(alu6+3072)));
  hip_bf8 val24 = (*(data2_16384+(alu6+3200)));
  hip_bf8 val25 = (*(data2_16384+(alu6+3328)));
  hip_bf8 val26 = (*(data2_16384+(alu6+3456)));
  hip_bf8 val27 = (*(data2_16384+(alu6+3584)));
  hip_bf8 val28 = (*(data2_16384+(alu6+3712)));
  hip_bf8 val29 = (*(data2_16384+(alu6+3840)));
  hip_bf8 val30 = (*(data2_16384+(alu6+3968)));
  hip_bf8 val31 = (*(data2_16384+alu6));
  int gidx1 = __ockl_get_group_id(1); /* 8 */
  int alu7 = (gidx1<<11);
  int alu8 = (alu7+(alu0<<10)+(alu1<<9)+(alu2<<8)+(alu3<<7)+(alu5<<5));
  hip_bf84 val32 = (*((hip_bf84*)((data1_16384+(alu8+4)))));
  hip_bf84 val33 = (*((hip_bf84*)((data1_16384+(alu8+8)))));
  hip_bf84 val34 = (*((hip_bf84*)((data1_16384+(alu8+12)))));
  hip_bf84 val35 = (*((hip_bf84*)((data1_16384+(alu8+16)))));
  hip_bf84 val36 = (*((hip_bf84*)((data1_16384+(alu8+20)))));
  hip_bf84 val37 = (*((hip_bf84*)((data1_16384+(alu8+24)))));
  hip_bf84 val38 = (*((hip_bf84*)((data1_16384+(alu8+28)))));
  hip_bf84 val39 = (*((hip_bf84*)((data1_16384+alu8))));
  float4 wmma0 = __WMMA_16_16_128_float8_e5m2_float(make_hip_bf832(val39.x,val32.x,val33.x,val34.x,val35.x,val36.x,val37.x,val38.x,val39.y,val32.y,val33.y,val34.y,val35.y,val36.y,val37.y,val38.y,val39.z,val32.z,val33.z,val34.z,val35.z,val36.z,val37.z,val38.z,val39.w,val32.w,val33.w,val34.w,val35.w,val36.w,val37.w,val38.w), make_hip_bf832(val31,val3,val7,val11,val15,val19,val23,val27,val0,val4,val8,val12,val16,val20,val24,val28,val1,val5,val9,val13,val17,val21,val25,val29,val2,val6,val10,val14,val18,val22,val26,val30), make_float4(0.0f,0.0f,0.0f,0.0f), 1, 1, 0, 0, 0, 0);
  int alu9 = (alu4+alu7+((lidx0>>5)<<10)+((alu5&1)<<9));
  *(data0_16384+(alu9+128)) = f32_to_fp8(wmma0.y, 1);
  *(data0_16384+(alu9+256)) = f32_to_fp8(wmma0.z, 1);
  *(data0_16384+(alu9+384)) = f32_to_fp8(wmma0.w, 1);
  *(data0_16384+alu9) = f32_to_fp8(wmma0.x, 1);
}