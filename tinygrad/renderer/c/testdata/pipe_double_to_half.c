typedef __fp16 __fp164 __attribute__((aligned(8),ext_vector_type(4)));
void E_4_4n7(__fp16* restrict data0_16, double* restrict data1_16, int core_id) {
  for (int Lidx0 = 0; Lidx0 < 4; Lidx0++) {
    int alu0 = (Lidx0<<2);
    double val0 = (*(data1_16+(alu0+1)));
    double val1 = (*(data1_16+(alu0+2)));
    double val2 = (*(data1_16+(alu0+3)));
    double val3 = (*(data1_16+alu0));
    *((__fp164*)((data0_16+alu0))) = (__fp164){((__fp16)(((float)(val3)))),((__fp16)(((float)(val0)))),((__fp16)(((float)(val1)))),((__fp16)(((float)(val2))))};
  }
}
