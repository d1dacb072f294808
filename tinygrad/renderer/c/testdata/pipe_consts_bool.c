
void consts_bool(_Bool* restrict data0_4, int core_id) {
  *(data0_4+0) = 1;
  *(data0_4+1) = 0;
  *(data0_4+2) = 1;
  *(data0_4+3) = 0;
}
