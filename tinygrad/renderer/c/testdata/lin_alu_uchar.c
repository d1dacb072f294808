
void lin_alu_uchar(unsigned char* restrict data0_21, _Bool* restrict data1_13, unsigned char* restrict data2_2, int core_id) {
  unsigned char val0 = (*(data2_2+0));
  unsigned char val1 = (*(data2_2+1));
  unsigned char alu0 = (val0+val1);
  *(data0_21+0) = alu0;
  *(data0_21+1) = (val0-val1);
  *(data0_21+2) = (val0*val1);
  _Bool alu4 = (val0<val1);
  *(data1_13+3) = alu4;
  *(data1_13+4) = (val0!=val1);
  *(data1_13+5) = (val0==val1);
  *(data0_21+6) = (val0/val1);
  *(data0_21+7) = (val0%val1);
  *(data0_21+8) = (val0<<val1);
  *(data0_21+9) = (val0>>val1);
  *(data0_21+10) = (val0^val1);
  *(data0_21+11) = (val0|val1);
  *(data0_21+12) = (val0&val1);
  *(data0_21+13) = -val0;
  unsigned char alu16 = (alu4?val0:val1);
  *(data0_21+16) = alu16;
  unsigned char alu18 = (alu0+alu16);
  *(data0_21+17) = (alu18*val1*alu18);
}
