typedef float float4 __attribute__((aligned(16),ext_vector_type(4)));
void E_64_4n3(float* restrict data0_256, float* restrict data1_256, float* restrict data2_256, int core_id) {
  for (int Lidx0 = 0; Lidx0 < 64; Lidx0++) {
    int alu0 = (Lidx0<<2);
    float4 val0 = (*((float4*)((data1_256+alu0))));
    float4 val1 = (*((float4*)((data2_256+alu0))));
    float alu1 = (((val0[0]<val1[0])&(val0[0]!=2.0f))?val0[0]:val1[0]);
    float alu2 = (((val0[1]<val1[1])&(val0[1]!=2.0f))?val0[1]:val1[1]);
    float alu3 = (((val0[2]<val1[2])&(val0[2]!=2.0f))?val0[2]:val1[2]);
    float alu4 = (((val0[3]<val1[3])&(val0[3]!=2.0f))?val0[3]:val1[3]);
    *((float4*)((data0_256+alu0))) = (float4){alu1,alu2,alu3,alu4};
  }
}
