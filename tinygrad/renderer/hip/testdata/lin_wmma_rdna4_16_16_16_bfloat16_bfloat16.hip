typedef unsigned short hip_bfloat16;
typedef hip_bfloat16 hip_bfloat168 __attribute__((ext_vector_type(8)));
static inline __attribute__((device)) hip_bfloat168 make_hip_bfloat168(hip_bfloat16 x, hip_bfloat16 y, hip_bfloat16 z, hip_bfloat16 w, hip_bfloat16 a, hip_bfloat16 b, hip_bfloat16 c, hip_bfloat16 d) { return { x, y, z, w, a, b, c, d }; }
#define __WMMA_16_16_16___bf16___bf16 __builtin_amdgcn_wmma_bf16_16x16x16_bf16_w32_gfx12
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 1))) wmma(hip_bfloat16* data0_64, hip_bfloat16* data1_64, hip_bfloat16* data2_64) {
  hip_bfloat168 val0 = (*((hip_bfloat168*)((data1_64+0))));
  hip_bfloat168 val1 = (*((hip_bfloat168*)((data2_64+0))));
  hip_bfloat168 val2 = (*((hip_bfloat168*)((data0_64+0))));
  hip_bfloat168 wmma0 = __WMMA_16_16_16___bf16___bf16(val0, val1, val2);
  *((hip_bfloat168*)((data0_64+0))) = wmma0;
}