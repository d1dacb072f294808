
void consts_uchar(unsigned char* restrict data0_4, int core_id) {
  *(data0_4+0) = ((unsigned char)(255u));
  *(data0_4+1) = ((unsigned char)(0u));
  *(data0_4+2) = ((unsigned char)(3u));
  *(data0_4+3) = ((unsigned char)(1u));
}
