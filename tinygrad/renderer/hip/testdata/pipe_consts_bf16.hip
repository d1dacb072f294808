typedef unsigned short hip_bfloat16;
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 1))) consts_bf16(hip_bfloat16* data0_4) {
  *(data0_4+0) = __builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)(32640u))));
  *(data0_4+1) = __builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)(65408u))));
  *(data0_4+2) = __builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)(32704u))));
  *(data0_4+3) = __builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)(16320u))));
}