#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
extern "C" __global__ void __launch_bounds__(1) consts_uchar(unsigned char* data0_4) {
  *(data0_4+0) = ((unsigned char)(255u));
  *(data0_4+1) = ((unsigned char)(0u));
  *(data0_4+2) = ((unsigned char)(3u));
  *(data0_4+3) = ((unsigned char)(1u));
}