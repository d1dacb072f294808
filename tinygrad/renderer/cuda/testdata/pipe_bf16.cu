#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
#include <cuda_bf16.h>
extern "C" __global__ void __launch_bounds__(4) E_4_4n6(float* data0_16, nv_bfloat16* data1_16) {
  int lidx0 = threadIdx.x; /* 4 */
  int alu0 = (lidx0<<2);
  nv_bfloat16 val0 = (*(data1_16+(alu0+1)));
  nv_bfloat16 val1 = (*(data1_16+(alu0+2)));
  nv_bfloat16 val2 = (*(data1_16+(alu0+3)));
  nv_bfloat16 val3 = (*(data1_16+alu0));
  *((float4*)((data0_16+alu0))) = make_float4(((float)(((val3*((nv_bfloat16)(2.0f)))+((nv_bfloat16)(1.0f))))),((float)(((val0*((nv_bfloat16)(2.0f)))+((nv_bfloat16)(1.0f))))),((float)(((val1*((nv_bfloat16)(2.0f)))+((nv_bfloat16)(1.0f))))),((float)(((val2*((nv_bfloat16)(2.0f)))+((nv_bfloat16)(1.0f))))));
}