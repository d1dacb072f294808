
void lin_alu_float(float* restrict data0_15, _Bool* restrict data1_7, float* restrict data2_2, int core_id) {
  float val0 = (*(data2_2+0));
  float val1 = (*(data2_2+1));
  float alu0 = (val0+val1);
  *(data0_15+0) = alu0;
  *(data0_15+1) = (val0-val1);
  *(data0_15+2) = (val0*val1);
  _Bool alu4 = (val0<val1);
  *(data1_7+3) = alu4;
  *(data1_7+4) = (val0!=val1);
  *(data1_7+5) = (val0==val1);
  *(data0_15+6) = (val0/val1);
  *(data0_15+7) = -val0;
  *(data0_15+8) = __builtin_sqrtf(val0);
  *(data0_15+9) = __builtin_truncf(val0);
  float alu12 = (alu4?val0:val1);
  *(data0_15+10) = alu12;
  float alu14 = (alu0+alu12);
  *(data0_15+11) = (alu14*val1*alu14);
}
