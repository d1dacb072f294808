typedef float float4 __attribute__((aligned(16),ext_vector_type(4)));
void E_4_4n5(float* restrict data0_16, __bf16* restrict data1_16, int core_id) {
  for (int Lidx0 = 0; Lidx0 < 4; Lidx0++) {
    int alu0 = (Lidx0<<2);
    __bf16 val0 = (*(data1_16+(alu0+1)));
    __bf16 val1 = (*(data1_16+(alu0+2)));
    __bf16 val2 = (*(data1_16+(alu0+3)));
    __bf16 val3 = (*(data1_16+alu0));
    unsigned int cast0 = __builtin_bit_cast(unsigned int, (float)((__builtin_bit_cast(float, (unsigned int)((((unsigned int)(__builtin_bit_cast(unsigned short, (__bf16)(val0))))<<16u)))*2.0f)));
    unsigned int alu1 = (((cast0&65535u)!=0u)?(cast0|65536u):cast0);
    unsigned int alu2 = (((-cast0&2139095040u)!=0u)?(cast0+((cast0>>16u)&1u)+32767u):alu1);
    unsigned int cast1 = __builtin_bit_cast(unsigned int, (float)((__builtin_bit_cast(float, (unsigned int)((((unsigned int)(__builtin_bit_cast(unsigned short, (__bf16)(__builtin_bit_cast(__bf16, (unsigned short)(((unsigned short)((alu2>>16u)))))))))<<16u)))+1.0f)));
    unsigned int alu3 = (((cast1&65535u)!=0u)?(cast1|65536u):cast1);
    unsigned int alu4 = (((-cast1&2139095040u)!=0u)?(cast1+((cast1>>16u)&1u)+32767u):alu3);
    unsigned int cast2 = __builtin_bit_cast(unsigned int, (float)((__builtin_bit_cast(float, (unsigned int)((((unsigned int)(__builtin_bit_cast(unsigned short, (__bf16)(val1))))<<16u)))*2.0f)));
    unsigned int alu5 = (((cast2&65535u)!=0u)?(cast2|65536u):cast2);
    unsigned int alu6 = (((-cast2&2139095040u)!=0u)?(cast2+((cast2>>16u)&1u)+32767u):alu5);
    unsigned int cast3 = __builtin_bit_cast(unsigned int, (float)((__builtin_bit_cast(float, (unsigned int)((((unsigned int)(__builtin_bit_cast(unsigned short, (__bf16)(__builtin_bit_cast(__bf16, (unsigned short)(((unsigned short)((alu6>>16u)))))))))<<16u)))+1.0f)));
    unsigned int alu7 = (((cast3&65535u)!=0u)?(cast3|65536u):cast3);
    unsigned int alu8 = (((-cast3&2139095040u)!=0u)?(cast3+((cast3>>16u)&1u)+32767u):alu7);
    unsigned int cast4 = __builtin_bit_cast(unsigned int, (float)((__builtin_bit_cast(float, (unsigned int)((((unsigned int)(__builtin_bit_cast(unsigned short, (__bf16)(val2))))<<16u)))*2.0f)));
    unsigned int alu9 = (((cast4&65535u)!=0u)?(cast4|65536u):cast4);
    unsigned int alu10 = (((-cast4&2139095040u)!=0u)?(cast4+((cast4>>16u)&1u)+32767u):alu9);
    unsigned int cast5 = __builtin_bit_cast(unsigned int, (float)((__builtin_bit_cast(float, (unsigned int)((((unsigned int)(__builtin_bit_cast(unsigned short, (__bf16)(__builtin_bit_cast(__bf16, (unsigned short)(((unsigned short)((alu10>>16u)))))))))<<16u)))+1.0f)));
    unsigned int alu11 = (((cast5&65535u)!=0u)?(cast5|65536u):cast5);
    unsigned int alu12 = (((-cast5&2139095040u)!=0u)?(cast5+((cast5>>16u)&1u)+32767u):alu11);
    unsigned int cast6 = __builtin_bit_cast(unsigned int, (float)((__builtin_bit_cast(float, (unsigned int)((((unsigned int)(__builtin_bit_cast(unsigned short, (__bf16)(val3))))<<16u)))*2.0f)));
    unsigned int alu13 = (((cast6&65535u)!=0u)?(cast6|65536u):cast6);
    unsigned int alu14 = (((-cast6&2139095040u)!=0u)?(cast6+((cast6>>16u)&1u)+32767u):alu13);
    unsigned int cast7 = __builtin_bit_cast(unsigned int, (float)((__builtin_bit_cast(float, (unsigned int)((((unsigned int)(__builtin_bit_cast(unsigned short, (__bf16)(__builtin_bit_cast(__bf16, (unsigned short)(((unsigned short)((alu14>>16u)))))))))<<16u)))+1.0f)));
    unsigned int alu15 = (((cast7&65535u)!=0u)?(cast7|65536u):cast7);
    unsigned int alu16 = (((-cast7&2139095040u)!=0u)?(cast7+((cast7>>16u)&1u)+32767u):alu15);
    *((float4*)((data0_16+alu0))) = (float4){__builtin_bit_cast(float, (unsigned int)((((unsigned int)(__builtin_bit_cast(unsigned short, (__bf16)(__builtin_bit_cast(__bf16, (unsigned short)(((unsigned short)((alu16>>16u)))))))))<<16u))),__builtin_bit_cast(float, (unsigned int)((((unsigned int)(__builtin_bit_cast(unsigned short, (__bf16)(__builtin_bit_cast(__bf16, (unsigned short)(((unsigned short)((alu4>>16u)))))))))<<16u))),__builtin_bit_cast(float, (unsigned int)((((unsigned int)(__builtin_bit_cast(unsigned short, (__bf16)(__builtin_bit_cast(__bf16, (unsigned short)(((unsigned short)((alu8>>16u)))))))))<<16u))),__builtin_bit_cast(float, (unsigned int)((((unsigned int)(__builtin_bit_cast(unsigned short, (__bf16)(__builtin_bit_cast(__bf16, (unsigned short)(((unsigned short)((alu12>>16u)))))))))<<16u)))};
  }
}
