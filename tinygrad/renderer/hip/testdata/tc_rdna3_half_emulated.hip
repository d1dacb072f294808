typedef long unsigned int size_t;
#define half _Float16
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
typedef half half4 __attribute__((ext_vector_type(4)));
static inline __attribute__((device)) half4 make_half4(half x, half y, half z, half w) { return { x, y, z, w }; }
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 32))) r_4_4_32_2_2_2_4_2_2_2_2(half* data0_4096, half* data1_4096, half* data2_4096) {
  float acc0[8];
  int gidx0 = __ockl_get_group_id(0); /* 4 */
  int gidx1 = __ockl_get_group_id(1); /* 4 */
  int lidx0 = __ockl_get_local_id(0); /* 32 */
  int alu0 = ((gidx0<<4)+(((lidx0>>3)&1)<<3)+(((lidx0>>2)&1)<<2)+(((lidx0>>1)&1)<<1)+(lidx0&1));
  int alu1 = ((gidx1<<10)+((lidx0>>4)<<6));
  *(acc0+0) = 0.0f;
  *(acc0+1) = 0.0f;
  *(acc0+2) = 0.0f;
  *(acc0+3) = 0.0f;
  *(acc0+4) = 0.0f;
  *(acc0+5) = 0.0f;
  *(acc0+6) = 0.0f;
  *(acc0+7) = 0.0f;
  for (int Ridx0 = 0; Ridx0 < 4; Ridx0++) {
    int alu10 = (alu0+(Ridx0<<10));
    half val0 = (*(data2_4096+(alu10+64)));
    half val1 = (*(data2_4096+(alu10+128)));
    half val2 = (*(data2_4096+(alu10+192)));
    half val3 = (*(data2_4096+(alu10+256)));
    half val4 = (*(data2_4096+(alu10+320)));
    half val5 = (*(data2_4096+(alu10+384)));
    half val6 = (*(data2_4096+(alu10+448)));
    half val7 = (*(data2_4096+(alu10+512)));
    half val8 = (*(data2_4096+(alu10+576)));
    half val9 = (*(data2_4096+(alu10+640)));
    half val10 = (*(data2_4096+(alu10+704)));
    half val11 = (*(data2_4096+(alu10+768)));
    half val12 = (*(data2_4096+(alu10+832)));
    half val13 = (*(data2_4096+(alu10+896)));
    half val14 = (*(data2_4096+(alu10+960)));
    half val15 = (*(data2_4096+alu10));
    int alu11 = (alu1+(Ridx0<<4));
    half4 val16 = (*((half4*)((data1_4096+(alu11+4)))));
    half4 val17 = (*((half4*)((data1_4096+(alu11+8)))));
    half4 val18 = (*((half4*)((data1_4096+(alu11+12)))));
    half4 val19 = (*((half4*)((data1_4096+(alu11+128)))));
    half4 val20 = (*((half4*)((data1_4096+(alu11+132)))));
    half4 val21 = (*((half4*)((data1_4096+(alu11+136)))));
    half4 val22 = (*((half4*)((data1_4096+(alu11+140)))));
    half4 val23 = (*((half4*)((data1_4096+(alu11+256)))));
    half4 val24 = (*((half4*)((data1_4096+(alu11+260)))));
    half4 val25 = (*((half4*)((data1_4096+(alu11+264)))));
    half4 val26 = (*((half4*)((data1_4096+(alu11+268)))));
    half4 val27 = (*((half4*)((data1_4096+(alu11+384)))));
    half4 val28 = (*((half4*)((data1_4096+(alu11+388)))));
    half4 val29 = (*((half4*)((data1_4096+(alu11+392)))));
    half4 val30 = (*((half4*)((data1_4096+(alu11+396)))));
    half4 val31 = (*((half4*)((data1_4096+(alu11+512)))));
    half4 val32 = (*((half4*)((data1_4096+(alu11+516)))));
    half4 val33 = (*((half4*)((data1_4096+(alu11+520)))));
    half4 val34 = (*((half4*)((data1_4096+(alu11+524)))));
    half4 val35 = (*((half4*)((data1_4096+(alu11+640)))));
    half4 val36 = (*((half4*)((data1_4096+(alu11+644)))));
    half4 val37 = (*((half4*)((data1_4096+(alu11+648)))));
    half4 val38 = (*((half4*)((data1_4096+(alu11+652)))));
    half4 val39 = (*((half4*)((data1_4096+(alu11+768)))));
    half4 val40 = (*((half4*)((data1_4096+(alu11+772)))));
    half4 val41 = (*((half4*)((data1_4096+(alu11+776)))));
    half4 val42 = (*((half4*)((data1_4096+(alu11+780)))));
    half4 val43 = (*((half4*)((data1_4096+(alu11+896)))));
    half4 val44 = (*((half4*)((data1_4096+(alu11+900)))));
    half4 val45 = (*((half4*)((data1_4096+(alu11+904)))));
    half4 val46 = (*((half4*)((data1_4096+(alu11+908)))));
    half4 val47 = (*((half4*)((data1_4096+alu11))));
    *(acc0+0) = ((*(acc0+0))+((float)((val47.x*val15)))+((float)((val47.y*val0)))+((float)((val47.z*val1)))+((float)((val47.w*val2)))+((float)((val16.x*val3)))+((float)((val16.y*val4)))+((float)((val16.z*val5)))+((float)((val16.w*val6)))+((float)((val17.x*val7)))+((float)((val17.y*val8)))+((float)((val17.z*val9)))+((float)((val17.w*val10)))+((float)((val18.x*val11)))+((float)((val18.y*val12)))+((float)((val18.z*val13)))+((float)((val18.w*val14))));
    *(acc0+1) = ((*(acc0+1))+((float)((val31.x*val15)))+((float)((val31.y*val0)))+((float)((val31.z*val1)))+((float)((val31.w*val2)))+((float)((val32.x*val3)))+((float)((val32.y*val4)))+((float)((val32.z*val5)))+((float)((val32.w*val6)))+((float)((val33.x*val7)))+((float)((val33.y*val8)))+((float)((val33.z*val9)))+((float)((val33.w*val10)))+((float)((val34.x*val11)))+((float)((val34.y*val12)))+((float)((val34.z*val13)))+((float)((val34.w*val14))));
    *(acc0+2) = ((*(acc0+2))+((float)((val23.x*val15)))+((float)((val23.y*val0)))+((float)((val23.z*val1)))+((float)((val23.w*val2)))+((float)((val24.x*val3)))+((float)((val24.y*val4)))+((float)((val24.z*val5)))+((float)((val24.w*val6)))+((float)((val25.x*val7)))+((float)((val25.y*val8)))+((float)((val25.z*val9)))+((float)((val25.w*val10)))+((float)((val26.x*val11)))+((float)((val26.y*val12)))+((float)((val26.z*val13)))+((float)((val26.w*val14))));
    *(acc0+3) = ((*(acc0+3))+((float)((val39.x*val15)))+((float)((val39.y*val0)))+((float)((val39.z*val1)))+((float)((val39.w*val2)))+((float)((val40.x*val3)))+((float)((val40.y*val4)))+((float)((val40.z*val5)))+((float)((val40.w*val6)))+((float)((val41.x*val7)))+((float)((val41.y*val8)))+((float)((val41.z*val9)))+((float)((val41.w*val10)))+((float)((val42.x*val11)))+((float)((val42.y*val12)))+((float)((val42.z*val13)))+((float)((val42.w*val14))));
    *(acc0+4) = ((*(acc0+4))+((float)((val19.x*val15)))+((float)((val19.y*val0)))+((float)((val19.z*val1)))+((float)((val19.w*val2)))+((float)((val20.x*val3)))+((float)((val20.y*val4)))+((float)((val20.z*val5)))+((float)((val20.w*val6)))+((float)((val21.x*val7)))+((float)((val21.y*val8)))+((float)((val21.z*val9)))+((float)((val21.w*val10)))+((float)((val22.x*val11)))+((float)((val22.y*val12)))+((float)((val22.z*val13)))+((float)((val22.w*val14))));
    *(acc0+5) = ((*(acc0+5))+((float)((val35.x*val15)))+((float)((val35.y*val0)))+((float)((val35.z*val1)))+((float)((val35.w*val2)))+((float)((val36.x*val3)))+((float)((val36.y*val4)))+((float)((val36.z*val5)))+((float)((val36.w*val6)))+((float)((val37.x*val7)))+((float)((val37.y*val8)))+((float)((val37.z*val9)))+((float)((val37.w*val10)))+((float)((val38.x*val11)))+((float)((val38.y*val12)))+((float)((val38.z*val13)))+((float)((val38.w*val14))));
    *(acc0+6) = ((*(acc0+6))+((float)((val27.x*val15)))+((float)((val27.y*val0)))+((float)((val27.z*val1)))+((float)((val27.w*val2)))+((float)((val28.x*val3)))+((float)((val28.y*val4)))+((float)((val28.z*val5)))+((float)((val28.w*val6)))+((float)((val29.x*val7)))+((float)((val29.y*val8)))+((float)((val29.z*val9)))+((float)((val29.w*val10)))+((float)((val30.x*val11)))+((float)((val30.y*val12)))+((float)((val30.z*val13)))+((float)((val30.w*val14))));
    *(acc0+7) = ((*(acc0+7))+((float)((val43.x*val15)))+((float)((val43.y*val0)))+((float)((val43.z*val1)))+((float)((val43.w*val2)))+((float)((val44.x*val3)))+((float)((val44.y*val4)))+((float)((val44.z*val5)))+((float)((val44.w*val6)))+((float)((val45.x*val7)))+((float)((val45.y*val8)))+((float)((val45.z*val9)))+((float)((val45.w*val10)))+((float)((val46.x*val11)))+((float)((val46.y*val12)))+((float)((val46.z*val13)))+((float)((val46.w*val14))));
  }
  int alu21 = (alu0+alu1);
  *(data0_4096+(alu21+128)) = ((half)((*(acc0+4))));
  *(data0_4096+(alu21+256)) = ((half)((*(acc0+2))));
  *(data0_4096+(alu21+384)) = ((half)((*(acc0+6))));
  *(data0_4096+(alu21+512)) = ((half)((*(acc0+1))));
  *(data0_4096+(alu21+640)) = ((half)((*(acc0+5))));
  *(data0_4096+(alu21+768)) = ((half)((*(acc0+3))));
  *(data0_4096+(alu21+896)) = ((half)((*(acc0+7))));
  *(data0_4096+alu21) = ((half)((*(acc0+0))));
}