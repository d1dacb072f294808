typedef long unsigned int size_t;
typedef unsigned char hip_bf8;
typedef unsigned char hip_fp8;
static inline __attribute__((device)) unsigned char f32_to_fp8(float v, int is_bf8) {
  v = (((*(unsigned*)&v)&0x7F800000)!=0x7F800000)?__builtin_amdgcn_fmed3f(v,is_bf8?57344.0f:448.0f,is_bf8?-57344.0f:-448.0f) : v;
  return (unsigned char)(is_bf8?__builtin_amdgcn_cvt_pk_bf8_f32(v,v,0,false):__builtin_amdgcn_cvt_pk_fp8_f32(v,v,0,false));
}
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
typedef hip_fp8 hip_fp84 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) hip_fp84 make_hip_fp84(hip_fp8 x, hip_fp8 y, hip_fp8 z, hip_fp8 w) { return { x, y, z, w }; }
typedef hip_bf8 hip_bf84 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) hip_bf84 make_hip_bf84(hip_bf8 x, hip_bf8 y, hip_bf8 z, hip_bf8 w) { return { x, y, z, w }; }
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 16))) E_16_4(hip_bf8* data0_64, hip_fp8* data1_64, hip_fp8* data2_64) {
  int lidx0 = __ockl_get_local_id(0); /* 16 */
  int alu0 = (lidx0<<2);
  hip_fp84 val0 = (*((hip_fp84*)((data1_64+alu0))));
  hip_fp84 val1 = (*((hip_fp84*)((data2_64+alu0))));
  float cast0 = ((float)(val1.x));
  float cast1 = ((float)(val1.y));
  float cast2 = ((float)(val1.z));
  float cast3 = ((float)(val1.w));
  *((hip_bf84*)((data0_64+alu0))) = make_hip_bf84(((hip_bf8)(((float)(((hip_fp8)((((float)(((hip_fp8)((cast0*((float)(val0.x)))))))+cast0))))))),((hip_bf8)(((float)(((hip_fp8)((((float)(((hip_fp8)((cast1*((float)(val0.y)))))))+cast1))))))),((hip_bf8)(((float)(((hip_fp8)((((float)(((hip_fp8)((cast2*((float)(val0.z)))))))+cast2))))))),((hip_bf8)(((float)(((hip_fp8)((((float)(((hip_fp8)((cast3*((float)(val0.w)))))))+cast3))))))));
}