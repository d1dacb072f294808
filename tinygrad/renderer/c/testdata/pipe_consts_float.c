
void consts_float(float* restrict data0_6, int core_id) {
  *(data0_6+0) = ((float)(__builtin_inff()));
  *(data0_6+1) = ((float)(-__builtin_inff()));
  *(data0_6+2) = ((float)(__builtin_nanf("")));
  *(data0_6+3) = 1e-20f;
  *(data0_6+4) = 3.4028234663852886e+38f;
  *(data0_6+5) = -0.5f;
}
