define void @E_256n2(float* noalias align 32 %data0, float* noalias align 32 %data1, float* noalias align 32 %data2) #0
{
  br label %loop_entry_0
loop_entry_0:
  br label %loop_latch_0
loop_latch_0:
  %v0 = phi i32 [ 0, %loop_entry_0 ], [ %v0phi, %loop_footer_0 ]
  %v0phi = add i32 %v0, 1
  %v0cmp = icmp ult i32 %v0, 256
  br i1 %v0cmp, label %loop_body_0, label %loop_exit_0
loop_body_0:
  %v1 = getelementptr inbounds float, float* %data1, i32 %v0
  %v2 = load float, float* %v1
  %v3 = getelementptr inbounds float, float* %data2, i32 %v0
  %v4 = load float, float* %v3
  %v5 = getelementptr inbounds float, float* %data0, i32 %v0
  %v6 = fcmp nsz arcp contract afn ult float %v2, %v4
  %v7 = fcmp nsz arcp contract afn une float %v2, 2.0
  %v8 = and i1 %v6, %v7
  %v9 = select i1 %v8, float %v2, float %v4
  store float %v9, float* %v5
  br label %loop_footer_0
loop_footer_0:
  br label %loop_latch_0
loop_exit_0:
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }