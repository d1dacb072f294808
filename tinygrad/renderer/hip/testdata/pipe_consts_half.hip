#define INFINITY (__builtin_inff())
#define NAN (__builtin_nanf(""))
#define half _Float16
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 1))) consts_half(half* data0_4) {
  *(data0_4+0) = ((half)(INFINITY));
  *(data0_4+1) = ((half)(-INFINITY));
  *(data0_4+2) = ((half)(NAN));
  *(data0_4+3) = ((half)(1.5f));
}