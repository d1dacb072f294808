#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
#include <cuda_fp16.h>
struct __align__(8) half4 { half x, y, z, w; }; __device__ half4 make_half4(half x, half y, half z, half w) { half4 r={x, y, z, w}; return r; }
__device__ half4 __WMMA_8_16_8_half_half(half4 a, half2 b, half4 c){
  int *a_pk = (int *)(&a), *b_pk = (int *)(&b), *c_pk = (int *)(&c);
  asm("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16"
      "{%0, %1}, {%2, %3},"
      "{%4}, {%0, %1};"
    : "+r"(c_pk[0]), "+r"(c_pk[1])
    : "r"(a_pk[0]), "r"(a_pk[1]), "r"(b_pk[0]));
  return c;
}
extern "C" __global__ void __launch_bounds__(1) wmma(half* data0_64, half* data1_64, half* data2_64) {
  half4 val0 = (*((half4*)((data1_64+0))));
  half2 val1 = (*((half2*)((data2_64+0))));
  half4 val2 = (*((half4*)((data0_64+0))));
  half4 wmma0 = __WMMA_8_16_8_half_half(val0, val1, val2);
  *((half4*)((data0_64+0))) = wmma0;
}