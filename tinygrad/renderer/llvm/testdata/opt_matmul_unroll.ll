define void @r_8_16_2_4_4(float* noalias align 32 %data0, float* noalias align 32 %data1, float* noalias align 32 %data2) #0
{
  %reg_0 = alloca [2 x float]
  %v0 = getelementptr inbounds float, float* %reg_0, i32 0
  %v1 = getelementptr inbounds float, float* %reg_0, i32 1
  br label %loop_entry_1
loop_entry_1:
  br label %loop_latch_1
loop_latch_1:
  %v2 = phi i32 [ 0, %loop_entry_1 ], [ %v2phi, %loop_footer_1 ]
  %v2phi = add i32 %v2, 1
  %v2cmp = icmp ult i32 %v2, 8
  br i1 %v2cmp, label %loop_body_1, label %loop_exit_1
loop_body_1:
  %v3 = mul i32 %v2, 32
  br label %loop_entry_2
loop_entry_2:
  br label %loop_latch_2
loop_latch_2:
  %v4 = phi i32 [ 0, %loop_entry_2 ], [ %v4phi, %loop_footer_2 ]
  %v4phi = add i32 %v4, 1
  %v4cmp = icmp ult i32 %v4, 16
  br i1 %v4cmp, label %loop_body_2, label %loop_exit_2
loop_body_2:
  %v5 = getelementptr inbounds float, float* %reg_0, i32 0
  %v6 = getelementptr inbounds float, float* %reg_0, i32 1
  store float 0.0, float* %v5
  store float 0.0, float* %v6
  br label %loop_entry_0
loop_entry_0:
  br label %loop_latch_0
loop_latch_0:
  %v9 = phi i32 [ 0, %loop_entry_0 ], [ %v9phi, %loop_footer_0 ]
  %v9phi = add i32 %v9, 1
  %v9cmp = icmp ult i32 %v9, 4
  br i1 %v9cmp, label %loop_body_0, label %loop_exit_0
loop_body_0:
  %v10 = getelementptr inbounds float, float* %reg_0, i32 0
  %v11 = load float, float* %v10
  %v12 = mul i32 %v9, 64
  %v13 = add nsw i32 %v12, %v4
  %v14 = add nsw i32 %v13, 16
  %v15 = getelementptr inbounds float, float* %data2, i32 %v14
  %v16 = load float, float* %v15
  %v17 = add nsw i32 %v13, 32
  %v18 = getelementptr inbounds float, float* %data2, i32 %v17
  %v19 = load float, float* %v18
  %v20 = add nsw i32 %v13, 48
  %v21 = getelementptr inbounds float, float* %data2, i32 %v20
  %v22 = load float, float* %v21
  %v23 = getelementptr inbounds float, float* %data2, i32 %v13
  %v24 = load float, float* %v23
  %v25 = getelementptr inbounds float, float* %reg_0, i32 1
  %v26 = load float, float* %v25
  %v27 = mul i32 %v9, 4
  %v28 = add nsw i32 %v27, %v3
  %v29 = add nsw i32 %v28, 16
  %v30 = getelementptr inbounds float, float* %data1, i32 %v29
  %v31 = load <4 x float>, <4 x float>* %v30
  %v32 = getelementptr inbounds float, float* %data1, i32 %v28
  %v33 = load <4 x float>, <4 x float>* %v32
  %v34 = extractelement <4 x float> %v31, i32 0
  %v35 = extractelement <4 x float> %v33, i32 0
  %v36 = extractelement <4 x float> %v31, i32 1
  %v37 = extractelement <4 x float> %v33, i32 1
  %v38 = extractelement <4 x float> %v31, i32 2
  %v39 = extractelement <4 x float> %v33, i32 2
  %v40 = extractelement <4 x float> %v31, i32 3
  %v41 = extractelement <4 x float> %v33, i32 3
  %v42 = fmul nsz arcp contract afn float %v35, %v24
  %v43 = fadd nsz arcp contract afn float %v11, %v42
  %v44 = fmul nsz arcp contract afn float %v34, %v24
  %v45 = fadd nsz arcp contract afn float %v26, %v44
  %v46 = fmul nsz arcp contract afn float %v37, %v16
  %v47 = fadd nsz arcp contract afn float %v43, %v46
  %v48 = fmul nsz arcp contract afn float %v36, %v16
  %v49 = fadd nsz arcp contract afn float %v45, %v48
  %v50 = fmul nsz arcp contract afn float %v39, %v19
  %v51 = fadd nsz arcp contract afn float %v47, %v50
  %v52 = fmul nsz arcp contract afn float %v38, %v19
  %v53 = fadd nsz arcp contract afn float %v49, %v52
  %v54 = fmul nsz arcp contract afn float %v41, %v22
  %v55 = fadd nsz arcp contract afn float %v51, %v54
  %v56 = fmul nsz arcp contract afn float %v40, %v22
  %v57 = fadd nsz arcp contract afn float %v53, %v56
  store float %v55, float* %v0
  store float %v57, float* %v1
  br label %loop_footer_0
loop_footer_0:
  br label %loop_latch_0
loop_exit_0:
  %v61 = getelementptr inbounds float, float* %reg_0, i32 0
  %v62 = load float, float* %v61
  %v63 = getelementptr inbounds float, float* %reg_0, i32 1
  %v64 = load float, float* %v63
  %v65 = add nsw i32 %v3, %v4
  %v66 = getelementptr inbounds float, float* %data0, i32 %v65
  %v67 = add nsw i32 %v65, 16
  %v68 = getelementptr inbounds float, float* %data0, i32 %v67
  store float %v64, float* %v68
  store float %v62, float* %v66
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