
void misc(int* restrict data0_8, unsigned char* restrict data1_8, int core_id) {
  unsigned char val0 = (*(data1_8+0));
  int cast0 = ((int)(val0));
  int alu0 = (cast0*cast0);
  for (int uidxm1_3 = 0; uidxm1_3 < 8; uidxm1_3++) {
    *(data0_8+uidxm1_3) = ((alu0+uidxm1_3)+alu0);
  }
  *(data0_8+0) = ((int)(__builtin_bit_cast(float, (int)(alu0))));
}
