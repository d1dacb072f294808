define void @r_16_16n1(i32* noalias align 32 %data0, float* noalias align 32 %data1, float* noalias align 32 %data2) #0
{
  %reg_0 = alloca [1 x i32]
  %v0 = getelementptr inbounds i32, i32* %reg_0, i32 0
  br label %loop_entry_1
loop_entry_1:
  br label %loop_latch_1
loop_latch_1:
  %v1 = phi i32 [ 0, %loop_entry_1 ], [ %v1phi, %loop_footer_1 ]
  %v1phi = add i32 %v1, 1
  %v1cmp = icmp ult i32 %v1, 16
  br i1 %v1cmp, label %loop_body_1, label %loop_exit_1
loop_body_1:
  %v2 = getelementptr inbounds float, float* %data2, i32 %v1
  %v3 = load float, float* %v2
  %v4 = getelementptr inbounds i32, i32* %reg_0, i32 0
  %v5 = mul i32 %v1, 16
  store i32 -2147483648, i32* %v4
  br label %loop_entry_0
loop_entry_0:
  br label %loop_latch_0
loop_latch_0:
  %v7 = phi i32 [ 0, %loop_entry_0 ], [ %v7phi, %loop_footer_0 ]
  %v7phi = add i32 %v7, 1
  %v7cmp = icmp ult i32 %v7, 16
  br i1 %v7cmp, label %loop_body_0, label %loop_exit_0
loop_body_0:
  %v8 = getelementptr inbounds i32, i32* %reg_0, i32 0
  %v9 = load i32, i32* %v8
  %v10 = add nsw i32 %v5, %v7
  %v11 = getelementptr inbounds float, float* %data1, i32 %v10
  %v12 = load float, float* %v11
  %v13 = fcmp nsz arcp contract afn une float %v12, %v3
  %v14 = icmp ne i1 %v13, 1
  %v15 = zext i1 %v14 to i32
  %v16 = mul i32 %v7, -1
  %v17 = add nsw i32 %v16, 16
  %v18 = mul i32 %v15, %v17
  %v19 = icmp slt i32 %v9, %v18
  %v20 = select i1 %v19, i32 %v18, i32 %v9
  store i32 %v20, i32* %v0
  br label %loop_footer_0
loop_footer_0:
  br label %loop_latch_0
loop_exit_0:
  %v23 = getelementptr inbounds i32, i32* %reg_0, i32 0
  %v24 = load i32, i32* %v23
  %v25 = getelementptr inbounds i32, i32* %data0, i32 %v1
  %v26 = mul i32 %v24, -1
  %v27 = add nsw i32 16, %v26
  store i32 %v27, i32* %v25
  br label %loop_footer_1
loop_footer_1:
  br label %loop_latch_1
loop_exit_1:
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }