#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
extern "C" __global__ void __launch_bounds__(1) r_8_16_2_4_4(float* data0_256, float* data1_256, float* data2_256) {
  float acc0[2];
  int gidx0 = blockIdx.x; /* 16 */
  int gidx1 = blockIdx.y; /* 8 */
  int alu0 = (gidx1<<5);
  *(acc0+0) = 0.0f;
  *(acc0+1) = 0.0f;
  for (int Ridx0 = 0; Ridx0 < 4; Ridx0++) {
    int alu3 = (gidx0+(Ridx0<<6));
    float val0 = (*(data2_256+alu3));
    float val1 = (*(data2_256+(alu3+16)));
    float val2 = (*(data2_256+(alu3+32)));
    float val3 = (*(data2_256+(alu3+48)));
    int alu4 = (alu0+(Ridx0<<2));
    float4 val4 = (*((float4*)((data1_256+(alu4+16)))));
    float4 val5 = (*((float4*)((data1_256+alu4))));
    *(acc0+0) = ((*(acc0+0))+(val5.x*val0)+(val5.y*val1)+(val5.z*val2)+(val5.w*val3));
    *(acc0+1) = ((*(acc0+1))+(val4.x*val0)+(val4.y*val1)+(val4.z*val2)+(val4.w*val3));
  }
  int alu8 = (gidx0+alu0);
  *(data0_256+alu8) = (*(acc0+0));
  *(data0_256+(alu8+16)) = (*(acc0+1));
}