#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
#include <cuda_fp8.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
struct __align__(8) half4 { half x, y, z, w; }; __device__ half4 make_half4(half x, half y, half z, half w) { half4 r={x, y, z, w}; return r; }
struct __align__(16) nv_bfloat168 { nv_bfloat16 x, y, z, w, a, b, c, d; }; __device__ nv_bfloat168 make_nv_bfloat168(nv_bfloat16 x, nv_bfloat16 y, nv_bfloat16 z, nv_bfloat16 w, nv_bfloat16 a, nv_bfloat16 b, nv_bfloat16 c, nv_bfloat16 d) { nv_bfloat168 r={x, y, z, w, a, b, c, d}; return r; }
struct __align__(2) __nv_fp8_e4m32 { __nv_fp8_e4m3 x, y; }; __device__ __nv_fp8_e4m32 make___nv_fp8_e4m32(__nv_fp8_e4m3 x, __nv_fp8_e4m3 y) { __nv_fp8_e4m32 r={x, y}; return r; }
extern "C" __global__ void __launch_bounds__(1) vec(float* data0_64, float* data1_64, half* data2_16, nv_bfloat16* data3_16, __nv_fp8_e4m3* data4_32) {
  float4 val0 = (*((float4*)((data1_64+0))));
  *((float4*)((data0_64+0))) = make_float4((val0.w+val0.x),val0.z,val0.y,val0.x);
  half4 val1 = (*((half4*)((data2_16+0))));
  *((half4*)((data2_16+4))) = make_half4(val1.y,val1.x,val1.w,val1.z);
  nv_bfloat168 val2 = (*((nv_bfloat168*)((data3_16+0))));
  *((nv_bfloat168*)((data3_16+8))) = make_nv_bfloat168(val2.d,val2.c,val2.b,val2.a,val2.w,val2.z,val2.y,val2.x);
  __nv_fp8_e4m32 val3 = (*((__nv_fp8_e4m32*)((data4_32+0))));
  *(data0_64+8) = (((float)(val3.y))+((float)(val3.x)));
  *(data0_64+9) = ((float)(val1.z));
}