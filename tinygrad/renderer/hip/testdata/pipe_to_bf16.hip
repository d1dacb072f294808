typedef long unsigned int size_t;
typedef unsigned short hip_bfloat16;
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
typedef float float4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) float4 make_float4(float x, float y, float z, float w) { return { x, y, z, w }; }
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 4))) E_4_4n8(hip_bfloat16* data0_16, float* data1_256) {
  int lidx0 = __ockl_get_local_id(0); /* 4 */
  int alu0 = (lidx0<<2);
  float4 val0 = (*((float4*)((data1_256+alu0))));
  unsigned int cast0 = __builtin_bit_cast(unsigned int, (float)(val0.x));
  unsigned int alu1 = (((cast0&65535u)!=0u)?(cast0|65536u):cast0);
  unsigned int alu2 = (((-cast0&2139095040u)!=0u)?(cast0+((cast0>>16u)&1u)+32767u):alu1);
  unsigned int cast1 = __builtin_bit_cast(unsigned int, (float)(val0.y));
  unsigned int alu3 = (((cast1&65535u)!=0u)?(cast1|65536u):cast1);
  unsigned int alu4 = (((-cast1&2139095040u)!=0u)?(cast1+((cast1>>16u)&1u)+32767u):alu3);
  unsigned int cast2 = __builtin_bit_cast(unsigned int, (float)(val0.z));
  unsigned int alu5 = (((cast2&65535u)!=0u)?(cast2|65536u):cast2);
  unsigned int alu6 = (((-cast2&2139095040u)!=0u)?(cast2+((cast2>>16u)&1u)+32767u):alu5);
  unsigned int cast3 = __builtin_bit_cast(unsigned int, (float)(val0.w));
  unsigned int alu7 = (((cast3&65535u)!=0u)?(cast3|65536u):cast3);
  unsigned int alu8 = (((-cast3&2139095040u)!=0u)?(cast3+((cast3>>16u)&1u)+32767u):alu7);
  *(data0_16+(alu0+1)) = __builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu4>>16u)))));
  *(data0_16+(alu0+2)) = __builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu6>>16u)))));
  *(data0_16+(alu0+3)) = __builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu8>>16u)))));
  *(data0_16+alu0) = __builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu2>>16u)))));
}