typedef long unsigned int size_t;
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
typedef float float4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) float4 make_float4(float x, float y, float z, float w) { return { x, y, z, w }; }
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 128))) r_2_8_16_4_4_16_4(float* data0_4096, float* data1_4096, float* data2_4096) {
  float acc0[16];
  int gidx0 = __ockl_get_group_id(0); /* 2 */
  int lidx0 = __ockl_get_local_id(0); /* 8 */
  int lidx1 = __ockl_get_local_id(1); /* 16 */
  int alu0 = ((gidx0<<11)+(lidx0<<8));
  int alu1 = (lidx1<<2);
  *(acc0+0) = 0.0f;
  *(acc0+1) = 0.0f;
  *(acc0+2) = 0.0f;
  *(acc0+3) = 0.0f;
  *(acc0+4) = 0.0f;
  *(acc0+5) = 0.0f;
  *(acc0+6) = 0.0f;
  *(acc0+7) = 0.0f;
  *(acc0+8) = 0.0f;
  *(acc0+9) = 0.0f;
  *(acc0+10) = 0.0f;
  *(acc0+11) = 0.0f;
  *(acc0+12) = 0.0f;
  *(acc0+13) = 0.0f;
  *(acc0+14) = 0.0f;
  *(acc0+15) = 0.0f;
  for (int Ridx0 = 0; Ridx0 < 16; Ridx0++) {
    int alu18 = (alu0+(Ridx0<<2));
    float4 val0 = (*((float4*)((data1_4096+(alu18+64)))));
    float4 val1 = (*((float4*)((data1_4096+(alu18+128)))));
    float4 val2 = (*((float4*)((data1_4096+(alu18+192)))));
    float4 val3 = (*((float4*)((data1_4096+alu18))));
    int alu19 = (alu1+(Ridx0<<8));
    float4 val4 = (*((float4*)((data2_4096+(alu19+64)))));
    float4 val5 = (*((float4*)((data2_4096+(alu19+128)))));
    float4 val6 = (*((float4*)((data2_4096+(alu19+192)))));
    float4 val7 = (*((float4*)((data2_4096+alu19))));
    *(acc0+0) = ((*(acc0+0))+(val3.x*val7.x)+(val3.y*val4.x)+(val3.z*val5.x)+(val3.w*val6.x));
    *(acc0+1) = ((*(acc0+1))+(val0.x*val7.x)+(val0.y*val4.x)+(val0.z*val5.x)+(val0.w*val6.x));
    *(acc0+2) = ((*(acc0+2))+(val1.x*val7.x)+(val1.y*val4.x)+(val1.z*val5.x)+(val1.w*val6.x));
    *(acc0+3) = ((*(acc0+3))+(val2.x*val7.x)+(val2.y*val4.x)+(val2.z*val5.x)+(val2.w*val6.x));
    *(acc0+4) = ((*(acc0+4))+(val3.x*val7.y)+(val3.y*val4.y)+(val3.z*val5.y)+(val3.w*val6.y));
    *(acc0+5) = ((*(acc0+5))+(val0.x*val7.y)+(val0.y*val4.y)+(val0.z*val5.y)+(val0.w*val6.y));
    *(acc0+6) = ((*(acc0+6))+(val1.x*val7.y)+(val1.y*val4.y)+(val1.z*val5.y)+(val1.w*val6.y));
    *(acc0+7) = ((*(acc0+7))+(val2.x*val7.y)+(val2.y*val4.y)+(val2.z*val5.y)+(val2.w*val6.y));
    *(acc0+8) = ((*(acc0+8))+(val3.x*val7.z)+(val3.y*val4.z)+(val3.z*val5.z)+(val3.w*val6.z));
    *(acc0+9) = ((*(acc0+9))+(val0.x*val7.z)+(val0.y*val4.z)+(val0.z*val5.z)+(val0.w*val6.z));
    *(acc0+10) = ((*(acc0+10))+(val1.x*val7.z)+(val1.y*val4.z)+(val1.z*val5.z)+(val1.w*val6.z));
    *(acc0+11) = ((*(acc0+11))+(val2.x*val7.z)+(val2.y*val4.z)+(val2.z*val5.z)+(val2.w*val6.z));
    *(acc0+12) = ((*(acc0+12))+(val3.x*val7.w)+(val3.y*val4.w)+(val3.z*val5.w)+(val3.w*val6.w));
    *(acc0+13) = ((*(acc0+13))+(val0.x*val7.w)+(val0.y*val4.w)+(val0.z*val5.w)+(val0.w*val6.w));
    *(acc0+14) = ((*(acc0+14))+(val1.x*val7.w)+(val1.y*val4.w)+(val1.z*val5.w)+(val1.w*val6.w));
    *(acc0+15) = ((*(acc0+15))+(val2.x*val7.w)+(val2.y*val4.w)+(val2.z*val5.w)+(val2.w*val6.w));
  }
  int alu37 = (alu0+alu1);
  *((float4*)((data0_4096+(alu37+64)))) = make_float4((*(acc0+1)),(*(acc0+5)),(*(acc0+9)),(*(acc0+13)));
  *((float4*)((data0_4096+(alu37+128)))) = make_float4((*(acc0+2)),(*(acc0+6)),(*(acc0+10)),(*(acc0+14)));
  *((float4*)((data0_4096+(alu37+192)))) = make_float4((*(acc0+3)),(*(acc0+7)),(*(acc0+11)),(*(acc0+15)));
  *((float4*)((data0_4096+alu37))) = make_float4((*(acc0+0)),(*(acc0+4)),(*(acc0+8)),(*(acc0+12)));
}