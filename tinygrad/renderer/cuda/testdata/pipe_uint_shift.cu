#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
extern "C" __global__ void __launch_bounds__(4) E_4_4n1(unsigned int* data0_16, unsigned int* data1_16) {
  int lidx0 = threadIdx.x; /* 4 */
  int alu0 = (lidx0<<2);
  int alu1 = (alu0+1);
  unsigned int val0 = (*(data1_16+alu1));
  int alu2 = (alu0+2);
  unsigned int val1 = (*(data1_16+alu2));
  int alu3 = (alu0+3);
  unsigned int val2 = (*(data1_16+alu3));
  unsigned int val3 = (*(data1_16+alu0));
  *(data0_16+alu1) = ((val0<<3u)+(val0>>2u));
  *(data0_16+alu2) = ((val1<<3u)+(val1>>2u));
  *(data0_16+alu3) = ((val2<<3u)+(val2>>2u));
  *(data0_16+alu0) = ((val3<<3u)+(val3>>2u));
}