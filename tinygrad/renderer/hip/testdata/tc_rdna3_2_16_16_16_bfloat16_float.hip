typedef long unsigned int size_t;
typedef unsigned short hip_bfloat16;
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
typedef hip_bfloat16 hip_bfloat1616 __attribute__((ext_vector_type(16)));
static inline __attribute__((device)) hip_bfloat1616 make_hip_bfloat1616(hip_bfloat16 x, hip_bfloat16 y, hip_bfloat16 z, hip_bfloat16 w, hip_bfloat16 a, hip_bfloat16 b, hip_bfloat16 c, hip_bfloat16 d, hip_bfloat16 e, hip_bfloat16 f, hip_bfloat16 g, hip_bfloat16 h, hip_bfloat16 i, hip_bfloat16 j, hip_bfloat16 k, hip_bfloat16 l) { return { x, y, z, w, a, b, c, d, e, f, g, h, i, j, k, l }; }
typedef float float8 __attribute__((ext_vector_type(8)));
static inline __attribute__((device)) float8 make_float8(float x, float y, float z, float w, float a, float b, float c, float d) { return { x, y, z, w, a, b, c, d }; }
#define __WMMA_16_16_16___bf16_float __builtin_amdgcn_wmma_f32_16x16x16_bf16_w32
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 32))) r_8_8_32_2_2_2_8_2n2(hip_bfloat16* data0_16384, hip_bfloat16* data1_16384, hip_bfloat16* data2_16384) {
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
  *(acc0+0) = 0.0f;
  *(acc0+1) = 0.0f;
  *(acc0+2) = 0.0f;
  *(acc0+3) = 0.0f;
  *(acc0+4) = 0.0f;
  *(acc0+5) = 0.0f;
  *(acc0+6) = 0.0f;
  *(acc0+7) = 0.0f;
  for (int Ridx0 = 0; Ridx0 < 8; Ridx0++) {
    int alu14 = (alu5+(alu0<<10)+(alu1<<9)+(alu2<<8)+(alu3<<7)+(Ridx0<<4));
    hip_bfloat16 val0 = (*(data1_16384+(alu14+1)));
    hip_bfloat16 val1 = (*(data1_16384+(alu14+2)));
    hip_bfloat16 val2 = (*(data1_16384+(alu14+3)));
    hip_bfloat16 val3 = (*(data1_16384+(alu14+4)));
    hip_bfloat16 val4 = (*(data1_16384+(alu14+5)));
    hip_bfloat16 val5 = (*(data1_16384+(alu14+6)));
    hip_bfloat16 val6 = (*(data1_16384+(alu14+7)));
    hip_bfloat16 val7 = (*(data1_16384+(alu14+8)));
    hip_bfloat16 val8 = (*(data1_16384+(alu14+9)));
    hip_bfloat16 val9 = (*(data1_16384+(alu14+10)));
    hip_bfloat16 val10 = (*(data1_16384+(alu14+11)));
    hip_bfloat16 val11 = (*(data1_16384+(alu14+12)));
    hip_bfloat16 val12 = (*(data1_16384+(alu14+13)));
    hip_bfloat16 val13 = (*(data1_16384+(alu14+14)));
    hip_bfloat16 val14 = (*(data1_16384+(alu14+15)));
    hip_bfloat16 val15 = (*(data1_16384+alu14));
    int alu15 = (alu4+(Ridx0<<11));
    hip_bfloat16 val16 = (*(data2_16384+(alu15+128)));
    hip_bfloat16 val17 = (*(data2_16384+(alu15+256)));
    hip_bfloat16 val18 = (*(data2_16384+(alu15+384)));
    hip_bfloat16 val19 = (*(data2_16384+(alu15+512)));
    hip_bfloat16 val20 = (*(data2_16384+(alu15+640)));
    hip_bfloat16 val21 = (*(data2_16384+(alu15+768)));
    hip_bfloat16 val22 = (*(data2_16384+(alu15+896)));
    hip_bfloat16 val23 = (*(data2_16384+(alu15+1024)));
    hip_bfloat16 val24 = (*(data2_16384+(alu15+1152)));
    hip_bfloat16 val25 = (*(data2_16384+(alu15+1280)));
    hip_bfloat16 val26 = (*(data2_16384+(alu15+1408)));
    hip_bfloat16 val27 = (*(data2_16384+(alu15+1536)));
    hip_bfloat16 val28 = (*(data2_16384+(alu15+1664)));
    hip_bfloat16 val29 = (*(data2_16384+(alu15+1792)));
    hip_bfloat16 val30 = (*(data2_16384+(alu15+1920)));
    hip_bfloat16 val31 = (*(data2_16384+alu15));
    float8 wmma0 = __WMMA_16_16_16___bf16_float(make_hip_bfloat1616(val15,val0,val1,val2,val3,val4,val5,val6,val7,val8,val9,val10,val11,val12,val13,val14), make_hip_bfloat1616(val31,val16,val17,val18,val19,val20,val21,val22,val23,val24,val25,val26,val27,val28,val29,val30), make_float8((*(acc0+0)),(*(acc0+1)),(*(acc0+2)),(*(acc0+3)),(*(acc0+4)),(*(acc0+5)),(*(acc0+6)),(*(acc0+7))));
    *(acc0+0) = wmma0[0];
    *(acc0+1) = wmma0[1];
    *(acc0+2) = wmma0[2];
    *(acc0+3) = wmma0[3];
    *(acc0+4) = wmma0[4];
    *(acc0+5) = wmma0[5];
    *(acc0+6) = wmma0[6];
    *(acc0+7) = wmma0[7];
  }
  int alu25 = (alu4+alu5+((lidx0>>4)<<7));
  unsigned int cast0 = __builtin_bit_cast(unsigned int, (float)((*(acc0+0))));
  unsigned int alu26 = (((cast0&65535u)!=0u)?(cast0|65536u):cast0);
  unsigned int alu27 = (((-cast0&2139095040u)!=0u)?(cast0+((cast0>>16u)&1u)+32767u):alu26);
  unsigned int cast1 = __builtin_bit_cast(unsigned int, (float)((*(acc0+1))));
  unsigned int alu28 = (((cast1&65535u)!=0u)?(cast1|65536u):cast1);
  unsigned int alu29 = (((-cast1&2139095040u)!=0u)?(cast1+((cast1>>16u)&1u)+32767u):alu28);
  unsigned int cast2 = __builtin_bit_cast(unsigned int, (float)((*(acc0+2))));
  unsigned int alu30 = (((cast2&65535u)!=0u)?(cast2|65536u):cast2);
  unsigned int alu31 = (((-cast2&2139095040u)!=0u)?(cast2+((cast2>>16u)&1u)+32767u):alu30);
  unsigned int cast3 = __builtin_bit_cast(unsigned int, (float)((*(acc0+3))));
  unsigned int alu32 = (((cast3&65535u)!=0u)?(cast3|65536u):cast3);
  unsigned int alu33 = (((-cast3&2139095040u)!=0u)?(cast3+((cast3>>16u)&1u)+32767u):alu32);
  unsigned int cast4 = __builtin_bit_cast(unsigned int, (float)((*(acc0+4))));
  unsigned int alu34 = (((cast4&65535u)!=0u)?(cast4|65536u):cast4);
  unsigned int alu35 = (((-cast4&2139095040u)!=0u)?(cast4+((cast4>>16u)&1u)+32767u):alu34);
  unsigned int cast5 = __builtin_bit_cast(unsigned int, (float)((*(acc0+5))));
  unsigned int alu36 = (((cast5&65535u)!=0u)?(cast5|65536u):cast5);
  unsigned int alu37 = (((-cast5&2139095040u)!=0u)?(cast5+((cast5>>16u)&1u)+32767u):alu36);
  unsigned int cast6 = __builtin_bit_cast(unsigned int, (float)((*(acc0+6))));
  unsigned int alu38 = (((cast6&65535u)!=0u)?(cast6|65536u):cast6);
  unsigned int alu39 = (((-cast6&2139095040u)!=0u)?(cast6+((cast6>>16u)&1u)+32767u):alu38);
  unsigned int cast7 = __builtin_bit_cast(unsigned int, (float)((*(acc0+7))));
  unsigned int alu40 = (((cast7&65535u)!=0u)?(cast7|65536u):cast7);
  unsigned int alu41 = (((-cast7&2139095040u)!=0u)?(cast7+((cast7>>16u)&1u)+32767u):alu40);
  *(data0_16384+(alu25+256)) = __builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu29>>16u)))));
  *(data0_16384+(alu25+512)) = __builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu31>>16u)))));
  *(data0_16384+(alu25+768)) = __builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu33>>16u)))));
  *(data0_16384+(alu25+1024)) = __builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu35>>16u)))));
  *(data0_16384+(alu25+1280)) = __builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu37>>16u)))));
  *(data0_16384+(alu25+1536)) = __builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu39>>16u)))));
  *(data0_16384+(alu25+1792)) = __builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu41>>16u)))));
  *(data0_16384+alu25) = __builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)((alu27>>16u)))));
}