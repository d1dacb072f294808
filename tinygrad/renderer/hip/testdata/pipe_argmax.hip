typedef long unsigned int size_t;
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 16))) r_16_16n2(int* data0_16, float* data1_256, float* data2_16) {
  __attribute__((shared, aligned(16)))int temp0[16];
  int acc0[1];
  int gidx0 = __ockl_get_group_id(0); /* 16 */
  int lidx0 = __ockl_get_local_id(0); /* 16 */
  float val0 = (*(data1_256+(lidx0+(gidx0<<4))));
  float val1 = (*(data2_16+gidx0));
  *(temp0+lidx0) = (((int)((val0==val1)))*(16-lidx0));
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");__builtin_amdgcn_s_barrier();__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
  *(acc0+0) = -2147483648;
  for (int Ridx102 = 0; Ridx102 < 16; Ridx102++) {
    int val2 = (*(temp0+Ridx102));
    int alu3 = (((*(acc0+0))<val2)?val2:(*(acc0+0)));
    *(acc0+0) = alu3;
  }
  bool alu6 = (((bool)(lidx0))!=1);
  if (alu6) {
    *(data0_16+gidx0) = (16-(*(acc0+0)));
  }
}