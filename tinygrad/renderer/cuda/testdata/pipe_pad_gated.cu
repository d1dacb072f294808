#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
extern "C" __global__ void __launch_bounds__(4) E_4_4n13(float* data0_16, float* data1_14) {
  int lidx0 = threadIdx.x; /* 4 */
  int alu0 = (lidx0<<2);
  float val0 = ((0<lidx0)?*(data1_14+(alu0+-1)):0.0f);
  float val1 = ((lidx0<3)?*(data1_14+(alu0+2)):0.0f);
  float2 val2 = (*((float2*)((data1_14+alu0))));
  *((float4*)((data0_16+alu0))) = make_float4((val0+1.0f),(val2.x+1.0f),(val2.y+1.0f),(val1+1.0f));
}