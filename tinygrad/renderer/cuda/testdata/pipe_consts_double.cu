#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
extern "C" __global__ void __launch_bounds__(1) consts_double(double* data0_4) {
  *(data0_4+0) = ((double)(INFINITY));
  *(data0_4+1) = ((double)(-INFINITY));
  *(data0_4+2) = ((double)(NAN));
  *(data0_4+3) = 1.0000001;
}