#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
#include <cuda_fp8.h>
struct __align__(4) __nv_fp8_e4m34 { __nv_fp8_e4m3 x, y, z, w; }; __device__ __nv_fp8_e4m34 make___nv_fp8_e4m34(__nv_fp8_e4m3 x, __nv_fp8_e4m3 y, __nv_fp8_e4m3 z, __nv_fp8_e4m3 w) { __nv_fp8_e4m34 r={x, y, z, w}; return r; }
extern "C" __global__ void __launch_bounds__(1) E_16_4n1(__nv_fp8_e4m3* data0_64, __nv_fp8_e4m3* data1_64, __nv_fp8_e4m3* data2_64) {
  int gidx0 = blockIdx.x; /* 16 */
  int alu0 = (gidx0<<2);
  __nv_fp8_e4m34 val0 = (*((__nv_fp8_e4m34*)((data1_64+alu0))));
  __nv_fp8_e4m34 val1 = (*((__nv_fp8_e4m34*)((data2_64+alu0))));
  *((__nv_fp8_e4m34*)((data0_64+alu0))) = make___nv_fp8_e4m34(((__nv_fp8_e4m3)((((float)(val0.x))+((float)(val1.x))))),((__nv_fp8_e4m3)((((float)(val0.y))+((float)(val1.y))))),((__nv_fp8_e4m3)((((float)(val0.z))+((float)(val1.z))))),((__nv_fp8_e4m3)((((float)(val0.w))+((float)(val1.w))))));
}