#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
extern "C" __global__ void __launch_bounds__(1) consts_float(float* data0_6) {
  *(data0_6+0) = ((float)(INFINITY));
  *(data0_6+1) = ((float)(-INFINITY));
  *(data0_6+2) = ((float)(NAN));
  *(data0_6+3) = 1e-20f;
  *(data0_6+4) = 3.4028234663852886e+38f;
  *(data0_6+5) = -0.5f;
}