define void @E_16n2(i1* noalias align 32 %data0, i32* noalias align 32 %data1, i32* noalias align 32 %data2) #0
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
  %v5 = getelementptr inbounds i1, i1* %data0, i32 %v0
  %v6 = icmp slt i32 %v2, %v4
  %v7 = icmp ne i32 %v2, %v4
  %v8 = icmp ne i1 %v7, 1
  %v9 = or i1 %v6, %v8
  store i1 %v9, i1* %v5
  br label %loop_footer_0
loop_footer_0:
  br label %loop_latch_0
loop_exit_0:
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }