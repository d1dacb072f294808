#define INFINITY (__builtin_inff())
#define NAN (__builtin_nanf(""))
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 1))) consts_float(float* data0_6) {
  *(data0_6+0) = ((float)(INFINITY));
  *(data0_6+1) = ((float)(-INFINITY));
  *(data0_6+2) = ((float)(NAN));
  *(data0_6+3) = 1e-20f;
  *(data0_6+4) = 3.4028234663852886e+38f;
  *(data0_6+5) = -0.5f;
}