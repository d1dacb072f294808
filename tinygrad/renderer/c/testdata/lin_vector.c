typedef float float4 __attribute__((aligned(16),ext_vector_type(4)));
typedef __fp16 __fp164 __attribute__((aligned(8),ext_vector_type(4)));
typedef int int4 __attribute__((aligned(16),ext_vector_type(4)));
typedef float float2 __attribute__((aligned(8),ext_vector_type(2)));
void vec(float* restrict data0_16, float* restrict data1_16, int core_id) {
  float4 val0 = (*((float4*)((data1_16+0))));
  float4 alu0 = ((float4){val0[3],val0[2],val0[1],val0[0]}+val0);
  *((float4*)((data0_16+0))) = alu0;
  __fp164 cast0 = __builtin_convertvector(alu0, __fp164);
  float4 cast1 = __builtin_convertvector(cast0, float4);
  float4 cast2 = __builtin_convertvector(__builtin_bit_cast(int4, (float4)(cast1)), float4);
  *((float4*)((data0_16+4))) = cast2;
  float alu3 = ((val0[2]<val0[3])?(float2){val0[0],val0[1]}[1]:val0[1]);
  *(data0_16+8) = alu3;
}
