typedef float float4 __attribute__((aligned(16),ext_vector_type(4)));
void E_4_4n9(int* restrict data0_16, float* restrict data1_256, int core_id) {
  for (int Lidx0 = 0; Lidx0 < 4; Lidx0++) {
    int alu0 = (Lidx0<<2);
    float4 val0 = (*((float4*)((data1_256+alu0))));
    *(data0_16+(alu0+1)) = (__builtin_bit_cast(int, (float)(val0[1]))+1);
    *(data0_16+(alu0+2)) = (__builtin_bit_cast(int, (float)(val0[2]))+1);
    *(data0_16+(alu0+3)) = (__builtin_bit_cast(int, (float)(val0[3]))+1);
    *(data0_16+alu0) = (__builtin_bit_cast(int, (float)(val0[0]))+1);
  }
}
