typedef long unsigned int size_t;
#define half _Float16
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
typedef half half4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) half4 make_half4(half x, half y, half z, half w) { return { x, y, z, w }; }
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 4))) E_4_4n9(half* data0_16, double* data1_16) {
  int lidx0 = __ockl_get_local_id(0); /* 4 */
  int alu0 = (lidx0<<2);
  double val0 = (*(data1_16+(alu0+1)));
  double val1 = (*(data1_16+(alu0+2)));
  double val2 = (*(data1_16+(alu0+3)));
  double val3 = (*(data1_16+alu0));
  *((half4*)((data0_16+alu0))) = make_half4(((half)(val3)),((half)(val0)),((half)(val1)),((half)(val2)));
}