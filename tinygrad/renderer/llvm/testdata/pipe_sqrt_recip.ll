define void @E_256n3(float* noalias align 32 %data0, float* noalias align 32 %data1, float* noalias align 32 %data2) #0
{
  br label %loop_entry_0
loop_entry_0:
  br label %loop_latch_0
loop_latch_0:
  %v0 = phi i32 [ 0, %loop_entry_0 ], [ %v0phi, %loop_footer_0 ]
  %v0phi = add i32 %v0, 1
  %v0cmp = icmp ult i32 %v0, 256
  br i1 %v0cmp, label %loop_body_0, label %loop_exit_0
loop_body_0:
  %v1 = getelementptr inbounds float, float* %data1, i32 %v0
  %v2 = load float, float* %v1
  %v3 = getelementptr inbounds float, float* %data2, i32 %v0
  %v4 = load float, float* %v3
  %v5 = getelementptr inbounds float, float* %data0, i32 %v0
  %v6 = fmul nsz arcp contract afn float %v2, -1.0
  %v7 = fcmp nsz arcp contract afn ult float %v2, 0.0
  %v8 = select i1 %v7, float %v6, float %v2
  %v9 = fmul nsz arcp contract afn float %v8, 1.8446744073709552e+19
  %v10 = fcmp nsz arcp contract afn ult float %v8, 9.999999747378752e-05
  %v11 = select i1 %v10, float %v9, float %v8
  %v12 = fmul nsz arcp contract afn float %v11, 1.3333333730697632
  %v13 = bitcast float %v12 to i32
  %v14 = sdiv i32 %v13, 8388608
  %v15 = and i32 %v14, 255
  %v16 = add nsw i32 %v15, -127
  %v17 = sitofp i32 %v16 to float
  %v18 = fmul nsz arcp contract afn float %v17, -1.0
  %v19 = fptosi float %v18 to i32
  %v20 = bitcast float %v11 to i32
  %v21 = mul i32 %v19, 8388608
  %v22 = add nsw i32 %v20, %v21
  %v23 = bitcast i32 %v22 to float
  %v24 = fadd nsz arcp contract afn float %v17, -64.0
  %v25 = fadd nsz arcp contract afn float %v23, -1.0
  %v26 = fadd nsz arcp contract afn float %v23, 1.0
  %v27 = fdiv nsz arcp contract afn float %v25, %v26
  %v28 = fmul nsz arcp contract afn float %v27, %v27
  %v29 = fmul nsz arcp contract afn float 0.43745502829551697, %v28
  %v30 = fadd nsz arcp contract afn float %v29, 0.5764790177345276
  %v31 = fmul nsz arcp contract afn float %v30, %v28
  %v32 = fadd nsz arcp contract afn float %v31, 0.961801290512085
  %v33 = fmul nsz arcp contract afn float %v27, %v28
  %v34 = fmul nsz arcp contract afn float %v32, %v33
  %v35 = select i1 %v10, float %v24, float %v17
  %v36 = fadd nsz arcp contract afn float %v34, %v35
  %v37 = fmul nsz arcp contract afn float %v27, 2.885390043258667
  %v38 = fadd nsz arcp contract afn float %v36, %v37
  %v39 = fmul nsz arcp contract afn float %v27, 3.2734472910078694e-08
  %v40 = fadd nsz arcp contract afn float %v38, %v39
  %v41 = fcmp nsz arcp contract afn ult float %v8, 0.0
  %v42 = fdiv nsz arcp contract afn float 1.0, %v8
  %v43 = fcmp nsz arcp contract afn une float %v42, 0xFFF0000000000000
  %v44 = fcmp nsz arcp contract afn une float %v8, %v8
  %v45 = fcmp nsz arcp contract afn une float %v8, 0.0
  %v46 = fcmp nsz arcp contract afn une float %v8, 0x7FF0000000000000
  %v47 = select i1 %v46, float %v40, float 0x7FF0000000000000
  %v48 = select i1 %v45, float %v47, float 0xFFF0000000000000
  %v49 = select i1 %v41, float 0x7FF8000000000000, float %v48
  %v50 = select i1 %v44, float 0x7FF8000000000000, float %v49
  %v51 = select i1 %v43, float %v50, float 0xFFF0000000000000
  %v52 = fmul nsz arcp contract afn float %v51, 0.5
  %v53 = fcmp nsz arcp contract afn une float %v52, %v52
  %v54 = fcmp nsz arcp contract afn une float %v52, 0xFFF0000000000000
  %v55 = fcmp nsz arcp contract afn une float %v52, 0x7FF0000000000000
  %v56 = select i1 %v54, float %v52, float 0.0
  %v57 = select i1 %v53, float 0.0, float %v56
  %v58 = select i1 %v55, float %v57, float 0.0
  %v59 = fcmp nsz arcp contract afn ult float %v58, 0.0
  %v60 = select i1 %v59, float -0.5, float 0.5
  %v61 = fadd nsz arcp contract afn float %v58, %v60
  %v62 = fptosi float %v61 to i32
  %v63 = sitofp i32 %v62 to float
  %v64 = sdiv i32 %v62, 2
  %v65 = mul i32 %v64, -1
  %v66 = add nsw i32 %v62, %v65
  %v67 = add nsw i32 %v66, 127
  %v68 = mul i32 %v67, 8388608
  %v69 = bitcast i32 %v68 to float
  %v70 = add nsw i32 %v64, 127
  %v71 = mul i32 %v70, 8388608
  %v72 = bitcast i32 %v71 to float
  %v73 = call float @llvm.trunc.float(float %v6)
  %v74 = fmul nsz arcp contract afn float %v63, -1.0
  %v75 = fadd nsz arcp contract afn float %v58, %v74
  %v76 = fmul nsz arcp contract afn float 0.00015359208919107914, %v75
  %v77 = fadd nsz arcp contract afn float %v76, 0.0013392627006396651
  %v78 = fmul nsz arcp contract afn float %v77, %v75
  %v79 = fadd nsz arcp contract afn float %v78, 0.009618384763598442
  %v80 = fmul nsz arcp contract afn float %v79, %v75
  %v81 = fadd nsz arcp contract afn float %v80, 0.055503472685813904
  %v82 = fmul nsz arcp contract afn float %v81, %v75
  %v83 = fadd nsz arcp contract afn float %v82, 0.24022644758224487
  %v84 = fmul nsz arcp contract afn float %v83, %v75
  %v85 = fadd nsz arcp contract afn float %v84, 0.6931471824645996
  %v86 = fmul nsz arcp contract afn float %v85, %v75
  %v87 = fadd nsz arcp contract afn float %v86, 1.0
  %v88 = fmul nsz arcp contract afn float %v87, %v72
  %v89 = fmul nsz arcp contract afn float %v88, %v69
  %v90 = fcmp nsz arcp contract afn ult float %v52, -150.0
  %v91 = fcmp nsz arcp contract afn ult float %v52, 128.0
  %v92 = icmp ne i1 %v91, 1
  %v93 = select i1 %v7, float 0x7FF8000000000000, float 1.0
  %v94 = select i1 %v92, float 0x7FF0000000000000, float %v89
  %v95 = select i1 %v90, float 0.0, float %v94
  %v96 = select i1 %v53, float 0x7FF8000000000000, float %v95
  %v97 = fmul nsz arcp contract afn float %v96, %v93
  %v98 = fdiv nsz arcp contract afn float %v97, %v4
  %v99 = fadd nsz arcp contract afn float %v98, %v73
  store float %v99, float* %v5
  br label %loop_footer_0
loop_footer_0:
  br label %loop_latch_0
loop_exit_0:
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }