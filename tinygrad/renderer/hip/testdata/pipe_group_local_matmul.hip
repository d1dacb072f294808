typedef long unsigned int size_t;
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
typedef float float2 __attribute__((ext_vector_type(2)));
static inline __attribute__((device)) float2 make_float2(float x, float y) { return { x, y }; }
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 32))) r_4_4_4_8_2_4(float* data0_128, float* data1_512, float* data2_256) {
  __attribute__((shared, aligned(16)))float temp0[64];
  float acc0[2];
  float acc1[2];
  int gidx0 = __ockl_get_group_id(0); /* 4 */
  int gidx1 = __ockl_get_group_id(1); /* 4 */
  int lidx0 = __ockl_get_local_id(0); /* 4 */
  int lidx1 = __ockl_get_local_id(1); /* 8 */
  int alu0 = (gidx0<<1);
  *(acc0+0) = 0.0f;
  *(acc0+1) = 0.0f;
  for (int Ridx0 = 0; Ridx0 < 4; Ridx0++) {
    float val0 = (*(data1_512+(lidx1+(Ridx0<<3)+(gidx1<<7)+(lidx0<<5))));
    float2 val1 = (*((float2*)((data2_256+((lidx1<<3)+(Ridx0<<6)+alu0)))));
    *(acc0+0) = ((*(acc0+0))+(val0*val1.x));
    *(acc0+1) = ((*(acc0+1))+(val0*val1.y));
  }
  int alu6 = (lidx0<<4);
  *((float2*)((temp0+(alu6+(lidx1<<1))))) = make_float2((*(acc0+0)),(*(acc0+1)));
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");__builtin_amdgcn_s_barrier();__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
  *(acc1+0) = 0.0f;
  *(acc1+1) = 0.0f;
  for (int Ridx104 = 0; Ridx104 < 8; Ridx104++) {
    float2 val2 = (*((float2*)((temp0+(alu6+(Ridx104<<1))))));
    *(acc1+0) = ((*(acc1+0))+val2.x);
    *(acc1+1) = ((*(acc1+1))+val2.y);
  }
  float alu14 = ((0.0f<(*(acc1+0)))?(*(acc1+0)):0.0f);
  float alu15 = ((0.0f<(*(acc1+1)))?(*(acc1+1)):0.0f);
  bool alu16 = (((bool)(lidx1))!=1);
  if (alu16) {
    *((float2*)((data0_128+((gidx1<<5)+(lidx0<<3)+alu0)))) = make_float2(alu14,alu15);
  }
}