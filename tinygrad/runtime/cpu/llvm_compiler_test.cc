// File: tinygrad/runtime/cpu/llvm_compiler_test.cc
// LlvmCompiler + LoadLlvmObject on hand-written IR in the LLVMRenderer's style: results, the
// IR entry point for every parameter kind, errors as Status, the cache, and 8 threads compiling
// and loading different kernels at once.
#include "tinygrad/runtime/cpu/llvm_compiler.h"

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"

namespace tg {
namespace {

LlvmCompilerOptions MemoryOnly() {
  LlvmCompilerOptions o;
  o.cachelevel = 0;
  return o;
}

// out[i] = in[i] * k + n, for i < 64 (k a constant, n an i32 or i64 variable)
std::string AxpyIr(const std::string& name, float k, const std::string& var_type = "i32") {
  std::string ir = R"(define void @NAME(float* noalias align 32 %data0, float* noalias align 32 %data1, VT %n) #0
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
  %v1 = getelementptr inbounds float, float* %data1, i32 %v0
  %cast0 = bitcast float* %v1 to <4 x float>*
  %v2 = load <4 x float>, <4 x float>* %cast0
  %v3 = extractelement <4 x float> %v2, i32 0
  %v4 = fmul nsz arcp contract afn float %v3, K
  %v5 = sitofp VT %n to float
  %v6 = fadd nsz arcp contract afn float %v4, %v5
  %v7 = getelementptr inbounds float, float* %data0, i32 %v0
  store float %v6, float* %v7
  br label %loop_footer_0
loop_footer_0:
  br label %loop_latch_0
loop_exit_0:
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" })";
  return absl::StrReplaceAll(ir, {{"NAME", name}, {"VT", var_type}, {"K", absl::StrCat(k, ".0")}});
}

// Compiles and loads `ir`'s kernel `name`; CHECKs success.
CpuProgram Build(LlvmCompiler& llvm, const std::string& ir, const std::string& name) {
  absl::StatusOr<std::string> with_entry = WithLlvmCpuEntry(ir, name);
  EXPECT_TRUE(with_entry.ok()) << with_entry.status();
  absl::StatusOr<std::string> obj = llvm.Compile(*with_entry);
  EXPECT_TRUE(obj.ok()) << obj.status();
  absl::StatusOr<CpuProgram> prg = LoadLlvmObject(*obj, name);
  EXPECT_TRUE(prg.ok()) << prg.status();
  return std::move(*prg);
}

TEST(LlvmCompilerTest, CompilesLoadsAndRuns) {
  LlvmCompiler llvm(MemoryOnly());
  for (std::string vt : {"i32", "i64", "i16"}) {
    SCOPED_TRACE(vt);
    CpuProgram prg = Build(llvm, AxpyIr("axpy", 3, vt), "axpy");
    std::vector<float> out(64, -1), in(68);
    for (int i = 0; i < 68; ++i) in[i] = static_cast<float>(i);
    void* bufs[] = {out.data(), in.data()};
    int32_t n = -5;
    prg.Run(bufs, std::span<const int32_t>(&n, 1));
    for (int i = 0; i < 64; ++i) EXPECT_EQ(out[i], 3.0f * i - 5) << i;
  }
}

TEST(LlvmCompilerTest, HostCpuAndFeatures) {
  LlvmCompiler llvm(MemoryOnly());
  EXPECT_FALSE(llvm.options().cpu.empty());
  EXPECT_NE(llvm.options().features.find("+sse2"), std::string::npos) << llvm.options().features;
  EXPECT_NE(llvm.id().find("-none-unknown-elf"), std::string::npos) << llvm.id();
  LlvmCompilerOptions o0 = MemoryOnly();
  o0.optimize = false;
  EXPECT_NE(LlvmCompiler(o0).id(), llvm.id());
}

// A trailing `i32 %core_id` (LLVMRenderer's threads extension) gets the thread's core id.
TEST(LlvmCompilerTest, CoreIdReachesTheKernel) {
  std::string ir = R"(define void @ids(i32* noalias align 32 %data0, i32 %core_id) #0
{
  %v0 = getelementptr inbounds i32, i32* %data0, i32 %core_id
  %v1 = mul i32 %core_id, 10
  store i32 %v1, i32* %v0
  ret void
}
attributes #0 = { alwaysinline nounwind "no-builtins" "no-trapping-math"="true" })";
  LlvmCompiler llvm(MemoryOnly());
  CpuProgram prg = Build(llvm, ir, "ids");
  std::vector<int32_t> out(4, -1);
  void* bufs[] = {out.data()};
  prg.Run(bufs, {}, /*threads=*/4);
  EXPECT_EQ(out, (std::vector<int32_t>{0, 10, 20, 30}));
}

TEST(LlvmCompilerTest, EntryForNoParameters) {
  std::string ir = "define void @nop() #0\n{\n  ret void\n}\nattributes #0 = { nounwind }";
  absl::StatusOr<std::string> e = WithLlvmCpuEntry(ir, "nop");
  ASSERT_TRUE(e.ok()) << e.status();
  LlvmCompiler llvm(MemoryOnly());
  absl::StatusOr<std::string> obj = llvm.Compile(*e);
  ASSERT_TRUE(obj.ok()) << obj.status();
  absl::StatusOr<CpuProgram> prg = LoadLlvmObject(*obj, "nop");
  ASSERT_TRUE(prg.ok()) << prg.status();
  prg->Run({}, {});
}

TEST(LlvmCompilerTest, ErrorsAreStatuses) {
  LlvmCompiler llvm(MemoryOnly());
  // does not parse
  absl::StatusOr<std::string> bad = llvm.Compile("define void @f( {\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("does not parse"), std::string::npos) << bad.status();
  // parses, but a value is used before it is defined in a way the verifier rejects
  std::string invalid = R"(define void @f(i32 %a) {
entry:
  br label %next
other:
  %x = add i32 %a, 1
  br label %next
next:
  %y = add i32 %x, 1
  ret void
})";
  bad = llvm.Compile(invalid);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument) << bad.status();
  // no such function, a parameter of an unsupported type
  EXPECT_EQ(WithLlvmCpuEntry("define void @g() {\n ret void\n}", "f").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(WithLlvmCpuEntry("define void @f(float %x) {\n ret void\n}", "f").status().code(),
            absl::StatusCode::kInvalidArgument);
  // not an object file, an object without the entry point
  EXPECT_FALSE(LoadLlvmObject("garbage", "f").ok());
  absl::StatusOr<std::string> obj = llvm.Compile(AxpyIr("axpy", 2));
  ASSERT_TRUE(obj.ok()) << obj.status();
  EXPECT_EQ(LoadLlvmObject(*obj, "axpy").status().code(), absl::StatusCode::kNotFound);
}

TEST(LlvmCompilerTest, CachesByIr) {
  LlvmCompiler llvm(MemoryOnly());
  std::string ir = *WithLlvmCpuEntry(AxpyIr("axpy", 2), "axpy");
  ASSERT_TRUE(llvm.Compile(ir).ok());
  ASSERT_TRUE(llvm.Compile(ir).ok());
  EXPECT_EQ(llvm.cache_stats().memory_hits, 1);
  EXPECT_EQ(llvm.cache_stats().misses, 1);
  EXPECT_NE(llvm.CacheKey(ir), llvm.CacheKey(*WithLlvmCpuEntry(AxpyIr("axpy", 3), "axpy")));
}

// Programs with the same kernel name (BEAM candidates) live side by side, and unload.
TEST(LlvmCompilerTest, SameNameTwiceAndUnload) {
  LlvmCompiler llvm(MemoryOnly());
  std::vector<float> out(64), in(68, 1.0f);
  void* bufs[] = {out.data(), in.data()};
  int32_t n = 0;
  std::vector<CpuProgram> progs;
  for (int k = 1; k <= 3; ++k) progs.push_back(Build(llvm, AxpyIr("same", k), "same"));
  for (int k = 1; k <= 3; ++k) {
    progs[k - 1].Run(bufs, std::span<const int32_t>(&n, 1));
    EXPECT_EQ(out[7], static_cast<float>(k));
  }
  progs.clear();
  for (int i = 0; i < 50; ++i) Build(llvm, AxpyIr("again", 2), "again").Run(bufs, std::span<const int32_t>(&n, 1));
  EXPECT_EQ(out[0], 2.0f);
}

// 8 threads compile, load and run 8 different kernels at once.
TEST(LlvmCompilerTest, EightThreadsCompileAtOnce) {
  LlvmCompiler llvm(MemoryOnly());
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&llvm, &ok, t] {
      for (int rep = 0; rep < 3; ++rep) {
        std::string name = absl::StrCat("k", t, "_", rep);
        float k = static_cast<float>(t * 10 + rep);
        absl::StatusOr<std::string> ir = WithLlvmCpuEntry(AxpyIr(name, k), name);
        if (!ir.ok()) return;
        absl::StatusOr<std::string> obj = llvm.Compile(*ir);
        if (!obj.ok()) return;
        absl::StatusOr<CpuProgram> prg = LoadLlvmObject(*obj, name);
        if (!prg.ok()) return;
        std::vector<float> out(64), in(68, 2.0f);
        void* bufs[] = {out.data(), in.data()};
        int32_t n = 1;
        prg->Run(bufs, std::span<const int32_t>(&n, 1));
        if (out[63] == 2 * k + 1) ok++;
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(ok.load(), 24);
  EXPECT_EQ(llvm.cache_stats().misses, 24);
}

}  // namespace
}  // namespace tg
