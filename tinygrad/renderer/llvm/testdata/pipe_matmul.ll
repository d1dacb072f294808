define void @r_16_16_16(float* noalias align 32 %data0, float* noalias align 32 %data1, float* noalias align 32 %data2) #0
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
  %v2 = mul i32 %v1, 16
  br label %loop_entry_2
loop_entry_2:
  br label %loop_latch_2
loop_latch_2:
  %v3 = phi i32 [ 0, %loop_entry_2 ], [ %v3phi, %loop_footer_2 ]
  %v3phi = add i32 %v3, 1
  %v3cmp = icmp ult i32 %v3, 16
  br i1 %v3cmp, label %loop_body_2, label %loop_exit_2
loop_body_2:
  %v4 = getelementptr inbounds float, float* %reg_0, i32 0
  store float 0.0, float* %v4
  br label %loop_entry_0
loop_entry_0:
  br label %loop_latch_0
loop_latch_0:
  %v6 = phi i32 [ 0, %loop_entry_0 ], [ %v6phi, %loop_footer_0 ]
  %v6phi = add i32 %v6, 1
  %v6cmp = icmp ult i32 %v6, 16
  br i1 %v6cmp, label %loop_body_0, label %loop_exit_0
loop_body_0:
  %v7 = getelementptr inbounds float, float* %reg_0, i32 0
  %v8 = load float, float* %v7
  %v9 = add nsw i32 %v2, %v6
  %v10 = getelementptr inbounds float, float* %data1, i32 %v9
  %v11 = load float, float* %v10
  %v12 = mul i32 %v6, 16
  %v13 = add nsw i32 %v12, %v3
  %v14 = getelementptr inbounds float, float* %data2, i32 %v13
  %v15 = load float, float* %v14
  %v16 = fmul nsz arcp contract afn float %v11, %v15
  %v17 = fadd nsz arcp contract afn float %v8, %v16
  store float %v17, float* %v0
  br label %loop_footer_0
loop_footer_0:
  br label %loop_latch_0
loop_exit_0:
  %v20 = getelementptr inbounds float, float* %reg_0, i32 0
  %v21 = load float, float* %v20
  %v22 = add nsw i32 %v2, %v3
  %v23 = getelementptr inbounds float, float* %data0, i32 %v22
  store float %v21, float* %v23
  br label %loop_footer_2
loop_footer_2:
  br label %loop_latch_2
loop_exit_2:
  br label %loop_footer_1
loop_footer_1:
  br label %loop_latch_1
loop_exit_1:
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }