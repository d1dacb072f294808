typedef unsigned short hip_bfloat16;
#define half _Float16
typedef unsigned char hip_bf8;
typedef unsigned char hip_fp8;
static inline __attribute__((device)) unsigned char f32_to_fp8(float v, int is_bf8) {
  v = (((*(unsigned*)&v)&0x7F800000)!=0x7F800000)?__builtin_amdgcn_fmed3f(v,is_bf8?57344.0f:448.0f,is_bf8?-57344.0f:-448.0f) : v;
  return (unsigned char)(is_bf8?__builtin_amdgcn_cvt_pk_bf8_f32(v,v,0,false):__builtin_amdgcn_cvt_pk_fp8_f32(v,v,0,false));
}
typedef float float4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) float4 make_float4(float x, float y, float z, float w) { return { x, y, z, w }; }
typedef half half4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) half4 make_half4(half x, half y, half z, half w) { return { x, y, z, w }; }
typedef hip_bfloat16 hip_bfloat168 __attribute__((ext_vector_type(8)));
static inline __attribute__((device)) hip_bfloat168 make_hip_bfloat168(hip_bfloat16 x, hip_bfloat16 y, hip_bfloat16 z, hip_bfloat16 w, hip_bfloat16 a, hip_bfloat16 b, hip_bfloat16 c, hip_bfloat16 d) { return { x, y, z, w, a, b, c, d }; }
typedef hip_fp8 hip_fp82 __attribute__((ext_vector_type(2)));
static inline __attribute__((device)) hip_fp82 make_hip_fp82(hip_fp8 x, hip_fp8 y) { return { x, y }; }
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 1))) vec(float* data0_64, float* data1_64, half* data2_16, hip_bfloat16* data3_16, hip_fp8* data4_32) {
  float4 val0 = (*((float4*)((data1_64+0))));
  *((float4*)((data0_64+0))) = make_float4((val0.w+val0.x),val0.z,val0.y,val0.x);
  half4 val1 = (*((half4*)((data2_16+0))));
  *((half4*)((data2_16+4))) = make_half4(val1.y,val1.x,val1.w,val1.z);
  hip_bfloat168 val2 = (*((hip_bfloat168*)((data3_16+0))));
  *((hip_bfloat168*)((data3_16+8))) = make_hip_bfloat168(val2[7],val2[6],val2[5],val2[4],val2[3],val2[2],val2[1],val2[0]);
  hip_fp82 val3 = (*((hip_fp82*)((data4_32+0))));
  *(data0_64+8) = (((float)(val3.y))+((float)(val3.x)));
  *(data0_64+9) = ((float)(val1.z));
}