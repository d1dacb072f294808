
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 1))) consts_long(long* data0_4) {
  *(data0_4+0) = 9223372036854775807ll;
  *(data0_4+1) = -9223372036854775807ll;
  *(data0_4+2) = 5ll;
  *(data0_4+3) = 1099511627776ll;
}