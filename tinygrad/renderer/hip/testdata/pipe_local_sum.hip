typedef long unsigned int size_t;
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 16))) r_4_16_32(float* data0_64, float* data1_2048) {
  float acc0[1];
  int gidx0 = __ockl_get_group_id(0); /* 4 */
  int lidx0 = __ockl_get_local_id(0); /* 16 */
  *(acc0+0) = 0.0f;
  for (int Ridx0 = 0; Ridx0 < 32; Ridx0++) {
    float val0 = (*(data1_2048+((gidx0<<9)+(lidx0<<5)+Ridx0)));
    *(acc0+0) = ((*(acc0+0))+val0);
  }
  *(data0_64+(lidx0+(gidx0<<4))) = (*(acc0+0));
}