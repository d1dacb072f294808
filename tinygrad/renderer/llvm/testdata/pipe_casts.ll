define void @E_16n6(float* noalias align 32 %data0, i32* noalias align 32 %data1, i8* noalias align 32 %data2, float* noalias align 32 %data3) #0
{
  br label %loop_entry_0
loop_entry_0:
  br label %loop_latch_0
loop_latch_0:
  %v0 = phi i32 [ 0, %loop_entry_0 ], [ %v0phi, %loop_footer_0 ]
  %v0phi = add i32 %v0, 1
  %v0cmp = icmp ult i32 %v0, 16
  br i1 %v0cmp, label %loop_body_0, label %loop_exit_0
loop_body_0:
  %v1 = getelementptr inbounds i8, i8* %data2, i32 %v0
  %v2 = load i8, i8* %v1
  %v3 = getelementptr inbounds i32, i32* %data1, i32 %v0
  %v4 = load i32, i32* %v3
  %v5 = getelementptr inbounds float, float* %data3, i32 %v0
  %v6 = load float, float* %v5
  %v7 = getelementptr inbounds float, float* %data0, i32 %v0
  %v8 = fptosi float %v6 to i8
  %v9 = uitofp i8 %v2 to float
  %v10 = sitofp i32 %v4 to float
  %v11 = sitofp i8 %v8 to float
  %v12 = fadd nsz arcp contract afn float %v10, %v9
  %v13 = fadd nsz arcp contract afn float %v12, %v11
  store float %v13, float* %v7
  br label %loop_footer_0
loop_footer_0:
  br label %loop_latch_0
loop_exit_0:
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }