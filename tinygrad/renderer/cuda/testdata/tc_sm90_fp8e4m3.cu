#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
#include <cuda_fp8.h>
struct __align__(4) __nv_fp8_e4m34 { __nv_fp8_e4m3 x, y, z, w; }; __device__ __nv_fp8_e4m34 make___nv_fp8_e4m34(__nv_fp8_e4m3 x, __nv_fp8_e4m3 y, __nv_fp8_e4m3 z, __nv_fp8_e4m3 w) { __nv_fp8_e4m34 r={x, y, z, w}; return r; }
struct __align__(8) __nv_fp8_e4m38 { __nv_fp8_e4m3 x, y, z, w, a, b, c, d; }; __device__ __nv_fp8_e4m38 make___nv_fp8_e4m38(__nv_fp8_e4m3 x, __nv_fp8_e4m3 y, __nv_fp8_e4m3 z, __nv_fp8_e4m3 w, __nv_fp8_e4m3 a, __nv_fp8_e4m3 b, __nv_fp8_e4m3 c, __nv_fp8_e4m3 d) { __nv_fp8_e4m38 r={x, y, z, w, a, b, c, d}; return r; }
struct __align__(16) __nv_fp8_e4m316 { __nv_fp8_e4m3 x, y, z, w, a, b, c, d, e, f, g, h, i, j, k, l; }; __device__ __nv_fp8_e4m316 make___nv_fp8_e4m316(__nv_fp8_e4m3 x, __nv_fp8_e4m3 y, __nv_fp8_e4m3 z, __nv_fp8_e4m3 w, __nv_fp8_e4m3 a, __nv_fp8_e4m3 b, __nv_fp8_e4m3 c, __nv_fp8_e4m3 d, __nv_fp8_e4m3 e, __nv_fp8_e4m3 f, __nv_fp8_e4m3 g, __nv_fp8_e4m3 h, __nv_fp8_e4m3 i, __nv_fp8_e4m3 j, __nv_fp8_e4m3 k, __nv_fp8_e4m3 l) { __nv_fp8_e4m316 r={x, y, z, w, a, b, c, d, e, f, g, h, i, j, k, l}; return r; }
struct __align__(2) __nv_fp8_e4m32 { __nv_fp8_e4m3 x, y; }; __device__ __nv_fp8_e4m32 make___nv_fp8_e4m32(__nv_fp8_e4m3 x, __nv_fp8_e4m3 y) { __nv_fp8_e4m32 r={x, y}; return r; }
__device__ float4 __WMMA_8_16_32_float8_e4m3_float(__nv_fp8_e4m316 a, __nv_fp8_e4m38 b, float4 c){
  int *a_pk = (int *)(&a), *b_pk = (int *)(&b), *c_pk = (int *)(&c);
  asm("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32"
      "{%0, %1, %2, %3}, {%4, %5, %6, %7},"
      "{%8, %9}, {%0, %1, %2, %3};"
    : "+r"(c_pk[0]), "+r"(c_pk[1]), "+r"(c_pk[2]), "+r"(c_pk[3])
    : "r"(a_pk[0]), "r"(a_pk[1]), "r"(a_pk[2]), "r"(a_pk[3]), "r"(b_pk[0]), "r"(b_pk[1]));
  return c;
}
extern "C" __global__ void __launch_bounds__(32) r_4_8_32_2_2_2_2_2n2(__nv_fp8_e4m3* data0_4096, __nv_fp8_e4m3* data1_4096, __nv_fp8_e4m3* data2_4096) {
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
  int alu6 = ((lidx0>>1)&1);
  *(acc0+0) = 0.0f;
  *(acc0+1) = 0.0f;
  *(acc0+2) = 0.0f;
  *(acc0+3) = 0.0f;
  for (int Ridx0 = 0; Ridx0 < 2; Ridx0++) {
    int alu11 = (alu0+(alu1<<2)+(alu2<<1)+alu3+(alu6<<9)+(Ridx0<<11)+(alu5<<8));
    __nv_fp8_e4m3 val0 = (*(data2_4096+(alu11+64)));
    __nv_fp8_e4m3 val1 = (*(data2_4096+(alu11+128)));
    __nv_fp8_e4m3 val2 = (*(data2_4096+(alu11+192)));
    __nv_fp8_e4m3 val3 = (*(data2_4096+(alu11+1024)));
    __nv_fp8_e4m3 val4 = (*(data2_4096+(alu11+1088)));
    __nv_fp8_e4m3 val5 = (*(data2_4096+(alu11+1152)));
    __nv_fp8_e4m3 val6 = (*(data2_4096+(alu11+1216)));
    __nv_fp8_e4m3 val7 = (*(data2_4096+alu11));
    int alu12 = (alu4+(alu6<<3)+(Ridx0<<5)+(alu5<<2));
    __nv_fp8_e4m34 val8 = (*((__nv_fp8_e4m34*)((data1_4096+(alu12+16)))));
    __nv_fp8_e4m34 val9 = (*((__nv_fp8_e4m34*)((data1_4096+(alu12+512)))));
    __nv_fp8_e4m34 val10 = (*((__nv_fp8_e4m34*)((data1_4096+(alu12+528)))));
    __nv_fp8_e4m34 val11 = (*((__nv_fp8_e4m34*)((data1_4096+alu12))));
    float4 wmma0 = __WMMA_8_16_32_float8_e4m3_float(make___nv_fp8_e4m316(val11.x,val11.y,val11.z,val11.w,val9.x,val9.y,val9.z,val9.w,val8.x,val8.y,val8.z,val8.w,val10.x,val10.y,val10.z,val10.w), make___nv_fp8_e4m38(val7,val0,val1,val2,val3,val4,val5,val6), make_float4((*(acc0+0)),(*(acc0+1)),(*(acc0+2)),(*(acc0+3))));
    *(acc0+0) = wmma0.x;
    *(acc0+1) = wmma0.y;
    *(acc0+2) = wmma0.z;
    *(acc0+3) = wmma0.w;
  }
  int alu18 = (alu4+alu0+(alu6<<2)+(alu5<<1));
  *((__nv_fp8_e4m32*)((data0_4096+(alu18+512)))) = make___nv_fp8_e4m32(((__nv_fp8_e4m3)((*(acc0+2)))),((__nv_fp8_e4m3)((*(acc0+3)))));
  *((__nv_fp8_e4m32*)((data0_4096+alu18))) = make___nv_fp8_e4m32(((__nv_fp8_e4m3)((*(acc0+0)))),((__nv_fp8_e4m3)((*(acc0+1)))));
}