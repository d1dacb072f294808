define void @E_8_32(float* noalias align 32 %data0, float* noalias align 32 %data1, float* noalias align 32 %data2, float* noalias align 32 %data3) #0
{
  br label %loop_entry_0
loop_entry_0:
  br label %loop_latch_0
loop_latch_0:
  %v0 = phi i32 [ 0, %loop_entry_0 ], [ %v0phi, %loop_footer_0 ]
  %v0phi = add i32 %v0, 1
  %v0cmp = icmp ult i32 %v0, 8
  br i1 %v0cmp, label %loop_body_0, label %loop_exit_0
loop_body_0:
  %v1 = getelementptr inbounds float, float* %data2, i32 %v0
  %v2 = load float, float* %v1
  %v3 = getelementptr inbounds float, float* %data3, i32 %v0
  %v4 = load float, float* %v3
  %v5 = mul i32 %v0, 32
  %v6 = fmul nsz arcp contract afn float %v2, -1.0
  br label %loop_entry_1
loop_entry_1:
  br label %loop_latch_1
loop_latch_1:
  %v7 = phi i32 [ 0, %loop_entry_1 ], [ %v7phi, %loop_footer_1 ]
  %v7phi = add i32 %v7, 1
  %v7cmp = icmp ult i32 %v7, 32
  br i1 %v7cmp, label %loop_body_1, label %loop_exit_1
loop_body_1:
  %v8 = add nsw i32 %v5, %v7
  %v9 = getelementptr inbounds float, float* %data1, i32 %v8
  %v10 = load float, float* %v9
  %v11 = getelementptr inbounds float, float* %data0, i32 %v8
  %v12 = fadd nsz arcp contract afn float %v10, %v6
  %v13 = fmul nsz arcp contract afn float %v12, 1.4426950216293335
  %v14 = fcmp nsz arcp contract afn une float %v13, %v13
  %v15 = fcmp nsz arcp contract afn une float %v13, 0xFFF0000000000000
  %v16 = fcmp nsz arcp contract afn une float %v13, 0x7FF0000000000000
  %v17 = select i1 %v15, float %v13, float 0.0
  %v18 = select i1 %v14, float 0.0, float %v17
  %v19 = select i1 %v16, float %v18, float 0.0
  %v20 = fcmp nsz arcp contract afn ult float %v19, 0.0
  %v21 = select i1 %v20, float -0.5, float 0.5
  %v22 = fadd nsz arcp contract afn float %v19, %v21
  %v23 = fptosi float %v22 to i32
  %v24 = sitofp i32 %v23 to float
  %v25 = sdiv i32 %v23, 2
  %v26 = mul i32 %v25, -1
  %v27 = add nsw i32 %v23, %v26
  %v28 = add nsw i32 %v27, 127
  %v29 = mul i32 %v28, 8388608
  %v30 = bitcast i32 %v29 to float
  %v31 = add nsw i32 %v25, 127
  %v32 = mul i32 %v31, 8388608
  %v33 = bitcast i32 %v32 to float
  %v34 = fmul nsz arcp contract afn float %v24, -1.0
  %v35 = fadd nsz arcp contract afn float %v19, %v34
  %v36 = fmul nsz arcp contract afn float 0.00015359208919107914, %v35
  %v37 = fadd nsz arcp contract afn float %v36, 0.0013392627006396651
  %v38 = fmul nsz arcp contract afn float %v37, %v35
  %v39 = fadd nsz arcp contract afn float %v38, 0.009618384763598442
  %v40 = fmul nsz arcp contract afn float %v39, %v35
  %v41 = fadd nsz arcp contract afn float %v40, 0.055503472685813904
  %v42 = fmul nsz arcp contract afn float %v41, %v35
  %v43 = fadd nsz arcp contract afn float %v42, 0.24022644758224487
  %v44 = fmul nsz arcp contract afn float %v43, %v35
  %v45 = fadd nsz arcp contract afn float %v44, 0.6931471824645996
  %v46 = fmul nsz arcp contract afn float %v45, %v35
  %v47 = fadd nsz arcp contract afn float %v46, 1.0
  %v48 = fmul nsz arcp contract afn float %v47, %v33
  %v49 = fmul nsz arcp contract afn float %v48, %v30
  %v50 = fcmp nsz arcp contract afn ult float %v13, -150.0
  %v51 = fcmp nsz arcp contract afn ult float %v13, 128.0
  %v52 = icmp ne i1 %v51, 1
  %v53 = select i1 %v52, float 0x7FF0000000000000, float %v49
  %v54 = select i1 %v50, float 0.0, float %v53
  %v55 = select i1 %v14, float 0x7FF8000000000000, float %v54
  %v56 = fdiv nsz arcp contract afn float %v55, %v4
  store float %v56, float* %v11
  br label %loop_footer_1
loop_footer_1:
  br label %loop_latch_1
loop_exit_1:
  br label %loop_footer_0
loop_footer_0:
  br label %loop_latch_0
loop_exit_0:
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }