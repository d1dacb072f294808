#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
#include <cuda_fp16.h>
struct __align__(8) half4 { half x, y, z, w; }; __device__ half4 make_half4(half x, half y, half z, half w) { half4 r={x, y, z, w}; return r; }
__device__ float4 __WMMA_8_16_8_half_float(half4 a, half2 b, float4 c){
  int *a_pk = (int *)(&a), *b_pk = (int *)(&b), *c_pk = (int *)(&c);
  asm("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32"
      "{%0, %1, %2, %3}, {%4, %5},"
      "{%6}, {%0, %1, %2, %3};"
    : "+r"(c_pk[0]), "+r"(c_pk[1]), "+r"(c_pk[2]), "+r"(c_pk[3])
    : "r"(a_pk[0]), "r"(a_pk[1]), "r"(b_pk[0]));
  return c;
}
extern "C" __global__ void __launch_bounds__(32) r_4_8_32_2_2_8n6(half* data0_4096, half* data1_4096, half* data2_4096) {
  float acc0[4];
  int gidx0 = blockIdx.x; /* 8 */
  int gidx1 = blockIdx.y; /* 4 */
  int lidx0 = threadIdx.x; /* 32 */
  int alu0 = (gidx0<<3);
  int alu1 = (lidx0>>4);
  int alu2 = ((lidx0>>3)&1);
  int alu3 = ((lidx0>>2)&1);
  int alu4 = ((gidx1<<10)+(alu1<<8)+(alu2<<7)+(alu3<<6));
  int alu5 = (lidx0&1);
  int alu6 = (alu5<<1);
  int alu7 = ((lidx0>>1)&1);
  int alu8 = (alu7<<2);
  *(acc0+0) = 0.0f;
  *(acc0+1) = 0.0f;
  *(acc0+2) = 0.0f;
  *(acc0+3) = 0.0f;
  for (int Ridx0 = 0; Ridx0 < 8; Ridx0++) {
    int alu13 = (alu0+(alu1<<2)+(alu2<<1)+alu3+(alu7<<8)+(Ridx0<<9)+(alu5<<7));
    half val0 = (*(data2_4096+(alu13+64)));
    half val1 = (*(data2_4096+alu13));
    int alu14 = (alu4+alu8+(Ridx0<<3)+alu6);
    half2 val2 = (*((half2*)((data1_4096+(alu14+512)))));
    half2 val3 = (*((half2*)((data1_4096+alu14))));
    float4 wmma0 = __WMMA_8_16_8_half_float(make_half4(val3.x,val3.y,val2.x,val2.y), make_half2(val1,val0), make_float4((*(acc0+0)),(*(acc0+1)),(*(acc0+2)),(*(acc0+3))));
    *(acc0+0) = wmma0.x;
    *(acc0+1) = wmma0.y;
    *(acc0+2) = wmma0.z;
    *(acc0+3) = wmma0.w;
  }
  int alu20 = (alu4+alu0+alu8+alu6);
  *((half2*)((data0_4096+(alu20+512)))) = make_half2(((half)((*(acc0+2)))),((half)((*(acc0+3)))));
  *((half2*)((data0_4096+alu20))) = make_half2(((half)((*(acc0+0)))),((half)((*(acc0+1)))));
}