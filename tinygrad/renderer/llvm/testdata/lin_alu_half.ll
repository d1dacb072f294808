define void @lin_alu_half(half* noalias align 32 %data0, i1* noalias align 32 %data1, half* noalias align 32 %data2) #0
{
  %v0 = getelementptr inbounds half, half* %data2, i32 0
  %v1 = load half, half* %v0
  %v2 = getelementptr inbounds half, half* %data2, i32 1
  %v3 = load half, half* %v2
  %v4 = fadd nsz arcp contract afn half %v1, %v3
  %v5 = getelementptr inbounds half, half* %data0, i32 0
  store half %v4, half* %v5
  %v7 = fmul nsz arcp contract afn half %v1, %v3
  %v8 = getelementptr inbounds half, half* %data0, i32 1
  store half %v7, half* %v8
  %v10 = fcmp nsz arcp contract afn ult half %v1, %v3
  %v11 = getelementptr inbounds i1, i1* %data1, i32 2
  store i1 %v10, i1* %v11
  %v13 = fcmp nsz arcp contract afn une half %v1, %v3
  %v14 = getelementptr inbounds i1, i1* %data1, i32 3
  store i1 %v13, i1* %v14
  %v16 = fcmp nsz arcp contract afn oeq half %v1, %v3
  %v17 = getelementptr inbounds i1, i1* %data1, i32 4
  store i1 %v16, i1* %v17
  %v19 = fdiv nsz arcp contract afn half %v1, %v3
  %v20 = getelementptr inbounds half, half* %data0, i32 5
  store half %v19, half* %v20
  %v22 = getelementptr inbounds half, half* %data0, i32 6
  %v23 = call half @llvm.trunc.half(half %v1)
  store half %v23, half* %v22
  %v25 = select i1 %v10, half %v1, half %v3
  %v26 = getelementptr inbounds half, half* %data0, i32 7
  store half %v25, half* %v26
  %v28 = fcmp nsz arcp contract afn une half %v1, zeroinitializer
  %v29 = getelementptr inbounds i1, i1* %data1, i32 0
  store i1 %v28, i1* %v29
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }