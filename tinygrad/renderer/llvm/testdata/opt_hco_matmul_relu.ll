define void @r_16_8_32(float* noalias align 32 %data0, float* noalias align 32 %data1, float* noalias align 32 %data2) #0
{
  br label %loop_entry_1
loop_entry_1:
  br label %loop_latch_1
loop_latch_1:
  %v0 = phi i32 [ 0, %loop_entry_1 ], [ %v0phi, %loop_footer_1 ]
  %v0phi = add i32 %v0, 1
  %v0cmp = icmp ult i32 %v0, 16
  br i1 %v0cmp, label %loop_body_1, label %loop_exit_1
loop_body_1:
  %v1 = mul i32 %v0, 32
  %v2 = add nsw i32 %v1, 4
  %v3 = getelementptr inbounds float, float* %data1, i32 %v2
  %v4 = load <4 x float>, <4 x float>* %v3
  %v5 = add nsw i32 %v1, 8
  %v6 = getelementptr inbounds float, float* %data1, i32 %v5
  %v7 = load <4 x float>, <4 x float>* %v6
  %v8 = add nsw i32 %v1, 12
  %v9 = getelementptr inbounds float, float* %data1, i32 %v8
  %v10 = load <4 x float>, <4 x float>* %v9
  %v11 = add nsw i32 %v1, 16
  %v12 = getelementptr inbounds float, float* %data1, i32 %v11
  %v13 = load <4 x float>, <4 x float>* %v12
  %v14 = add nsw i32 %v1, 20
  %v15 = getelementptr inbounds float, float* %data1, i32 %v14
  %v16 = load <4 x float>, <4 x float>* %v15
  %v17 = add nsw i32 %v1, 24
  %v18 = getelementptr inbounds float, float* %data1, i32 %v17
  %v19 = load <4 x float>, <4 x float>* %v18
  %v20 = add nsw i32 %v1, 28
  %v21 = getelementptr inbounds float, float* %data1, i32 %v20
  %v22 = load <4 x float>, <4 x float>* %v21
  %v23 = getelementptr inbounds float, float* %data1, i32 %v1
  %v24 = load <4 x float>, <4 x float>* %v23
  %v25 = extractelement <4 x float> %v4, i32 0
  %v26 = extractelement <4 x float> %v7, i32 0
  %v27 = extractelement <4 x float> %v10, i32 0
  %v28 = extractelement <4 x float> %v13, i32 0
  %v29 = extractelement <4 x float> %v16, i32 0
  %v30 = extractelement <4 x float> %v19, i32 0
  %v31 = extractelement <4 x float> %v22, i32 0
  %v32 = extractelement <4 x float> %v24, i32 0
  %v33 = extractelement <4 x float> %v4, i32 1
  %v34 = extractelement <4 x float> %v7, i32 1
  %v35 = extractelement <4 x float> %v10, i32 1
  %v36 = extractelement <4 x float> %v13, i32 1
  %v37 = extractelement <4 x float> %v16, i32 1
  %v38 = extractelement <4 x float> %v19, i32 1
  %v39 = extractelement <4 x float> %v22, i32 1
  %v40 = extractelement <4 x float> %v24, i32 1
  %v41 = extractelement <4 x float> %v4, i32 2
  %v42 = extractelement <4 x float> %v7, i32 2
  %v43 = extractelement <4 x float> %v10, i32 2
  %v44 = extractelement <4 x float> %v13, i32 2
  %v45 = extractelement <4 x float> %v16, i32 2
  %v46 = extractelement <4 x float> %v19, i32 2
  %v47 = extractelement <4 x float> %v22, i32 2
  %v48 = extractelement <4 x float> %v24, i32 2
  %v49 = extractelement <4 x float> %v4, i32 3
  %v50 = extractelement <4 x float> %v7, i32 3
  %v51 = extractelement <4 x float> %v10, i32 3
  %v52 = extractelement <4 x float> %v13, i32 3
  %v53 = extractelement <4 x float> %v16, i32 3
  %v54 = extractelement <4 x float> %v19, i32 3
  %v55 = extractelement <4 x float> %v22, i32 3
  %v56 = extractelement <4 x float> %v24, i32 3
  %v57 = mul i32 %v0, 8
  br label %loop_entry_2
loop_entry_2:
  br label %loop_latch_2
loop_latch_2:
  %v58 = phi i32 [ 0, %loop_entry_2 ], [ %v58phi, %loop_footer_2 ]
  %v58phi = add i32 %v58, 1
  %v58cmp = icmp ult i32 %v58, 8
  br i1 %v58cmp, label %loop_body_2, label %loop_exit_2
loop_body_2:
  %v59 = add nsw i32 %v58, 8
  %v60 = getelementptr inbounds float, float* %data2, i32 %v59
  %v61 = load float, float* %v60
  %v62 = add nsw i32 %v58, 16
  %v63 = getelementptr inbounds float, float* %data2, i32 %v62
  %v64 = load float, float* %v63
  %v65 = add nsw i32 %v58, 24
  %v66 = getelementptr inbounds float, float* %data2, i32 %v65
  %v67 = load float, float* %v66
  %v68 = add nsw i32 %v58, 32
  %v69 = getelementptr inbounds float, float* %data2, i32 %v68
  %v70 = load float, float* %v69
  %v71 = add nsw i32 %v58, 40
  %v72 = getelementptr inbounds float, float* %data2, i32 %v71
  %v73 = load float, float* %v72
  %v74 = add nsw i32 %v58, 48
  %v75 = getelementptr inbounds float, float* %data2, i32 %v74
  %v76 = load float, float* %v75
  %v77 = add nsw i32 %v58, 56
  %v78 = getelementptr inbounds float, float* %data2, i32 %v77
  %v79 = load float, float* %v78
  %v80 = add nsw i32 %v58, 64
  %v81 = getelementptr inbounds float, float* %data2, i32 %v80
  %v82 = load float, float* %v81
  %v83 = add nsw i32 %v58, 72
  %v84 = getelementptr inbounds float, float* %data2, i32 %v83
  %v85 = load float, float* %v84
  %v86 = add nsw i32 %v58, 80
  %v87 = getelementptr inbounds float, float* %data2, i32 %v86
  %v88 = load float, float* %v87
  %v89 = add nsw i32 %v58, 88
  %v90 = getelementptr inbounds float, float* %data2, i32 %v89
  %v91 = load float, float* %v90
  %v92 = add nsw i32 %v58, 96
  %v93 = getelementptr inbounds float, float* %data2, i32 %v92
  %v94 = load float, float* %v93
  %v95 = add nsw i32 %v58, 104
  %v96 = getelementptr inbounds float, float* %data2, i32 %v95
  %v97 = load float, float* %v96
  %v98 = add nsw i32 %v58, 112
  %v99 = getelementptr inbounds float, float* %data2, i32 %v98
  %v100 = load float, float* %v99
  %v101 = add nsw i32 %v58, 120
  %v102 = getelementptr inbounds float, float* %data2, i32 %v101
  %v103 = load float, float* %v102
  %v104 = add nsw i32 %v58, 128
  %v105 = getelementptr inbounds float, float* %data2, i32 %v104
  %v106 = load float, float* %v105
  %v107 = add nsw i32 %v58, 136
  %v108 = getelementptr inbounds float, float* %data2, i32 %v107
  %v109 = load float, float* %v108
  %v110 = add nsw i32 %v58, 144
  %v111 = getelementptr inbounds float, float* %data2, i32 %v110
  %v112 = load float, float* %v111
  %v113 = add nsw i32 %v58, 152
  %v114 = getelementptr inbounds float, float* %data2, i32 %v113
  %v115 = load float, float* %v114
  %v116 = add nsw i32 %v58, 160
  %v117 = getelementptr inbounds float, float* %data2, i32 %v116
  %v118 = load float, float* %v117
  %v119 = add nsw i32 %v58, 168
  %v120 = getelementptr inbounds float, float* %data2, i32 %v119
  %v121 = load float, float* %v120
  %v122 = add nsw i32 %v58, 176
  %v123 = getelementptr inbounds float, float* %data2, i32 %v122
  %v124 = load float, float* %v123
  %v125 = add nsw i32 %v58, 184
  %v126 = getelementptr inbounds float, float* %data2, i32 %v125
  %v127 = load float, float* %v126
  %v128 = add nsw i32 %v58, 192
  %v129 = getelementptr inbounds float, float* %data2, i32 %v128
  %v130 = load float, float* %v129
  %v131 = add nsw i32 %v58, 200
  %v132 = getelementptr inbounds float, float* %data2, i32 %v131
  %v133 = load float, float* %v132
  %v134 = add nsw i32 %v58, 208
  %v135 = getelementptr inbounds float, float* %data2, i32 %v134
  %v136 = load float, float* %v135
  %v137 = add nsw i32 %v58, 216
  %v138 = getelementptr inbounds float, float* %data2, i32 %v137
  %v139 = load float, float* %v138
  %v140 = add nsw i32 %v58, 224
  %v141 = getelementptr inbounds float, float* %data2, i32 %v140
  %v142 = load float, float* %v141
  %v143 = add nsw i32 %v58, 232
  %v144 = getelementptr inbounds float, float* %data2, i32 %v143
  %v145 = load float, float* %v144
  %v146 = add nsw i32 %v58, 240
  %v147 = getelementptr inbounds float, float* %data2, i32 %v146
  %v148 = load float, float* %v147
  %v149 = add nsw i32 %v58, 248
  %v150 = getelementptr inbounds float, float* %data2, i32 %v149
  %v151 = load float, float* %v150
  %v152 = getelementptr inbounds float, float* %data2, i32 %v58
  %v153 = load float, float* %v152
  %v154 = add nsw i32 %v57, %v58
  %v155 = getelementptr inbounds float, float* %data0, i32 %v154
  %v156 = fmul nsz arcp contract afn float %v32, %v153
  %v157 = fmul nsz arcp contract afn float %v40, %v61
  %v158 = fadd nsz arcp contract afn float %v156, %v157
  %v159 = fmul nsz arcp contract afn float %v48, %v64
  %v160 = fadd nsz arcp contract afn float %v158, %v159
  %v161 = fmul nsz arcp contract afn float %v56, %v67
  %v162 = fadd nsz arcp contract afn float %v160, %v161
  %v163 = fmul nsz arcp contract afn float %v25, %v70
  %v164 = fadd nsz arcp contract afn float %v162, %v163
  %v165 = fmul nsz arcp contract afn float %v33, %v73
  %v166 = fadd nsz arcp contract afn float %v164, %v165
  %v167 = fmul nsz arcp contract afn float %v41, %v76
  %v168 = fadd nsz arcp contract afn float %v166, %v167
  %v169 = fmul nsz arcp contract afn float %v49, %v79
  %v170 = fadd nsz arcp contract afn float %v168, %v169
  %v171 = fmul nsz arcp contract afn float %v26, %v82
  %v172 = fadd nsz arcp contract afn float %v170, %v171
  %v173 = fmul nsz arcp contract afn float %v34, %v85
  %v174 = fadd nsz arcp contract afn float %v172, %v173
  %v175 = fmul nsz arcp contract afn float %v42, %v88
  %v176 = fadd nsz arcp contract afn float %v174, %v175
  %v177 = fmul nsz arcp contract afn float %v50, %v91
  %v178 = fadd nsz arcp contract afn float %v176, %v177
  %v179 = fmul nsz arcp contract afn float %v27, %v94
  %v180 = fadd nsz arcp contract afn float %v178, %v179
  %v181 = fmul nsz arcp contract afn float %v35, %v97
  %v182 = fadd nsz arcp contract afn float %v180, %v181
  %v183 = fmul nsz arcp contract afn float %v43, %v100
  %v184 = fadd nsz arcp contract afn float %v182, %v183
  %v185 = fmul nsz arcp contract afn float %v51, %v103
  %v186 = fadd nsz arcp contract afn float %v184, %v185
  %v187 = fmul nsz arcp contract afn float %v28, %v106
  %v188 = fadd nsz arcp contract afn float %v186, %v187
  %v189 = fmul nsz arcp contract afn float %v36, %v109
  %v190 = fadd nsz arcp contract afn float %v188, %v189
  %v191 = fmul nsz arcp contract afn float %v44, %v112
  %v192 = fadd nsz arcp contract afn float %v190, %v191
  %v193 = fmul nsz arcp contract afn float %v52, %v115
  %v194 = fadd nsz arcp contract afn float %v192, %v193
  %v195 = fmul nsz arcp contract afn float %v29, %v118
  %v196 = fadd nsz arcp contract afn float %v194, %v195
  %v197 = fmul nsz arcp contract afn float %v37, %v121
  %v198 = fadd nsz arcp contract afn float %v196, %v197
  %v199 = fmul nsz arcp contract afn float %v45, %v124
  %v200 = fadd nsz arcp contract afn float %v198, %v199
  %v201 = fmul nsz arcp contract afn float %v53, %v127
  %v202 = fadd nsz arcp contract afn float %v200, %v201
  %v203 = fmul nsz arcp contract afn float %v30, %v130
  %v204 = fadd nsz arcp contract afn float %v202, %v203
  %v205 = fmul nsz arcp contract afn float %v38, %v133
  %v206 = fadd nsz arcp contract afn float %v204, %v205
  %v207 = fmul nsz arcp contract afn float %v46, %v136
  %v208 = fadd nsz arcp contract afn float %v206, %v207
  %v209 = fmul nsz arcp contract afn float %v54, %v139
  %v210 = fadd nsz arcp contract afn float %v208, %v209
  %v211 = fmul nsz arcp contract afn float %v31, %v142
  %v212 = fadd nsz arcp contract afn float %v210, %v211
  %v213 = fmul nsz arcp contract afn float %v39, %v145
  %v214 = fadd nsz arcp contract afn float %v212, %v213
  %v215 = fmul nsz arcp contract afn float %v47, %v148
  %v216 = fadd nsz arcp contract afn float %v214, %v215
  %v217 = fmul nsz arcp contract afn float %v55, %v151
  %v218 = fadd nsz arcp contract afn float %v216, %v217
  %v219 = fcmp nsz arcp contract afn ult float 0.0, %v218
  %v220 = select i1 %v219, float %v218, float 0.0
  store float %v220, float* %v155
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