#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
extern "C" __global__ void __launch_bounds__(1) E_64_4(float* data0_256, float* data1_256, float* data2_256) {
  int gidx0 = blockIdx.x; /* 64 */
  int alu0 = (gidx0<<2);
  float4 val0 = (*((float4*)((data1_256+alu0))));
  float4 val1 = (*((float4*)((data2_256+alu0))));
  *((float4*)((data0_256+alu0))) = make_float4((val0.x+val1.x),(val0.y+val1.y),(val0.z+val1.z),(val0.w+val1.w));
}