typedef long unsigned int size_t;
#define half _Float16
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
typedef half half4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) half4 make_half4(half x, half y, half z, half w) { return { x, y, z, w }; }
typedef float float4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) float4 make_float4(float x, float y, float z, float w) { return { x, y, z, w }; }
#define __WMMA_16_16_16_half_float __builtin_amdgcn_mfma_f32_16x16x16f16
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 64))) r_8_8_64_2_2_8n2(half* data0_16384, half* data1_16384, half* data2_16384) {
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
  int alu7 = (alu6<<10);
  int alu8 = ((lidx0>>4)&1);
  int alu9 = (alu8<<9);
  *(acc0+0) = 0.0f;
  *(acc0+1) = 0.0f;
  *(acc0+2) = 0.0f;
  *(acc0+3) = 0.0f;
  for (int Ridx0 = 0; Ridx0 < 8; Ridx0++) {
    int alu14 = (alu4+alu7+(Ridx0<<11)+alu9);
    half val0 = (*(data2_16384+(alu14+128)));
    half val1 = (*(data2_16384+(alu14+256)));
    half val2 = (*(data2_16384+(alu14+384)));
    half val3 = (*(data2_16384+alu14));
    half4 val4 = (*((half4*)((data1_16384+(alu5+(alu0<<10)+(alu1<<9)+(alu2<<8)+(alu3<<7)+(alu6<<3)+(Ridx0<<4)+(alu8<<2))))));
    float4 wmma0 = __WMMA_16_16_16_half_float(val4, make_half4(val3,val0,val1,val2), make_float4((*(acc0+0)),(*(acc0+1)),(*(acc0+2)),(*(acc0+3))), 0, 0, 0);
    *(acc0+0) = wmma0.x;
    *(acc0+1) = wmma0.y;
    *(acc0+2) = wmma0.z;
    *(acc0+3) = wmma0.w;
  }
  int alu20 = (alu4+alu5+alu7+alu9);
  *(data0_16384+(alu20+128)) = ((half)((*(acc0+1))));
  *(data0_16384+(alu20+256)) = ((half)((*(acc0+2))));
  *(data0_16384+(alu20+384)) = ((half)((*(acc0+3))));
  *(data0_16384+alu20) = ((half)((*(acc0+0))));
}