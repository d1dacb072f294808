define void @lin_alu_float(float* noalias align 32 %data0, i1* noalias align 32 %data1, float* noalias align 32 %data2) #0
{
  %v0 = getelementptr inbounds float, float* %data2, i32 0
  %v1 = load float, float* %v0
  %v2 = getelementptr inbounds float, float* %data2, i32 1
  %v3 = load float, float* %v2
  %v4 = fadd nsz arcp contract afn float %v1, %v3
  %v5 = getelementptr inbounds float, float* %data0, i32 0
  store float %v4, float* %v5
  %v7 = fmul nsz arcp contract afn float %v1, %v3
  %v8 = getelementptr inbounds float, float* %data0, i32 1
  store float %v7, float* %v8
  %v10 = fcmp nsz arcp contract afn ult float %v1, %v3
  %v11 = getelementptr inbounds i1, i1* %data1, i32 2
  store i1 %v10, i1* %v11
  %v13 = fcmp nsz arcp contract afn une float %v1, %v3
  %v14 = getelementptr inbounds i1, i1* %data1, i32 3
  store i1 %v13, i1* %v14
  %v16 = fcmp nsz arcp contract afn oeq float %v1, %v3
  %v17 = getelementptr inbounds i1, i1* %data1, i32 4
  store i1 %v16, i1* %v17
  %v19 = fdiv nsz arcp contract afn float %v1, %v3
  %v20 = getelementptr inbounds float, float* %data0, i32 5
  store float %v19, float* %v20
  %v22 = getelementptr inbounds float, float* %data0, i32 6
  %v23 = call float @llvm.trunc.float(float %v1)
  store float %v23, float* %v22
  %v25 = select i1 %v10, float %v1, float %v3
  %v26 = getelementptr inbounds float, float* %data0, i32 7
  store float %v25, float* %v26
  %v28 = fcmp nsz arcp contract afn une float %v1, zeroinitializer
  %v29 = getelementptr inbounds i1, i1* %data1, i32 0
  store i1 %v28, i1* %v29
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }