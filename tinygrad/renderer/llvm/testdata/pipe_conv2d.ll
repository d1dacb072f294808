define void @r_8_8_8_4_3_3(float* noalias align 32 %data0, float* noalias align 32 %data1, float* noalias align 32 %data2) #0
{
  %reg_0 = alloca [1 x float]
  %v0 = getelementptr inbounds float, float* %reg_0, i32 0
  br label %loop_entry_3
loop_entry_3:
  br label %loop_latch_3
loop_latch_3:
  %v1 = phi i32 [ 0, %loop_entry_3 ], [ %v1phi, %loop_footer_3 ]
  %v1phi = add i32 %v1, 1
  %v1cmp = icmp ult i32 %v1, 8
  br i1 %v1cmp, label %loop_body_3, label %loop_exit_3
loop_body_3:
  %v2 = mul i32 %v1, 36
  %v3 = mul i32 %v1, 64
  br label %loop_entry_4
loop_entry_4:
  br label %loop_latch_4
loop_latch_4:
  %v4 = phi i32 [ 0, %loop_entry_4 ], [ %v4phi, %loop_footer_4 ]
  %v4phi = add i32 %v4, 1
  %v4cmp = icmp ult i32 %v4, 8
  br i1 %v4cmp, label %loop_body_4, label %loop_exit_4
loop_body_4:
  %v5 = mul i32 %v4, 8
  %v6 = mul i32 %v4, 10
  br label %loop_entry_5
loop_entry_5:
  br label %loop_latch_5
loop_latch_5:
  %v7 = phi i32 [ 0, %loop_entry_5 ], [ %v7phi, %loop_footer_5 ]
  %v7phi = add i32 %v7, 1
  %v7cmp = icmp ult i32 %v7, 8
  br i1 %v7cmp, label %loop_body_5, label %loop_exit_5
loop_body_5:
  %v8 = getelementptr inbounds float, float* %reg_0, i32 0
  store float 0.0, float* %v8
  br label %loop_entry_0
loop_entry_0:
  br label %loop_latch_0
loop_latch_0:
  %v10 = phi i32 [ 0, %loop_entry_0 ], [ %v10phi, %loop_footer_0 ]
  %v10phi = add i32 %v10, 1
  %v10cmp = icmp ult i32 %v10, 4
  br i1 %v10cmp, label %loop_body_0, label %loop_exit_0
loop_body_0:
  %v11 = mul i32 %v10, 9
  %v12 = mul i32 %v10, 100
  br label %loop_entry_1
loop_entry_1:
  br label %loop_latch_1
loop_latch_1:
  %v13 = phi i32 [ 0, %loop_entry_1 ], [ %v13phi, %loop_footer_1 ]
  %v13phi = add i32 %v13, 1
  %v13cmp = icmp ult i32 %v13, 3
  br i1 %v13cmp, label %loop_body_1, label %loop_exit_1
loop_body_1:
  %v14 = mul i32 %v13, 10
  %v15 = add nsw i32 %v14, %v6
  %v16 = mul i32 %v13, 3
  br label %loop_entry_2
loop_entry_2:
  br label %loop_latch_2
loop_latch_2:
  %v17 = phi i32 [ 0, %loop_entry_2 ], [ %v17phi, %loop_footer_2 ]
  %v17phi = add i32 %v17, 1
  %v17cmp = icmp ult i32 %v17, 3
  br i1 %v17cmp, label %loop_body_2, label %loop_exit_2
loop_body_2:
  %v18 = getelementptr inbounds float, float* %reg_0, i32 0
  %v19 = load float, float* %v18
  %v20 = add nsw i32 %v17, %v7
  %v21 = add nsw i32 %v15, %v20
  %v22 = add nsw i32 %v21, %v12
  %v23 = getelementptr inbounds float, float* %data1, i32 %v22
  %v24 = load float, float* %v23
  %v25 = add nsw i32 %v16, %v17
  %v26 = add nsw i32 %v25, %v11
  %v27 = add nsw i32 %v26, %v2
  %v28 = getelementptr inbounds float, float* %data2, i32 %v27
  %v29 = load float, float* %v28
  %v30 = fmul nsz arcp contract afn float %v24, %v29
  %v31 = fadd nsz arcp contract afn float %v19, %v30
  store float %v31, float* %v0
  br label %loop_footer_2
loop_footer_2:
  br label %loop_latch_2
loop_exit_2:
  br label %loop_footer_1
loop_footer_1:
  br label %loop_latch_1
loop_exit_1:
  br label %loop_footer_0
loop_footer_0:
  br label %loop_latch_0
loop_exit_0:
  %v36 = getelementptr inbounds float, float* %reg_0, i32 0
  %v37 = load float, float* %v36
  %v38 = add nsw i32 %v5, %v7
  %v39 = add nsw i32 %v38, %v3
  %v40 = getelementptr inbounds float, float* %data0, i32 %v39
  store float %v37, float* %v40
  br label %loop_footer_5
loop_footer_5:
  br label %loop_latch_5
loop_exit_5:
  br label %loop_footer_4
loop_footer_4:
  br label %loop_latch_4
loop_exit_4:
  br label %loop_footer_3
loop_footer_3:
  br label %loop_latch_3
loop_exit_3:
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }