define void @E_16n9(double* noalias align 32 %data0, double* noalias align 32 %data1) #0
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
  %v1 = getelementptr inbounds double, double* %data1, i32 %v0
  %v2 = load double, double* %v1
  %v3 = getelementptr inbounds double, double* %data0, i32 %v0
  %v4 = fmul nsz arcp contract afn double %v2, 2.5
  %v5 = fadd nsz arcp contract afn double %v4, 1.0
  store double %v5, double* %v3
  br label %loop_footer_0
loop_footer_0:
  br label %loop_latch_0
loop_exit_0:
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }