
void consts_uint(unsigned int* restrict data0_4, int core_id) {
  *(data0_4+0) = 4294967295u;
  *(data0_4+1) = 0u;
  *(data0_4+2) = 7u;
  *(data0_4+3) = 2147483648u;
}
