#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
extern "C" __global__ void __launch_bounds__(1) consts_small_ints(signed char* data0_4) {
  *(data0_4+0) = ((signed char)(-128));
  *(data0_4+1) = ((signed char)(127));
  *(data0_4+2) = ((signed char)(3));
  *(data0_4+3) = ((signed char)(0));
}