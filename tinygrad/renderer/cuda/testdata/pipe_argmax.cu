#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
extern "C" __global__ void __launch_bounds__(16) r_16_16n2(int* data0_16, float* data1_256, float* data2_16) {
  __shared__ __align__(16) int temp0[16];
  int acc0[1];
  int gidx0 = blockIdx.x; /* 16 */
  int lidx0 = threadIdx.x; /* 16 */
  float val0 = (*(data1_256+(lidx0+(gidx0<<4))));
  float val1 = (*(data2_16+gidx0));
  *(temp0+lidx0) = (((int)((val0==val1)))*(16-lidx0));
  __syncthreads();
  *(acc0+0) = -2147483648;
  for (int Ridx102 = 0; Ridx102 < 16; Ridx102++) {
    int val2 = (*(temp0+Ridx102));
    int alu3 = (((*(acc0+0))<val2)?val2:(*(acc0+0)));
    *(acc0+0) = alu3;
  }
  bool alu6 = (((bool)(lidx0))!=1);
  if (alu6) {
    *(data0_16+gidx0) = (16-(*(acc0+0)));
  }
}