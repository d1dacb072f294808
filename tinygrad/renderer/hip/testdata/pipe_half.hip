typedef long unsigned int size_t;
#define half _Float16
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
extern "C" __attribute__((device, const)) half __ocml_sqrt_f16(half);
typedef half half4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) half4 make_half4(half x, half y, half z, half w) { return { x, y, z, w }; }
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 4))) E_4_4n3(half* data0_16, half* data1_16, half* data2_16) {
  int lidx0 = __ockl_get_local_id(0); /* 4 */
  int alu0 = (lidx0<<2);
  half4 val0 = (*((half4*)((data1_16+alu0))));
  half4 val1 = (*((half4*)((data2_16+alu0))));
  *((half4*)((data0_16+alu0))) = make_half4(__ocml_sqrt_f16(((val0.x*val1.x)+((half)(1.5f)))),__ocml_sqrt_f16(((val0.y*val1.y)+((half)(1.5f)))),__ocml_sqrt_f16(((val0.z*val1.z)+((half)(1.5f)))),__ocml_sqrt_f16(((val0.w*val1.w)+((half)(1.5f)))));
}