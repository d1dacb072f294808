define void @lin_alu_bool(i1* noalias align 32 %data0, i1* noalias align 32 %data1, i1* noalias align 32 %data2) #0
{
  %v0 = getelementptr inbounds i1, i1* %data2, i32 0
  %v1 = load i1, i1* %v0
  %v2 = getelementptr inbounds i1, i1* %data2, i32 1
  %v3 = load i1, i1* %v2
  %v4 = add i1 %v1, %v3
  %v5 = getelementptr inbounds i1, i1* %data1, i32 0
  store i1 %v4, i1* %v5
  %v7 = mul i1 %v1, %v3
  %v8 = getelementptr inbounds i1, i1* %data1, i32 1
  store i1 %v7, i1* %v8
  %v10 = icmp ult i1 %v1, %v3
  %v11 = getelementptr inbounds i1, i1* %data1, i32 2
  store i1 %v10, i1* %v11
  %v13 = icmp ne i1 %v1, %v3
  %v14 = getelementptr inbounds i1, i1* %data1, i32 3
  store i1 %v13, i1* %v14
  %v16 = icmp eq i1 %v1, %v3
  %v17 = getelementptr inbounds i1, i1* %data1, i32 4
  store i1 %v16, i1* %v17
  %v19 = udiv i1 %v1, %v3
  %v20 = getelementptr inbounds i1, i1* %data1, i32 5
  store i1 %v19, i1* %v20
  %v22 = urem i1 %v1, %v3
  %v23 = getelementptr inbounds i1, i1* %data1, i32 6
  store i1 %v22, i1* %v23
  %v25 = shl i1 %v1, %v3
  %v26 = getelementptr inbounds i1, i1* %data1, i32 7
  store i1 %v25, i1* %v26
  %v28 = lshr i1 %v1, %v3
  %v29 = getelementptr inbounds i1, i1* %data1, i32 8
  store i1 %v28, i1* %v29
  %v31 = xor i1 %v1, %v3
  %v32 = getelementptr inbounds i1, i1* %data1, i32 9
  store i1 %v31, i1* %v32
  %v34 = or i1 %v1, %v3
  %v35 = getelementptr inbounds i1, i1* %data1, i32 10
  store i1 %v34, i1* %v35
  %v37 = and i1 %v1, %v3
  %v38 = getelementptr inbounds i1, i1* %data1, i32 11
  store i1 %v37, i1* %v38
  %v40 = select i1 %v10, i1 %v1, i1 %v3
  %v41 = getelementptr inbounds i1, i1* %data0, i32 13
  store i1 %v40, i1* %v41
  store i1 %v1, i1* %v5
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }