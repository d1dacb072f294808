
void ctrl(float* restrict data0_64, float* restrict data1, const int n, int core_id) {
  float acc0[1];
  int gidx0 = core_id; /* 8 */
  *(acc0+0) = 0.0f;
  for (int Ridx0 = 0; Ridx0 < n; Ridx0++) {
    int alu1 = ((Ridx0*8)+gidx0);
    float val0 = ((alu1<60)?*(data1+alu1):-1.0f);
    *(acc0+0) = ((*(acc0+0))+val0);
  }
  for (int Lidx1_2 = 0; Lidx1_2 < 3; Lidx1_2++) {
    if ((gidx0<4)) {
      *(data0_64+(gidx0+(Lidx1_2*8))) = (*(acc0+0));
    }
  }
  /* custom gidx0 */
}
