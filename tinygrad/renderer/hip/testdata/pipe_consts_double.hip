#define INFINITY (__builtin_inff())
#define NAN (__builtin_nanf(""))
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 1))) consts_double(double* data0_4) {
  *(data0_4+0) = ((double)(INFINITY));
  *(data0_4+1) = ((double)(-INFINITY));
  *(data0_4+2) = ((double)(NAN));
  *(data0_4+3) = 1.0000001;
}