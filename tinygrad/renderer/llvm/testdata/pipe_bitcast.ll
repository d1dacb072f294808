define void @E_16n7(i32* noalias align 32 %data0, float* noalias align 32 %data1) #0
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
  %v1 = getelementptr inbounds float, float* %data1, i32 %v0
  %v2 = load float, float* %v1
  %v3 = getelementptr inbounds i32, i32* %data0, i32 %v0
  %v4 = bitcast float %v2 to i32
  %v5 = add nsw i32 %v4, 1
  store i32 %v5, i32* %v3
  br label %loop_footer_0
loop_footer_0:
  br label %loop_latch_0
loop_exit_0:
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }