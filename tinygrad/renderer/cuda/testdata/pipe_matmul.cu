#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
extern "C" __global__ void __launch_bounds__(16) r_16_16_16(float* data0_256, float* data1_256, float* data2_256) {
  __shared__ __align__(16) float temp0[16];
  float acc0[1];
  int gidx1 = blockIdx.y; /* 16 */
  int lidx0 = threadIdx.x; /* 16 */
  int alu0 = (gidx1<<4);
  float val0 = (*(data1_256+(lidx0+alu0)));
  int gidx0 = blockIdx.x; /* 16 */
  float val1 = (*(data2_256+(gidx0+(lidx0<<4))));
  *(temp0+lidx0) = (val0*val1);
  __syncthreads();
  *(acc0+0) = 0.0f;
  for (int Ridx103 = 0; Ridx103 < 16; Ridx103++) {
    float val2 = (*(temp0+Ridx103));
    *(acc0+0) = ((*(acc0+0))+val2);
  }
  bool alu6 = (((bool)(lidx0))!=1);
  if (alu6) {
    *(data0_256+(gidx0+alu0)) = (*(acc0+0));
  }
}