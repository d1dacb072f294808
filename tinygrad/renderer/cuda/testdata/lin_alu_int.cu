#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
extern "C" __global__ void __launch_bounds__(1) lin_alu_int(int* data0_16, bool* data1_13, int* data2_2) {
  int val0 = (*(data2_2+0));
  int val1 = (*(data2_2+1));
  int alu0 = (val0+val1);
  *(data0_16+0) = alu0;
  *(data0_16+1) = (val0-val1);
  *(data0_16+2) = (val0*val1);
  bool alu4 = (val0<val1);
  *(data1_13+3) = alu4;
  *(data1_13+4) = (val0!=val1);
  *(data1_13+5) = (val0==val1);
  *(data0_16+6) = (val0/val1);
  *(data0_16+7) = (val0%val1);
  *(data0_16+8) = (val0<<val1);
  *(data0_16+9) = (val0>>val1);
  *(data0_16+10) = (val0^val1);
  *(data0_16+11) = (val0|val1);
  *(data0_16+12) = (val0&val1);
  *(data0_16+13) = -val0;
  int alu16 = (alu4?val0:val1);
  *(data0_16+14) = alu16;
  int alu18 = (alu0+alu16);
  *(data0_16+15) = (alu18*val1*alu18);
}