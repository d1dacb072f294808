#define half _Float16
extern "C" __attribute__((device, const)) half __ocml_sqrt_f16(half);
extern "C" __attribute__((device)) half __ocml_trunc_f16(half);
extern "C" __attribute__((device, pure)) half __ocml_exp2_f16(half);
extern "C" __attribute__((device, pure)) half __ocml_log2_f16(half);
extern "C" __attribute__((device)) half __ocml_sin_f16(half);
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, 1))) lin_alu_half(half* data0_15, bool* data1_6, half* data2_2) {
  half val0 = (*(data2_2+0));
  half val1 = (*(data2_2+1));
  half alu0 = (val0+val1);
  *(data0_15+0) = alu0;
  *(data0_15+1) = (val0-val1);
  *(data0_15+2) = (val0*val1);
  bool alu4 = (val0<val1);
  *(data1_6+3) = alu4;
  *(data1_6+4) = (val0!=val1);
  *(data1_6+5) = (val0==val1);
  *(data0_15+6) = -val0;
  *(data0_15+7) = __ocml_sqrt_f16(val0);
  *(data0_15+8) = __ocml_trunc_f16(val0);
  *(data0_15+9) = __ocml_exp2_f16(val0);
  *(data0_15+10) = __ocml_log2_f16(val0);
  *(data0_15+11) = __ocml_sin_f16(val0);
  *(data0_15+12) = (1/val0);
  half alu15 = (alu4?val0:val1);
  *(data0_15+13) = alu15;
  half alu17 = (alu0+alu15);
  *(data0_15+14) = (alu17*val1*alu17);
}