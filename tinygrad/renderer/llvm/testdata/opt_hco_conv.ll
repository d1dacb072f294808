define void @r_8_8_8_4_3_3n1(float* noalias align 32 %data0, float* noalias align 32 %data1, float* noalias align 32 %data2) #0
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
  %v9 = add nsw i32 %v6, %v7
  store float 0.0, float* %v8
  br label %loop_entry_0
loop_entry_0:
  br label %loop_latch_0
loop_latch_0:
  %v11 = phi i32 [ 0, %loop_entry_0 ], [ %v11phi, %loop_footer_0 ]
  %v11phi = add i32 %v11, 1
  %v11cmp = icmp ult i32 %v11, 4
  br i1 %v11cmp, label %loop_body_0, label %loop_exit_0
loop_body_0:
  %v12 = getelementptr inbounds float, float* %reg_0, i32 0
  %v13 = load float, float* %v12
  %v14 = mul i32 %v11, 100
  %v15 = add nsw i32 %v9, %v14
  %v16 = add nsw i32 %v15, 10
  %v17 = getelementptr inbounds float, float* %data1, i32 %v16
  %v18 = load float, float* %v17
  %v19 = getelementptr inbounds float, float* %data1, i32 %v15
  %v20 = load float, float* %v19
  %v21 = mul i32 %v11, 9
  %v22 = add nsw i32 %v21, %v2
  %v23 = add nsw i32 %v22, 2
  %v24 = getelementptr inbounds float, float* %data2, i32 %v23
  %v25 = load float, float* %v24
  %v26 = add nsw i32 %v22, 3
  %v27 = getelementptr inbounds float, float* %data2, i32 %v26
  %v28 = load float, float* %v27
  %v29 = getelementptr inbounds float, float* %data2, i32 %v22
  %v30 = load float, float* %v29
  %v31 = add nsw i32 %v15, 1
  %v32 = getelementptr inbounds float, float* %data1, i32 %v31
  %v33 = load float, float* %v32
  %v34 = add nsw i32 %v22, 1
  %v35 = getelementptr inbounds float, float* %data2, i32 %v34
  %v36 = load float, float* %v35
  %v37 = add nsw i32 %v15, 2
  %v38 = getelementptr inbounds float, float* %data1, i32 %v37
  %v39 = load float, float* %v38
  %v40 = add nsw i32 %v15, 11
  %v41 = getelementptr inbounds float, float* %data1, i32 %v40
  %v42 = load float, float* %v41
  %v43 = add nsw i32 %v22, 4
  %v44 = getelementptr inbounds float, float* %data2, i32 %v43
  %v45 = load float, float* %v44
  %v46 = add nsw i32 %v15, 12
  %v47 = getelementptr inbounds float, float* %data1, i32 %v46
  %v48 = load float, float* %v47
  %v49 = add nsw i32 %v22, 5
  %v50 = getelementptr inbounds float, float* %data2, i32 %v49
  %v51 = load float, float* %v50
  %v52 = add nsw i32 %v15, 20
  %v53 = getelementptr inbounds float, float* %data1, i32 %v52
  %v54 = load float, float* %v53
  %v55 = add nsw i32 %v22, 6
  %v56 = getelementptr inbounds float, float* %data2, i32 %v55
  %v57 = load float, float* %v56
  %v58 = add nsw i32 %v15, 21
  %v59 = getelementptr inbounds float, float* %data1, i32 %v58
  %v60 = load float, float* %v59
  %v61 = add nsw i32 %v22, 7
  %v62 = getelementptr inbounds float, float* %data2, i32 %v61
  %v63 = load float, float* %v62
  %v64 = add nsw i32 %v15, 22
  %v65 = getelementptr inbounds float, float* %data1, i32 %v64
  %v66 = load float, float* %v65
  %v67 = add nsw i32 %v22, 8
  %v68 = getelementptr inbounds float, float* %data2, i32 %v67
  %v69 = load float, float* %v68
  %v70 = fmul nsz arcp contract afn float %v20, %v30
  %v71 = fadd nsz arcp contract afn float %v13, %v70
  %v72 = fmul nsz arcp contract afn float %v33, %v36
  %v73 = fadd nsz arcp contract afn float %v71, %v72
  %v74 = fmul nsz arcp contract afn float %v39, %v25
  %v75 = fadd nsz arcp contract afn float %v73, %v74
  %v76 = fmul nsz arcp contract afn float %v18, %v28
  %v77 = fadd nsz arcp contract afn float %v75, %v76
  %v78 = fmul nsz arcp contract afn float %v42, %v45
  %v79 = fadd nsz arcp contract afn float %v77, %v78
  %v80 = fmul nsz arcp contract afn float %v48, %v51
  %v81 = fadd nsz arcp contract afn float %v79, %v80
  %v82 = fmul nsz arcp contract afn float %v54, %v57
  %v83 = fadd nsz arcp contract afn float %v81, %v82
  %v84 = fmul nsz arcp contract afn float %v60, %v63
  %v85 = fadd nsz arcp contract afn float %v83, %v84
  %v86 = fmul nsz arcp contract afn float %v66, %v69
  %v87 = fadd nsz arcp contract afn float %v85, %v86
  store float %v87, float* %v0
  br label %loop_footer_0
loop_footer_0:
  br label %loop_latch_0
loop_exit_0:
  %v90 = getelementptr inbounds float, float* %reg_0, i32 0
  %v91 = load float, float* %v90
  %v92 = add nsw i32 %v5, %v7
  %v93 = add nsw i32 %v92, %v3
  %v94 = getelementptr inbounds float, float* %data0, i32 %v93
  store float %v91, float* %v94
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