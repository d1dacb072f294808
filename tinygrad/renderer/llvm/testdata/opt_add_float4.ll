define void @E_64_4(float* noalias align 32 %data0, float* noalias align 32 %data1, float* noalias align 32 %data2) #0
{
  br label %loop_entry_0
loop_entry_0:
  br label %loop_latch_0
loop_latch_0:
  %v0 = phi i32 [ 0, %loop_entry_0 ], [ %v0phi, %loop_footer_0 ]
  %v0phi = add i32 %v0, 1
  %v0cmp = icmp ult i32 %v0, 64
  br i1 %v0cmp, label %loop_body_0, label %loop_exit_0
loop_body_0:
  %v1 = mul i32 %v0, 4
  %v2 = getelementptr inbounds float, float* %data1, i32 %v1
  %v3 = load <4 x float>, <4 x float>* %v2
  %v4 = getelementptr inbounds float, float* %data2, i32 %v1
  %v5 = load <4 x float>, <4 x float>* %v4
  %v6 = extractelement <4 x float> %v3, i32 0
  %v7 = extractelement <4 x float> %v5, i32 0
  %v8 = extractelement <4 x float> %v3, i32 1
  %v9 = extractelement <4 x float> %v5, i32 1
  %v10 = extractelement <4 x float> %v3, i32 2
  %v11 = extractelement <4 x float> %v5, i32 2
  %v12 = extractelement <4 x float> %v3, i32 3
  %v13 = extractelement <4 x float> %v5, i32 3
  %v14 = fadd nsz arcp contract afn float %v6, %v7
  %v15 = fadd nsz arcp contract afn float %v8, %v9
  %v16 = fadd nsz arcp contract afn float %v10, %v11
  %v17 = fadd nsz arcp contract afn float %v12, %v13
  %v18_0 = insertelement <4 x float> poison, float %v14, i32 0
  %v18_1 = insertelement <4 x float> %v18_0, float %v15, i32 1
  %v18_2 = insertelement <4 x float> %v18_1, float %v16, i32 2
  %v18 = insertelement <4 x float> %v18_2, float %v17, i32 3
  %v19 = getelementptr inbounds float, float* %data0, i32 %v1
  store <4 x float> %v18, <4 x float>* %v19
  br label %loop_footer_0
loop_footer_0:
  br label %loop_latch_0
loop_exit_0:
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }