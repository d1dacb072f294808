typedef long unsigned int size_t;
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
typedef float float2 __attribute__((ext_vector_type(2)));
static inline __attribute__((device)) float2 make_float2(float x, float y) { return { x, y }; }
typedef float float4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) float4 make_float4(float x, float y, float z, float w) { return { x, y, z, w }; }
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 4))) E_4_4n13(float* data0_16, float* data1_14) {
  int lidx0 = __ockl_get_local_id(0); /* 4 */
  int alu0 = (lidx0<<2);
  float val0 = ((0<lidx0)?*(data1_14+(alu0+-1)):0.0f);
  float val1 = ((lidx0<3)?*(data1_14+(alu0+2)):0.0f);
  float2 val2 = (*((float2*)((data1_14+alu0))));
  *((float4*)((data0_16+alu0))) = make_float4((val0+1.0f),(val2.x+1.0f),(val2.y+1.0f),(val1+1.0f));
}