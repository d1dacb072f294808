
void consts_half(__fp16* restrict data0_4, int core_id) {
  *(data0_4+0) = ((__fp16)(__builtin_inff()));
  *(data0_4+1) = ((__fp16)(-__builtin_inff()));
  *(data0_4+2) = ((__fp16)(__builtin_nanf("")));
  *(data0_4+3) = ((__fp16)(1.5f));
}
