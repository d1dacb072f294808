#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
extern "C" __global__ void __launch_bounds__(128) E_2_8_16_4(float* data0_1024, float* data1_1024, float* data2_16, float* data3_16) {
  int gidx0 = blockIdx.x; /* 2 */
  int lidx0 = threadIdx.x; /* 8 */
  int alu0 = (lidx0+(gidx0<<3));
  float val0 = (*(data2_16+alu0));
  float val1 = (*(data3_16+alu0));
  int lidx1 = threadIdx.y; /* 16 */
  int alu1 = ((gidx0<<9)+(lidx0<<6)+(lidx1<<2));
  float4 val2 = (*((float4*)((data1_1024+alu1))));
  *((float4*)((data0_1024+alu1))) = make_float4(((val2.x-val0)*val1),((val2.y-val0)*val1),((val2.z-val0)*val1),((val2.w-val0)*val1));
}