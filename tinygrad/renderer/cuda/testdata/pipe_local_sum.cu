#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
extern "C" __global__ void __launch_bounds__(16) r_4_16_32(float* data0_64, float* data1_2048) {
  float acc0[1];
  int gidx0 = blockIdx.x; /* 4 */
  int lidx0 = threadIdx.x; /* 16 */
  *(acc0+0) = 0.0f;
  for (int Ridx0 = 0; Ridx0 < 32; Ridx0++) {
    float val0 = (*(data1_2048+((gidx0<<9)+(lidx0<<5)+Ridx0)));
    *(acc0+0) = ((*(acc0+0))+val0);
  }
  *(data0_64+(lidx0+(gidx0<<4))) = (*(acc0+0));
}