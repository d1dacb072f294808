define void @r_8_10_10_4_3_3(float* noalias align 32 %data0, float* noalias align 32 %data1, float* noalias align 32 %data2) #0
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
  %v3 = mul i32 %v1, 100
  br label %loop_entry_4
loop_entry_4:
  br label %loop_latch_4
loop_latch_4:
  %v4 = phi i32 [ 0, %loop_entry_4 ], [ %v4phi, %loop_footer_4 ]
  %v4phi = add i32 %v4, 1
  %v4cmp = icmp ult i32 %v4, 10
  br i1 %v4cmp, label %loop_body_4, label %loop_exit_4
loop_body_4:
  %v5 = mul i32 %v4, 10
  %v6 = icmp slt i32 %v4, 9
  %v7 = icmp slt i32 0, %v4
  br label %loop_entry_5
loop_entry_5:
  br label %loop_latch_5
loop_latch_5:
  %v8 = phi i32 [ 0, %loop_entry_5 ], [ %v8phi, %loop_footer_5 ]
  %v8phi = add i32 %v8, 1
  %v8cmp = icmp ult i32 %v8, 10
  br i1 %v8cmp, label %loop_body_5, label %loop_exit_5
loop_body_5:
  %v9 = getelementptr inbounds float, float* %reg_0, i32 0
  %v10 = add nsw i32 %v5, %v8
  %v11 = icmp slt i32 %v8, 9
  %v12 = icmp slt i32 0, %v8
  %v13 = and i1 %v11, %v6
  %v14 = and i1 %v11, %v7
  %v15 = and i1 %v12, %v6
  %v16 = and i1 %v12, %v7
  store float 0.0, float* %v9
  br label %loop_entry_0
loop_entry_0:
  br label %loop_latch_0
loop_latch_0:
  %v18 = phi i32 [ 0, %loop_entry_0 ], [ %v18phi, %loop_footer_0 ]
  %v18phi = add i32 %v18, 1
  %v18cmp = icmp ult i32 %v18, 4
  br i1 %v18cmp, label %loop_body_0, label %loop_exit_0
loop_body_0:
  %v19 = getelementptr inbounds float, float* %reg_0, i32 0
  %v20 = load float, float* %v19
  %v21 = mul i32 %v18, 100
  %v22 = add nsw i32 %v10, %v21
  %v23 = add nsw i32 %v22, -11
  %v24 = getelementptr inbounds float, float* %data1, i32 %v23
  br label %v25_entry
v25_entry:
  br i1 %v16, label %v25_load, label %v25_exit
v25_load:
  %v25_yes = load float, float* %v24
  br label %v25_exit
v25_exit:
  %v25 = phi float [%v25_yes, %v25_load], [0.0, %v25_entry]
  %v26 = mul i32 %v18, 9
  %v27 = add nsw i32 %v26, %v2
  %v28 = add nsw i32 %v27, 1
  %v29 = getelementptr inbounds float, float* %data2, i32 %v28
  %v30 = load float, float* %v29
  %v31 = add nsw i32 %v27, 2
  %v32 = getelementptr inbounds float, float* %data2, i32 %v31
  %v33 = load float, float* %v32
  %v34 = getelementptr inbounds float, float* %data2, i32 %v27
  %v35 = load float, float* %v34
  %v36 = add nsw i32 %v22, -10
  %v37 = getelementptr inbounds float, float* %data1, i32 %v36
  br label %v38_entry
v38_entry:
  br i1 %v7, label %v38_load, label %v38_exit
v38_load:
  %v38_yes = load float, float* %v37
  br label %v38_exit
v38_exit:
  %v38 = phi float [%v38_yes, %v38_load], [0.0, %v38_entry]
  %v39 = add nsw i32 %v22, -9
  %v40 = getelementptr inbounds float, float* %data1, i32 %v39
  br label %v41_entry
v41_entry:
  br i1 %v14, label %v41_load, label %v41_exit
v41_load:
  %v41_yes = load float, float* %v40
  br label %v41_exit
v41_exit:
  %v41 = phi float [%v41_yes, %v41_load], [0.0, %v41_entry]
  %v42 = add nsw i32 %v22, -1
  %v43 = getelementptr inbounds float, float* %data1, i32 %v42
  br label %v44_entry
v44_entry:
  br i1 %v12, label %v44_load, label %v44_exit
v44_load:
  %v44_yes = load float, float* %v43
  br label %v44_exit
v44_exit:
  %v44 = phi float [%v44_yes, %v44_load], [0.0, %v44_entry]
  %v45 = add nsw i32 %v27, 3
  %v46 = getelementptr inbounds float, float* %data2, i32 %v45
  %v47 = load float, float* %v46
  %v48 = add nsw i32 %v22, 10
  %v49 = getelementptr inbounds float, float* %data1, i32 %v48
  br label %v50_entry
v50_entry:
  br i1 %v6, label %v50_load, label %v50_exit
v50_load:
  %v50_yes = load float, float* %v49
  br label %v50_exit
v50_exit:
  %v50 = phi float [%v50_yes, %v50_load], [0.0, %v50_entry]
  %v51 = getelementptr inbounds float, float* %data1, i32 %v22
  %v52 = load float, float* %v51
  %v53 = add nsw i32 %v27, 4
  %v54 = getelementptr inbounds float, float* %data2, i32 %v53
  %v55 = load float, float* %v54
  %v56 = add nsw i32 %v22, 1
  %v57 = getelementptr inbounds float, float* %data1, i32 %v56
  br label %v58_entry
v58_entry:
  br i1 %v11, label %v58_load, label %v58_exit
v58_load:
  %v58_yes = load float, float* %v57
  br label %v58_exit
v58_exit:
  %v58 = phi float [%v58_yes, %v58_load], [0.0, %v58_entry]
  %v59 = add nsw i32 %v27, 5
  %v60 = getelementptr inbounds float, float* %data2, i32 %v59
  %v61 = load float, float* %v60
  %v62 = add nsw i32 %v22, 9
  %v63 = getelementptr inbounds float, float* %data1, i32 %v62
  br label %v64_entry
v64_entry:
  br i1 %v15, label %v64_load, label %v64_exit
v64_load:
  %v64_yes = load float, float* %v63
  br label %v64_exit
v64_exit:
  %v64 = phi float [%v64_yes, %v64_load], [0.0, %v64_entry]
  %v65 = add nsw i32 %v27, 6
  %v66 = getelementptr inbounds float, float* %data2, i32 %v65
  %v67 = load float, float* %v66
  %v68 = add nsw i32 %v27, 7
  %v69 = getelementptr inbounds float, float* %data2, i32 %v68
  %v70 = load float, float* %v69
  %v71 = add nsw i32 %v22, 11
  %v72 = getelementptr inbounds float, float* %data1, i32 %v71
  br label %v73_entry
v73_entry:
  br i1 %v13, label %v73_load, label %v73_exit
v73_load:
  %v73_yes = load float, float* %v72
  br label %v73_exit
v73_exit:
  %v73 = phi float [%v73_yes, %v73_load], [0.0, %v73_entry]
  %v74 = add nsw i32 %v27, 8
  %v75 = getelementptr inbounds float, float* %data2, i32 %v74
  %v76 = load float, float* %v75
  %v77 = fmul nsz arcp contract afn float %v25, %v35
  %v78 = fadd nsz arcp contract afn float %v20, %v77
  %v79 = fmul nsz arcp contract afn float %v38, %v30
  %v80 = fadd nsz arcp contract afn float %v78, %v79
  %v81 = fmul nsz arcp contract afn float %v41, %v33
  %v82 = fadd nsz arcp contract afn float %v80, %v81
  %v83 = fmul nsz arcp contract afn float %v44, %v47
  %v84 = fadd nsz arcp contract afn float %v82, %v83
  %v85 = fmul nsz arcp contract afn float %v52, %v55
  %v86 = fadd nsz arcp contract afn float %v84, %v85
  %v87 = fmul nsz arcp contract afn float %v58, %v61
  %v88 = fadd nsz arcp contract afn float %v86, %v87
  %v89 = fmul nsz arcp contract afn float %v64, %v67
  %v90 = fadd nsz arcp contract afn float %v88, %v89
  %v91 = fmul nsz arcp contract afn float %v50, %v70
  %v92 = fadd nsz arcp contract afn float %v90, %v91
  %v93 = fmul nsz arcp contract afn float %v73, %v76
  %v94 = fadd nsz arcp contract afn float %v92, %v93
  store float %v94, float* %v0
  br label %loop_footer_0
loop_footer_0:
  br label %loop_latch_0
loop_exit_0:
  %v97 = getelementptr inbounds float, float* %reg_0, i32 0
  %v98 = load float, float* %v97
  %v99 = add nsw i32 %v10, %v3
  %v100 = getelementptr inbounds float, float* %data0, i32 %v99
  %v101 = fcmp nsz arcp contract afn ult float 0.0, %v98
  %v102 = select i1 %v101, float %v98, float 0.0
  store float %v102, float* %v100
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