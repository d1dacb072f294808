typedef long unsigned int size_t;
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
typedef float float4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) float4 make_float4(float x, float y, float z, float w) { return { x, y, z, w }; }
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 1))) r_8_16_2_4_4(float* data0_256, float* data1_256, float* data2_256) {
  float acc0[2];
  int gidx0 = __ockl_get_group_id(0); /* 16 */
  int gidx1 = __ockl_get_group_id(1); /* 8 */
  int alu0 = (gidx1<<5);
  *(acc0+0) = 0.0f;
  *(acc0+1) = 0.0f;
  for (int Ridx0 = 0; Ridx0 < 4; Ridx0++) {
    int alu3 = (gidx0+(Ridx0<<6));
    float val0 = (*(data2_256+alu3));
    float val1 = (*(data2_256+(alu3+16)));
    float val2 = (*(data2_256+(alu3+32)));
    float val3 = (*(data2_256+(alu3+48)));
    int alu4 = (alu0+(Ridx0<<2));
    float4 val4 = (*((float4*)((data1_256+(alu4+16)))));
    float4 val5 = (*((float4*)((data1_256+alu4))));
    *(acc0+0) = ((*(acc0+0))+(val5.x*val0)+(val5.y*val1)+(val5.z*val2)+(val5.w*val3));
    *(acc0+1) = ((*(acc0+1))+(val4.x*val0)+(val4.y*val1)+(val4.z*val2)+(val4.w*val3));
  }
  int alu8 = (gidx0+alu0);
  *(data0_256+alu8) = (*(acc0+0));
  *(data0_256+(alu8+16)) = (*(acc0+1));
}