#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
#include <cuda_fp16.h>
struct __align__(8) half4 { half x, y, z, w; }; __device__ half4 make_half4(half x, half y, half z, half w) { half4 r={x, y, z, w}; return r; }
extern "C" __global__ void __launch_bounds__(4) E_4_4n3(half* data0_16, half* data1_16, half* data2_16) {
  int lidx0 = threadIdx.x; /* 4 */
  int alu0 = (lidx0<<2);
  half4 val0 = (*((half4*)((data1_16+alu0))));
  half4 val1 = (*((half4*)((data2_16+alu0))));
  *((half4*)((data0_16+alu0))) = make_half4(hsqrt(((val0.x*val1.x)+((half)(1.5f)))),hsqrt(((val0.y*val1.y)+((half)(1.5f)))),hsqrt(((val0.z*val1.z)+((half)(1.5f)))),hsqrt(((val0.w*val1.w)+((half)(1.5f)))));
}