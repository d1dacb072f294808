typedef float float4 __attribute__((aligned(16),ext_vector_type(4)));
void E_4_4n8(float* restrict data0_16, int* restrict data1_16, unsigned char* restrict data2_16, float* restrict data3_256, int core_id) {
  for (int Lidx0 = 0; Lidx0 < 4; Lidx0++) {
    int alu0 = (Lidx0<<2);
    int alu1 = (alu0+1);
    unsigned char val0 = (*(data2_16+alu1));
    int alu2 = (alu0+2);
    unsigned char val1 = (*(data2_16+alu2));
    int alu3 = (alu0+3);
    unsigned char val2 = (*(data2_16+alu3));
    unsigned char val3 = (*(data2_16+alu0));
    int val4 = (*(data1_16+alu1));
    int val5 = (*(data1_16+alu2));
    int val6 = (*(data1_16+alu3));
    int val7 = (*(data1_16+alu0));
    float4 val8 = (*((float4*)((data3_256+alu0))));
    *((float4*)((data0_16+alu0))) = (float4){(((float)(val7))+((float)(val3))+((float)(((signed char)(val8[0]))))),(((float)(val4))+((float)(val0))+((float)(((signed char)(val8[1]))))),(((float)(val5))+((float)(val1))+((float)(((signed char)(val8[2]))))),(((float)(val6))+((float)(val2))+((float)(((signed char)(val8[3])))))};
  }
}
