typedef long unsigned int size_t;
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 4))) E_4_4n12(long* data0_16, long* data1_16, unsigned long* data2_16) {
  int lidx0 = __ockl_get_local_id(0); /* 4 */
  int alu0 = (lidx0<<2);
  int alu1 = (alu0+1);
  long val0 = (*(data1_16+alu1));
  int alu2 = (alu0+2);
  long val1 = (*(data1_16+alu2));
  int alu3 = (alu0+3);
  long val2 = (*(data1_16+alu3));
  long val3 = (*(data1_16+alu0));
  unsigned long val4 = (*(data2_16+alu1));
  unsigned long val5 = (*(data2_16+alu2));
  unsigned long val6 = (*(data2_16+alu3));
  unsigned long val7 = (*(data2_16+alu0));
  *(data0_16+alu1) = ((val0*3ll)+((long)(val4)));
  *(data0_16+alu2) = ((val1*3ll)+((long)(val5)));
  *(data0_16+alu3) = ((val2*3ll)+((long)(val6)));
  *(data0_16+alu0) = ((val3*3ll)+((long)(val7)));
}