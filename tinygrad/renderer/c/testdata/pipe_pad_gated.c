
void E_14(float* restrict data0_16, float* restrict data1_14, int core_id) {
  for (int Lidx0_1 = 0; Lidx0_1 < 14; Lidx0_1++) {
    float val0 = (*(data1_14+Lidx0_1));
    *(data0_16+(Lidx0_1+1)) = (val0+1.0f);
  }
  *(data0_16+0) = 1.0f;
  *(data0_16+15) = 1.0f;
}
