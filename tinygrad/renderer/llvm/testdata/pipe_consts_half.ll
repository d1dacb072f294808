define void @consts_half(half* noalias align 32 %data0) #0
{
  %v0 = getelementptr inbounds half, half* %data0, i32 0
  %v1 = getelementptr inbounds half, half* %data0, i32 1
  %v2 = getelementptr inbounds half, half* %data0, i32 2
  %v3 = getelementptr inbounds half, half* %data0, i32 3
  store half 0x7FF0000000000000, half* %v0
  store half 0xFFF0000000000000, half* %v1
  store half 0x7FF8000000000000, half* %v2
  store half 1.5, half* %v3
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }