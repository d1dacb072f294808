define void @ctrl(float* noalias align 32 %data0, float* noalias align 32 %data1, i32 %n) #0
{
  %reg_0 = alloca [1 x float]
  %local_temp0 = alloca [4 x float], align 16
  br label %loop_entry_3
loop_entry_3:
  br label %loop_latch_3
loop_latch_3:
  %v0 = phi i32 [ 0, %loop_entry_3 ], [ %v0phi, %loop_footer_3 ]
  %v0phi = add i32 %v0, 1
  %v0cmp = icmp ult i32 %v0, 8
  br i1 %v0cmp, label %loop_body_3, label %loop_exit_3
loop_body_3:
  %v1 = getelementptr inbounds float, float* %reg_0, i32 0
  store float 0.0, float* %v1
  br label %loop_entry_0
loop_entry_0:
  br label %loop_latch_0
loop_latch_0:
  %v3 = phi i32 [ 0, %loop_entry_0 ], [ %v3phi, %loop_footer_0 ]
  %v3phi = add i32 %v3, 1
  %v3cmp = icmp ult i32 %v3, %n
  br i1 %v3cmp, label %loop_body_0, label %loop_exit_0
loop_body_0:
  %v4 = mul i32 %v3, 8
  %v5 = add nsw i32 %v4, %v0
  %v6 = icmp slt i32 %v5, 60
  %v7 = getelementptr inbounds float, float* %data1, i32 %v5
  br label %v8_entry
v8_entry:
  br i1 %v6, label %v8_load, label %v8_exit
v8_load:
  %v8_yes = load float, float* %v7
  br label %v8_exit
v8_exit:
  %v8 = phi float [%v8_yes, %v8_load], [-1.0, %v8_entry]
  %v9 = load float, float* %v1
  %v10 = fadd nsz arcp contract afn float %v9, %v8
  store float %v10, float* %v1
  br label %loop_footer_0
loop_footer_0:
  br label %loop_latch_0
loop_exit_0:
  %v13 = getelementptr inbounds float, float* %local_temp0, i32 0
  store float %v9, float* %v13

  br label %loop_entry_1_2
loop_entry_1_2:
  br label %loop_latch_1_2
loop_latch_1_2:
  %v16 = phi i32 [ 0, %loop_entry_1_2 ], [ %v16phi, %loop_footer_1_2 ]
  %v16phi = add i32 %v16, 1
  %v16cmp = icmp ult i32 %v16, 3
  br i1 %v16cmp, label %loop_body_1_2, label %loop_exit_1_2
loop_body_1_2:
  %v17 = icmp slt i32 %v0, 4
  br i1 %v17, label %ifbody_v18, label %ifskip_v18
ifbody_v18:
  %v19 = load float, float* %v13
  %v20 = mul i32 %v16, 8
  %v21 = add nsw i32 %v0, %v20
  %v22 = getelementptr inbounds float, float* %data0, i32 %v21
  store float %v19, float* %v22
  br label %ifskip_v18
ifskip_v18:
  br label %loop_footer_1_2
loop_footer_1_2:
  br label %loop_latch_1_2
loop_exit_1_2:
  br label %loop_footer_3
loop_footer_3:
  br label %loop_latch_3
loop_exit_3:
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }