define void @consts_int(i32* noalias align 32 %data0) #0
{
  %v0 = getelementptr inbounds i32, i32* %data0, i32 0
  %v1 = getelementptr inbounds i32, i32* %data0, i32 1
  %v2 = getelementptr inbounds i32, i32* %data0, i32 2
  %v3 = getelementptr inbounds i32, i32* %data0, i32 3
  store i32 2147483647, i32* %v0
  store i32 -2147483648, i32* %v1
  store i32 0, i32* %v2
  store i32 7, i32* %v3
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }