
void consts_ulong(unsigned long* restrict data0_4, int core_id) {
  *(data0_4+0) = 18446744073709551615ull;
  *(data0_4+1) = 0ull;
  *(data0_4+2) = 7ull;
  *(data0_4+3) = 9223372036854775808ull;
}
