typedef long unsigned int size_t;
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
typedef float float4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) float4 make_float4(float x, float y, float z, float w) { return { x, y, z, w }; }
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 128))) E_2_8_16_4(float* data0_1024, float* data1_1024, float* data2_16, float* data3_16) {
  int gidx0 = __ockl_get_group_id(0); /* 2 */
  int lidx0 = __ockl_get_local_id(0); /* 8 */
  int alu0 = (lidx0+(gidx0<<3));
  float val0 = (*(data2_16+alu0));
  float val1 = (*(data3_16+alu0));
  int lidx1 = __ockl_get_local_id(1); /* 16 */
  int alu1 = ((gidx0<<9)+(lidx0<<6)+(lidx1<<2));
  float4 val2 = (*((float4*)((data1_1024+alu1))));
  *((float4*)((data0_1024+alu1))) = make_float4(((val2.x-val0)*val1),((val2.y-val0)*val1),((val2.z-val0)*val1),((val2.w-val0)*val1));
}