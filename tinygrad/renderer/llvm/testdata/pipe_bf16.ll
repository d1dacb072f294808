define void @E_16n4(float* noalias align 32 %data0, bfloat* noalias align 32 %data1) #0
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
  %v1 = getelementptr inbounds bfloat, bfloat* %data1, i32 %v0
  %v2 = load bfloat, bfloat* %v1
  %v3 = getelementptr inbounds float, float* %data0, i32 %v0
  %v4 = bitcast bfloat %v2 to i16
  %v5 = zext i16 %v4 to i32
  %v6 = shl i32 %v5, 16
  %v7 = bitcast i32 %v6 to float
  %v8 = fmul nsz arcp contract afn float %v7, 2.0
  %v9 = bitcast float %v8 to i32
  %v10 = lshr i32 %v9, 16
  %v11 = and i32 %v10, 1
  %v12 = add i32 %v9, %v11
  %v13 = add i32 %v12, 32767
  %v14 = mul i32 %v9, -1
  %v15 = and i32 %v9, 65535
  %v16 = icmp ne i32 %v15, 0
  %v17 = and i32 %v14, 2139095040
  %v18 = icmp ne i32 %v17, 0
  %v19 = or i32 %v9, 65536
  %v20 = select i1 %v16, i32 %v19, i32 %v9
  %v21 = select i1 %v18, i32 %v13, i32 %v20
  %v22 = lshr i32 %v21, 16
  %v23 = trunc i32 %v22 to i16
  %v24 = bitcast i16 %v23 to bfloat
  %v25 = bitcast bfloat %v24 to i16
  %v26 = zext i16 %v25 to i32
  %v27 = shl i32 %v26, 16
  %v28 = bitcast i32 %v27 to float
  %v29 = fadd nsz arcp contract afn float %v28, 1.0
  %v30 = bitcast float %v29 to i32
  %v31 = lshr i32 %v30, 16
  %v32 = and i32 %v31, 1
  %v33 = add i32 %v30, %v32
  %v34 = add i32 %v33, 32767
  %v35 = mul i32 %v30, -1
  %v36 = and i32 %v30, 65535
  %v37 = icmp ne i32 %v36, 0
  %v38 = and i32 %v35, 2139095040
  %v39 = icmp ne i32 %v38, 0
  %v40 = or i32 %v30, 65536
  %v41 = select i1 %v37, i32 %v40, i32 %v30
  %v42 = select i1 %v39, i32 %v34, i32 %v41
  %v43 = lshr i32 %v42, 16
  %v44 = trunc i32 %v43 to i16
  %v45 = bitcast i16 %v44 to bfloat
  %v46 = bitcast bfloat %v45 to i16
  %v47 = zext i16 %v46 to i32
  %v48 = shl i32 %v47, 16
  %v49 = bitcast i32 %v48 to float
  store float %v49, float* %v3
  br label %loop_footer_0
loop_footer_0:
  br label %loop_latch_0
loop_exit_0:
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }