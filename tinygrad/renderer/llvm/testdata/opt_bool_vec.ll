define void @E_4_4n1(i1* noalias align 32 %data0, i1* noalias align 32 %data1, i1* noalias align 32 %data2) #0
{
  br label %loop_entry_0
loop_entry_0:
  br label %loop_latch_0
loop_latch_0:
  %v0 = phi i32 [ 0, %loop_entry_0 ], [ %v0phi, %loop_footer_0 ]
  %v0phi = add i32 %v0, 1
  %v0cmp = icmp ult i32 %v0, 4
  br i1 %v0cmp, label %loop_body_0, label %loop_exit_0
loop_body_0:
  %v1 = mul i32 %v0, 4
  %v2 = add nsw i32 %v1, 1
  %v3 = getelementptr inbounds i1, i1* %data1, i32 %v2
  %v4 = load i1, i1* %v3
  %v5 = add nsw i32 %v1, 2
  %v6 = getelementptr inbounds i1, i1* %data1, i32 %v5
  %v7 = load i1, i1* %v6
  %v8 = add nsw i32 %v1, 3
  %v9 = getelementptr inbounds i1, i1* %data1, i32 %v8
  %v10 = load i1, i1* %v9
  %v11 = getelementptr inbounds i1, i1* %data1, i32 %v1
  %v12 = load i1, i1* %v11
  %v13 = getelementptr inbounds i1, i1* %data2, i32 %v2
  %v14 = load i1, i1* %v13
  %v15 = getelementptr inbounds i1, i1* %data2, i32 %v5
  %v16 = load i1, i1* %v15
  %v17 = getelementptr inbounds i1, i1* %data2, i32 %v8
  %v18 = load i1, i1* %v17
  %v19 = getelementptr inbounds i1, i1* %data2, i32 %v1
  %v20 = load i1, i1* %v19
  %v21 = getelementptr inbounds i1, i1* %data0, i32 %v2
  %v22 = getelementptr inbounds i1, i1* %data0, i32 %v5
  %v23 = getelementptr inbounds i1, i1* %data0, i32 %v8
  %v24 = getelementptr inbounds i1, i1* %data0, i32 %v1
  %v25 = and i1 %v4, %v14
  %v26 = and i1 %v7, %v16
  %v27 = and i1 %v10, %v18
  %v28 = and i1 %v12, %v20
  store i1 %v25, i1* %v21
  store i1 %v26, i1* %v22
  store i1 %v27, i1* %v23
  store i1 %v28, i1* %v24
  br label %loop_footer_0
loop_footer_0:
  br label %loop_latch_0
loop_exit_0:
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }