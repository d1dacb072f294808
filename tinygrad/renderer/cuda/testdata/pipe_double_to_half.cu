#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
#include <cuda_fp16.h>
struct __align__(8) half4 { half x, y, z, w; }; __device__ half4 make_half4(half x, half y, half z, half w) { half4 r={x, y, z, w}; return r; }
extern "C" __global__ void __launch_bounds__(4) E_4_4n9(half* data0_16, double* data1_16) {
  int lidx0 = threadIdx.x; /* 4 */
  int alu0 = (lidx0<<2);
  double val0 = (*(data1_16+(alu0+1)));
  double val1 = (*(data1_16+(alu0+2)));
  double val2 = (*(data1_16+(alu0+3)));
  double val3 = (*(data1_16+alu0));
  *((half4*)((data0_16+alu0))) = make_half4(((half)(val3)),((half)(val0)),((half)(val1)),((half)(val2)));
}