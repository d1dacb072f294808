#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
#include <cuda_bf16.h>
struct __align__(8) nv_bfloat164 { nv_bfloat16 x, y, z, w; }; __device__ nv_bfloat164 make_nv_bfloat164(nv_bfloat16 x, nv_bfloat16 y, nv_bfloat16 z, nv_bfloat16 w) { nv_bfloat164 r={x, y, z, w}; return r; }
struct __align__(16) nv_bfloat168 { nv_bfloat16 x, y, z, w, a, b, c, d; }; __device__ nv_bfloat168 make_nv_bfloat168(nv_bfloat16 x, nv_bfloat16 y, nv_bfloat16 z, nv_bfloat16 w, nv_bfloat16 a, nv_bfloat16 b, nv_bfloat16 c, nv_bfloat16 d) { nv_bfloat168 r={x, y, z, w, a, b, c, d}; return r; }
__device__ float4 __WMMA_8_16_16___bf16_float(nv_bfloat168 a, nv_bfloat164 b, float4 c){
  int *a_pk = (int *)(&a), *b_pk = (int *)(&b), *c_pk = (int *)(&c);
  asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
      "{%0, %1, %2, %3}, {%4, %5, %6, %7},"
      "{%8, %9}, {%0, %1, %2, %3};"
    : "+r"(c_pk[0]), "+r"(c_pk[1]), "+r"(c_pk[2]), "+r"(c_pk[3])
    : "r"(a_pk[0]), "r"(a_pk[1]), "r"(a_pk[2]), "r"(a_pk[3]), "r"(b_pk[0]), "r"(b_pk[1]));
  return c;
}
extern "C" __global__ void __launch_bounds__(32) r_4_8_32_2_2_4_2n2(nv_bfloat16* data0_4096, nv_bfloat16* data1_4096, nv_bfloat16* data2_4096) {
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
  for (int Ridx0 = 0; Ridx0 < 4; Ridx0++) {
    int alu13 = (alu4+alu8+(Ridx0<<4)+alu6);
    nv_bfloat16 val0 = (*(data1_4096+(alu13+1)));
    nv_bfloat16 val1 = (*(data1_4096+(alu13+8)));
    nv_bfloat16 val2 = (*(data1_4096+(alu13+9)));
    nv_bfloat16 val3 = (*(data1_4096+(alu13+512)));
    nv_bfloat16 val4 = (*(data1_4096+(alu13+513)));
    nv_bfloat16 val5 = (*(data1_4096+(alu13+520)));
    nv_bfloat16 val6 = (*(data1_4096+(alu13+521)));
    nv_bfloat16 val7 = (*(data1_4096+alu13));
    int alu14 = (alu0+(alu1<<2)+(alu2<<1)+alu3+(alu7<<8)+(Ridx0<<10)+(alu5<<7));
    nv_bfloat16 val8 = (*(data2_4096+(alu14+64)));
    nv_bfloat16 val9 = (*(data2_4096+(alu14+512)));
    nv_bfloat16 val10 = (*(data2_4096+(alu14+576)));
    nv_bfloat16 val11 = (*(data2_4096+alu14));
    float4 wmma0 = __WMMA_8_16_16___bf16_float(make_nv_bfloat168(val7,val0,val3,val4,val1,val2,val5,val6), make_nv_bfloat164(val11,val8,val9,val10), make_float4((*(acc0+0)),(*(acc0+1)),(*(acc0+2)),(*(acc0+3))));
    *(acc0+0) = wmma0.x;
    *(acc0+1) = wmma0.y;
    *(acc0+2) = wmma0.z;
    *(acc0+3) = wmma0.w;
  }
  int alu20 = (alu4+alu0+alu8+alu6);
  *(data0_4096+(alu20+512)) = ((nv_bfloat16)((*(acc0+2))));
  *(data0_4096+(alu20+513)) = ((nv_bfloat16)((*(acc0+3))));
  *(data0_4096+(alu20+1)) = ((nv_bfloat16)((*(acc0+1))));
  *(data0_4096+alu20) = ((nv_bfloat16)((*(acc0+0))));
}