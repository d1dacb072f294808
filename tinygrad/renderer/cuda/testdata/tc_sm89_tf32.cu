#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; return u.t; }
__device__ float4 __WMMA_8_16_8_float_float(float4 a, float2 b, float4 c){
  int *a_pk = (int *)(&a), *b_pk = (int *)(&b), *c_pk = (int *)(&c);
  asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"
      "{%0, %1, %2, %3}, {%4, %5, %6, %7},"
      "{%8, %9}, {%0, %1, %2, %3};"
    : "+r"(c_pk[0]), "+r"(c_pk[1]), "+r"(c_pk[2]), "+r"(c_pk[3])
    : "r"(a_pk[0]), "r"(a_pk[1]), "r"(a_pk[2]), "r"(a_pk[3]), "r"(b_pk[0]), "r"(b_pk[1]));
  return c;
}
extern "C" __global__ void __launch_bounds__(32) r_4_8_32_2_2_8n3(float* data0_4096, float* data1_4096, float* data2_4096) {
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
  for (int Ridx0 = 0; Ridx0 < 8; Ridx0++) {
    int alu11 = (alu4+(alu6<<1)+(Ridx0<<3)+alu5);
    float val0 = (*(data1_4096+(alu11+4)));
    float val1 = (*(data1_4096+(alu11+512)));
    float val2 = (*(data1_4096+(alu11+516)));
    float val3 = (*(data1_4096+alu11));
    int alu12 = (alu0+(alu1<<2)+(alu2<<1)+alu3+(alu6<<7)+(Ridx0<<9)+(alu5<<6));
    float val4 = (*(data2_4096+(alu12+256)));
    float val5 = (*(data2_4096+alu12));
    float4 wmma0 = __WMMA_8_16_8_float_float(make_float4(val3,val1,val0,val2), make_float2(val5,val4), make_float4((*(acc0+0)),(*(acc0+1)),(*(acc0+2)),(*(acc0+3))));
    *(acc0+0) = wmma0.x;
    *(acc0+1) = wmma0.y;
    *(acc0+2) = wmma0.z;
    *(acc0+3) = wmma0.w;
  }
  int alu18 = (alu4+alu0+(alu6<<2)+(alu5<<1));
  *((float2*)((data0_4096+(alu18+512)))) = make_float2((*(acc0+2)),(*(acc0+3)));
  *((float2*)((data0_4096+alu18))) = make_float2((*(acc0+0)),(*(acc0+1)));
}