typedef unsigned short hip_bfloat16;
typedef hip_bfloat16 hip_bfloat168 __attribute__((ext_vector_type(8)));
static inline __attribute__((device)) hip_bfloat168 make_hip_bfloat168(hip_bfloat16 x, hip_bfloat16 y, hip_bfloat16 z, hip_bfloat16 w, hip_bfloat16 a, hip_bfloat16 b, hip_bfloat16 c, hip_bfloat16 d) { return { x, y, z, w, a, b, c, d }; }
typedef float float8 __attribute__((ext_vector_type(8)));
static inline __attribute__((device)) float8 make_float8(float x, float y, float z, float w, float a, float b, float c, float d) { return { x, y, z, w, a, b, c, d }; }
#define __WMMA_16_16_16___bf16_float __builtin_amdgcn_wmma_f32_16x16x16_bf16_w32_gfx12
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 1))) wmma(float* data0_64, hip_bfloat16* data1_64, hip_bfloat16* data2_64) {
  hip_bfloat168 val0 = (*((hip_bfloat168*)((data1_64+0))));
  hip_bfloat168 val1 = (*((hip_bfloat168*)((data2_64+0))));
  float8 val2 = (*((float8*)((data0_64+0))));
  float8 wmma0 = __WMMA_16_16_16___bf16_float(val0, val1, val2);
  *((float8*)((data0_64+0))) = wmma0;
}