#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
#include <cuda_fp16.h>
struct __align__(8) half4 { half x, y, z, w; }; __device__ half4 make_half4(half x, half y, half z, half w) { half4 r={x, y, z, w}; return r; }
struct __align__(16) half8 { half x, y, z, w, a, b, c, d; }; __device__ half8 make_half8(half x, half y, half z, half w, half a, half b, half c, half d) { half8 r={x, y, z, w, a, b, c, d}; return r; }
__device__ float4 __WMMA_8_16_16_half_float(half8 a, half4 b, float4 c){
  int *a_pk = (int *)(&a), *b_pk = (int *)(&b), *c_pk = (int *)(&c);
  asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
      "{%0, %1, %2, %3}, {%4, %5, %6, %7},"
      "{%8, %9}, {%0, %1, %2, %3};"
    : "+r"(c_pk[0]), "+r"(c_pk[1]), "+r"(c_pk[2]), "+r"(c_pk[3])
    : "r"(a_pk[0]), "r"(a_pk[1]), "r"(a_pk[2]), "r"(a_pk[3]), "r"(b_pk[0]), "r"(b_pk[1]));
  return c;
}
extern "C" __global__ void __launch_bounds__(64) r_2_4_32_2_2_2_2_4_2(half* data0_4096, half* data1_4096, half* data2_4096) {
  float acc0[8];
  int gidx0 = blockIdx.x; /* 4 */
  int gidx1 = blockIdx.y; /* 2 */
  int lidx0 = threadIdx.x; /* 32 */
  int lidx1 = threadIdx.y; /* 2 */
  int alu0 = (lidx0>>4);
  int alu1 = ((lidx0>>3)&1);
  int alu2 = ((lidx0>>2)&1);
  int alu3 = ((gidx1<<11)+(lidx1<<10)+(alu0<<8)+(alu1<<7)+(alu2<<6));
  int alu4 = (gidx0<<4);
  int alu5 = (lidx0&1);
  int alu6 = (alu5<<1);
  int alu7 = ((lidx0>>1)&1);
  int alu8 = (alu7<<2);
  *(acc0+0) = 0.0f;
  *(acc0+1) = 0.0f;
  *(acc0+2) = 0.0f;
  *(acc0+3) = 0.0f;
  *(acc0+4) = 0.0f;
  *(acc0+5) = 0.0f;
  *(acc0+6) = 0.0f;
  *(acc0+7) = 0.0f;
  for (int Ridx0 = 0; Ridx0 < 4; Ridx0++) {
    int alu17 = (alu4+(alu0<<2)+(alu1<<1)+alu2+(alu7<<8)+(Ridx0<<10)+(alu5<<7));
    half val0 = (*(data2_4096+(alu17+8)));
    half val1 = (*(data2_4096+(alu17+64)));
    half val2 = (*(data2_4096+(alu17+72)));
    half val3 = (*(data2_4096+(alu17+512)));
    half val4 = (*(data2_4096+(alu17+520)));
    half val5 = (*(data2_4096+(alu17+576)));
    half val6 = (*(data2_4096+(alu17+584)));
    half val7 = (*(data2_4096+alu17));
    int alu18 = (alu3+alu8+(Ridx0<<4)+alu6);
    half2 val8 = (*((half2*)((data1_4096+(alu18+8)))));
    half2 val9 = (*((half2*)((data1_4096+(alu18+512)))));
    half2 val10 = (*((half2*)((data1_4096+(alu18+520)))));
    half2 val11 = (*((half2*)((data1_4096+alu18))));
    half8 cast0 = make_half8(val11.x,val11.y,val9.x,val9.y,val8.x,val8.y,val10.x,val10.y);
    float4 wmma0 = __WMMA_8_16_16_half_float(cast0, make_half4(val0,val2,val4,val6), make_float4((*(acc0+4)),(*(acc0+5)),(*(acc0+6)),(*(acc0+7))));
    float4 wmma1 = __WMMA_8_16_16_half_float(cast0, make_half4(val7,val1,val3,val5), make_float4((*(acc0+0)),(*(acc0+1)),(*(acc0+2)),(*(acc0+3))));
    *(acc0+0) = wmma1.x;
    *(acc0+1) = wmma1.y;
    *(acc0+2) = wmma1.z;
    *(acc0+3) = wmma1.w;
    *(acc0+4) = wmma0.x;
    *(acc0+5) = wmma0.y;
    *(acc0+6) = wmma0.z;
    *(acc0+7) = wmma0.w;
  }
  int alu28 = (alu3+alu4+alu8+alu6);
  *((half2*)((data0_4096+(alu28+8)))) = make_half2(((half)((*(acc0+4)))),((half)((*(acc0+5)))));
  *((half2*)((data0_4096+(alu28+512)))) = make_half2(((half)((*(acc0+2)))),((half)((*(acc0+3)))));
  *((half2*)((data0_4096+(alu28+520)))) = make_half2(((half)((*(acc0+6)))),((half)((*(acc0+7)))));
  *((half2*)((data0_4096+alu28))) = make_half2(((half)((*(acc0+0)))),((half)((*(acc0+1)))));
}