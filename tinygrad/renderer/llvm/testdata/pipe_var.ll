define void @E_n(float* noalias align 32 %data0, float* noalias align 32 %data1, i32 %n) #0
{
  br label %loop_entry_0
loop_entry_0:
  br label %loop_latch_0
loop_latch_0:
  %v0 = phi i32 [ 0, %loop_entry_0 ], [ %v0phi, %loop_footer_0 ]
  %v0phi = add i32 %v0, 1
  %v0cmp = icmp ult i32 %v0, %n
  br i1 %v0cmp, label %loop_body_0, label %loop_exit_0
loop_body_0:
  %v1 = getelementptr inbounds float, float* %data1, i32 %v0
  %v2 = load float, float* %v1
  %v3 = getelementptr inbounds float, float* %data0, i32 %v0
  %v4 = fadd nsz arcp contract afn float %v2, 2.0
  store float %v4, float* %v3
  br label %loop_footer_0
loop_footer_0:
  br label %loop_latch_0
loop_exit_0:
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }