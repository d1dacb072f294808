typedef float float4 __attribute__((aligned(16),ext_vector_type(4)));
void E_4_4n6(__bf16* restrict data0_16, float* restrict data1_256, int core_id) {
  for (int Lidx0 = 0; Lidx0 < 4; Lidx0++) {
    int alu0 = (Lidx0<<2);
    float4 val0 = (*((float4*)((data1_256+alu0))));
    unsigned int cast0 = __builtin_bit_cast(unsigned int, (float)(val0[0]));
    unsigned int alu1 = (((cast0&65535u)!=0u)?(cast0|65536u):cast0);
    unsigned int alu2 = (((-cast0&2139095040u)!=0u)?(cast0+((cast0>>16u)&1u)+32767u):alu1);
    unsigned int cast1 = __builtin_bit_cast(unsigned int, (float)(val0[1]));
    unsigned int alu3 = (((cast1&65535u)!=0u)?(cast1|65536u):cast1);
    unsigned int alu4 = (((-cast1&2139095040u)!=0u)?(cast1+((cast1>>16u)&1u)+32767u):alu3);
    unsigned int cast2 = __builtin_bit_cast(unsigned int, (float)(val0[2]));
    unsigned int alu5 = (((cast2&65535u)!=0u)?(cast2|65536u):cast2);
    unsigned int alu6 = (((-cast2&2139095040u)!=0u)?(cast2+((cast2>>16u)&1u)+32767u):alu5);
    unsigned int cast3 = __builtin_bit_cast(unsigned int, (float)(val0[3]));
    unsigned int alu7 = (((cast3&65535u)!=0u)?(cast3|65536u):cast3);
    unsigned int alu8 = (((-cast3&2139095040u)!=0u)?(cast3+((cast3>>16u)&1u)+32767u):alu7);
    *(data0_16+(alu0+1)) = __builtin_bit_cast(__bf16, (unsigned short)(((unsigned short)((alu4>>16u)))));
    *(data0_16+(alu0+2)) = __builtin_bit_cast(__bf16, (unsigned short)(((unsigned short)((alu6>>16u)))));
    *(data0_16+(alu0+3)) = __builtin_bit_cast(__bf16, (unsigned short)(((unsigned short)((alu8>>16u)))));
    *(data0_16+alu0) = __builtin_bit_cast(__bf16, (unsigned short)(((unsigned short)((alu2>>16u)))));
  }
}
