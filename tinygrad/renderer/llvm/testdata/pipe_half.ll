define void @E_16n3(half* noalias align 32 %data0, half* noalias align 32 %data1, half* noalias align 32 %data2) #0
{
  br label %loop_entry_0
loop_entry_0:
  br label %loop_latch_0
loop_latch_0:
  %v0 = phi i32 [ 0, %loop_entry_0 ], [ %v0phi, %loop_footer_0 ]
  %v0phi = add i32 %v0, 1
  %v0cmp = icmp ult i32 %v0, 16
  br i1 %v0cmp, label %loop_body_0, label %loop_exit_0
loop_body_0:
  %v1 = getelementptr inbounds half, half* %data1, i32 %v0
  %v2 = load half, half* %v1
  %v3 = getelementptr inbounds half, half* %data2, i32 %v0
  %v4 = load half, half* %v3
  %v5 = getelementptr inbounds half, half* %data0, i32 %v0
  %v6 = fmul nsz arcp contract afn half %v2, %v4
  %v7 = fadd nsz arcp contract afn half %v6, 1.5
  %v8 = fmul nsz arcp contract afn half %v7, -1.0
  %v9 = fcmp nsz arcp contract afn ult half %v7, 0.0
  %v10 = select i1 %v9, half %v8, half %v7
  %v11 = fmul nsz arcp contract afn half %v10, 1024.0
  %v12 = fcmp nsz arcp contract afn ult half %v10, 6.097555160522461e-05
  %v13 = select i1 %v12, half %v11, half %v10
  %v14 = fmul nsz arcp contract afn half %v13, 1.3330078125
  %v15 = bitcast half %v14 to i16
  %v16 = sdiv i16 %v15, 1024
  %v17 = and i16 %v16, 31
  %v18 = add nsw i16 %v17, -15
  %v19 = sitofp i16 %v18 to half
  %v20 = fmul nsz arcp contract afn half %v19, -1.0
  %v21 = fptosi half %v20 to i16
  %v22 = bitcast half %v13 to i16
  %v23 = mul i16 %v21, 1024
  %v24 = add nsw i16 %v22, %v23
  %v25 = bitcast i16 %v24 to half
  %v26 = fadd nsz arcp contract afn half %v19, -10.0
  %v27 = fadd nsz arcp contract afn half %v25, -1.0
  %v28 = fadd nsz arcp contract afn half %v25, 1.0
  %v29 = fdiv nsz arcp contract afn half %v27, %v28
  %v30 = fmul nsz arcp contract afn half %v29, %v29
  %v31 = fmul nsz arcp contract afn half 0.4375, %v30
  %v32 = fadd nsz arcp contract afn half %v31, 0.57666015625
  %v33 = fmul nsz arcp contract afn half %v32, %v30
  %v34 = fadd nsz arcp contract afn half %v33, 0.9619140625
  %v35 = fmul nsz arcp contract afn half %v29, %v30
  %v36 = fmul nsz arcp contract afn half %v34, %v35
  %v37 = select i1 %v12, half %v26, half %v19
  %v38 = fadd nsz arcp contract afn half %v36, %v37
  %v39 = fmul nsz arcp contract afn half %v29, 2.884765625
  %v40 = fadd nsz arcp contract afn half %v38, %v39
  %v41 = fcmp nsz arcp contract afn ult half %v10, 0.0
  %v42 = fdiv nsz arcp contract afn half 1.0, %v10
  %v43 = fcmp nsz arcp contract afn une half %v42, 0xFFF0000000000000
  %v44 = fcmp nsz arcp contract afn une half %v10, %v10
  %v45 = fcmp nsz arcp contract afn une half %v10, 0.0
  %v46 = fcmp nsz arcp contract afn une half %v10, 0x7FF0000000000000
  %v47 = select i1 %v46, half %v40, half 0x7FF0000000000000
  %v48 = select i1 %v45, half %v47, half 0xFFF0000000000000
  %v49 = select i1 %v41, half 0x7FF8000000000000, half %v48
  %v50 = select i1 %v44, half 0x7FF8000000000000, half %v49
  %v51 = select i1 %v43, half %v50, half 0xFFF0000000000000
  %v52 = fmul nsz arcp contract afn half %v51, 0.5
  %v53 = fcmp nsz arcp contract afn une half %v52, %v52
  %v54 = fcmp nsz arcp contract afn une half %v52, 0xFFF0000000000000
  %v55 = fcmp nsz arcp contract afn une half %v52, 0x7FF0000000000000
  %v56 = select i1 %v54, half %v52, half 0.0
  %v57 = select i1 %v53, half 0.0, half %v56
  %v58 = select i1 %v55, half %v57, half 0.0
  %v59 = fcmp nsz arcp contract afn ult half %v58, 0.0
  %v60 = select i1 %v59, half -0.5, half 0.5
  %v61 = fadd nsz arcp contract afn half %v58, %v60
  %v62 = fptosi half %v61 to i16
  %v63 = sitofp i16 %v62 to half
  %v64 = sdiv i16 %v62, 2
  %v65 = mul i16 %v64, -1
  %v66 = add nsw i16 %v62, %v65
  %v67 = add nsw i16 %v66, 15
  %v68 = mul i16 %v67, 1024
  %v69 = bitcast i16 %v68 to half
  %v70 = add nsw i16 %v64, 15
  %v71 = mul i16 %v70, 1024
  %v72 = bitcast i16 %v71 to half
  %v73 = fmul nsz arcp contract afn half %v63, -1.0
  %v74 = fadd nsz arcp contract afn half %v58, %v73
  %v75 = fmul nsz arcp contract afn half 0.00015354156494140625, %v74
  %v76 = fadd nsz arcp contract afn half %v75, 0.001338958740234375
  %v77 = fmul nsz arcp contract afn half %v76, %v74
  %v78 = fadd nsz arcp contract afn half %v77, 0.00962066650390625
  %v79 = fmul nsz arcp contract afn half %v78, %v74
  %v80 = fadd nsz arcp contract afn half %v79, 0.055511474609375
  %v81 = fmul nsz arcp contract afn half %v80, %v74
  %v82 = fadd nsz arcp contract afn half %v81, 0.240234375
  %v83 = fmul nsz arcp contract afn half %v82, %v74
  %v84 = fadd nsz arcp contract afn half %v83, 0.693359375
  %v85 = fmul nsz arcp contract afn half %v84, %v74
  %v86 = fadd nsz arcp contract afn half %v85, 1.0
  %v87 = fmul nsz arcp contract afn half %v86, %v72
  %v88 = fmul nsz arcp contract afn half %v87, %v69
  %v89 = fcmp nsz arcp contract afn ult half %v52, -22.0
  %v90 = fcmp nsz arcp contract afn ult half %v52, 23.0
  %v91 = icmp ne i1 %v90, 1
  %v92 = select i1 %v9, half 0x7FF8000000000000, half 1.0
  %v93 = select i1 %v91, half 0x7FF0000000000000, half %v88
  %v94 = select i1 %v89, half 0.0, half %v93
  %v95 = select i1 %v53, half 0x7FF8000000000000, half %v94
  %v96 = fmul nsz arcp contract afn half %v95, %v92
  store half %v96, half* %v5
  br label %loop_footer_0
loop_footer_0:
  br label %loop_latch_0
loop_exit_0:
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }