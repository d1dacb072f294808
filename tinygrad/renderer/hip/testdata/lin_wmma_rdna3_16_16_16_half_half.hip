#define half _Float16
typedef half half16 __attribute__((ext_vector_type(16)));
static inline __attribute__((device)) half16 make_half16(half x, half y, half z, half w, half a, half b, half c, half d, half e, half f, half g, half h, half i, half j, half k, half l) { return { x, y, z, w, a, b, c, d, e, f, g, h, i, j, k, l }; }
typedef half half8 __attribute__((ext_vector_type(8)));
static inline __attribute__((device)) half8 make_half8(half x, half y, half z, half w, half a, half b, half c, half d) { return { x, y, z, w, a, b, c, d }; }
static inline __attribute__((device)) half8 __WMMA_16_16_16_half_half(half16 a, half16 b, half8 c) {
  half16 c_frag = {}; half8 d; for (int n = 0; n < 8; n++) { c_frag[n*2] = c[n]; }
  c_frag = __builtin_amdgcn_wmma_f16_16x16x16_f16_w32(a, b, c_frag, false);
  for (int n = 0; n < 8; n++) { d[n] = c_frag[n*2]; } return d;
}
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 1))) wmma(half* data0_64, half* data1_64, half* data2_64) {
  half16 val0 = (*((half16*)((data1_64+0))));
  half16 val1 = (*((half16*)((data2_64+0))));
  half8 val2 = (*((half8*)((data0_64+0))));
  half8 wmma0 = __WMMA_16_16_16_half_half(val0, val1, val2);
  *((half8*)((data0_64+0))) = wmma0;
}