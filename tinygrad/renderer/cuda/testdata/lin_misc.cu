#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
#include <cuda_fp16.h>
extern "C" __global__ void __launch_bounds__(64) misc(int* data0_8, float* data1_8, half* data2_8) {
  int gidx0 = blockIdx.x; /* 4 */
  int gidx1 = blockIdx.y; /* 3 */
  int gidx2 = blockIdx.z; /* 2 */
  int lidx0 = threadIdx.x; /* 8 */
  int lidx1 = threadIdx.y; /* 4 */
  int lidx2 = threadIdx.z; /* 2 */
  int alu0 = (gidx0+gidx1+gidx2+lidx0+lidx1+lidx2);
  float val0 = (*(data1_8+alu0));
  *(data0_8+alu0) = tg_bitcast<int>((float)(val0));
  half val1 = (*(data2_8+alu0));
  *(data0_8+1) = ((int)(tg_bitcast<unsigned short>((half)(val1))));
  *(data1_8+0) = ((float)(INFINITY));
  *(data1_8+1) = ((float)(-INFINITY));
  *(data1_8+2) = ((float)(NAN));
  *(data2_8+0) = ((half)(INFINITY));
}