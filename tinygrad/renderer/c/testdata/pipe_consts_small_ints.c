
void consts_small_ints(signed char* restrict data0_4, int core_id) {
  *(data0_4+0) = ((signed char)(-128));
  *(data0_4+1) = ((signed char)(127));
  *(data0_4+2) = ((signed char)(3));
  *(data0_4+3) = ((signed char)(0));
}
