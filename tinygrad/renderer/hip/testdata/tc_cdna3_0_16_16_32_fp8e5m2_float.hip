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
typedef hip_bf8 hip_bf88 __attribute__((ext_vector_type(8)));
static inline __attribute__((device)) hip_bf88 make_hip_bf88(hip_bf8 x, hip_bf8 y, hip_bf8 z, hip_bf8 w, hip_bf8 a, hip_bf8 b, hip_bf8 c, hip_bf8 d) { return { x, y, z, w, a, b, c, d }; }
typedef float float4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) float4 make_float4(float x, float y, float z, float w) { return { x, y, z, w }; }
#define __WMMA_16_16_32_float8_e5m2_float __builtin_amdgcn_mfma_f32_16x16x32_bf8_bf8
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 64))) r_8_8_64_2_2_4_2(hip_bf8* data0_16384, hip_bf8* data1_16384, hip_bf8* data2_16384) {
  float acc0[4];
  int gidx0 = __ockl_get_group_id(0); /* 8 */
  int gidx1 = __ockl_get_group_id(1); /* 8 */
  int lidx0 = __ockl_get_local_id(0); /* 64 */
  int alu0 = ((lidx0>>3)&1);
  int alu1 = ((lidx0>>2)&1);
  int alu2 = ((lidx0>>1)&1);
  int alu3 = (lidx0&1);
  int alu4 = ((gidx0<<4)+(alu0<<3)+(alu1<<2)+(alu2<<1)+alu3);
  int alu5 = (gidx1<<11);
  int alu6 = (lidx0>>5);
  int alu7 = ((lidx0>>4)&1);
  *(acc0+0) = 0.0f;
  *(acc0+1) = 0.0f;
  *(acc0+2) = 0.0f;
  *(acc0+3) = 0.0f;
  for (int Ridx0 = 0; Ridx0 < 4; Ridx0++) {
    int alu12 = (alu4+(alu6<<11)+(Ridx0<<12)+(alu7<<10));
    hip_bf8 val0 = (*(data2_16384+(alu12+128)));
    hip_bf8 val1 = (*(data2_16384+(alu12+256)));
    hip_bf8 val2 = (*(data2_16384+(alu12+384)));
    hip_bf8 val3 = (*(data2_16384+(alu12+512)));
    hip_bf8 val4 = (*(data2_16384+(alu12+640)));
    hip_bf8 val5 = (*(data2_16384+(alu12+768)));
    hip_bf8 val6 = (*(data2_16384+(alu12+896)));
    hip_bf8 val7 = (*(data2_16384+alu12));
    int alu13 = (alu5+(alu0<<10)+(alu1<<9)+(alu2<<8)+(alu3<<7)+(alu6<<4)+(Ridx0<<5)+(alu7<<3));
    hip_bf84 val8 = (*((hip_bf84*)((data1_16384+(alu13+4)))));
    hip_bf84 val9 = (*((hip_bf84*)((data1_16384+alu13))));
    float4 wmma0 = __WMMA_16_16_32_float8_e5m2_float(__builtin_bit_cast(unsigned long, (hip_bf88)(make_hip_bf88(val9.x,val8.x,val9.y,val8.y,val9.z,val8.z,val9.w,val8.w))), __builtin_bit_cast(unsigned long, (hip_bf88)(make_hip_bf88(val7,val3,val0,val4,val1,val5,val2,val6))), make_float4((*(acc0+0)),(*(acc0+1)),(*(acc0+2)),(*(acc0+3))), 0, 0, 0);
    *(acc0+0) = wmma0.x;
    *(acc0+1) = wmma0.y;
    *(acc0+2) = wmma0.z;
    *(acc0+3) = wmma0.w;
  }
  int alu19 = (alu4+alu5+(alu6<<10)+(alu7<<9));
  *(data0_16384+(alu19+128)) = f32_to_fp8((*(acc0+1)), 1);
  *(data0_16384+(alu19+256)) = f32_to_fp8((*(acc0+2)), 1);
  *(data0_16384+(alu19+384)) = f32_to_fp8((*(acc0+3)), 1);
  *(data0_16384+alu19) = f32_to_fp8((*(acc0+0)), 1);
}