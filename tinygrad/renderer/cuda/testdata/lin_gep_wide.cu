#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
#include <cuda_fp8.h>
struct __align__(16) __nv_fp8_e4m316 { __nv_fp8_e4m3 x, y, z, w, a, b, c, d, e, f, g, h, i, j, k, l; }; __device__ __nv_fp8_e4m316 make___nv_fp8_e4m316(__nv_fp8_e4m3 x, __nv_fp8_e4m3 y, __nv_fp8_e4m3 z, __nv_fp8_e4m3 w, __nv_fp8_e4m3 a, __nv_fp8_e4m3 b, __nv_fp8_e4m3 c, __nv_fp8_e4m3 d, __nv_fp8_e4m3 e, __nv_fp8_e4m3 f, __nv_fp8_e4m3 g, __nv_fp8_e4m3 h, __nv_fp8_e4m3 i, __nv_fp8_e4m3 j, __nv_fp8_e4m3 k, __nv_fp8_e4m3 l) { __nv_fp8_e4m316 r={x, y, z, w, a, b, c, d, e, f, g, h, i, j, k, l}; return r; }
extern "C" __global__ void __launch_bounds__(1) gep_wide(float* data0_1, __nv_fp8_e4m3* data1_16) {
  __nv_fp8_e4m316 val0 = (*((__nv_fp8_e4m316*)((data1_16+0))));
  *(data0_1+0) = ((float)(val0[12]));
}