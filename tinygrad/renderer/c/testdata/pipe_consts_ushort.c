
void consts_ushort(unsigned short* restrict data0_4, int core_id) {
  *(data0_4+0) = ((unsigned short)(65535u));
  *(data0_4+1) = ((unsigned short)(0u));
  *(data0_4+2) = ((unsigned short)(3u));
  *(data0_4+3) = ((unsigned short)(1u));
}
