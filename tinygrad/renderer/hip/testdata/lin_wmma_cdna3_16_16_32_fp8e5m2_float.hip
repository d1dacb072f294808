typedef unsigned char hip_bf8;
typedef unsigned char hip_fp8;
static inline __attribute__((device)) unsigned char f32_to_fp8(float v, int is_bf8) {
  v = (((*(unsigned*)&v)&0x7F800000)!=0x7F800000)?__builtin_amdgcn_fmed3f(v,is_bf8?57344.0f:448.0f,is_bf8?-57344.0f:-448.0f) : v;
  return (unsigned char)(is_bf8?__builtin_amdgcn_cvt_pk_bf8_f32(v,v,0,false):__builtin_amdgcn_cvt_pk_fp8_f32(v,v,0,false));
}
typedef hip_bf8 hip_bf88 __attribute__((ext_vector_type(8)));
static inline __attribute__((device)) hip_bf88 make_hip_bf88(hip_bf8 x, hip_bf8 y, hip_bf8 z, hip_bf8 w, hip_bf8 a, hip_bf8 b, hip_bf8 c, hip_bf8 d) { return { x, y, z, w, a, b, c, d }; }
typedef float float4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) float4 make_float4(float x, float y, float z, float w) { return { x, y, z, w }; }
#define __WMMA_16_16_32_float8_e5m2_float __builtin_amdgcn_mfma_f32_16x16x32_bf8_bf8
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 1))) wmma(float* data0_64, hip_bf8* data1_64, hip_bf8* data2_64) {
  hip_bf88 val0 = (*((hip_bf88*)((data1_64+0))));
  hip_bf88 val1 = (*((hip_bf88*)((data2_64+0))));
  float4 val2 = (*((float4*)((data0_64+0))));
  float4 wmma0 = __WMMA_16_16_32_float8_e5m2_float(val0, val1, val2, 0, 0, 0);
  *((float4*)((data0_64+0))) = wmma0;
}