
void consts_short(short* restrict data0_4, int core_id) {
  *(data0_4+0) = ((short)(-32768));
  *(data0_4+1) = ((short)(32767));
  *(data0_4+2) = ((short)(3));
  *(data0_4+3) = ((short)(0));
}
