typedef float float4 __attribute__((aligned(16),ext_vector_type(4)));
void E_64_4n4(float* restrict data0_256, float* restrict data1_256, float* restrict data2_256, int core_id) {
  for (int Lidx0 = 0; Lidx0 < 64; Lidx0++) {
    int alu0 = (Lidx0<<2);
    float4 val0 = (*((float4*)((data1_256+alu0))));
    float4 val1 = (*((float4*)((data2_256+alu0))));
    *((float4*)((data0_256+alu0))) = (float4){((__builtin_sqrtf(val0[0])/val1[0])+__builtin_truncf(-val0[0])),((__builtin_sqrtf(val0[1])/val1[1])+__builtin_truncf(-val0[1])),((__builtin_sqrtf(val0[2])/val1[2])+__builtin_truncf(-val0[2])),((__builtin_sqrtf(val0[3])/val1[3])+__builtin_truncf(-val0[3]))};
  }
}
