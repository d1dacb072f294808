typedef long unsigned int size_t;
extern "C" __attribute__((device, const)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_group_id(unsigned int);
extern "C" __attribute__((device, const)) size_t __ockl_get_local_size(unsigned int);
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 32))) r_5_5_8_2_2_4_3_3(float* data0_800, float* data1_400, float* data2_288) {
  float acc0[1];
  int gidx0 = __ockl_get_group_id(0); /* 5 */
  int gidx1 = __ockl_get_group_id(1); /* 5 */
  int lidx0 = __ockl_get_local_id(0); /* 8 */
  int lidx1 = __ockl_get_local_id(1); /* 2 */
  int lidx2 = __ockl_get_local_id(2); /* 2 */
  int alu0 = (lidx2+(gidx0<<1));
  int alu1 = (alu0+(gidx1*20)+(lidx1*10));
  bool alu2 = ((lidx1+(gidx1<<1))<9);
  bool alu3 = (alu0<9);
  bool alu4 = (0<(gidx0+lidx2));
  bool alu5 = (0<(gidx1+lidx1));
  *(acc0+0) = 0.0f;
  for (int Ridx0 = 0; Ridx0 < 4; Ridx0++) {
    int alu7 = (alu1+(Ridx0*100));
    float val0 = ((alu4&alu5)?*(data1_400+(alu7+-11)):0.0f);
    int alu8 = ((lidx0*36)+(Ridx0*9));
    float val1 = (*(data2_288+(alu8+1)));
    float val2 = (*(data2_288+(alu8+2)));
    float val3 = (*(data2_288+alu8));
    float val4 = (*(data1_400+alu7));
    float val5 = (alu5?*(data1_400+(alu7+-10)):0.0f);
    float val6 = ((alu3&alu5)?*(data1_400+(alu7+-9)):0.0f);
    float val7 = (alu4?*(data1_400+(alu7+-1)):0.0f);
    float val8 = (*(data2_288+(alu8+3)));
    float val9 = (*(data2_288+(alu8+4)));
    float val10 = (alu3?*(data1_400+(alu7+1)):0.0f);
    float val11 = (*(data2_288+(alu8+5)));
    float val12 = ((alu4&alu2)?*(data1_400+(alu7+9)):0.0f);
    float val13 = (*(data2_288+(alu8+6)));
    float val14 = (alu2?*(data1_400+(alu7+10)):0.0f);
    float val15 = (*(data2_288+(alu8+7)));
    float val16 = ((alu3&alu2)?*(data1_400+(alu7+11)):0.0f);
    float val17 = (*(data2_288+(alu8+8)));
    *(acc0+0) = ((*(acc0+0))+(val0*val3)+(val5*val1)+(val6*val2)+(val7*val8)+(val4*val9)+(val10*val11)+(val12*val13)+(val14*val15)+(val16*val17));
  }
  float alu11 = ((0.0f<(*(acc0+0)))?(*(acc0+0)):0.0f);
  *(data0_800+(alu1+(lidx0*100))) = alu11;
}