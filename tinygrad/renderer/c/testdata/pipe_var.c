
void E_n(float* restrict data0_16, float* restrict data1_16, const int n, int core_id) {
  for (int Lidx0 = 0; Lidx0 < n; Lidx0++) {
    float val0 = (*(data1_16+Lidx0));
    *(data0_16+Lidx0) = (val0+2.0f);
  }
}
