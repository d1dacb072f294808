typedef long unsigned int size_t;
typedef unsigned short hip_bfloat16;
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
typedef hip_bfloat16 hip_bfloat168 __attribute__((ext_vector_type(8)));
static inline __attribute__((device)) hip_bfloat168 make_hip_bfloat168(hip_bfloat16 x, hip_bfloat16 y, hip_bfloat16 z, hip_bfloat16 w, hip_bfloat16 a, hip_bfloat16 b, hip_bfloat16 c, hip_bfloat16 d) { return { x, y, z, w, a, b, c, d }; }
#define __WMMA_16_16_16___bf16___bf16 __builtin_amdgcn_wmma_bf16_16x16x16_bf16_w32_gfx12
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 32))) r_8_8_32_2_2_2_8n3(hip_bfloat16* data0_16384, hip_bfloat16* data1_16384, hip_bfloat16* data2_16384) {
  hip_bfloat16 acc0[8];
  int gidx0 = __ockl_get_group_id(0); /* 8 */
  int gidx1 = __ockl_get_group_id(1); /* 8 */
  int lidx0 = __ockl_get_local_id(0); /* 32 */
  hip_bfloat16 cast0 = __builtin_bit_cast(hip_bfloat16, (unsigned short)(((unsigned short)(0u))));
  int alu0 = ((lidx0>>3)&1);
  int alu1 = ((lidx0>>2)&1);
  int alu2 = ((lidx0>>1)&1);
  int alu3 = (lidx0&1);
  int alu4 = ((gidx0<<4)+(alu0<<3)+(alu1<<2)+(alu2<<1)+alu3);
  int alu5 = (gidx1<<11);
  int alu6 = (lidx0>>4);
  *(acc0+0) = cast0;
  *(acc0+1) = cast0;
  *(acc0+2) = cast0;
  *(acc0+3) = cast0;
  *(acc0+4) = cast0;
  *(acc0+5) = cast0;
  *(acc0+6) = cast0;
  *(acc0+7) = cast0;
  for (int Ridx0 = 0; Ridx0 < 8; Ridx0++) {
    int alu15 = (alu5+(alu0<<10)+(alu1<<9)+(alu2<<8)+(alu3<<7)+(alu6<<2)+(Ridx0<<4));
    hip_bfloat16 val0 = (*(data1_16384+(alu15+1)));
    hip_bfloat16 val1 = (*(data1_16384+(alu15+2)));
    hip_bfloat16 val2 = (*(data1_16384+(alu15+3)));
    hip_bfloat16 val3 = (*(data1_16384+(alu15+8)));
    hip_bfloat16 val4 = (*(data1_16384+(alu15+9)));
    hip_bfloat16 val5 = (*(data1_16384+(alu15+10)));
    hip_bfloat16 val6 = (*(data1_16384+(alu15+11)));
    hip_bfloat16 val7 = (*(data1_16384+alu15));
    int alu16 = (alu4+(alu6<<9)+(Ridx0<<11));
    hip_bfloat16 val8 = (*(data2_16384+(alu16+128)));
    hip_bfloat16 val9 = (*(data2_16384+(alu16+256)));
    hip_bfloat16 val10 = (*(data2_16384+(alu16+384)));
    hip_bfloat16 val11 = (*(data2_16384+(alu16+1024)));
    hip_bfloat16 val12 = (*(data2_16384+(alu16+1152)));
    hip_bfloat16 val13 = (*(data2_16384+(alu16+1280)));
    hip_bfloat16 val14 = (*(data2_16384+(alu16+1408)));
    hip_bfloat16 val15 = (*(data2_16384+alu16));
    hip_bfloat168 wmma0 = __WMMA_16_16_16___bf16___bf16(make_hip_bfloat168(val7,val0,val1,val2,val3,val4,val5,val6), make_hip_bfloat168(val15,val8,val9,val10,val11,val12,val13,val14), make_hip_bfloat168((*(acc0+0)),(*(acc0+1)),(*(acc0+2)),(*(acc0+3)),(*(acc0+4)),(*(acc0+5)),(*(acc0+6)),(*(acc0+7))));
    *(acc0+0) = wmma0[0];
    *(acc0+1) = wmma0[1];
    *(acc0+2) = wmma0[2];
    *(acc0+3) = wmma0[3];
    *(acc0+4) = wmma0[4];
    *(acc0+5) = wmma0[5];
    *(acc0+6) = wmma0[6];
    *(acc0+7) = wmma0[7];
  }
  int alu26 = (alu4+alu5+(alu6<<10));
  *(data0_16384+(alu26+128)) = (*(acc0+1));
  *(data0_16384+(alu26+256)) = (*(acc0+2));
  *(data0_16384+(alu26+384)) = (*(acc0+3));
  *(data0_16384+(alu26+512)) = (*(acc0+4));
  *(data0_16384+(alu26+640)) = (*(acc0+5));
  *(data0_16384+(alu26+768)) = (*(acc0+6));
  *(data0_16384+(alu26+896)) = (*(acc0+7));
  *(data0_16384+alu26) = (*(acc0+0));
}