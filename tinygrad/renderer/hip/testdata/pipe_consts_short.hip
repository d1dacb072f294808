
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 1))) consts_short(short* data0_4) {
  *(data0_4+0) = ((short)(-32768));
  *(data0_4+1) = ((short)(32767));
  *(data0_4+2) = ((short)(3));
  *(data0_4+3) = ((short)(0));
}