typedef unsigned char hip_bf8;
typedef unsigned char hip_fp8;
static inline __attribute__((device)) unsigned char f32_to_fp8(float v, int is_bf8) {
  v = (((*(unsigned*)&v)&0x7F800000)!=0x7F800000)?__builtin_amdgcn_fmed3f(v,is_bf8?57344.0f:448.0f,is_bf8?-57344.0f:-448.0f) : v;
  return (unsigned char)(is_bf8?__builtin_amdgcn_cvt_pk_bf8_f32(v,v,0,false):__builtin_amdgcn_cvt_pk_fp8_f32(v,v,0,false));
}
typedef hip_fp8 hip_fp832 __attribute__((ext_vector_type(32)));
static inline __attribute__((device)) hip_fp832 make_hip_fp832(hip_fp8 x, hip_fp8 y, hip_fp8 z, hip_fp8 w, hip_fp8 a, hip_fp8 b, hip_fp8 c, hip_fp8 d, hip_fp8 e, hip_fp8 f, hip_fp8 g, hip_fp8 h, hip_fp8 i, hip_fp8 j, hip_fp8 k, hip_fp8 l, hip_fp8 v16, hip_fp8 v17, hip_fp8 v18, hip_fp8 v19, hip_fp8 v20, hip_fp8 v21, hip_fp8 v22, hip_fp8 v23, hip_fp8 v24, hip_fp8 v25, hip_fp8 v26, hip_fp8 v27, hip_fp8 v28, hip_fp8 v29, hip_fp8 v30, hip_fp8 v31) { return { x, y, z, w, a, b, c, d, e, f, g, h, i, j, k, l, v16, v17, v18, v19, v20, v21, v22, v23, v24, v25, v26, v27, v28, v29, v30, v31 }; }
typedef float float4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) float4 make_float4(float x, float y, float z, float w) { return { x, y, z, w }; }
#define __WMMA_16_16_128_float8_e4m3_float __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 1))) wmma(float* data0_64, hip_fp8* data1_64, hip_fp8* data2_64) {
  hip_fp832 val0 = (*((hip_fp832*)((data1_64+0))));
  hip_fp832 val1 = (*((hip_fp832*)((data2_64+0))));
  float4 val2 = (*((float4*)((data0_64+0))));
  float4 wmma0 = __WMMA_16_16_128_float8_e4m3_float(val0, val1, val2, 0, 0, 0, 0, 0, 0);
  *((float4*)((data0_64+0))) = wmma0;
}