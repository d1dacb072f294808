define void @E_14(float* noalias align 32 %data0, float* noalias align 32 %data1) #0
{
  br label %loop_entry_0_1
loop_entry_0_1:
  br label %loop_latch_0_1
loop_latch_0_1:
  %v0 = phi i32 [ 0, %loop_entry_0_1 ], [ %v0phi, %loop_footer_0_1 ]
  %v0phi = add i32 %v0, 1
  %v0cmp = icmp ult i32 %v0, 14
  br i1 %v0cmp, label %loop_body_0_1, label %loop_exit_0_1
loop_body_0_1:
  %v1 = getelementptr inbounds float, float* %data1, i32 %v0
  %v2 = load float, float* %v1
  %v3 = add nsw i32 %v0, 1
  %v4 = getelementptr inbounds float, float* %data0, i32 %v3
  %v5 = fadd nsz arcp contract afn float %v2, 1.0
  store float %v5, float* %v4
  br label %loop_footer_0_1
loop_footer_0_1:
  br label %loop_latch_0_1
loop_exit_0_1:
  %v8 = getelementptr inbounds float, float* %data0, i32 0
  %v9 = getelementptr inbounds float, float* %data0, i32 15
  store float 1.0, float* %v8
  store float 1.0, float* %v9
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }