define void @r_8_8(float* noalias align 32 %data0, float* noalias align 32 %data1) #0
{
  %reg_0 = alloca [1 x float]
  %v0 = getelementptr inbounds float, float* %reg_0, i32 0
  br label %loop_entry_1
loop_entry_1:
  br label %loop_latch_1
loop_latch_1:
  %v1 = phi i32 [ 0, %loop_entry_1 ], [ %v1phi, %loop_footer_1 ]
  %v1phi = add i32 %v1, 1
  %v1cmp = icmp ult i32 %v1, 8
  br i1 %v1cmp, label %loop_body_1, label %loop_exit_1
loop_body_1:
  %v2 = getelementptr inbounds float, float* %reg_0, i32 0
  store float 0.0, float* %v2
  br label %loop_entry_0
loop_entry_0:
  br label %loop_latch_0
loop_latch_0:
  %v4 = phi i32 [ 0, %loop_entry_0 ], [ %v4phi, %loop_footer_0 ]
  %v4phi = add i32 %v4, 1
  %v4cmp = icmp ult i32 %v4, 8
  br i1 %v4cmp, label %loop_body_0, label %loop_exit_0
loop_body_0:
  %v5 = getelementptr inbounds float, float* %reg_0, i32 0
  %v6 = load float, float* %v5
  %v7 = add nsw i32 %v4, %v1
  %v8 = add nsw i32 %v7, -7
  %v9 = icmp slt i32 6, %v7
  %v10 = getelementptr inbounds float, float* %data1, i32 %v8
  br label %v11_entry
v11_entry:
  br i1 %v9, label %v11_load, label %v11_exit
v11_load:
  %v11_yes = load float, float* %v10
  br label %v11_exit
v11_exit:
  %v11 = phi float [%v11_yes, %v11_load], [0.0, %v11_entry]
  %v12 = fadd nsz arcp contract afn float %v6, %v11
  store float %v12, float* %v0
  br label %loop_footer_0
loop_footer_0:
  br label %loop_latch_0
loop_exit_0:
  %v15 = getelementptr inbounds float, float* %reg_0, i32 0
  %v16 = load float, float* %v15
  %v17 = getelementptr inbounds float, float* %data0, i32 %v1
  store float %v16, float* %v17
  br label %loop_footer_1
loop_footer_1:
  br label %loop_latch_1
loop_exit_1:
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }