
void consts_long(long* restrict data0_4, int core_id) {
  *(data0_4+0) = 9223372036854775807ll;
  *(data0_4+1) = -9223372036854775807ll;
  *(data0_4+2) = 5ll;
  *(data0_4+3) = 1099511627776ll;
}
