#define half _Float16
typedef half half4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) half4 make_half4(half x, half y, half z, half w) { return { x, y, z, w }; }
typedef float float4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) float4 make_float4(float x, float y, float z, float w) { return { x, y, z, w }; }
#define __WMMA_16_16_16_half_float __builtin_amdgcn_mfma_f32_16x16x16f16
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 1))) wmma(float* data0_64, half* data1_64, half* data2_64) {
  half4 val0 = (*((half4*)((data1_64+0))));
  half4 val1 = (*((half4*)((data2_64+0))));
  float4 val2 = (*((float4*)((data0_64+0))));
  float4 wmma0 = __WMMA_16_16_16_half_float(val0, val1, val2, 0, 0, 0);
  *((float4*)((data0_64+0))) = wmma0;
}