typedef float float4 __attribute__((aligned(16),ext_vector_type(4)));
void r_4_4_4_4_16(float* restrict data0_256, float* restrict data1_256, float* restrict data2_256, int core_id) {
  float acc0[4];
  int gidx0 = core_id; /* 4 */
  for (int Lidx1 = 0; Lidx1 < 4; Lidx1++) {
    int alu0 = ((gidx0<<6)+(Lidx1<<4));
    for (int Lidx2 = 0; Lidx2 < 4; Lidx2++) {
      int alu1 = (Lidx2<<2);
      *(acc0+0) = 0.0f;
      *(acc0+1) = 0.0f;
      *(acc0+2) = 0.0f;
      *(acc0+3) = 0.0f;
      for (int Ridx0 = 0; Ridx0 < 16; Ridx0++) {
        float val0 = (*(data1_256+(alu0+Ridx0)));
        float4 val1 = (*((float4*)((data2_256+((Ridx0<<4)+alu1)))));
        *(acc0+0) = ((*(acc0+0))+(val0*val1[0]));
        *(acc0+1) = ((*(acc0+1))+(val0*val1[1]));
        *(acc0+2) = ((*(acc0+2))+(val0*val1[2]));
        *(acc0+3) = ((*(acc0+3))+(val0*val1[3]));
      }
      *((float4*)((data0_256+(alu0+alu1)))) = (float4){(*(acc0+0)),(*(acc0+1)),(*(acc0+2)),(*(acc0+3))};
    }
  }
}
