define void @consts_double(double* noalias align 32 %data0) #0
{
  %v0 = getelementptr inbounds double, double* %data0, i32 0
  %v1 = getelementptr inbounds double, double* %data0, i32 1
  %v2 = getelementptr inbounds double, double* %data0, i32 2
  %v3 = getelementptr inbounds double, double* %data0, i32 3
  store double 0x7FF0000000000000, double* %v0
  store double 0xFFF0000000000000, double* %v1
  store double 0x7FF8000000000000, double* %v2
  store double 1.0000001, double* %v3
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }