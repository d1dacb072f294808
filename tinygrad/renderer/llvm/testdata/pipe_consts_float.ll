define void @consts_float(float* noalias align 32 %data0) #0
{
  %v0 = getelementptr inbounds float, float* %data0, i32 0
  %v1 = getelementptr inbounds float, float* %data0, i32 1
  %v2 = getelementptr inbounds float, float* %data0, i32 2
  %v3 = getelementptr inbounds float, float* %data0, i32 3
  %v4 = getelementptr inbounds float, float* %data0, i32 4
  %v5 = getelementptr inbounds float, float* %data0, i32 5
  store float 0x7FF0000000000000, float* %v0
  store float 0xFFF0000000000000, float* %v1
  store float 0x7FF8000000000000, float* %v2
  store float 9.999999682655225e-21, float* %v3
  store float 3.4028234663852886e+38, float* %v4
  store float -0.5, float* %v5
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }