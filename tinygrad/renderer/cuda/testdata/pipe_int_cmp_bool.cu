#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
extern "C" __global__ void __launch_bounds__(4) E_4_4n2(bool* data0_16, int* data1_16, int* data2_16) {
  int lidx0 = threadIdx.x; /* 4 */
  int alu0 = (lidx0<<2);
  int alu1 = (alu0+1);
  int val0 = (*(data1_16+alu1));
  int alu2 = (alu0+2);
  int val1 = (*(data1_16+alu2));
  int alu3 = (alu0+3);
  int val2 = (*(data1_16+alu3));
  int val3 = (*(data1_16+alu0));
  int val4 = (*(data2_16+alu1));
  int val5 = (*(data2_16+alu2));
  int val6 = (*(data2_16+alu3));
  int val7 = (*(data2_16+alu0));
  *(data0_16+alu1) = ((val0<val4)|(val0==val4));
  *(data0_16+alu2) = ((val1<val5)|(val1==val5));
  *(data0_16+alu3) = ((val2<val6)|(val2==val6));
  *(data0_16+alu0) = ((val3<val7)|(val3==val7));
}