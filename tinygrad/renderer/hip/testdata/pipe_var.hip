typedef long unsigned int size_t;
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 1))) E_n(float* data0_16, float* data1_16, const int n) {
  int gidx0 = __ockl_get_group_id(0); /* n */
  float val0 = (*(data1_16+gidx0));
  *(data0_16+gidx0) = (val0+2.0f);
}