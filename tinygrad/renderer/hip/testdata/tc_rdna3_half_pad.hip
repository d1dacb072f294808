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
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 32))) r_4_4_32_2_2_2_4_2(half* data0_3600, half* data1_3600, half* data2_3600) {
  float acc0[8];
  int gidx0 = __ockl_get_group_id(0); /* 4 */
  int gidx1 = __ockl_get_group_id(1); /* 4 */
  int lidx0 = __ockl_get_local_id(0); /* 32 */
  half4 cast0 = make_half4(((half)(0.0f)),((half)(0.0f)),((half)(0.0f)),((half)(0.0f)));
  int alu0 = (gidx1*960);
  int alu1 = ((lidx0>>3)&1);
  int alu2 = ((lidx0>>2)&1);
  int alu3 = ((lidx0>>1)&1);
  int alu4 = (lidx0&1);
  int alu5 = ((gidx0<<4)+(alu1<<3)+(alu2<<2)+(alu3<<1)+alu4);
  int alu6 = (alu1<<1);
  bool alu7 = (((gidx0<<2)+alu6+alu2)<15);
  bool alu8 = (((gidx1<<2)+alu6+alu2)<15);
  *(acc0+0) = 0.0f;
  *(acc0+1) = 0.0f;
  *(acc0+2) = 0.0f;
  *(acc0+3) = 0.0f;
  *(acc0+4) = 0.0f;
  *(acc0+5) = 0.0f;
  *(acc0+6) = 0.0f;
  *(acc0+7) = 0.0f;
  for (int Ridx0 = 0; Ridx0 < 4; Ridx0++) {
    int alu17 = (alu5+(Ridx0*960));
    half val0 = (alu7?*(data2_3600+(alu17+60)):((half)(0.0f)));
    half val1 = (alu7?*(data2_3600+(alu17+120)):((half)(0.0f)));
    half val2 = (alu7?*(data2_3600+(alu17+180)):((half)(0.0f)));
    half val3 = (alu7?*(data2_3600+(alu17+240)):((half)(0.0f)));
    half val4 = (alu7?*(data2_3600+(alu17+300)):((half)(0.0f)));
    half val5 = (alu7?*(data2_3600+(alu17+360)):((half)(0.0f)));
    half val6 = (alu7?*(data2_3600+(alu17+420)):((half)(0.0f)));
    half val7 = (alu7?*(data2_3600+(alu17+480)):((half)(0.0f)));
    half val8 = (alu7?*(data2_3600+(alu17+540)):((half)(0.0f)));
    half val9 = (alu7?*(data2_3600+(alu17+600)):((half)(0.0f)));
    half val10 = (alu7?*(data2_3600+(alu17+660)):((half)(0.0f)));
    bool alu18 = (Ridx0<3);
    bool alu19 = (alu18&alu7);
    half val11 = (alu19?*(data2_3600+(alu17+720)):((half)(0.0f)));
    half val12 = (alu19?*(data2_3600+(alu17+780)):((half)(0.0f)));
    half val13 = (alu19?*(data2_3600+(alu17+840)):((half)(0.0f)));
    half val14 = (alu19?*(data2_3600+(alu17+900)):((half)(0.0f)));
    half val15 = (alu7?*(data2_3600+alu17):((half)(0.0f)));
    int alu20 = (alu0+(alu1*480)+(alu2*240)+(alu3*120)+(alu4*60)+(Ridx0<<4));
    half4 val16 = (alu8?*((half4*)((data1_3600+(alu20+4)))):cast0);
    half4 val17 = (alu8?*((half4*)((data1_3600+(alu20+8)))):cast0);
    half4 val18 = ((alu18&alu8)?*((half4*)((data1_3600+(alu20+12)))):cast0);
    half4 val19 = (alu8?*((half4*)((data1_3600+alu20))):cast0);
    float8 wmma0 = __WMMA_16_16_16_half_float(make_half16(val19.x,val19.y,val19.z,val19.w,val16.x,val16.y,val16.z,val16.w,val17.x,val17.y,val17.z,val17.w,val18.x,val18.y,val18.z,val18.w), make_half16(val15,val0,val1,val2,val3,val4,val5,val6,val7,val8,val9,val10,val11,val12,val13,val14), make_float8((*(acc0+0)),(*(acc0+1)),(*(acc0+2)),(*(acc0+3)),(*(acc0+4)),(*(acc0+5)),(*(acc0+6)),(*(acc0+7))));
    *(acc0+0) = wmma0[0];
    *(acc0+1) = wmma0[1];
    *(acc0+2) = wmma0[2];
    *(acc0+3) = wmma0[3];
    *(acc0+4) = wmma0[4];
    *(acc0+5) = wmma0[5];
    *(acc0+6) = wmma0[6];
    *(acc0+7) = wmma0[7];
  }
  int alu30 = (alu5+alu0+((lidx0>>4)*60));
  bool alu31 = ((gidx1<3)&alu7);
  if (alu7) {
    *(data0_3600+(alu30+120)) = ((half)((*(acc0+1))));
  }
  if (alu7) {
    *(data0_3600+(alu30+240)) = ((half)((*(acc0+2))));
  }
  if (alu7) {
    *(data0_3600+(alu30+360)) = ((half)((*(acc0+3))));
  }
  if (alu7) {
    *(data0_3600+(alu30+480)) = ((half)((*(acc0+4))));
  }
  if (alu7) {
    *(data0_3600+(alu30+600)) = ((half)((*(acc0+5))));
  }
  if (alu31) {
    *(data0_3600+(alu30+720)) = ((half)((*(acc0+6))));
  }
  if (alu31) {
    *(data0_3600+(alu30+840)) = ((half)((*(acc0+7))));
  }
  if (alu7) {
    *(data0_3600+alu30) = ((half)((*(acc0+0))));
  }
}