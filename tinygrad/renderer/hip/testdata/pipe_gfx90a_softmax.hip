typedef long unsigned int size_t;
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
extern "C" __attribute__((device, pure)) float __ocml_exp2_f32(float);
typedef float float4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) float4 make_float4(float x, float y, float z, float w) { return { x, y, z, w }; }
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 64))) E_8_8_4n1(float* data0_256, float* data1_256, float* data2_8, float* data3_8) {
  int lidx0 = __ockl_get_local_id(0); /* 8 */
  float val0 = (*(data2_8+lidx0));
  float val1 = (*(data3_8+lidx0));
  int lidx1 = __ockl_get_local_id(1); /* 8 */
  int alu0 = ((lidx0<<5)+(lidx1<<2));
  float4 val2 = (*((float4*)((data1_256+alu0))));
  float alu1 = (1/val1);
  *((float4*)((data0_256+alu0))) = make_float4((__ocml_exp2_f32(((val2.x-val0)*1.4426950408889634f))*alu1),(__ocml_exp2_f32(((val2.y-val0)*1.4426950408889634f))*alu1),(__ocml_exp2_f32(((val2.z-val0)*1.4426950408889634f))*alu1),(__ocml_exp2_f32(((val2.w-val0)*1.4426950408889634f))*alu1));
}