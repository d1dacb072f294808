define void @r_16_16(float* noalias align 32 %data0, float* noalias align 32 %data1) #0
{
  %reg_0 = alloca [1 x float]
  %v0 = getelementptr inbounds float, float* %reg_0, i32 0
  br label %loop_entry_1
loop_entry_1:
  br label %loop_latch_1
loop_latch_1:
  %v1 = phi i32 [ 0, %loop_entry_1 ], [ %v1phi, %loop_footer_1 ]
  %v1phi = add i32 %v1, 1
  %v1cmp = icmp ult i32 %v1, 16
  br i1 %v1cmp, label %loop_body_1, label %loop_exit_1
loop_body_1:
  %v2 = getelementptr inbounds float, float* %reg_0, i32 0
  %v3 = mul i32 %v1, 16
  store float 0.0, float* %v2
  br label %loop_entry_0
loop_entry_0:
  br label %loop_latch_0
loop_latch_0:
  %v5 = phi i32 [ 0, %loop_entry_0 ], [ %v5phi, %loop_footer_0 ]
  %v5phi = add i32 %v5, 1
  %v5cmp = icmp ult i32 %v5, 16
  br i1 %v5cmp, label %loop_body_0, label %loop_exit_0
loop_body_0:
  %v6 = getelementptr inbounds float, float* %reg_0, i32 0
  %v7 = load float, float* %v6
  %v8 = add nsw i32 %v3, %v5
  %v9 = getelementptr inbounds float, float* %data1, i32 %v8
  %v10 = load float, float* %v9
  %v11 = fadd nsz arcp contract afn float %v7, %v10
  store float %v11, float* %v0
  br label %loop_footer_0
loop_footer_0:
  br label %loop_latch_0
loop_exit_0:
  %v14 = getelementptr inbounds float, float* %reg_0, i32 0
  %v15 = load float, float* %v14
  %v16 = getelementptr inbounds float, float* %data0, i32 %v1
  store float %v15, float* %v16
  br label %loop_footer_1
loop_footer_1:
  br label %loop_latch_1
loop_exit_1:
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }