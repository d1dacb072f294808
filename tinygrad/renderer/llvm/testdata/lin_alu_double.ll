define void @lin_alu_double(double* noalias align 32 %data0, i1* noalias align 32 %data1, double* noalias align 32 %data2) #0
{
  %v0 = getelementptr inbounds double, double* %data2, i32 0
  %v1 = load double, double* %v0
  %v2 = getelementptr inbounds double, double* %data2, i32 1
  %v3 = load double, double* %v2
  %v4 = fadd nsz arcp contract afn double %v1, %v3
  %v5 = getelementptr inbounds double, double* %data0, i32 0
  store double %v4, double* %v5
  %v7 = fmul nsz arcp contract afn double %v1, %v3
  %v8 = getelementptr inbounds double, double* %data0, i32 1
  store double %v7, double* %v8
  %v10 = fcmp nsz arcp contract afn ult double %v1, %v3
  %v11 = getelementptr inbounds i1, i1* %data1, i32 2
  store i1 %v10, i1* %v11
  %v13 = fcmp nsz arcp contract afn une double %v1, %v3
  %v14 = getelementptr inbounds i1, i1* %data1, i32 3
  store i1 %v13, i1* %v14
  %v16 = fcmp nsz arcp contract afn oeq double %v1, %v3
  %v17 = getelementptr inbounds i1, i1* %data1, i32 4
  store i1 %v16, i1* %v17
  %v19 = fdiv nsz arcp contract afn double %v1, %v3
  %v20 = getelementptr inbounds double, double* %data0, i32 5
  store double %v19, double* %v20
  %v22 = getelementptr inbounds double, double* %data0, i32 6
  %v23 = call double @llvm.trunc.double(double %v1)
  store double %v23, double* %v22
  %v25 = select i1 %v10, double %v1, double %v3
  %v26 = getelementptr inbounds double, double* %data0, i32 7
  store double %v25, double* %v26
  %v28 = fcmp nsz arcp contract afn une double %v1, zeroinitializer
  %v29 = getelementptr inbounds i1, i1* %data1, i32 0
  store i1 %v28, i1* %v29
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }