#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
extern "C" __global__ void __launch_bounds__(16) r_16_16n1(float* data0_1, float* data1_256) {
  __shared__ __align__(16) float temp0[16];
  float acc0[1];
  float acc1[1];
  int lidx0 = threadIdx.x; /* 16 */
  *(acc0+0) = 0.0f;
  for (int Ridx0 = 0; Ridx0 < 16; Ridx0++) {
    float val0 = (*(data1_256+((lidx0<<4)+Ridx0)));
    *(acc0+0) = ((*(acc0+0))+val0);
  }
  *(temp0+lidx0) = (*(acc0+0));
  __syncthreads();
  *(acc1+0) = 0.0f;
  for (int Ridx101 = 0; Ridx101 < 16; Ridx101++) {
    float val1 = (*(temp0+Ridx101));
    *(acc1+0) = ((*(acc1+0))+val1);
  }
  bool alu8 = (((bool)(lidx0))!=1);
  if (alu8) {
    *(data0_1+0) = (*(acc1+0));
  }
}