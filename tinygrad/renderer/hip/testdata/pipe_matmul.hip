typedef long unsigned int size_t;
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 16))) r_16_16_16(float* data0_256, float* data1_256, float* data2_256) {
  __attribute__((shared, aligned(16)))float temp0[16];
  float acc0[1];
  int gidx1 = __ockl_get_group_id(1); /* 16 */
  int lidx0 = __ockl_get_local_id(0); /* 16 */
  int alu0 = (gidx1<<4);
  float val0 = (*(data1_256+(lidx0+alu0)));
  int gidx0 = __ockl_get_group_id(0); /* 16 */
  float val1 = (*(data2_256+(gidx0+(lidx0<<4))));
  *(temp0+lidx0) = (val0*val1);
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");__builtin_amdgcn_s_barrier();__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
  *(acc0+0) = 0.0f;
  for (int Ridx103 = 0; Ridx103 < 16; Ridx103++) {
    float val2 = (*(temp0+Ridx103));
    *(acc0+0) = ((*(acc0+0))+val2);
  }
  bool alu6 = (((bool)(lidx0))!=1);
  if (alu6) {
    *(data0_256+(gidx0+alu0)) = (*(acc0+0));
  }
}