#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
#include <cuda_bf16.h>
extern "C" __global__ void __launch_bounds__(1) E_4_4n7(nv_bfloat16* data0_16, nv_bfloat16* data1_16, nv_bfloat16* data2_16) {
  int gidx0 = blockIdx.x; /* 4 */
  int alu0 = (gidx0<<2);
  int alu1 = (alu0+1);
  nv_bfloat16 val0 = (*(data1_16+alu1));
  int alu2 = (alu0+2);
  nv_bfloat16 val1 = (*(data1_16+alu2));
  int alu3 = (alu0+3);
  nv_bfloat16 val2 = (*(data1_16+alu3));
  nv_bfloat16 val3 = (*(data1_16+alu0));
  nv_bfloat16 val4 = (*(data2_16+alu1));
  nv_bfloat16 val5 = (*(data2_16+alu2));
  nv_bfloat16 val6 = (*(data2_16+alu3));
  nv_bfloat16 val7 = (*(data2_16+alu0));
  *(data0_16+alu1) = (hsqrt(((val0*val4)+((nv_bfloat16)(1.0f))))+hexp2(val0));
  *(data0_16+alu2) = (hsqrt(((val1*val5)+((nv_bfloat16)(1.0f))))+hexp2(val1));
  *(data0_16+alu3) = (hsqrt(((val2*val6)+((nv_bfloat16)(1.0f))))+hexp2(val2));
  *(data0_16+alu0) = (hsqrt(((val3*val7)+((nv_bfloat16)(1.0f))))+hexp2(val3));
}