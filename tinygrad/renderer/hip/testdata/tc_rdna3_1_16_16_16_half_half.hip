typedef long unsigned int size_t;
#define half _Float16
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
typedef half half4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) half4 make_half4(half x, half y, half z, half w) { return { x, y, z, w }; }
typedef half half8 __attribute__((ext_vector_type(8)));
static inline __attribute__((device)) half8 make_half8(half x, half y, half z, half w, half a, half b, half c, half d) { return { x, y, z, w, a, b, c, d }; }
typedef half half16 __attribute__((ext_vector_type(16)));
static inline __attribute__((device)) half16 make_half16(half x, half y, half z, half w, half a, half b, half c, half d, half e, half f, half g, half h, half i, half j, half k, half l) { return { x, y, z, w, a, b, c, d, e, f, g, h, i, j, k, l }; }
static inline __attribute__((device)) half8 __WMMA_16_16_16_half_half(half16 a, half16 b, half8 c) {
  half16 c_frag = {}; half8 d; for (int n = 0; n < 8; n++) { c_frag[n*2] = c[n]; }
  c_frag = __builtin_amdgcn_wmma_f16_16x16x16_f16_w32(a, b, c_frag, false);
  for (int n = 0; n < 8; n++) { d[n] = c_frag[n*2]; } return d;
}
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 32))) r_8_8_32_2_2_2_8_2n1(half* data0_16384, half* data1_16384, half* data2_16384) {
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
  *(acc0+0) = ((half)(0.0f));
  *(acc0+1) = ((half)(0.0f));
  *(acc0+2) = ((half)(0.0f));
  *(acc0+3) = ((half)(0.0f));
  *(acc0+4) = ((half)(0.0f));
  *(acc0+5) = ((half)(0.0f));
  *(acc0+6) = ((half)(0.0f));
  *(acc0+7) = ((half)(0.0f));
  for (int Ridx0 = 0; Ridx0 < 8; Ridx0++) {
    int alu14 = (alu4+(Ridx0<<11));
    half val0 = (*(data2_16384+(alu14+128)));
    half val1 = (*(data2_16384+(alu14+256)));
    half val2 = (*(data2_16384+(alu14+384)));
    half val3 = (*(data2_16384+(alu14+512)));
    half val4 = (*(data2_16384+(alu14+640)));
    half val5 = (*(data2_16384+(alu14+768)));
    half val6 = (*(data2_16384+(alu14+896)));
    half val7 = (*(data2_16384+(alu14+1024)));
    half val8 = (*(data2_16384+(alu14+1152)));
    half val9 = (*(data2_16384+(alu14+1280)));
    half val10 = (*(data2_16384+(alu14+1408)));
    half val11 = (*(data2_16384+(alu14+1536)));
    half val12 = (*(data2_16384+(alu14+1664)));
    half val13 = (*(data2_16384+(alu14+1792)));
    half val14 = (*(data2_16384+(alu14+1920)));
    half val15 = (*(data2_16384+alu14));
    int alu15 = (alu5+(alu0<<10)+(alu1<<9)+(alu2<<8)+(alu3<<7)+(Ridx0<<4));
    half4 val16 = (*((half4*)((data1_16384+(alu15+4)))));
    half4 val17 = (*((half4*)((data1_16384+(alu15+8)))));
    half4 val18 = (*((half4*)((data1_16384+(alu15+12)))));
    half4 val19 = (*((half4*)((data1_16384+alu15))));
    half8 wmma0 = __WMMA_16_16_16_half_half(make_half16(val19.x,val19.y,val19.z,val19.w,val16.x,val16.y,val16.z,val16.w,val17.x,val17.y,val17.z,val17.w,val18.x,val18.y,val18.z,val18.w), make_half16(val15,val0,val1,val2,val3,val4,val5,val6,val7,val8,val9,val10,val11,val12,val13,val14), make_half8((*(acc0+0)),(*(acc0+1)),(*(acc0+2)),(*(acc0+3)),(*(acc0+4)),(*(acc0+5)),(*(acc0+6)),(*(acc0+7))));
    *(acc0+0) = wmma0[0];
    *(acc0+1) = wmma0[1];
    *(acc0+2) = wmma0[2];
    *(acc0+3) = wmma0[3];
    *(acc0+4) = wmma0[4];
    *(acc0+5) = wmma0[5];
    *(acc0+6) = wmma0[6];
    *(acc0+7) = wmma0[7];
  }
  int alu25 = (alu4+alu5+((lidx0>>4)<<7));
  *(data0_16384+(alu25+256)) = (*(acc0+1));
  *(data0_16384+(alu25+512)) = (*(acc0+2));
  *(data0_16384+(alu25+768)) = (*(acc0+3));
  *(data0_16384+(alu25+1024)) = (*(acc0+4));
  *(data0_16384+(alu25+1280)) = (*(acc0+5));
  *(data0_16384+(alu25+1536)) = (*(acc0+6));
  *(data0_16384+(alu25+1792)) = (*(acc0+7));
  *(data0_16384+alu25) = (*(acc0+0));
}