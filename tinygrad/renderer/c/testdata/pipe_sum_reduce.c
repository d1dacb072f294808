typedef float float4 __attribute__((aligned(16),ext_vector_type(4)));
void r_16_16(float* restrict data0_16, float* restrict data1_256, int core_id) {
  for (int Lidx1 = 0; Lidx1 < 16; Lidx1++) {
    int alu0 = (Lidx1<<4);
    float4 val0 = (*((float4*)((data1_256+(alu0+4)))));
    float4 val1 = (*((float4*)((data1_256+(alu0+8)))));
    float4 val2 = (*((float4*)((data1_256+(alu0+12)))));
    float4 val3 = (*((float4*)((data1_256+alu0))));
    *(data0_16+Lidx1) = (val3[0]+val3[1]+val3[2]+val3[3]+val0[0]+val0[1]+val0[2]+val0[3]+val1[0]+val1[1]+val1[2]+val1[3]+val2[0]+val2[1]+val2[2]+val2[3]);
  }
}
