#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
#include <cuda_bf16.h>
extern "C" __global__ void __launch_bounds__(1) consts_bf16(nv_bfloat16* data0_4) {
  *(data0_4+0) = ((nv_bfloat16)(INFINITY));
  *(data0_4+1) = ((nv_bfloat16)(-INFINITY));
  *(data0_4+2) = ((nv_bfloat16)(NAN));
  *(data0_4+3) = ((nv_bfloat16)(1.5f));
}