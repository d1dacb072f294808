define void @consts_ulong(i64* noalias align 32 %data0) #0
{
  %v0 = getelementptr inbounds i64, i64* %data0, i32 0
  %v1 = getelementptr inbounds i64, i64* %data0, i32 1
  %v2 = getelementptr inbounds i64, i64* %data0, i32 2
  %v3 = getelementptr inbounds i64, i64* %data0, i32 3
  store i64 18446744073709551615, i64* %v0
  store i64 0, i64* %v1
  store i64 7, i64* %v2
  store i64 9223372036854775808, i64* %v3
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" }