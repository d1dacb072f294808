typedef long unsigned int size_t;
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 1))) E_4_4n14(bool* data0_16, bool* data1_16, bool* data2_16) {
  int gidx0 = __ockl_get_group_id(0); /* 4 */
  int alu0 = (gidx0<<2);
  int alu1 = (alu0+1);
  bool val0 = (*(data1_16+alu1));
  int alu2 = (alu0+2);
  bool val1 = (*(data1_16+alu2));
  int alu3 = (alu0+3);
  bool val2 = (*(data1_16+alu3));
  bool val3 = (*(data1_16+alu0));
  bool val4 = (*(data2_16+alu1));
  bool val5 = (*(data2_16+alu2));
  bool val6 = (*(data2_16+alu3));
  bool val7 = (*(data2_16+alu0));
  *(data0_16+alu1) = (val0&val4);
  *(data0_16+alu2) = (val1&val5);
  *(data0_16+alu3) = (val2&val6);
  *(data0_16+alu0) = (val3&val7);
}