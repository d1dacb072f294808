
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 1))) lin_alu_uint(unsigned int* data0_16, bool* data1_13, unsigned int* data2_2) {
  unsigned int val0 = (*(data2_2+0));
  unsigned int val1 = (*(data2_2+1));
  unsigned int alu0 = (val0+val1);
  *(data0_16+0) = alu0;
  *(data0_16+1) = (val0-val1);
  *(data0_16+2) = (val0*val1);
  bool alu4 = (val0<val1);
  *(data1_13+3) = alu4;
  *(data1_13+4) = (val0!=val1);
  *(data1_13+5) = (val0==val1);
  *(data0_16+6) = (val0/val1);
  *(data0_16+7) = (val0%val1);
  *(data0_16+8) = (val0<<val1);
  *(data0_16+9) = (val0>>val1);
  *(data0_16+10) = (val0^val1);
  *(data0_16+11) = (val0|val1);
  *(data0_16+12) = (val0&val1);
  *(data0_16+13) = -val0;
  unsigned int alu16 = (alu4?val0:val1);
  *(data0_16+14) = alu16;
  unsigned int alu18 = (alu0+alu16);
  *(data0_16+15) = (alu18*val1*alu18);
}