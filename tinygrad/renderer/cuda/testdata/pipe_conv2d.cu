#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
extern "C" __global__ void __launch_bounds__(128) r_4_2_8_8_4_3_3(float* data0_512, float* data1_400, float* data2_288) {
  float acc0[1];
  int gidx0 = blockIdx.x; /* 4 */
  int lidx0 = threadIdx.x; /* 2 */
  int lidx1 = threadIdx.y; /* 8 */
  int lidx2 = threadIdx.z; /* 8 */
  *(acc0+0) = 0.0f;
  for (int Ridx0 = 0; Ridx0 < 4; Ridx0++) {
    int alu1 = (lidx2+(lidx1*10)+(Ridx0*100));
    float val0 = (*(data1_400+alu1));
    int alu2 = ((gidx0*72)+(lidx0*36)+(Ridx0*9));
    float val1 = (*(data2_288+(alu2+1)));
    float val2 = (*(data2_288+(alu2+2)));
    float val3 = (*(data2_288+alu2));
    float val4 = (*(data1_400+(alu1+1)));
    float val5 = (*(data1_400+(alu1+2)));
    float val6 = (*(data1_400+(alu1+10)));
    float val7 = (*(data2_288+(alu2+3)));
    float val8 = (*(data1_400+(alu1+11)));
    float val9 = (*(data2_288+(alu2+4)));
    float val10 = (*(data1_400+(alu1+12)));
    float val11 = (*(data2_288+(alu2+5)));
    float val12 = (*(data1_400+(alu1+20)));
    float val13 = (*(data2_288+(alu2+6)));
    float val14 = (*(data1_400+(alu1+21)));
    float val15 = (*(data2_288+(alu2+7)));
    float val16 = (*(data1_400+(alu1+22)));
    float val17 = (*(data2_288+(alu2+8)));
    *(acc0+0) = ((*(acc0+0))+(val0*val3)+(val4*val1)+(val5*val2)+(val6*val7)+(val8*val9)+(val10*val11)+(val12*val13)+(val14*val15)+(val16*val17));
  }
  *(data0_512+(lidx2+(lidx1<<3)+(gidx0<<7)+(lidx0<<6))) = (*(acc0+0));
}