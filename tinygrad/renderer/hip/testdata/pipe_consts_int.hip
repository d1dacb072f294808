
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 1))) consts_int(int* data0_4) {
  *(data0_4+0) = 2147483647;
  *(data0_4+1) = -2147483648;
  *(data0_4+2) = 0;
  *(data0_4+3) = 7;
}