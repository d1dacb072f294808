#define half _Float16
typedef half half8 __attribute__((ext_vector_type(8)));
static inline __attribute__((device)) half8 make_half8(half x, half y, half z, half w, half a, half b, half c, half d) { return { x, y, z, w, a, b, c, d }; }
typedef float float8 __attribute__((ext_vector_type(8)));
static inline __attribute__((device)) float8 make_float8(float x, float y, float z, float w, float a, float b, float c, float d) { return { x, y, z, w, a, b, c, d }; }
#define __WMMA_16_16_16_half_float __builtin_amdgcn_wmma_f32_16x16x16_f16_w32_gfx12
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 1))) wmma(float* data0_64, half* data1_64, half* data2_64) {
  half8 val0 = (*((half8*)((data1_64+0))));
  half8 val1 = (*((half8*)((data2_64+0))));
  float8 val2 = (*((float8*)((data0_64+0))));
  float8 wmma0 = __WMMA_16_16_16_half_float(val0, val1, val2);
  *((float8*)((data0_64+0))) = wmma0;
}