#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
#include <cuda_fp8.h>
struct __align__(4) __nv_fp8_e4m34 { __nv_fp8_e4m3 x, y, z, w; }; __device__ __nv_fp8_e4m34 make___nv_fp8_e4m34(__nv_fp8_e4m3 x, __nv_fp8_e4m3 y, __nv_fp8_e4m3 z, __nv_fp8_e4m3 w) { __nv_fp8_e4m34 r={x, y, z, w}; return r; }
struct __align__(4) __nv_fp8_e5m24 { __nv_fp8_e5m2 x, y, z, w; }; __device__ __nv_fp8_e5m24 make___nv_fp8_e5m24(__nv_fp8_e5m2 x, __nv_fp8_e5m2 y, __nv_fp8_e5m2 z, __nv_fp8_e5m2 w) { __nv_fp8_e5m24 r={x, y, z, w}; return r; }
extern "C" __global__ void __launch_bounds__(16) E_16_4(__nv_fp8_e5m2* data0_64, __nv_fp8_e4m3* data1_64, __nv_fp8_e4m3* data2_64) {
  int lidx0 = threadIdx.x; /* 16 */
  int alu0 = (lidx0<<2);
  __nv_fp8_e4m34 val0 = (*((__nv_fp8_e4m34*)((data1_64+alu0))));
  __nv_fp8_e4m34 val1 = (*((__nv_fp8_e4m34*)((data2_64+alu0))));
  float cast0 = ((float)(val1.x));
  float cast1 = ((float)(val1.y));
  float cast2 = ((float)(val1.z));
  float cast3 = ((float)(val1.w));
  *((__nv_fp8_e5m24*)((data0_64+alu0))) = make___nv_fp8_e5m24(((__nv_fp8_e5m2)(((float)(((__nv_fp8_e4m3)((((float)(((__nv_fp8_e4m3)((cast0*((float)(val0.x)))))))+cast0))))))),((__nv_fp8_e5m2)(((float)(((__nv_fp8_e4m3)((((float)(((__nv_fp8_e4m3)((cast1*((float)(val0.y)))))))+cast1))))))),((__nv_fp8_e5m2)(((float)(((__nv_fp8_e4m3)((((float)(((__nv_fp8_e4m3)((cast2*((float)(val0.z)))))))+cast2))))))),((__nv_fp8_e5m2)(((float)(((__nv_fp8_e4m3)((((float)(((__nv_fp8_e4m3)((cast3*((float)(val0.w)))))))+cast3))))))));
}