typedef long unsigned int size_t;
typedef unsigned short hip_bfloat16;
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
typedef hip_bfloat16 hip_bfloat164 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) hip_bfloat164 make_hip_bfloat164(hip_bfloat16 x, hip_bfloat16 y, hip_bfloat16 z, hip_bfloat16 w) { return { x, y, z, w }; }
typedef float float4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) float4 make_float4(float x, float y, float z, float w) { return { x, y, z, w }; }
#define __WMMA_16_16_16___bf16_float __builtin_amdgcn_mfma_f32_16x16x16bf16_1k
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 64))) r_8_8_64_2_2_8n1(hip_bfloat16* data0_16384, hip_bfloat16* data1_16384, hip_bfloat16* data2_16384) {
  float acc0[4];
  int gidx0 = __ockl_get_group_id(0); /* 8 */
  int gidx1 = __ockl_get_group_id(1); /* 8 */
  int lidx0 = __ockl_get_local_id(0); /* 64 */
  int alu0 = ((lidx0>>3)&1);
  int alu1 = ((lidx0>>2)&1);
  int alu2 = ((lidx0>>1)&1);
  int alu3 = (lidx0&1);
  int alu4 = ((gidx0<<4)+(alu0<<3)+(alu1<<2)+(alu2<<1)+alu3);
  int alu5 = (gidx1<<11);
  int alu6 = (lidx0>>5);
  int alu7 = (alu6<<10);
  int alu8 = ((lidx0>>4)&1);
  int alu9 = (alu8<<9);
  *(acc0+0) = 0.0f;
  *(acc0+1) = 0.0f;
  *(acc0+2) = 0.0f;
  *(acc0+3) = 0.0f;
  for (int Ridx0 = 0; Ridx0 < 8; Ridx0++) {
    int alu14 = (alu5+(alu0<<10)+(alu1<<9)+(alu2<<8)+(alu3<<7)+(alu6<<3)+(Ridx0<<4)+(alu8<<2));
    hip_bfloat16 val0 = (*(data1_16384+(alu14+1)));
    hip_bfloat16 val1 = (*(data1_16384+(alu14+2)));
    hip_bfloat16 val2 = (*(data1_16384+(alu14+3)));
    hip_bfloat16 val3 = (*(data1_16384+alu14));
    int alu15 = (alu4+alu7+(Ridx0<<11)+alu9);
    hip_bfloat16 val4 = (*(data2_16384+(alu15+128)));
    hip_bfloat16 val5 = (*(data2_16384+(alu15+256)));
    hip_bfloat16 val6 = (*(data2_16384+(alu15+384)));
    hip_bfloat16 val7 = (*(data2_16384+alu15));
    float4 wmma0 = __WMMA_16_16_16___bf16_float(make_hip_bfloat164(val3,val0,val1,val2), make_hip_bfloat164(val7,val4,val5,val6), make_float4((*(acc0+0)),(*(acc0+1)),(*(acc0+2)),(*(acc0+3))), 0, 0, 0);
    *(acc0+0) = wmma0.x;
    *(acc0+1) = wmma0.y;
    *(acc0+2) = wmma0.z;
    *(acc0+3) = wmma0.w;
  }
  int alu21 = (alu4+alu5+alu7+alu9);
  unsigned int cast0 = __builtin_bit_cast(unsigned int, (float)((*(acc0+0))));
  unsigned int alu22 = (((cast0&65535u)!=0u)?(cast0|65536u):cast0);
  unsigned int alu23 = (((-cast0&2139095040u)!=0u)?(cast0+((cast0>>16u)&1u)+32767u):alu22);
  unsigned int cast1 = __builtin_bit_cast(unsigned int, (float)((*(acc0+1))));
  unsigned int alu24 = (((cast1&65535u)!=0u)?(cast1|65536u):cast1);
  unsigned int alu25 = (((-cast1&2139095040u)!=0u)?(cast1+((cast1>>16u)&1u)+32767u):alu24);
  unsigned int cast2 = __builtin_bit_cast(unsigned int, (float)((*(acc0+2))));
  unsigned int alu26 = (((cast2&65535u)!=0u)?(cast2|65536u):cast2);
  unsigned int alu27 = (((-cast2&2139095040u)!=0u)?(cast2+((cast2>>16u)&1u)+32767u):alu26);
  unsigned int cast3 = __builtin_bit_cast(unsigned int, (float)((*(acc0+3))));
  unsigned int alu28 = (((cast3&65535u)!=0u)?(cast3|65536u):cast3);
  unsigned int alu29 = (((-cast3&2139095040u)!=0u)?(cast3+((cast3>>16u)&1u)+32767u):alu28);
  *(data0_16384+(alu21+128)) = __builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu25>>16u)))));
  *(data0_16384+(alu21+256)) = __builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu27>>16u)))));
  *(data0_16384+(alu21+384)) = __builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu29>>16u)))));
  *(data0_16384+alu21) = __builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu23>>16u)))));
}