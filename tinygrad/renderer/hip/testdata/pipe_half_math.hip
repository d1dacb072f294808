typedef long unsigned int size_t;
#define half _Float16
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
extern "C" __attribute__((device, pure)) half __ocml_exp2_f16(half);
extern "C" __attribute__((device, pure)) half __ocml_log2_f16(half);
extern "C" __attribute__((device)) half __ocml_sin_f16(half);
extern "C" __attribute__((device, const)) half __ocml_sqrt_f16(half);
extern "C" __attribute__((device)) half __ocml_trunc_f16(half);
typedef half half4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) half4 make_half4(half x, half y, half z, half w) { return { x, y, z, w }; }
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 4))) E_4_4n5(half* data0_16, half* data1_16, half* data2_16) {
  int lidx0 = __ockl_get_local_id(0); /* 4 */
  int alu0 = (lidx0<<2);
  half4 val0 = (*((half4*)((data1_16+alu0))));
  half4 val1 = (*((half4*)((data2_16+alu0))));
  *((half4*)((data0_16+alu0))) = make_half4((__ocml_exp2_f16(val0.x)+__ocml_log2_f16(val1.x)+__ocml_sin_f16(val0.x)+__ocml_sqrt_f16(val1.x)+(1/val0.x)+__ocml_trunc_f16(val1.x)),(__ocml_exp2_f16(val0.y)+__ocml_log2_f16(val1.y)+__ocml_sin_f16(val0.y)+__ocml_sqrt_f16(val1.y)+(1/val0.y)+__ocml_trunc_f16(val1.y)),(__ocml_exp2_f16(val0.z)+__ocml_log2_f16(val1.z)+__ocml_sin_f16(val0.z)+__ocml_sqrt_f16(val1.z)+(1/val0.z)+__ocml_trunc_f16(val1.z)),(__ocml_exp2_f16(val0.w)+__ocml_log2_f16(val1.w)+__ocml_sin_f16(val0.w)+__ocml_sqrt_f16(val1.w)+(1/val0.w)+__ocml_trunc_f16(val1.w)));
}