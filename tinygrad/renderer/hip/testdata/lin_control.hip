typedef long unsigned int size_t;
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 8))) ctrl(float* data0_64, float* data1, const int n) {
  float acc0[1];
  __attribute__((shared, aligned(16)))float temp0[16];
  int gidx0 = __ockl_get_group_id(0); /* 8 */
  int lidx0 = __ockl_get_local_id(0); /* 4 */
  int lidx1 = __ockl_get_local_id(1); /* 2 */
  *(acc0+0) = 0.0f;
  for (int Ridx0 = 0; Ridx0 < n; Ridx0++) {
    int alu1 = ((Ridx0*8)+gidx0);
    float val0 = ((alu1<60)?*(data1+alu1):-1.0f);
    *(acc0+0) = ((*(acc0+0))+val0);
  }
  int alu4 = (lidx1*4);
  *(temp0+(alu4+lidx0)) = (*(acc0+0));
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");__builtin_amdgcn_s_barrier();__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
  if ((lidx0<1)) {
    float val1 = (*(temp0+alu4));
    *(data0_64+((gidx0*2)+lidx1)) = val1;
  }
  int i0 = (__ockl_get_group_id(0)*__ockl_get_local_size(0)+__ockl_get_local_id(0)); /* 64 */
  *(data0_64+i0) = ((float)(i0));
  /* custom gidx0 */
}