typedef long unsigned int size_t;
typedef unsigned short hip_bfloat16;
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
typedef float float4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) float4 make_float4(float x, float y, float z, float w) { return { x, y, z, w }; }
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 4))) E_4_4n6(float* data0_16, hip_bfloat16* data1_16) {
  int lidx0 = __ockl_get_local_id(0); /* 4 */
  int alu0 = (lidx0<<2);
  hip_bfloat16 val0 = (*(data1_16+(alu0+1)));
  hip_bfloat16 val1 = (*(data1_16+(alu0+2)));
  hip_bfloat16 val2 = (*(data1_16+(alu0+3)));
  hip_bfloat16 val3 = (*(data1_16+alu0));
  float cast0 = __builtin_bit_cast(float, (unsigned int)((((unsigned int)(__builtin_bit_cast(unsigned short, (hip_bfloat16)(__builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)(16384u))))))))<<16u)));
  unsigned int cast1 = __builtin_bit_cast(unsigned int, (float)((__builtin_bit_cast(float, (unsigned int)((((unsigned int)(__builtin_bit_cast(unsigned short, (hip_bfloat16)(val0))))<<16u)))*cast0)));
  unsigned int alu1 = (((cast1&65535u)!=0u)?(cast1|65536u):cast1);
  unsigned int alu2 = (((-cast1&2139095040u)!=0u)?(cast1+((cast1>>16u)&1u)+32767u):alu1);
  float cast2 = __builtin_bit_cast(float, (unsigned int)((((unsigned int)(__builtin_bit_cast(unsigned short, (hip_bfloat16)(__builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)(16256u))))))))<<16u)));
  unsigned int cast3 = __builtin_bit_cast(unsigned int, (float)((__builtin_bit_cast(float, (unsigned int)((((unsigned int)(__builtin_bit_cast(unsigned short, (hip_bfloat16)(__builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu2>>16u)))))))))<<16u)))+cast2)));
  unsigned int alu3 = (((cast3&65535u)!=0u)?(cast3|65536u):cast3);
  unsigned int alu4 = (((-cast3&2139095040u)!=0u)?(cast3+((cast3>>16u)&1u)+32767u):alu3);
  unsigned int cast4 = __builtin_bit_cast(unsigned int, (float)((__builtin_bit_cast(float, (unsigned int)((((unsigned int)(__builtin_bit_cast(unsigned short, (hip_bfloat16)(val1))))<<16u)))*cast0)));
  unsigned int alu5 = (((cast4&65535u)!=0u)?(cast4|65536u):cast4);
  unsigned int alu6 = (((-cast4&2139095040u)!=0u)?(cast4+((cast4>>16u)&1u)+32767u):alu5);
  unsigned int cast5 = __builtin_bit_cast(unsigned int, (float)((__builtin_bit_cast(float, (unsigned int)((((unsigned int)(__builtin_bit_cast(unsigned short, (hip_bfloat16)(__builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu6>>16u)))))))))<<16u)))+cast2)));
  unsigned int alu7 = (((cast5&65535u)!=0u)?(cast5|65536u):cast5);
  unsigned int alu8 = (((-cast5&2139095040u)!=0u)?(cast5+((cast5>>16u)&1u)+32767u):alu7);
  unsigned int cast6 = __builtin_bit_cast(unsigned int, (float)((__builtin_bit_cast(float, (unsigned int)((((unsigned int)(__builtin_bit_cast(unsigned short, (hip_bfloat16)(val2))))<<16u)))*cast0)));
  unsigned int alu9 = (((cast6&65535u)!=0u)?(cast6|65536u):cast6);
  unsigned int alu10 = (((-cast6&2139095040u)!=0u)?(cast6+((cast6>>16u)&1u)+32767u):alu9);
  unsigned int cast7 = __builtin_bit_cast(unsigned int, (float)((__builtin_bit_cast(float, (unsigned int)((((unsigned int)(__builtin_bit_cast(unsigned short, (hip_bfloat16)(__builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu10>>16u)))))))))<<16u)))+cast2)));
  unsigned int alu11 = (((cast7&65535u)!=0u)?(cast7|65536u):cast7);
  unsigned int alu12 = (((-cast7&2139095040u)!=0u)?(cast7+((cast7>>16u)&1u)+32767u):alu11);
  unsigned int cast8 = __builtin_bit_cast(unsigned int, (float)((__builtin_bit_cast(float, (unsigned int)((((unsigned int)(__builtin_bit_cast(unsigned short, (hip_bfloat16)(val3))))<<16u)))*cast0)));
  unsigned int alu13 = (((cast8&65535u)!=0u)?(cast8|65536u):cast8);
  unsigned int alu14 = (((-cast8&2139095040u)!=0u)?(cast8+((cast8>>16u)&1u)+32767u):alu13);
  unsigned int cast9 = __builtin_bit_cast(unsigned int, (float)((__builtin_bit_cast(float, (unsigned int)((((unsigned int)(__builtin_bit_cast(unsigned short, (hip_bfloat16)(__builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu14>>16u)))))))))<<16u)))+cast2)));
  unsigned int alu15 = (((cast9&65535u)!=0u)?(cast9|65536u):cast9);
  unsigned int alu16 = (((-cast9&2139095040u)!=0u)?(cast9+((cast9>>16u)&1u)+32767u):alu15);
  *((float4*)((data0_16+alu0))) = make_float4(__builtin_bit_cast(float, (unsigned int)((((unsigned int)(__builtin_bit_cast(unsigned short, (hip_bfloat16)(__builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu16>>16u)))))))))<<16u))),__builtin_bit_cast(float, (unsigned int)((((unsigned int)(__builtin_bit_cast(unsigned short, (hip_bfloat16)(__builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu4>>16u)))))))))<<16u))),__builtin_bit_cast(float, (unsigned int)((((unsigned int)(__builtin_bit_cast(unsigned short, (hip_bfloat16)(__builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu8>>16u)))))))))<<16u))),__builtin_bit_cast(float, (unsigned int)((((unsigned int)(__builtin_bit_cast(unsigned short, (hip_bfloat16)(__builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu12>>16u)))))))))<<16u))));
}