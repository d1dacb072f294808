#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
#include <cuda_fp16.h>
extern "C" __global__ void __launch_bounds__(1) lin_alu_half(half* data0_15, bool* data1_6, half* data2_2) {
  half val0 = (*(data2_2+0));
  half val1 = (*(data2_2+1));
  half alu0 = (val0+val1);
  *(data0_15+0) = alu0;
  *(data0_15+1) = (val0-val1);
  *(data0_15+2) = (val0*val1);
  bool alu4 = (val0<val1);
  *(data1_6+3) = alu4;
  *(data1_6+4) = (val0!=val1);
  *(data1_6+5) = (val0==val1);
  *(data0_15+6) = -val0;
  *(data0_15+7) = hsqrt(val0);
  *(data0_15+8) = htrunc(val0);
  *(data0_15+9) = hexp2(val0);
  *(data0_15+10) = hlog2(val0);
  *(data0_15+11) = hsin(val0);
  *(data0_15+12) = hrcp(val0);
  half alu15 = (alu4?val0:val1);
  *(data0_15+13) = alu15;
  half alu17 = (alu0+alu15);
  *(data0_15+14) = (alu17*val1*alu17);
}