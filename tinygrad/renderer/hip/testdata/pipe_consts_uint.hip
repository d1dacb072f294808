
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 1))) consts_uint(unsigned int* data0_4) {
  *(data0_4+0) = 4294967295u;
  *(data0_4+1) = 0u;
  *(data0_4+2) = 7u;
  *(data0_4+3) = 2147483648u;
}