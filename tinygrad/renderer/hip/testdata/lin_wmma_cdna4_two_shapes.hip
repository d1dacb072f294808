#define half _Float16
typedef float float4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) float4 make_float4(float x, float y, float z, float w) { return { x, y, z, w }; }
typedef half half8 __attribute__((ext_vector_type(8)));
static inline __attribute__((device)) half8 make_half8(half x, half y, half z, half w, half a, half b, half c, half d) { return { x, y, z, w, a, b, c, d }; }
typedef half half4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) half4 make_half4(half x, half y, half z, half w) { return { x, y, z, w }; }
#define __WMMA_16_16_32_half_float __builtin_amdgcn_mfma_f32_16x16x32_f16
#define __WMMA_16_16_16_half_float __builtin_amdgcn_mfma_f32_16x16x16_f16
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 1))) wmma2(float* data0_64, half* data1_64) {
  float4 val0 = (*((float4*)((data0_64+0))));
  half8 val1 = (*((half8*)((data1_64+0))));
  float4 wmma0 = __WMMA_16_16_32_half_float(val1, val1, val0, 0, 0, 0);
  half4 val2 = (*((half4*)((data1_64+0))));
  float4 wmma1 = __WMMA_16_16_16_half_float(val2, val2, wmma0, 0, 0, 0);
  *((float4*)((data0_64+0))) = wmma1;
}