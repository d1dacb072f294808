typedef long unsigned int size_t;
typedef unsigned short hip_bfloat16;
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
typedef hip_bfloat16 hip_bfloat168 __attribute__((ext_vector_type(8)));
static inline __attribute__((device)) hip_bfloat168 make_hip_bfloat168(hip_bfloat16 x, hip_bfloat16 y, hip_bfloat16 z, hip_bfloat16 w, hip_bfloat16 a, hip_bfloat16 b, hip_bfloat16 c, hip_bfloat16 d) { return { x, y, z, w, a, b, c, d }; }
typedef float float8 __attribute__((ext_vector_type(8)));
static inline __attribute__((device)) float8 make_float8(float x, float y, float z, float w, float a, float b, float c, float d) { return { x, y, z, w, a, b, c, d }; }
#define __WMMA_16_16_16___bf16_float __builtin_amdgcn_wmma_f32_16x16x16_bf16_w32_gfx12
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 32))) r_8_8_32_2_2_2_8n2(hip_bfloat16* data0_16384, hip_bfloat16* data1_16384, hip_bfloat16* data2_16384) {
  float acc0[8];
  int gidx0 = __ockl_get_group_id(0); /* 8 */
  int gidx1 = __ockl_get_group_id(1); /* 8 */
  int lidx0 = __ockl_get_local_id(0); /* 32 */
  int alu0 = ((lidx0>>3)&1);
  int alu1 = ((lidx0>>2)&1);
  int alu2 = ((lidx0>>1)&1);
  int alu3 = (lidx0&1);
  int alu4 = ((gidx0<<4)+(alu0<<3)+(alu1<<2)+(alu2<<1)+alu3);
  int alu5 = (gidx1<<11);
  int alu6 = (lidx0>>4);
  *(acc0+0) = 0.0f;
  *(acc0+1) = 0.0f;
  *(acc0+2) = 0.0f;
  *(acc0+3) = 0.0f;
  *(acc0+4) = 0.0f;
  *(acc0+5) = 0.0f;
  *(acc0+6) = 0.0f;
  *(acc0+7) = 0.0f;
  for (int Ridx0 = 0; Ridx0 < 8; Ridx0++) {
    int alu15 = (alu5+(alu0<<10)+(alu1<<9)+(alu2<<8)+(alu3<<7)+(alu6<<2)+(Ridx0<<4));
    hip_bfloat16 val0 = (*(data1_16384+(alu15+1)));
    hip_bfloat16 val1 = (*(data1_16384+(alu15+2)));
    hip_bfloat16 val2 = (*(data1_16384+(alu15+3)));
    hip_bfloat16 val3 = (*(data1_16384+(alu15+8)));
    hip_bfloat16 val4 = (*(data1_16384+(alu15+9)));
    hip_bfloat16 val5 = (*(data1_16384+(alu15+10)));
    hip_bfloat16 val6 = (*(data1_16384+(alu15+11)));
    hip_bfloat16 val7 = (*(data1_16384+alu15));
    int alu16 = (alu4+(alu6<<9)+(Ridx0<<11));
    hip_bfloat16 val8 = (*(data2_16384+(alu16+128)));
    hip_bfloat16 val9 = (*(data2_16384+(alu16+256)));
    hip_bfloat16 val10 = (*(data2_16384+(alu16+384)));
    hip_bfloat16 val11 = (*(data2_16384+(alu16+1024)));
    hip_bfloat16 val12 = (*(data2_16384+(alu16+1152)));
    hip_bfloat16 val13 = (*(data2_16384+(alu16+1280)));
    hip_bfloat16 val14 = (*(data2_16384+(alu16+1408)));
    hip_bfloat16 val15 = (*(data2_16384+alu16));
    float8 wmma0 = __WMMA_16_16_16___bf16_float(make_hip_bfloat168(val7,val0,val1,val2,val3,val4,val5,val6), make_hip_bfloat168(val15,val8,val9,val10,val11,val12,val13,val14), make_float8((*(acc0+0)),(*(acc0+1)),(*(acc0+2)),(*(acc0+3)),(*(acc0+4)),(*(acc0+5)),(*(acc0+6)),(*(acc0+7))));
    *(acc0+0) = wmma0[0];
    *(acc0+1) = wmma0[1];
    *(acc0+2) = wmma0[2];
    *(acc0+3) = wmma0[3];
    *(acc0+4) = wmma0[4];
    *(acc0+5) = wmma0[5];
    *(acc0+6) = wmma0[6];
    *(acc0+7) = wmma0[7];
  }
  int alu26 = (alu4+alu5+(alu6<<10));
  unsigned int cast0 = __builtin_bit_cast(unsigned int, (float)((*(acc0+0))));
  unsigned int alu27 = (((cast0&65535u)!=0u)?(cast0|65536u):cast0);
  unsigned int alu28 = (((-cast0&2139095040u)!=0u)?(cast0+((cast0>>16u)&1u)+32767u):alu27);
  unsigned int cast1 = __builtin_bit_cast(unsigned int, (float)((*(acc0+1))));
  unsigned int alu29 = (((cast1&65535u)!=0u)?(cast1|65536u):cast1);
  unsigned int alu30 = (((-cast1&2139095040u)!=0u)?(cast1+((cast1>>16u)&1u)+32767u):alu29);
  unsigned int cast2 = __builtin_bit_cast(unsigned int, (float)((*(acc0+2))));
  unsigned int alu31 = (((cast2&65535u)!=0u)?(cast2|65536u):cast2);
  unsigned int alu32 = (((-cast2&2139095040u)!=0u)?(cast2+((cast2>>16u)&1u)+32767u):alu31);
  unsigned int cast3 = __builtin_bit_cast(unsigned int, (float)((*(acc0+3))));
  unsigned int alu33 = (((cast3&65535u)!=0u)?(cast3|65536u):cast3);
  unsigned int alu34 = (((-cast3&2139095040u)!=0u)?(cast3+((cast3>>16u)&1u)+32767u):alu33);
  unsigned int cast4 = __builtin_bit_cast(unsigned int, (float)((*(acc0+4))));
  unsigned int alu35 = (((cast4&65535u)!=0u)?(cast4|65536u):cast4);
  unsigned int alu36 = (((-cast4&2139095040u)!=0u)?(cast4+((cast4>>16u)&1u)+32767u):alu35);
  unsigned int cast5 = __builtin_bit_cast(unsigned int, (float)((*(acc0+5))));
  unsigned int alu37 = (((cast5&65535u)!=0u)?(cast5|65536u):cast5);
  unsigned int alu38 = (((-cast5&2139095040u)!=0u)?(cast5+((cast5>>16u)&1u)+32767u):alu37);
  unsigned int cast6 = __builtin_bit_cast(unsigned int, (float)((*(acc0+6))));
  unsigned int alu39 = (((cast6&65535u)!=0u)?(cast6|65536u):cast6);
  unsigned int alu40 = (((-cast6&2139095040u)!=0u)?(cast6+((cast6>>16u)&1u)+32767u):alu39);
  unsigned int cast7 = __builtin_bit_cast(unsigned int, (float)((*(acc0+7))));
  unsigned int alu41 = (((cast7&65535u)!=0u)?(cast7|65536u):cast7);
  unsigned int alu42 = (((-cast7&2139095040u)!=0u)?(cast7+((cast7>>16u)&1u)+32767u):alu41);
  *(data0_16384+(alu26+128)) = __builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu30>>16u)))));
  *(data0_16384+(alu26+256)) = __builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu32>>16u)))));
  *(data0_16384+(alu26+384)) = __builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu34>>16u)))));
  *(data0_16384+(alu26+512)) = __builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu36>>16u)))));
  *(data0_16384+(alu26+640)) = __builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu38>>16u)))));
  *(data0_16384+(alu26+768)) = __builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu40>>16u)))));
  *(data0_16384+(alu26+896)) = __builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu42>>16u)))));
  *(data0_16384+alu26) = __builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu28>>16u)))));
}