
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 1))) consts_bool(bool* data0_4) {
  *(data0_4+0) = 1;
  *(data0_4+1) = 0;
  *(data0_4+2) = 1;
  *(data0_4+3) = 0;
}