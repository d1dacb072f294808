typedef float float4 __attribute__((aligned(16),ext_vector_type(4)));
void r_8_16_2_4_4(float* restrict data0_256, float* restrict data1_256, float* restrict data2_256, int core_id) {
  float acc0[2];
  for (int Lidx1 = 0; Lidx1 < 8; Lidx1++) {
    int alu0 = (Lidx1<<5);
    for (int Lidx2 = 0; Lidx2 < 16; Lidx2++) {
      *(acc0+0) = 0.0f;
      *(acc0+1) = 0.0f;
      for (int Ridx0 = 0; Ridx0 < 4; Ridx0++) {
        int alu3 = ((Ridx0<<6)+Lidx2);
        float val0 = (*(data2_256+(alu3+16)));
        float val1 = (*(data2_256+(alu3+32)));
        float val2 = (*(data2_256+(alu3+48)));
        float val3 = (*(data2_256+alu3));
        int alu4 = ((Ridx0<<2)+alu0);
        float4 val4 = (*((float4*)((data1_256+(alu4+16)))));
        float4 val5 = (*((float4*)((data1_256+alu4))));
        *(acc0+0) = ((*(acc0+0))+(val5[0]*val3)+(val5[1]*val0)+(val5[2]*val1)+(val5[3]*val2));
        *(acc0+1) = ((*(acc0+1))+(val4[0]*val3)+(val4[1]*val0)+(val4[2]*val1)+(val4[3]*val2));
      }
      int alu8 = (alu0+Lidx2);
      *(data0_256+(alu8+16)) = (*(acc0+1));
      *(data0_256+alu8) = (*(acc0+0));
    }
  }
}
