#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
extern "C" __global__ void __launch_bounds__(32) E_2_32_4n3(float* data0_256, float* data1_256, float* data2_256) {
  int gidx0 = blockIdx.x; /* 2 */
  int lidx0 = threadIdx.x; /* 32 */
  int alu0 = ((gidx0<<7)+(lidx0<<2));
  float4 val0 = (*((float4*)((data1_256+alu0))));
  float4 val1 = (*((float4*)((data2_256+alu0))));
  *((float4*)((data0_256+alu0))) = make_float4(((sqrt(val0.x)*(1/val1.x))+trunc(-val0.x)),((sqrt(val0.y)*(1/val1.y))+trunc(-val0.y)),((sqrt(val0.z)*(1/val1.z))+trunc(-val0.z)),((sqrt(val0.w)*(1/val1.w))+trunc(-val0.w)));
}