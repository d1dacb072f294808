define void @E_16(i32* noalias align 32 %data0, i32* noalias align 32 %data1, i32* noalias align 32 %data2) #0
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
  %v1 = getelementptr inbounds i32, i32* %data1, i32 %v0
  %v2 = load i32, i32* %v1
  %v3 = getelementptr inbounds i32, i32* %data2, i32 %v0
  %v4 = load i32, i32* %v3
  %v5 = getelementptr inbounds i32, i32* %data0, i32 %v0
  %v6 = srem i32 %v2, 5
  %v7 = icmp ne i32 %v6, zeroinitializer
  %v8 = mul i32 %v2, 3
  %v9 = add nsw i32 %v8, %v4
  %v10 = srem i32 %v9, 7
  %v11 = icmp ne i32 %v10, zeroinitializer
  %v12 = sdiv i32 %v2, 5
  %v13 = add nsw i32 %v12, -1
  %v14 = icmp slt i32 %v2, 0
  %v15 = and i1 %v14, %v7
  %v16 = select i1 %v15, i32 %v13, i32 %v12
  %v17 = mul i32 %v16, -5
  %v18 = add nsw i32 %v2, %v17
  %v19 = sdiv i32 %v9, 7
  %v20 = add nsw i32 %v19, -1
  %v21 = icmp slt i32 %v9, 0
  %v22 = and i1 %v21, %v11
  %v23 = select i1 %v22, i32 %v20, i32 %v19
  %v24 = add nsw i32 %v23, %v18
  %v25 = xor i32 %v2, %v4
  %v26 = add nsw i32 %v24, %v25
  %v27 = or i32 %v2, 3
  %v28 = add nsw i32 %v26, %v27
  %v29 = and i32 %v2, %v4
  %v30 = add nsw i32 %v28, %v29
  store i32 %v30, i32* %v5
  br label %loop_footer_0
loop_footer_0:
  br label %loop_latch_0
loop_exit_0:
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }