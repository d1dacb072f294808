#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
extern "C" __global__ void __launch_bounds__(16) r_16_16(float* data0_16, float* data1_256) {
  __shared__ __align__(16) float temp0[16];
  float acc0[1];
  int gidx0 = blockIdx.x; /* 16 */
  int lidx0 = threadIdx.x; /* 16 */
  float val0 = (*(data1_256+(lidx0+(gidx0<<4))));
  *(temp0+lidx0) = val0;
  __syncthreads();
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