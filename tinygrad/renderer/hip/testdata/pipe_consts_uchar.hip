
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 1))) consts_uchar(unsigned char* data0_4) {
  *(data0_4+0) = ((unsigned char)(255u));
  *(data0_4+1) = ((unsigned char)(0u));
  *(data0_4+2) = ((unsigned char)(3u));
  *(data0_4+3) = ((unsigned char)(1u));
}