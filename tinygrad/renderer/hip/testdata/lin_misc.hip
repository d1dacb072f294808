#define INFINITY (__builtin_inff())
#define NAN (__builtin_nanf(""))
typedef long unsigned int size_t;
#define half _Float16
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 64))) misc(int* data0_8, float* data1_8, half* data2_8) {
  int gidx0 = __ockl_get_group_id(0); /* 4 */
  int gidx1 = __ockl_get_group_id(1); /* 3 */
  int gidx2 = __ockl_get_group_id(2); /* 2 */
  int lidx0 = __ockl_get_local_id(0); /* 8 */
  int lidx1 = __ockl_get_local_id(1); /* 4 */
  int lidx2 = __ockl_get_local_id(2); /* 2 */
  int alu0 = (gidx0+gidx1+gidx2+lidx0+lidx1+lidx2);
  float val0 = (*(data1_8+alu0));
  *(data0_8+alu0) = __builtin_bit_cast(int, (float)(val0));
  half val1 = (*(data2_8+alu0));
  *(data0_8+1) = ((int)(__builtin_bit_cast(unsigned short, (half)(val1))));
  *(data1_8+0) = ((float)(INFINITY));
  *(data1_8+1) = ((float)(-INFINITY));
  *(data1_8+2) = ((float)(NAN));
  *(data2_8+0) = ((half)(INFINITY));
}