
void E_4_4n2(_Bool* restrict data0_16, int* restrict data1_16, int* restrict data2_16, int core_id) {
  for (int Lidx0 = 0; Lidx0 < 4; Lidx0++) {
    int alu0 = (Lidx0<<2);
    int alu1 = (alu0+1);
    int val0 = (*(data1_16+alu1));
    int alu2 = (alu0+2);
    int val1 = (*(data1_16+alu2));
    int alu3 = (alu0+3);
    int val2 = (*(data1_16+alu3));
    int val3 = (*(data1_16+alu0));
    int val4 = (*(data2_16+alu1));
    int val5 = (*(data2_16+alu2));
    int val6 = (*(data2_16+alu3));
    int val7 = (*(data2_16+alu0));
    *(data0_16+alu1) = ((val0<val4)|(val0==val4));
    *(data0_16+alu2) = ((val1<val5)|(val1==val5));
    *(data0_16+alu3) = ((val2<val6)|(val2==val6));
    *(data0_16+alu0) = ((val3<val7)|(val3==val7));
  }
}
