define void @consts_bool(i1* noalias align 32 %data0) #0
{
  %v0 = getelementptr inbounds i1, i1* %data0, i32 0
  %v1 = getelementptr inbounds i1, i1* %data0, i32 1
  %v2 = getelementptr inbounds i1, i1* %data0, i32 2
  %v3 = getelementptr inbounds i1, i1* %data0, i32 3
  store i1 1, i1* %v0
  store i1 0, i1* %v1
  store i1 1, i1* %v2
  store i1 0, i1* %v3
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }