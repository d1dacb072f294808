#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
extern "C" __global__ void __launch_bounds__(8) r_8_8(float* data0_8, float* data1_8) {
  int lidx0 = threadIdx.x; /* 8 */
  float val0 = (*(data1_8+lidx0));
  float val1 = ((5<lidx0)?*(data1_8+(lidx0+-6)):0.0f);
  float val2 = ((4<lidx0)?*(data1_8+(lidx0+-5)):0.0f);
  float val3 = ((3<lidx0)?*(data1_8+(lidx0+-4)):0.0f);
  float val4 = ((2<lidx0)?*(data1_8+(lidx0+-3)):0.0f);
  float val5 = ((1<lidx0)?*(data1_8+(lidx0+-2)):0.0f);
  float val6 = ((0<lidx0)?*(data1_8+(lidx0+-1)):0.0f);
  float val7 = ((6<lidx0)?*(data1_8+0):0.0f);
  *(data0_8+lidx0) = (val7+val1+val2+val3+val4+val5+val6+val0);
}