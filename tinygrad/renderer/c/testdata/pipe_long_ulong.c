
void E_4_4n10(long* restrict data0_16, long* restrict data1_16, unsigned long* restrict data2_16, int core_id) {
  for (int Lidx0 = 0; Lidx0 < 4; Lidx0++) {
    int alu0 = (Lidx0<<2);
    int alu1 = (alu0+1);
    long val0 = (*(data1_16+alu1));
    int alu2 = (alu0+2);
    long val1 = (*(data1_16+alu2));
    int alu3 = (alu0+3);
    long val2 = (*(data1_16+alu3));
    long val3 = (*(data1_16+alu0));
    unsigned long val4 = (*(data2_16+alu1));
    unsigned long val5 = (*(data2_16+alu2));
    unsigned long val6 = (*(data2_16+alu3));
    unsigned long val7 = (*(data2_16+alu0));
    *(data0_16+alu1) = ((val0*3ll)+((long)(val4)));
    *(data0_16+alu2) = ((val1*3ll)+((long)(val5)));
    *(data0_16+alu3) = ((val2*3ll)+((long)(val6)));
    *(data0_16+alu0) = ((val3*3ll)+((long)(val7)));
  }
}
