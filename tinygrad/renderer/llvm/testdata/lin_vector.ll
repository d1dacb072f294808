define void @vec(float* noalias align 32 %data0, float* noalias align 32 %data1) #0
{
  %v0 = getelementptr inbounds float, float* %data1, i32 0
  %v1 = load <4 x float>, <4 x float>* %v0
  %v2 = extractelement <4 x float> %v1, i32 0
  %v3 = extractelement <4 x float> %v1, i32 1
  %v4 = extractelement <4 x float> %v1, i32 2
  %v5 = extractelement <4 x float> %v1, i32 3
  %v6_0 = insertelement <4 x float> poison, float %v5, i32 0
  %v6_1 = insertelement <4 x float> %v6_0, float %v4, i32 1
  %v6_2 = insertelement <4 x float> %v6_1, float %v3, i32 2
  %v6 = insertelement <4 x float> %v6_2, float %v2, i32 3
  %v7 = fadd nsz arcp contract afn <4 x float> %v6, %v1
  %v8 = getelementptr inbounds float, float* %data0, i32 0
  store <4 x float> %v7, <4 x float>* %v8
  %v10 = fptrunc <4 x float> %v7 to <4 x half>
  %v11 = fpext <4 x half> %v10 to <4 x float>
  %v12 = bitcast <4 x float> %v11 to <4 x i32>
  %v13 = sitofp <4 x i32> %v12 to <4 x float>
  %v14 = getelementptr inbounds float, float* %data0, i32 4
  store <4 x float> %v13, <4 x float>* %v14
  %v16_z = insertelement <1 x float> poison, float %v4, i32 0
  %v16 = shufflevector <1 x float> %v16_z, <1 x float> poison, <4 x i32> zeroinitializer
  %v17 = getelementptr inbounds float, float* %data0, i32 8
  %v18 = fmul nsz arcp contract afn <4 x float> %v16, %v13
  store <4 x float> %v18, <4 x float>* %v17
  %v20 = fcmp nsz arcp contract afn ult <4 x float> %v7, %v13
  %v21 = select <4 x i1> %v20, <4 x float> %v7, <4 x float> %v13
  %v22 = getelementptr inbounds float, float* %data0, i32 12
  store <4 x float> %v21, <4 x float>* %v22
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }