#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
#include <cuda_bf16.h>
struct __align__(16) nv_bfloat168 { nv_bfloat16 x, y, z, w, a, b, c, d; }; __device__ nv_bfloat168 make_nv_bfloat168(nv_bfloat16 x, nv_bfloat16 y, nv_bfloat16 z, nv_bfloat16 w, nv_bfloat16 a, nv_bfloat16 b, nv_bfloat16 c, nv_bfloat16 d) { nv_bfloat168 r={x, y, z, w, a, b, c, d}; return r; }
struct __align__(8) nv_bfloat164 { nv_bfloat16 x, y, z, w; }; __device__ nv_bfloat164 make_nv_bfloat164(nv_bfloat16 x, nv_bfloat16 y, nv_bfloat16 z, nv_bfloat16 w) { nv_bfloat164 r={x, y, z, w}; return r; }
__device__ float4 __WMMA_8_16_16___bf16_float(nv_bfloat168 a, nv_bfloat164 b, float4 c){
  int *a_pk = (int *)(&a), *b_pk = (int *)(&b), *c_pk = (int *)(&c);
  asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
      "{%0, %1, %2, %3}, {%4, %5, %6, %7},"
      "{%8, %9}, {%0, %1, %2, %3};"
    : "+r"(c_pk[0]), "+r"(c_pk[1]), "+r"(c_pk[2]), "+r"(c_pk[3])
    : "r"(a_pk[0]), "r"(a_pk[1]), "r"(a_pk[2]), "r"(a_pk[3]), "r"(b_pk[0]), "r"(b_pk[1]));
  return c;
}
extern "C" __global__ void __launch_bounds__(1) wmma(float* data0_64, nv_bfloat16* data1_64, nv_bfloat16* data2_64) {
  nv_bfloat168 val0 = (*((nv_bfloat168*)((data1_64+0))));
  nv_bfloat164 val1 = (*((nv_bfloat164*)((data2_64+0))));
  float4 val2 = (*((float4*)((data0_64+0))));
  float4 wmma0 = __WMMA_8_16_16___bf16_float(val0, val1, val2);
  *((float4*)((data0_64+0))) = wmma0;
}