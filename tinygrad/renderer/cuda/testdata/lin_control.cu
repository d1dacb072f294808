#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
extern "C" __global__ void __launch_bounds__(8) ctrl(float* data0_64, float* data1, const int n) {
  float acc0[1];
  __shared__ __align__(16) float temp0[16];
  int gidx0 = blockIdx.x; /* 8 */
  int lidx0 = threadIdx.x; /* 4 */
  int lidx1 = threadIdx.y; /* 2 */
  *(acc0+0) = 0.0f;
  for (int Ridx0 = 0; Ridx0 < n; Ridx0++) {
    int alu1 = ((Ridx0*8)+gidx0);
    float val0 = ((alu1<60)?*(data1+alu1):-1.0f);
    *(acc0+0) = ((*(acc0+0))+val0);
  }
  int alu4 = (lidx1*4);
  *(temp0+(alu4+lidx0)) = (*(acc0+0));
  __syncthreads();
  if ((lidx0<1)) {
    float val1 = (*(temp0+alu4));
    *(data0_64+((gidx0*2)+lidx1)) = val1;
  }
  int i0 = (blockIdx.x*blockDim.x+threadIdx.x); /* 64 */
  *(data0_64+i0) = ((float)(i0));
  /* custom gidx0 */
}