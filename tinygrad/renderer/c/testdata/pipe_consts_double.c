
void consts_double(double* restrict data0_4, int core_id) {
  *(data0_4+0) = ((double)(__builtin_inff()));
  *(data0_4+1) = ((double)(-__builtin_inff()));
  *(data0_4+2) = ((double)(__builtin_nanf("")));
  *(data0_4+3) = 1.0000001;
}
