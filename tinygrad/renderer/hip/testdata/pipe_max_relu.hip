typedef long unsigned int size_t;
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
typedef float float4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) float4 make_float4(float x, float y, float z, float w) { return { x, y, z, w }; }
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 32))) E_2_32_4n1(float* data0_256, float* data1_256, float* data2_256) {
  int gidx0 = __ockl_get_group_id(0); /* 2 */
  int lidx0 = __ockl_get_local_id(0); /* 32 */
  int alu0 = ((gidx0<<7)+(lidx0<<2));
  float4 val0 = (*((float4*)((data1_256+alu0))));
  float4 val1 = (*((float4*)((data2_256+alu0))));
  float alu1 = ((val0.x<val1.x)?val1.x:val0.x);
  float alu2 = ((0.0f<val0.x)?val0.x:0.0f);
  float alu3 = ((val0.y<val1.y)?val1.y:val0.y);
  float alu4 = ((0.0f<val0.y)?val0.y:0.0f);
  float alu5 = ((val0.z<val1.z)?val1.z:val0.z);
  float alu6 = ((0.0f<val0.z)?val0.z:0.0f);
  float alu7 = ((val0.w<val1.w)?val1.w:val0.w);
  float alu8 = ((0.0f<val0.w)?val0.w:0.0f);
  *((float4*)((data0_256+alu0))) = make_float4((alu1+alu2),(alu3+alu4),(alu5+alu6),(alu7+alu8));
}