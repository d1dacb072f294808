#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
extern "C" __global__ void __launch_bounds__(4) E_4_4n10(float* data0_16, int* data1_16, unsigned char* data2_16, float* data3_256) {
  int lidx0 = threadIdx.x; /* 4 */
  int alu0 = (lidx0<<2);
  int alu1 = (alu0+1);
  unsigned char val0 = (*(data2_16+alu1));
  int alu2 = (alu0+2);
  unsigned char val1 = (*(data2_16+alu2));
  int alu3 = (alu0+3);
  unsigned char val2 = (*(data2_16+alu3));
  unsigned char val3 = (*(data2_16+alu0));
  int val4 = (*(data1_16+alu1));
  int val5 = (*(data1_16+alu2));
  int val6 = (*(data1_16+alu3));
  int val7 = (*(data1_16+alu0));
  float4 val8 = (*((float4*)((data3_256+alu0))));
  *((float4*)((data0_16+alu0))) = make_float4((((float)(val7))+((float)(val3))+((float)(((signed char)(val8.x))))),(((float)(val4))+((float)(val0))+((float)(((signed char)(val8.y))))),(((float)(val5))+((float)(val1))+((float)(((signed char)(val8.z))))),(((float)(val6))+((float)(val2))+((float)(((signed char)(val8.w))))));
}