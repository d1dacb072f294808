define void @consts_small_ints(i8* noalias align 32 %data0) #0
{
  %v0 = getelementptr inbounds i8, i8* %data0, i32 0
  %v1 = getelementptr inbounds i8, i8* %data0, i32 1
  %v2 = getelementptr inbounds i8, i8* %data0, i32 2
  %v3 = getelementptr inbounds i8, i8* %data0, i32 3
  store i8 -128, i8* %v0
  store i8 127, i8* %v1
  store i8 3, i8* %v2
  store i8 0, i8* %v3
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }