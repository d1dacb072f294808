typedef unsigned short hip_bfloat16;
typedef hip_bfloat16 hip_bfloat164 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) hip_bfloat164 make_hip_bfloat164(hip_bfloat16 x, hip_bfloat16 y, hip_bfloat16 z, hip_bfloat16 w) { return { x, y, z, w }; }
typedef float float4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) float4 make_float4(float x, float y, float z, float w) { return { x, y, z, w }; }
#define __WMMA_16_16_16___bf16_float __builtin_amdgcn_mfma_f32_16x16x16bf16_1k
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 1))) wmma(float* data0_64, hip_bfloat16* data1_64, hip_bfloat16* data2_64) {
  hip_bfloat164 val0 = (*((hip_bfloat164*)((data1_64+0))));
  hip_bfloat164 val1 = (*((hip_bfloat164*)((data2_64+0))));
  float4 val2 = (*((float4*)((data0_64+0))));
  float4 wmma0 = __WMMA_16_16_16___bf16_float(val0, val1, val2, 0, 0, 0);
  *((float4*)((data0_64+0))) = wmma0;
}