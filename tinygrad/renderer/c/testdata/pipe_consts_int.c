
void consts_int(int* restrict data0_4, int core_id) {
  *(data0_4+0) = 2147483647;
  *(data0_4+1) = -2147483648;
  *(data0_4+2) = 0;
  *(data0_4+3) = 7;
}
