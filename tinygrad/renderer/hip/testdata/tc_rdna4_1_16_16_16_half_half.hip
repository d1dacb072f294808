typedef long unsigned int size_t;
#define half _Float16
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
typedef half half4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) half4 make_half4(half x, half y, half z, half w) { return { x, y, z, w }; }
typedef half half8 __attribute__((ext_vector_type(8)));
static inline __attribute__((device)) half8 make_half8(half x, half y, half z, half w, half a, half b, half c, half d) { return { x, y, z, w, a, b, c, d }; }
#define __WMMA_16_16_16_half_half __builtin_amdgcn_wmma_f16_16x16x16_f16_w32_gfx12
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 32))) r_8_8_32_2_2_2_8n1(half* data0_16384, half* data1_16384, half* data2_16384) {
  half acc0[8];
  int gidx0 = __ockl_get_group_id(0); /* 8 */
  int gidx1 = __ockl_get_group_id(1); /* 8 */
  int lidx0 = __ockl_get_local_id(0); /* 32 */
  int alu0 = ((lidx0>>3)&1);
  int alu1 = ((lidx0>>2)&1);
  int alu2 = ((lidx0>>1)&1);
  int alu3 = (lidx0&1);
  int alu4 = ((gidx0<<4)+(alu0<<3)+(alu1<<2)+(alu2<<1)+alu3);
  int alu5 = (gidx1<<11);
  int alu6 = (lidx0>>4);
  *(acc0+0) = ((half)(0.0f));
  *(acc0+1) = ((half)(0.0f));
  *(acc0+2) = ((half)(0.0f));
  *(acc0+3) = ((half)(0.0f));
  *(acc0+4) = ((half)(0.0f));
  *(acc0+5) = ((half)(0.0f));
  *(acc0+6) = ((half)(0.0f));
  *(acc0+7) = ((half)(0.0f));
  for (int Ridx0 = 0; Ridx0 < 8; Ridx0++) {
    int alu15 = (alu4+(alu6<<9)+(Ridx0<<11));
    half val0 = (*(data2_16384+(alu15+128)));
    half val1 = (*(data2_16384+(alu15+256)));
    half val2 = (*(data2_16384+(alu15+384)));
    half val3 = (*(data2_16384+(alu15+1024)));
    half val4 = (*(data2_16384+(alu15+1152)));
    half val5 = (*(data2_16384+(alu15+1280)));
    half val6 = (*(data2_16384+(alu15+1408)));
    half val7 = (*(data2_16384+alu15));
    int alu16 = (alu5+(alu0<<10)+(alu1<<9)+(alu2<<8)+(alu3<<7)+(alu6<<2)+(Ridx0<<4));
    half4 val8 = (*((half4*)((data1_16384+(alu16+8)))));
    half4 val9 = (*((half4*)((data1_16384+alu16))));
    half8 wmma0 = __WMMA_16_16_16_half_half(make_half8(val9.x,val9.y,val9.z,val9.w,val8.x,val8.y,val8.z,val8.w), make_half8(val7,val0,val1,val2,val3,val4,val5,val6), make_half8((*(acc0+0)),(*(acc0+1)),(*(acc0+2)),(*(acc0+3)),(*(acc0+4)),(*(acc0+5)),(*(acc0+6)),(*(acc0+7))));
    *(acc0+0) = wmma0[0];
    *(acc0+1) = wmma0[1];
    *(acc0+2) = wmma0[2];
    *(acc0+3) = wmma0[3];
    *(acc0+4) = wmma0[4];
    *(acc0+5) = wmma0[5];
    *(acc0+6) = wmma0[6];
    *(acc0+7) = wmma0[7];
  }
  int alu26 = (alu4+alu5+(alu6<<10));
  *(data0_16384+(alu26+128)) = (*(acc0+1));
  *(data0_16384+(alu26+256)) = (*(acc0+2));
  *(data0_16384+(alu26+384)) = (*(acc0+3));
  *(data0_16384+(alu26+512)) = (*(acc0+4));
  *(data0_16384+(alu26+640)) = (*(acc0+5));
  *(data0_16384+(alu26+768)) = (*(acc0+6));
  *(data0_16384+(alu26+896)) = (*(acc0+7));
  *(data0_16384+alu26) = (*(acc0+0));
}