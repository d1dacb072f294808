#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
#include <cuda_fp16.h>
struct __align__(8) half4 { half x, y, z, w; }; __device__ half4 make_half4(half x, half y, half z, half w) { half4 r={x, y, z, w}; return r; }
extern "C" __global__ void __launch_bounds__(32) r_4_8_32_2_2_4_2_2_2_2(half* data0_4096, half* data1_4096, half* data2_4096) {
  float acc0[4];
  int gidx0 = blockIdx.x; /* 8 */
  int gidx1 = blockIdx.y; /* 4 */
  int lidx0 = threadIdx.x; /* 32 */
  int alu0 = ((gidx1<<10)+((lidx0>>4)<<8)+(((lidx0>>3)&1)<<7)+(((lidx0>>2)&1)<<6));
  int alu1 = ((gidx0<<3)+(((lidx0>>1)&1)<<2)+((lidx0&1)<<1));
  *(acc0+0) = 0.0f;
  *(acc0+1) = 0.0f;
  *(acc0+2) = 0.0f;
  *(acc0+3) = 0.0f;
  for (int Ridx0 = 0; Ridx0 < 4; Ridx0++) {
    int alu6 = (alu1+(Ridx0<<10));
    half2 val0 = (*((half2*)((data2_4096+(alu6+64)))));
    half2 val1 = (*((half2*)((data2_4096+(alu6+128)))));
    half2 val2 = (*((half2*)((data2_4096+(alu6+192)))));
    half2 val3 = (*((half2*)((data2_4096+(alu6+256)))));
    half2 val4 = (*((half2*)((data2_4096+(alu6+320)))));
    half2 val5 = (*((half2*)((data2_4096+(alu6+384)))));
    half2 val6 = (*((half2*)((data2_4096+(alu6+448)))));
    half2 val7 = (*((half2*)((data2_4096+(alu6+512)))));
    half2 val8 = (*((half2*)((data2_4096+(alu6+576)))));
    half2 val9 = (*((half2*)((data2_4096+(alu6+640)))));
    half2 val10 = (*((half2*)((data2_4096+(alu6+704)))));
    half2 val11 = (*((half2*)((data2_4096+(alu6+768)))));
    half2 val12 = (*((half2*)((data2_4096+(alu6+832)))));
    half2 val13 = (*((half2*)((data2_4096+(alu6+896)))));
    half2 val14 = (*((half2*)((data2_4096+(alu6+960)))));
    half2 val15 = (*((half2*)((data2_4096+alu6))));
    int alu7 = (alu0+(Ridx0<<4));
    half4 val16 = (*((half4*)((data1_4096+(alu7+4)))));
    half4 val17 = (*((half4*)((data1_4096+(alu7+8)))));
    half4 val18 = (*((half4*)((data1_4096+(alu7+12)))));
    half4 val19 = (*((half4*)((data1_4096+(alu7+512)))));
    half4 val20 = (*((half4*)((data1_4096+(alu7+516)))));
    half4 val21 = (*((half4*)((data1_4096+(alu7+520)))));
    half4 val22 = (*((half4*)((data1_4096+(alu7+524)))));
    half4 val23 = (*((half4*)((data1_4096+alu7))));
    *(acc0+0) = ((*(acc0+0))+((float)((val23.x*val15.x)))+((float)((val23.y*val0.x)))+((float)((val23.z*val1.x)))+((float)((val23.w*val2.x)))+((float)((val16.x*val3.x)))+((float)((val16.y*val4.x)))+((float)((val16.z*val5.x)))+((float)((val16.w*val6.x)))+((float)((val17.x*val7.x)))+((float)((val17.y*val8.x)))+((float)((val17.z*val9.x)))+((float)((val17.w*val10.x)))+((float)((val18.x*val11.x)))+((float)((val18.y*val12.x)))+((float)((val18.z*val13.x)))+((float)((val18.w*val14.x))));
    *(acc0+1) = ((*(acc0+1))+((float)((val19.x*val15.x)))+((float)((val19.y*val0.x)))+((float)((val19.z*val1.x)))+((float)((val19.w*val2.x)))+((float)((val20.x*val3.x)))+((float)((val20.y*val4.x)))+((float)((val20.z*val5.x)))+((float)((val20.w*val6.x)))+((float)((val21.x*val7.x)))+((float)((val21.y*val8.x)))+((float)((val21.z*val9.x)))+((float)((val21.w*val10.x)))+((float)((val22.x*val11.x)))+((float)((val22.y*val12.x)))+((float)((val22.z*val13.x)))+((float)((val22.w*val14.x))));
    *(acc0+2) = ((*(acc0+2))+((float)((val23.x*val15.y)))+((float)((val23.y*val0.y)))+((float)((val23.z*val1.y)))+((float)((val23.w*val2.y)))+((float)((val16.x*val3.y)))+((float)((val16.y*val4.y)))+((float)((val16.z*val5.y)))+((float)((val16.w*val6.y)))+((float)((val17.x*val7.y)))+((float)((val17.y*val8.y)))+((float)((val17.z*val9.y)))+((float)((val17.w*val10.y)))+((float)((val18.x*val11.y)))+((float)((val18.y*val12.y)))+((float)((val18.z*val13.y)))+((float)((val18.w*val14.y))));
    *(acc0+3) = ((*(acc0+3))+((float)((val19.x*val15.y)))+((float)((val19.y*val0.y)))+((float)((val19.z*val1.y)))+((float)((val19.w*val2.y)))+((float)((val20.x*val3.y)))+((float)((val20.y*val4.y)))+((float)((val20.z*val5.y)))+((float)((val20.w*val6.y)))+((float)((val21.x*val7.y)))+((float)((val21.y*val8.y)))+((float)((val21.z*val9.y)))+((float)((val21.w*val10.y)))+((float)((val22.x*val11.y)))+((float)((val22.y*val12.y)))+((float)((val22.z*val13.y)))+((float)((val22.w*val14.y))));
  }
  int alu13 = (alu0+alu1);
  *((half2*)((data0_4096+(alu13+512)))) = make_half2(((half)((*(acc0+1)))),((half)((*(acc0+3)))));
  *((half2*)((data0_4096+alu13))) = make_half2(((half)((*(acc0+0)))),((half)((*(acc0+2)))));
}