#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
extern "C" __global__ void __launch_bounds__(64) E_8_8_4(float* data0_256, float* data1_256, float* data2_8, float* data3_8) {
  int lidx0 = threadIdx.x; /* 8 */
  float val0 = (*(data2_8+lidx0));
  float val1 = (*(data3_8+lidx0));
  int lidx1 = threadIdx.y; /* 8 */
  int alu0 = ((lidx0<<5)+(lidx1<<2));
  float4 val2 = (*((float4*)((data1_256+alu0))));
  float alu1 = (1/val1);
  *((float4*)((data0_256+alu0))) = make_float4((exp2(((val2.x-val0)*1.4426950408889634f))*alu1),(exp2(((val2.y-val0)*1.4426950408889634f))*alu1),(exp2(((val2.z-val0)*1.4426950408889634f))*alu1),(exp2(((val2.w-val0)*1.4426950408889634f))*alu1));
}