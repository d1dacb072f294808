
void r_8_8(float* restrict data0_8, float* restrict data1_8, int core_id) {
  for (int Lidx1 = 0; Lidx1 < 8; Lidx1++) {
    float val0 = ((5<Lidx1)?*(data1_8+(Lidx1+-6)):0.0f);
    float val1 = ((4<Lidx1)?*(data1_8+(Lidx1+-5)):0.0f);
    float val2 = ((3<Lidx1)?*(data1_8+(Lidx1+-4)):0.0f);
    float val3 = ((2<Lidx1)?*(data1_8+(Lidx1+-3)):0.0f);
    float val4 = ((1<Lidx1)?*(data1_8+(Lidx1+-2)):0.0f);
    float val5 = ((0<Lidx1)?*(data1_8+(Lidx1+-1)):0.0f);
    float val6 = (*(data1_8+Lidx1));
    float val7 = ((6<Lidx1)?*(data1_8+0):0.0f);
    *(data0_8+Lidx1) = (val7+val0+val1+val2+val3+val4+val5+val6);
  }
}
