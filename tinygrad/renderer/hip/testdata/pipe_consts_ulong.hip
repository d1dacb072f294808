
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 1))) consts_ulong(unsigned long* data0_4) {
  *(data0_4+0) = 18446744073709551615ull;
  *(data0_4+1) = 0ull;
  *(data0_4+2) = 7ull;
  *(data0_4+3) = 9223372036854775808ull;
}