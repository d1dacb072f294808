#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
#include <cuda_fp8.h>
struct __align__(16) __nv_fp8_e5m216 { __nv_fp8_e5m2 x, y, z, w, a, b, c, d, e, f, g, h, i, j, k, l; }; __device__ __nv_fp8_e5m216 make___nv_fp8_e5m216(__nv_fp8_e5m2 x, __nv_fp8_e5m2 y, __nv_fp8_e5m2 z, __nv_fp8_e5m2 w, __nv_fp8_e5m2 a, __nv_fp8_e5m2 b, __nv_fp8_e5m2 c, __nv_fp8_e5m2 d, __nv_fp8_e5m2 e, __nv_fp8_e5m2 f, __nv_fp8_e5m2 g, __nv_fp8_e5m2 h, __nv_fp8_e5m2 i, __nv_fp8_e5m2 j, __nv_fp8_e5m2 k, __nv_fp8_e5m2 l) { __nv_fp8_e5m216 r={x, y, z, w, a, b, c, d, e, f, g, h, i, j, k, l}; return r; }
struct __align__(8) __nv_fp8_e5m28 { __nv_fp8_e5m2 x, y, z, w, a, b, c, d; }; __device__ __nv_fp8_e5m28 make___nv_fp8_e5m28(__nv_fp8_e5m2 x, __nv_fp8_e5m2 y, __nv_fp8_e5m2 z, __nv_fp8_e5m2 w, __nv_fp8_e5m2 a, __nv_fp8_e5m2 b, __nv_fp8_e5m2 c, __nv_fp8_e5m2 d) { __nv_fp8_e5m28 r={x, y, z, w, a, b, c, d}; return r; }
__device__ float4 __WMMA_8_16_32_float8_e5m2_float(__nv_fp8_e5m216 a, __nv_fp8_e5m28 b, float4 c){
  int *a_pk = (int *)(&a), *b_pk = (int *)(&b), *c_pk = (int *)(&c);
  asm("mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32"
      "{%0, %1, %2, %3}, {%4, %5, %6, %7},"
      "{%8, %9}, {%0, %1, %2, %3};"
    : "+r"(c_pk[0]), "+r"(c_pk[1]), "+r"(c_pk[2]), "+r"(c_pk[3])
    : "r"(a_pk[0]), "r"(a_pk[1]), "r"(a_pk[2]), "r"(a_pk[3]), "r"(b_pk[0]), "r"(b_pk[1]));
  return c;
}
extern "C" __global__ void __launch_bounds__(1) wmma(float* data0_64, __nv_fp8_e5m2* data1_64, __nv_fp8_e5m2* data2_64) {
  __nv_fp8_e5m216 val0 = (*((__nv_fp8_e5m216*)((data1_64+0))));
  __nv_fp8_e5m28 val1 = (*((__nv_fp8_e5m28*)((data2_64+0))));
  float4 val2 = (*((float4*)((data0_64+0))));
  float4 wmma0 = __WMMA_8_16_32_float8_e5m2_float(val0, val1, val2);
  *((float4*)((data0_64+0))) = wmma0;
}