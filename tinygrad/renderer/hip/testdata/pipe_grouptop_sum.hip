typedef long unsigned int size_t;
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 16))) r_64_16_2(float* data0_64, float* data1_2048) {
  __attribute__((shared, aligned(16)))float temp0[16];
  float acc0[1];
  float acc1[1];
  int gidx0 = __ockl_get_group_id(0); /* 64 */
  int lidx0 = __ockl_get_local_id(0); /* 16 */
  *(acc0+0) = 0.0f;
  for (int Ridx0 = 0; Ridx0 < 2; Ridx0++) {
    float val0 = (*(data1_2048+((lidx0<<1)+Ridx0+(gidx0<<5))));
    *(acc0+0) = ((*(acc0+0))+val0);
  }
  *(temp0+lidx0) = (*(acc0+0));
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");__builtin_amdgcn_s_barrier();__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
  *(acc1+0) = 0.0f;
  for (int Ridx102 = 0; Ridx102 < 16; Ridx102++) {
    float val1 = (*(temp0+Ridx102));
    *(acc1+0) = ((*(acc1+0))+val1);
  }
  bool alu8 = (((bool)(lidx0))!=1);
  if (alu8) {
    *(data0_64+gidx0) = (*(acc1+0));
  }
}