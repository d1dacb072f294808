
void E_4_4n11(_Bool* restrict data0_16, _Bool* restrict data1_16, _Bool* restrict data2_16, int core_id) {
  for (int Lidx0 = 0; Lidx0 < 4; Lidx0++) {
    int alu0 = (Lidx0<<2);
    int alu1 = (alu0+1);
    _Bool val0 = (*(data1_16+alu1));
    int alu2 = (alu0+2);
    _Bool val1 = (*(data1_16+alu2));
    int alu3 = (alu0+3);
    _Bool val2 = (*(data1_16+alu3));
    _Bool val3 = (*(data1_16+alu0));
    _Bool val4 = (*(data2_16+alu1));
    _Bool val5 = (*(data2_16+alu2));
    _Bool val6 = (*(data2_16+alu3));
    _Bool val7 = (*(data2_16+alu0));
    *(data0_16+alu1) = (val0&val4);
    *(data0_16+alu2) = (val1&val5);
    *(data0_16+alu3) = (val2&val6);
    *(data0_16+alu0) = (val3&val7);
  }
}
