#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
#include <cuda_fp16.h>
struct __align__(8) half4 { half x, y, z, w; }; __device__ half4 make_half4(half x, half y, half z, half w) { half4 r={x, y, z, w}; return r; }
extern "C" __global__ void __launch_bounds__(4) E_4_4n5(half* data0_16, half* data1_16, half* data2_16) {
  int lidx0 = threadIdx.x; /* 4 */
  int alu0 = (lidx0<<2);
  half4 val0 = (*((half4*)((data1_16+alu0))));
  half4 val1 = (*((half4*)((data2_16+alu0))));
  *((half4*)((data0_16+alu0))) = make_half4((hexp2(val0.x)+hlog2(val1.x)+hsin(val0.x)+hsqrt(val1.x)+hrcp(val0.x)+htrunc(val1.x)),(hexp2(val0.y)+hlog2(val1.y)+hsin(val0.y)+hsqrt(val1.y)+hrcp(val0.y)+htrunc(val1.y)),(hexp2(val0.z)+hlog2(val1.z)+hsin(val0.z)+hsqrt(val1.z)+hrcp(val0.z)+htrunc(val1.z)),(hexp2(val0.w)+hlog2(val1.w)+hsin(val0.w)+hsqrt(val1.w)+hrcp(val0.w)+htrunc(val1.w)));
}