typedef __fp16 __fp164 __attribute__((aligned(8),ext_vector_type(4)));
void E_4_4n3(__fp16* restrict data0_16, __fp16* restrict data1_16, __fp16* restrict data2_16, int core_id) {
  for (int Lidx0 = 0; Lidx0 < 4; Lidx0++) {
    int alu0 = (Lidx0<<2);
    __fp164 val0 = (*((__fp164*)((data1_16+alu0))));
    __fp164 val1 = (*((__fp164*)((data2_16+alu0))));
    *((__fp164*)((data0_16+alu0))) = (__fp164){__builtin_sqrtf(((val0[0]*val1[0])+((__fp16)(1.5f)))),__builtin_sqrtf(((val0[1]*val1[1])+((__fp16)(1.5f)))),__builtin_sqrtf(((val0[2]*val1[2])+((__fp16)(1.5f)))),__builtin_sqrtf(((val0[3]*val1[3])+((__fp16)(1.5f))))};
  }
}
