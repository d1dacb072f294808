define void @E_16n5(bfloat* noalias align 32 %data0, float* noalias align 32 %data1) #0
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
  %v1 = getelementptr inbounds float, float* %data1, i32 %v0
  %v2 = load float, float* %v1
  %v3 = getelementptr inbounds bfloat, bfloat* %data0, i32 %v0
  %v4 = bitcast float %v2 to i32
  %v5 = lshr i32 %v4, 16
  %v6 = and i32 %v5, 1
  %v7 = add i32 %v4, %v6
  %v8 = add i32 %v7, 32767
  %v9 = mul i32 %v4, -1
  %v10 = and i32 %v4, 65535
  %v11 = icmp ne i32 %v10, 0
  %v12 = and i32 %v9, 2139095040
  %v13 = icmp ne i32 %v12, 0
  %v14 = or i32 %v4, 65536
  %v15 = select i1 %v11, i32 %v14, i32 %v4
  %v16 = select i1 %v13, i32 %v8, i32 %v15
  %v17 = lshr i32 %v16, 16
  %v18 = trunc i32 %v17 to i16
  %v19 = bitcast i16 %v18 to bfloat
  store bfloat %v19, bfloat* %v3
  br label %loop_footer_0
loop_footer_0:
  br label %loop_latch_0
loop_exit_0:
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }