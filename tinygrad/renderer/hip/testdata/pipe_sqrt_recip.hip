typedef long unsigned int size_t;
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
extern "C" __attribute__((device, const)) float __ocml_sqrt_f32(float);
extern "C" __attribute__((device)) float __ocml_trunc_f32(float);
typedef float float4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) float4 make_float4(float x, float y, float z, float w) { return { x, y, z, w }; }
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 32))) E_2_32_4n3(float* data0_256, float* data1_256, float* data2_256) {
  int gidx0 = __ockl_get_group_id(0); /* 2 */
  int lidx0 = __ockl_get_local_id(0); /* 32 */
  int alu0 = ((gidx0<<7)+(lidx0<<2));
  float4 val0 = (*((float4*)((data1_256+alu0))));
  float4 val1 = (*((float4*)((data2_256+alu0))));
  *((float4*)((data0_256+alu0))) = make_float4(((__ocml_sqrt_f32(val0.x)*(1/val1.x))+__ocml_trunc_f32(-val0.x)),((__ocml_sqrt_f32(val0.y)*(1/val1.y))+__ocml_trunc_f32(-val0.y)),((__ocml_sqrt_f32(val0.z)*(1/val1.z))+__ocml_trunc_f32(-val0.z)),((__ocml_sqrt_f32(val0.w)*(1/val1.w))+__ocml_trunc_f32(-val0.w)));
}