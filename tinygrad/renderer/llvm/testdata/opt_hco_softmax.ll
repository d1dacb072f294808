define void @E_8_8_4(float* noalias align 32 %data0, float* noalias align 32 %data1, float* noalias align 32 %data2, float* noalias align 32 %data3) #0
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
  %v7cmp = icmp ult i32 %v7, 8
  br i1 %v7cmp, label %loop_body_1, label %loop_exit_1
loop_body_1:
  %v8 = mul i32 %v7, 4
  %v9 = add nsw i32 %v5, %v8
  %v10 = getelementptr inbounds float, float* %data1, i32 %v9
  %v11 = load <4 x float>, <4 x float>* %v10
  %v12 = extractelement <4 x float> %v11, i32 0
  %v13 = extractelement <4 x float> %v11, i32 1
  %v14 = extractelement <4 x float> %v11, i32 2
  %v15 = extractelement <4 x float> %v11, i32 3
  %v16 = fadd nsz arcp contract afn float %v12, %v6
  %v17 = fmul nsz arcp contract afn float %v16, 1.4426950216293335
  %v18 = fcmp nsz arcp contract afn une float %v17, %v17
  %v19 = fcmp nsz arcp contract afn une float %v17, 0xFFF0000000000000
  %v20 = fcmp nsz arcp contract afn une float %v17, 0x7FF0000000000000
  %v21 = select i1 %v19, float %v17, float 0.0
  %v22 = select i1 %v18, float 0.0, float %v21
  %v23 = select i1 %v20, float %v22, float 0.0
  %v24 = fcmp nsz arcp contract afn ult float %v23, 0.0
  %v25 = select i1 %v24, float -0.5, float 0.5
  %v26 = fadd nsz arcp contract afn float %v23, %v25
  %v27 = fptosi float %v26 to i32
  %v28 = fadd nsz arcp contract afn float %v13, %v6
  %v29 = fmul nsz arcp contract afn float %v28, 1.4426950216293335
  %v30 = fcmp nsz arcp contract afn une float %v29, %v29
  %v31 = fcmp nsz arcp contract afn une float %v29, 0xFFF0000000000000
  %v32 = fcmp nsz arcp contract afn une float %v29, 0x7FF0000000000000
  %v33 = select i1 %v31, float %v29, float 0.0
  %v34 = select i1 %v30, float 0.0, float %v33
  %v35 = select i1 %v32, float %v34, float 0.0
  %v36 = fcmp nsz arcp contract afn ult float %v35, 0.0
  %v37 = select i1 %v36, float -0.5, float 0.5
  %v38 = fadd nsz arcp contract afn float %v35, %v37
  %v39 = fptosi float %v38 to i32
  %v40 = fadd nsz arcp contract afn float %v14, %v6
  %v41 = fmul nsz arcp contract afn float %v40, 1.4426950216293335
  %v42 = fcmp nsz arcp contract afn une float %v41, %v41
  %v43 = fcmp nsz arcp contract afn une float %v41, 0xFFF0000000000000
  %v44 = fcmp nsz arcp contract afn une float %v41, 0x7FF0000000000000
  %v45 = select i1 %v43, float %v41, float 0.0
  %v46 = select i1 %v42, float 0.0, float %v45
  %v47 = select i1 %v44, float %v46, float 0.0
  %v48 = fcmp nsz arcp contract afn ult float %v47, 0.0
  %v49 = select i1 %v48, float -0.5, float 0.5
  %v50 = fadd nsz arcp contract afn float %v47, %v49
  %v51 = fptosi float %v50 to i32
  %v52 = fadd nsz arcp contract afn float %v15, %v6
  %v53 = fmul nsz arcp contract afn float %v52, 1.4426950216293335
  %v54 = fcmp nsz arcp contract afn une float %v53, %v53
  %v55 = fcmp nsz arcp contract afn une float %v53, 0xFFF0000000000000
  %v56 = fcmp nsz arcp contract afn une float %v53, 0x7FF0000000000000
  %v57 = select i1 %v55, float %v53, float 0.0
  %v58 = select i1 %v54, float 0.0, float %v57
  %v59 = select i1 %v56, float %v58, float 0.0
  %v60 = fcmp nsz arcp contract afn ult float %v59, 0.0
  %v61 = select i1 %v60, float -0.5, float 0.5
  %v62 = fadd nsz arcp contract afn float %v59, %v61
  %v63 = fptosi float %v62 to i32
  %v64 = sitofp i32 %v27 to float
  %v65 = sitofp i32 %v39 to float
  %v66 = sitofp i32 %v51 to float
  %v67 = sitofp i32 %v63 to float
  %v68 = sdiv i32 %v27, 2
  %v69 = mul i32 %v68, -1
  %v70 = add nsw i32 %v27, %v69
  %v71 = add nsw i32 %v70, 127
  %v72 = mul i32 %v71, 8388608
  %v73 = bitcast i32 %v72 to float
  %v74 = sdiv i32 %v39, 2
  %v75 = mul i32 %v74, -1
  %v76 = add nsw i32 %v39, %v75
  %v77 = add nsw i32 %v76, 127
  %v78 = mul i32 %v77, 8388608
  %v79 = bitcast i32 %v78 to float
  %v80 = sdiv i32 %v51, 2
  %v81 = mul i32 %v80, -1
  %v82 = add nsw i32 %v51, %v81
  %v83 = add nsw i32 %v82, 127
  %v84 = mul i32 %v83, 8388608
  %v85 = bitcast i32 %v84 to float
  %v86 = sdiv i32 %v63, 2
  %v87 = mul i32 %v86, -1
  %v88 = add nsw i32 %v63, %v87
  %v89 = add nsw i32 %v88, 127
  %v90 = mul i32 %v89, 8388608
  %v91 = bitcast i32 %v90 to float
  %v92 = add nsw i32 %v68, 127
  %v93 = mul i32 %v92, 8388608
  %v94 = bitcast i32 %v93 to float
  %v95 = add nsw i32 %v74, 127
  %v96 = mul i32 %v95, 8388608
  %v97 = bitcast i32 %v96 to float
  %v98 = add nsw i32 %v80, 127
  %v99 = mul i32 %v98, 8388608
  %v100 = bitcast i32 %v99 to float
  %v101 = add nsw i32 %v86, 127
  %v102 = mul i32 %v101, 8388608
  %v103 = bitcast i32 %v102 to float
  %v104 = fmul nsz arcp contract afn float %v64, -1.0
  %v105 = fadd nsz arcp contract afn float %v23, %v104
  %v106 = fmul nsz arcp contract afn float 0.00015359208919107914, %v105
  %v107 = fadd nsz arcp contract afn float %v106, 0.0013392627006396651
  %v108 = fmul nsz arcp contract afn float %v107, %v105
  %v109 = fadd nsz arcp contract afn float %v108, 0.009618384763598442
  %v110 = fmul nsz arcp contract afn float %v109, %v105
  %v111 = fadd nsz arcp contract afn float %v110, 0.055503472685813904
  %v112 = fmul nsz arcp contract afn float %v111, %v105
  %v113 = fadd nsz arcp contract afn float %v112, 0.24022644758224487
  %v114 = fmul nsz arcp contract afn float %v113, %v105
  %v115 = fadd nsz arcp contract afn float %v114, 0.6931471824645996
  %v116 = fmul nsz arcp contract afn float %v115, %v105
  %v117 = fadd nsz arcp contract afn float %v116, 1.0
  %v118 = fmul nsz arcp contract afn float %v65, -1.0
  %v119 = fadd nsz arcp contract afn float %v35, %v118
  %v120 = fmul nsz arcp contract afn float 0.00015359208919107914, %v119
  %v121 = fadd nsz arcp contract afn float %v120, 0.0013392627006396651
  %v122 = fmul nsz arcp contract afn float %v121, %v119
  %v123 = fadd nsz arcp contract afn float %v122, 0.009618384763598442
  %v124 = fmul nsz arcp contract afn float %v123, %v119
  %v125 = fadd nsz arcp contract afn float %v124, 0.055503472685813904
  %v126 = fmul nsz arcp contract afn float %v125, %v119
  %v127 = fadd nsz arcp contract afn float %v126, 0.24022644758224487
  %v128 = fmul nsz arcp contract afn float %v127, %v119
  %v129 = fadd nsz arcp contract afn float %v128, 0.6931471824645996
  %v130 = fmul nsz arcp contract afn float %v129, %v119
  %v131 = fadd nsz arcp contract afn float %v130, 1.0
  %v132 = fmul nsz arcp contract afn float %v66, -1.0
  %v133 = fadd nsz arcp contract afn float %v47, %v132
  %v134 = fmul nsz arcp contract afn float 0.00015359208919107914, %v133
  %v135 = fadd nsz arcp contract afn float %v134, 0.0013392627006396651
  %v136 = fmul nsz arcp contract afn float %v135, %v133
  %v137 = fadd nsz arcp contract afn float %v136, 0.009618384763598442
  %v138 = fmul nsz arcp contract afn float %v137, %v133
  %v139 = fadd nsz arcp contract afn float %v138, 0.055503472685813904
  %v140 = fmul nsz arcp contract afn float %v139, %v133
  %v141 = fadd nsz arcp contract afn float %v140, 0.24022644758224487
  %v142 = fmul nsz arcp contract afn float %v141, %v133
  %v143 = fadd nsz arcp contract afn float %v142, 0.6931471824645996
  %v144 = fmul nsz arcp contract afn float %v143, %v133
  %v145 = fadd nsz arcp contract afn float %v144, 1.0
  %v146 = fmul nsz arcp contract afn float %v67, -1.0
  %v147 = fadd nsz arcp contract afn float %v59, %v146
  %v148 = fmul nsz arcp contract afn float 0.00015359208919107914, %v147
  %v149 = fadd nsz arcp contract afn float %v148, 0.0013392627006396651
  %v150 = fmul nsz arcp contract afn float %v149, %v147
  %v151 = fadd nsz arcp contract afn float %v150, 0.009618384763598442
  %v152 = fmul nsz arcp contract afn float %v151, %v147
  %v153 = fadd nsz arcp contract afn float %v152, 0.055503472685813904
  %v154 = fmul nsz arcp contract afn float %v153, %v147
  %v155 = fadd nsz arcp contract afn float %v154, 0.24022644758224487
  %v156 = fmul nsz arcp contract afn float %v155, %v147
  %v157 = fadd nsz arcp contract afn float %v156, 0.6931471824645996
  %v158 = fmul nsz arcp contract afn float %v157, %v147
  %v159 = fadd nsz arcp contract afn float %v158, 1.0
  %v160 = fmul nsz arcp contract afn float %v117, %v94
  %v161 = fmul nsz arcp contract afn float %v131, %v97
  %v162 = fmul nsz arcp contract afn float %v145, %v100
  %v163 = fmul nsz arcp contract afn float %v159, %v103
  %v164 = fmul nsz arcp contract afn float %v160, %v73
  %v165 = fmul nsz arcp contract afn float %v161, %v79
  %v166 = fmul nsz arcp contract afn float %v162, %v85
  %v167 = fmul nsz arcp contract afn float %v163, %v91
  %v168 = fcmp nsz arcp contract afn ult float %v17, -150.0
  %v169 = fcmp nsz arcp contract afn ult float %v17, 128.0
  %v170 = fcmp nsz arcp contract afn ult float %v29, -150.0
  %v171 = fcmp nsz arcp contract afn ult float %v29, 128.0
  %v172 = fcmp nsz arcp contract afn ult float %v41, -150.0
  %v173 = fcmp nsz arcp contract afn ult float %v41, 128.0
  %v174 = fcmp nsz arcp contract afn ult float %v53, -150.0
  %v175 = fcmp nsz arcp contract afn ult float %v53, 128.0
  %v176 = icmp ne i1 %v169, 1
  %v177 = icmp ne i1 %v171, 1
  %v178 = icmp ne i1 %v173, 1
  %v179 = icmp ne i1 %v175, 1
  %v180 = select i1 %v176, float 0x7FF0000000000000, float %v164
  %v181 = select i1 %v168, float 0.0, float %v180
  %v182 = select i1 %v18, float 0x7FF8000000000000, float %v181
  %v183 = fdiv nsz arcp contract afn float %v182, %v4
  %v184 = select i1 %v177, float 0x7FF0000000000000, float %v165
  %v185 = select i1 %v170, float 0.0, float %v184
  %v186 = select i1 %v30, float 0x7FF8000000000000, float %v185
  %v187 = fdiv nsz arcp contract afn float %v186, %v4
  %v188 = select i1 %v178, float 0x7FF0000000000000, float %v166
  %v189 = select i1 %v172, float 0.0, float %v188
  %v190 = select i1 %v42, float 0x7FF8000000000000, float %v189
  %v191 = fdiv nsz arcp contract afn float %v190, %v4
  %v192 = select i1 %v179, float 0x7FF0000000000000, float %v167
  %v193 = select i1 %v174, float 0.0, float %v192
  %v194 = select i1 %v54, float 0x7FF8000000000000, float %v193
  %v195 = fdiv nsz arcp contract afn float %v194, %v4
  %v196_0 = insertelement <4 x float> poison, float %v183, i32 0
  %v196_1 = insertelement <4 x float> %v196_0, float %v187, i32 1
  %v196_2 = insertelement <4 x float> %v196_1, float %v191, i32 2
  %v196 = insertelement <4 x float> %v196_2, float %v195, i32 3
  %v197 = getelementptr inbounds float, float* %data0, i32 %v9
  store <4 x float> %v196, <4 x float>* %v197
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