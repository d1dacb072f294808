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
extern "C" __global__ void __launch_bounds__(32) r_4_8_32_2_2_4_2n6(half* data0_3600, half* data1_3600, half* data2_3600) {
  float acc0[4];
  int gidx0 = blockIdx.x; /* 8 */
  int gidx1 = blockIdx.y; /* 4 */
  int lidx0 = threadIdx.x; /* 32 */
  half2 cast0 = make_half2(((half)(0.0f)),((half)(0.0f)));
  int alu0 = (lidx0>>4);
  int alu1 = ((lidx0>>3)&1);
  int alu2 = ((lidx0>>2)&1);
  int alu3 = ((gidx1*960)+(alu0*240)+(alu1*120)+(alu2*60));
  int alu4 = (gidx0<<3);
  int alu5 = (gidx0<<1);
  int alu6 = (lidx0&1);
  int alu7 = ((lidx0>>1)&1);
  int alu8 = (alu6<<1);
  int alu9 = (alu7<<2);
  bool alu10 = ((alu5+alu0)<15);
  bool alu11 = (((gidx1<<2)+alu0)<13);
  *(acc0+0) = 0.0f;
  *(acc0+1) = 0.0f;
  *(acc0+2) = 0.0f;
  *(acc0+3) = 0.0f;
  for (int Ridx0 = 0; Ridx0 < 4; Ridx0++) {
    int alu16 = (alu4+(alu0<<2)+(alu1<<1)+alu2+(alu7*240)+(Ridx0*960)+(alu6*120));
    half val0 = (alu10?*(data2_3600+(alu16+60)):((half)(0.0f)));
    bool alu17 = (((Ridx0<<2)+alu7)<13);
    bool alu18 = (alu17&alu10);
    half val1 = (alu18?*(data2_3600+(alu16+480)):((half)(0.0f)));
    half val2 = (alu18?*(data2_3600+(alu16+540)):((half)(0.0f)));
    half val3 = (alu10?*(data2_3600+alu16):((half)(0.0f)));
    int alu19 = (alu3+alu9+(Ridx0<<4)+alu8);
    half2 val4 = (alu17?*((half2*)((data1_3600+(alu19+8)))):cast0);
    half2 val5 = (alu11?*((half2*)((data1_3600+(alu19+480)))):cast0);
    half2 val6 = ((alu17&alu11)?*((half2*)((data1_3600+(alu19+488)))):cast0);
    half2 val7 = (*((half2*)((data1_3600+alu19))));
    float4 wmma0 = __WMMA_8_16_16_half_float(make_half8(val7.x,val7.y,val5.x,val5.y,val4.x,val4.y,val6.x,val6.y), make_half4(val3,val0,val1,val2), make_float4((*(acc0+0)),(*(acc0+1)),(*(acc0+2)),(*(acc0+3))));
    *(acc0+0) = wmma0.x;
    *(acc0+1) = wmma0.y;
    *(acc0+2) = wmma0.z;
    *(acc0+3) = wmma0.w;
  }
  int alu25 = (alu3+alu4+alu9+alu8);
  bool alu26 = ((alu5+alu7)<15);
  bool alu27 = (alu11&alu26);
  if (alu27) {
    *((half2*)((data0_3600+(alu25+480)))) = make_half2(((half)((*(acc0+2)))),((half)((*(acc0+3)))));
  }
  if (alu26) {
    *((half2*)((data0_3600+alu25))) = make_half2(((half)((*(acc0+0)))),((half)((*(acc0+1)))));
  }
}