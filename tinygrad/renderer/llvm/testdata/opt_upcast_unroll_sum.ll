define void @r_16_4_8_4(float* noalias align 32 %data0, float* noalias align 32 %data1) #0
{
  %reg_0 = alloca [4 x float]
  %v0 = getelementptr inbounds float, float* %reg_0, i32 0
  %v1 = getelementptr inbounds float, float* %reg_0, i32 1
  %v2 = getelementptr inbounds float, float* %reg_0, i32 2
  %v3 = getelementptr inbounds float, float* %reg_0, i32 3
  br label %loop_entry_1
loop_entry_1:
  br label %loop_latch_1
loop_latch_1:
  %v4 = phi i32 [ 0, %loop_entry_1 ], [ %v4phi, %loop_footer_1 ]
  %v4phi = add i32 %v4, 1
  %v4cmp = icmp ult i32 %v4, 16
  br i1 %v4cmp, label %loop_body_1, label %loop_exit_1
loop_body_1:
  %v5 = getelementptr inbounds float, float* %reg_0, i32 0
  %v6 = getelementptr inbounds float, float* %reg_0, i32 1
  %v7 = getelementptr inbounds float, float* %reg_0, i32 2
  %v8 = getelementptr inbounds float, float* %reg_0, i32 3
  %v9 = mul i32 %v4, 128
  store float 0.0, float* %v5
  store float 0.0, float* %v6
  store float 0.0, float* %v7
  store float 0.0, float* %v8
  br label %loop_entry_0
loop_entry_0:
  br label %loop_latch_0
loop_latch_0:
  %v14 = phi i32 [ 0, %loop_entry_0 ], [ %v14phi, %loop_footer_0 ]
  %v14phi = add i32 %v14, 1
  %v14cmp = icmp ult i32 %v14, 8
  br i1 %v14cmp, label %loop_body_0, label %loop_exit_0
loop_body_0:
  %v15 = getelementptr inbounds float, float* %reg_0, i32 0
  %v16 = load float, float* %v15
  %v17 = getelementptr inbounds float, float* %reg_0, i32 1
  %v18 = load float, float* %v17
  %v19 = getelementptr inbounds float, float* %reg_0, i32 2
  %v20 = load float, float* %v19
  %v21 = getelementptr inbounds float, float* %reg_0, i32 3
  %v22 = load float, float* %v21
  %v23 = mul i32 %v14, 4
  %v24 = add nsw i32 %v23, %v9
  %v25 = add nsw i32 %v24, 32
  %v26 = getelementptr inbounds float, float* %data1, i32 %v25
  %v27 = load <4 x float>, <4 x float>* %v26
  %v28 = add nsw i32 %v24, 64
  %v29 = getelementptr inbounds float, float* %data1, i32 %v28
  %v30 = load <4 x float>, <4 x float>* %v29
  %v31 = add nsw i32 %v24, 96
  %v32 = getelementptr inbounds float, float* %data1, i32 %v31
  %v33 = load <4 x float>, <4 x float>* %v32
  %v34 = getelementptr inbounds float, float* %data1, i32 %v24
  %v35 = load <4 x float>, <4 x float>* %v34
  %v36 = extractelement <4 x float> %v27, i32 0
  %v37 = extractelement <4 x float> %v30, i32 0
  %v38 = extractelement <4 x float> %v33, i32 0
  %v39 = extractelement <4 x float> %v35, i32 0
  %v40 = extractelement <4 x float> %v27, i32 1
  %v41 = extractelement <4 x float> %v30, i32 1
  %v42 = extractelement <4 x float> %v33, i32 1
  %v43 = extractelement <4 x float> %v35, i32 1
  %v44 = extractelement <4 x float> %v27, i32 2
  %v45 = extractelement <4 x float> %v30, i32 2
  %v46 = extractelement <4 x float> %v33, i32 2
  %v47 = extractelement <4 x float> %v35, i32 2
  %v48 = extractelement <4 x float> %v27, i32 3
  %v49 = extractelement <4 x float> %v30, i32 3
  %v50 = extractelement <4 x float> %v33, i32 3
  %v51 = extractelement <4 x float> %v35, i32 3
  %v52 = fadd nsz arcp contract afn float %v16, %v39
  %v53 = fadd nsz arcp contract afn float %v18, %v36
  %v54 = fadd nsz arcp contract afn float %v20, %v37
  %v55 = fadd nsz arcp contract afn float %v22, %v38
  %v56 = fadd nsz arcp contract afn float %v52, %v43
  %v57 = fadd nsz arcp contract afn float %v53, %v40
  %v58 = fadd nsz arcp contract afn float %v54, %v41
  %v59 = fadd nsz arcp contract afn float %v55, %v42
  %v60 = fadd nsz arcp contract afn float %v56, %v47
  %v61 = fadd nsz arcp contract afn float %v57, %v44
  %v62 = fadd nsz arcp contract afn float %v58, %v45
  %v63 = fadd nsz arcp contract afn float %v59, %v46
  %v64 = fadd nsz arcp contract afn float %v60, %v51
  %v65 = fadd nsz arcp contract afn float %v61, %v48
  %v66 = fadd nsz arcp contract afn float %v62, %v49
  %v67 = fadd nsz arcp contract afn float %v63, %v50
  store float %v64, float* %v0
  store float %v65, float* %v1
  store float %v66, float* %v2
  store float %v67, float* %v3
  br label %loop_footer_0
loop_footer_0:
  br label %loop_latch_0
loop_exit_0:
  %v73 = getelementptr inbounds float, float* %reg_0, i32 0
  %v74 = load float, float* %v73
  %v75 = getelementptr inbounds float, float* %reg_0, i32 1
  %v76 = load float, float* %v75
  %v77 = getelementptr inbounds float, float* %reg_0, i32 2
  %v78 = load float, float* %v77
  %v79 = getelementptr inbounds float, float* %reg_0, i32 3
  %v80 = load float, float* %v79
  %v81_0 = insertelement <4 x float> poison, float %v74, i32 0
  %v81_1 = insertelement <4 x float> %v81_0, float %v76, i32 1
  %v81_2 = insertelement <4 x float> %v81_1, float %v78, i32 2
  %v81 = insertelement <4 x float> %v81_2, float %v80, i32 3
  %v82 = mul i32 %v4, 4
  %v83 = getelementptr inbounds float, float* %data0, i32 %v82
  store <4 x float> %v81, <4 x float>* %v83
  br label %loop_footer_1
loop_footer_1:
  br label %loop_latch_1
loop_exit_1:
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }