typedef long unsigned int size_t;
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 16))) r_16_16(float* data0_16, float* data1_256) {
  __attribute__((shared, aligned(16)))float temp0[16];
  float acc0[1];
  int gidx0 = __ockl_get_group_id(0); /* 16 */
  int lidx0 = __ockl_get_local_id(0); /* 16 */
  float val0 = (*(data1_256+(lidx0+(gidx0<<4))));
  *(temp0+lidx0) = val0;
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");__builtin_amdgcn_s_barrier();__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
  *(acc0+0) = 0.0f;
  for (int Ridx102 = 0; Ridx102 < 16; Ridx102++) {
    float val1 = (*(temp0+Ridx102));
    *(acc0+0) = ((*(acc0+0))+val1);
  }
  bool alu5 = (((bool)(lidx0))!=1);
  if (alu5) {
    *(data0_16+gidx0) = (*(acc0+0));
  }
}