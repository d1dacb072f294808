#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
extern "C" __global__ void __launch_bounds__(16) r_64_16_2(float* data0_64, float* data1_2048) {
  __shared__ __align__(16) float temp0[16];
  float acc0[1];
  float acc1[1];
  int gidx0 = blockIdx.x; /* 64 */
  int lidx0 = threadIdx.x; /* 16 */
  *(acc0+0) = 0.0f;
  for (int Ridx0 = 0; Ridx0 < 2; Ridx0++) {
    float val0 = (*(data1_2048+((lidx0<<1)+Ridx0+(gidx0<<5))));
    *(acc0+0) = ((*(acc0+0))+val0);
  }
  *(temp0+lidx0) = (*(acc0+0));
  __syncthreads();
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