#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
extern "C" __global__ void __launch_bounds__(4) E_4_4n11(int* data0_16, float* data1_256) {
  int lidx0 = threadIdx.x; /* 4 */
  int alu0 = (lidx0<<2);
  float4 val0 = (*((float4*)((data1_256+alu0))));
  *(data0_16+(alu0+1)) = (tg_bitcast<int>((float)(val0.y))+1);
  *(data0_16+(alu0+2)) = (tg_bitcast<int>((float)(val0.z))+1);
  *(data0_16+(alu0+3)) = (tg_bitcast<int>((float)(val0.w))+1);
  *(data0_16+alu0) = (tg_bitcast<int>((float)(val0.x))+1);
}