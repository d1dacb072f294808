
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 1))) consts_small_ints(signed char* data0_4) {
  *(data0_4+0) = ((signed char)(-128));
  *(data0_4+1) = ((signed char)(127));
  *(data0_4+2) = ((signed char)(3));
  *(data0_4+3) = ((signed char)(0));
}