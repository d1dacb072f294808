typedef long unsigned int size_t;
#define half _Float16
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
typedef half half4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) half4 make_half4(half x, half y, half z, half w) { return { x, y, z, w }; }
typedef half half16 __attribute__((ext_vector_type(16)));
static inline __attribute__((device)) half16 make_half16(half x, half y, half z, half w, half a, half b, half c, half d, half e, half f, half g, half h, half i, half j, half k, half l) { return { x, y, z, w, a, b, c, d, e, f, g, h, i, j, k, l }; }
typedef float float8 __attribute__((ext_vector_type(8)));
static inline __attribute__((device)) float8 make_float8(float x, float y, float z, float w, float a, float b, float c, float d) { return { x, y, z, w, a, b, c, d }; }
#define __WMMA_16_16_16_half_float __builtin_amdgcn_wmma_f32_16x16x16_f16_w32
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 64))) r_2_2_32_2_2_2_2_2_4_2(half* data0_4096, half* data1_4096, half* data2_4096) {
  float acc0[16];
  int gidx0 = __ockl_get_group_id(0); /* 2 */
  int gidx1 = __ockl_get_group_id(1); /* 2 */
  int lidx0 = __ockl_get_local_id(0); /* 32 */
  int lidx1 = __ockl_get_local_id(1); /* 2 */
  int alu0 = ((gidx1<<11)+(lidx1<<10));
  int alu1 = ((lidx0>>3)&1);
  int alu2 = ((lidx0>>2)&1);
  int alu3 = ((lidx0>>1)&1);
  int alu4 = (lidx0&1);
  int alu5 = ((gidx0<<5)+(alu1<<3)+(alu2<<2)+(alu3<<1)+alu4);
  *(acc0+0) = 0.0f;
  *(acc0+1) = 0.0f;
  *(acc0+2) = 0.0f;
  *(acc0+3) = 0.0f;
  *(acc0+4) = 0.0f;
  *(acc0+5) = 0.0f;
  *(acc0+6) = 0.0f;
  *(acc0+7) = 0.0f;
  *(acc0+8) = 0.0f;
  *(acc0+9) = 0.0f;
  *(acc0+10) = 0.0f;
  *(acc0+11) = 0.0f;
  *(acc0+12) = 0.0f;
  *(acc0+13) = 0.0f;
  *(acc0+14) = 0.0f;
  *(acc0+15) = 0.0f;
  for (int Ridx0 = 0; Ridx0 < 4; Ridx0++) {
    int alu22 = (alu5+(Ridx0<<10));
    half val0 = (*(data2_4096+(alu22+16)));
    half val1 = (*(data2_4096+(alu22+64)));
    half val2 = (*(data2_4096+(alu22+80)));
    half val3 = (*(data2_4096+(alu22+128)));
    half val4 = (*(data2_4096+(alu22+144)));
    half val5 = (*(data2_4096+(alu22+192)));
    half val6 = (*(data2_4096+(alu22+208)));
    half val7 = (*(data2_4096+(alu22+256)));
    half val8 = (*(data2_4096+(alu22+272)));
    half val9 = (*(data2_4096+(alu22+320)));
    half val10 = (*(data2_4096+(alu22+336)));
    half val11 = (*(data2_4096+(alu22+384)));
    half val12 = (*(data2_4096+(alu22+400)));
    half val13 = (*(data2_4096+(alu22+448)));
    half val14 = (*(data2_4096+(alu22+464)));
    half val15 = (*(data2_4096+(alu22+512)));
    half val16 = (*(data2_4096+(alu22+528)));
    half val17 = (*(data2_4096+(alu22+576)));
    half val18 = (*(data2_4096+(alu22+592)));
    half val19 = (*(data2_4096+(alu22+640)));
    half val20 = (*(data2_4096+(alu22+656)));
    half val21 = (*(data2_4096+(alu22+704)));
    half val22 = (*(data2_4096+(alu22+720)));
    half val23 = (*(data2_4096+(alu22+768)));
    half val24 = (*(data2_4096+(alu22+784)));
    half val25 = (*(data2_4096+(alu22+832)));
    half val26 = (*(data2_4096+(alu22+848)));
    half val27 = (*(data2_4096+(alu22+896)));
    half val28 = (*(data2_4096+(alu22+912)));
    half val29 = (*(data2_4096+(alu22+960)));
    half val30 = (*(data2_4096+(alu22+976)));
    half val31 = (*(data2_4096+alu22));
    int alu23 = (alu0+(alu1<<9)+(alu2<<8)+(alu3<<7)+(alu4<<6)+(Ridx0<<4));
    half4 val32 = (*((half4*)((data1_4096+(alu23+4)))));
    half4 val33 = (*((half4*)((data1_4096+(alu23+8)))));
    half4 val34 = (*((half4*)((data1_4096+(alu23+12)))));
    half4 val35 = (*((half4*)((data1_4096+alu23))));
    half16 cast0 = make_half16(val35.x,val35.y,val35.z,val35.w,val32.x,val32.y,val32.z,val32.w,val33.x,val33.y,val33.z,val33.w,val34.x,val34.y,val34.z,val34.w);
    float8 wmma0 = __WMMA_16_16_16_half_float(cast0, make_half16(val0,val2,val4,val6,val8,val10,val12,val14,val16,val18,val20,val22,val24,val26,val28,val30), make_float8((*(acc0+8)),(*(acc0+9)),(*(acc0+10)),(*(acc0+11)),(*(acc0+12)),(*(acc0+13)),(*(acc0+14)),(*(acc0+15))));
    float8 wmma1 = __WMMA_16_16_16_half_float(cast0, make_half16(val31,val1,val3,val5,val7,val9,val11,val13,val15,val17,val19,val21,val23,val25,val27,val29), make_float8((*(acc0+0)),(*(acc0+1)),(*(acc0+2)),(*(acc0+3)),(*(acc0+4)),(*(acc0+5)),(*(acc0+6)),(*(acc0+7))));
    *(acc0+0) = wmma1[0];
    *(acc0+1) = wmma1[1];
    *(acc0+2) = wmma1[2];
    *(acc0+3) = wmma1[3];
    *(acc0+4) = wmma1[4];
    *(acc0+5) = wmma1[5];
    *(acc0+6) = wmma1[6];
    *(acc0+7) = wmma1[7];
    *(acc0+8) = wmma0[0];
    *(acc0+9) = wmma0[1];
    *(acc0+10) = wmma0[2];
    *(acc0+11) = wmma0[3];
    *(acc0+12) = wmma0[4];
    *(acc0+13) = wmma0[5];
    *(acc0+14) = wmma0[6];
    *(acc0+15) = wmma0[7];
  }
  int alu41 = (alu5+alu0+((lidx0>>4)<<6));
  *(data0_4096+(alu41+16)) = ((half)((*(acc0+8))));
  *(data0_4096+(alu41+128)) = ((half)((*(acc0+1))));
  *(data0_4096+(alu41+144)) = ((half)((*(acc0+9))));
  *(data0_4096+(alu41+256)) = ((half)((*(acc0+2))));
  *(data0_4096+(alu41+272)) = ((half)((*(acc0+10))));
  *(data0_4096+(alu41+384)) = ((half)((*(acc0+3))));
  *(data0_4096+(alu41+400)) = ((half)((*(acc0+11))));
  *(data0_4096+(alu41+512)) = ((half)((*(acc0+4))));
  *(data0_4096+(alu41+528)) = ((half)((*(acc0+12))));
  *(data0_4096+(alu41+640)) = ((half)((*(acc0+5))));
  *(data0_4096+(alu41+656)) = ((half)((*(acc0+13))));
  *(data0_4096+(alu41+768)) = ((half)((*(acc0+6))));
  *(data0_4096+(alu41+784)) = ((half)((*(acc0+14))));
  *(data0_4096+(alu41+896)) = ((half)((*(acc0+7))));
  *(data0_4096+(alu41+912)) = ((half)((*(acc0+15))));
  *(data0_4096+alu41) = ((half)((*(acc0+0))));
}