// File: tinygrad/runtime/cpu/cpu_test.cc
// The CPU runtime end to end on hand-written kernels in ClangRenderer's calling convention.
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/runtime/cpu/buffer.h"
#include "tinygrad/runtime/cpu/compiler.h"
#include "tinygrad/runtime/cpu/disassembler.h"
#include "tinygrad/runtime/cpu/program.h"
#include "tinygrad/runtime/subprocess.h"

namespace tg {
namespace {

// out[i] = a[i] * scale + i for i < n, sliced over `core_id` like a THREAD opt.
constexpr char kSaxpy[] = R"(
void saxpy(float* restrict data0_64, float* restrict data1_64, const int n, const int scale, int core_id) {
  for (int i = core_id; i < n; i += 4) {
    *(data0_64+i) = ((*(data1_64+i)) * scale) + i;
  }
}
)";

constexpr char kCoreIds[] = R"(
void ids(int* restrict data0_8, int core_id) {
  *(data0_8+core_id) = core_id + 100;
}
)";

struct Fixture {
  TempDir dir;
  ClangCompilerOptions Options(int cachelevel = 2) const {
    ClangCompilerOptions o;
    o.flags = ClangCompilerOptions::DefaultFlags();
    o.cachelevel = cachelevel;
    o.cache_dir = dir.path();
    return o;
  }
};

Fixture MakeFixture() { return Fixture{*TempDir::Create("tg_cpu_test_")}; }

int CountFiles(const std::string& dir) {
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) return 0;
  int n = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) n += e.is_regular_file();
  return n;
}

TEST(CpuRuntimeTest, CompileLoadRunWithThreads) {
  Fixture fx = MakeFixture();
  ClangCompiler cc(fx.Options());
  absl::StatusOr<std::string> lib = cc.Compile(WithCpuEntry(kSaxpy, "saxpy", 2, 2));
  ASSERT_TRUE(lib.ok()) << lib.status();
  absl::StatusOr<CpuProgram> prg = CpuProgram::Load(*lib, "saxpy");
  ASSERT_TRUE(prg.ok()) << prg.status();

  absl::StatusOr<CpuBuffer> out = CpuBuffer::Allocate(64 * sizeof(float));
  absl::StatusOr<CpuBuffer> in = CpuBuffer::Allocate(64 * sizeof(float));
  ASSERT_TRUE(out.ok() && in.ok());
  std::vector<float> host(64);
  for (int i = 0; i < 64; ++i) host[i] = static_cast<float>(i) * 0.5f;
  in->CopyIn(std::as_bytes(std::span(host)));

  void* bufs[] = {out->data(), in->data()};
  int32_t vars[] = {60, 3};
  double secs = prg->Run(bufs, vars, /*threads=*/4);
  EXPECT_GT(secs, 0.0);
  std::vector<float> result(64);
  out->CopyOut(std::as_writable_bytes(std::span(result)));
  for (int i = 0; i < 64; ++i) EXPECT_EQ(result[i], i < 60 ? host[i] * 3 + i : 0.0f) << i;
}

TEST(CpuRuntimeTest, DisassemblyOfACompiledKernelHasItsInstructions) {
  Fixture fx = MakeFixture();
  ClangCompiler cc(fx.Options(0));
  absl::StatusOr<std::string> lib = cc.Compile(WithCpuEntry(kSaxpy, "saxpy", 2, 2));
  ASSERT_TRUE(lib.ok()) << lib.status();
  absl::StatusOr<std::string> text = DisassembleCpuObject(*lib);
  if (text.status().code() == absl::StatusCode::kNotFound) GTEST_SKIP() << text.status();
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_NE(text->find("saxpy"), std::string::npos) << *text;
  // every target's return: x86 `ret`/`retq`, AArch64 `ret`
  EXPECT_NE(text->find("\tret"), std::string::npos) << *text;
  EXPECT_EQ(DisassembleCpuObject("not an object").status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(CpuRuntimeTest, ThreadsGetDistinctCoreIds) {
  Fixture fx = MakeFixture();
  ClangCompiler cc(fx.Options());
  absl::StatusOr<std::string> lib = cc.Compile(WithCpuEntry(kCoreIds, "ids", 1, 0));
  ASSERT_TRUE(lib.ok()) << lib.status();
  absl::StatusOr<CpuProgram> prg = CpuProgram::Load(*lib, "ids");
  ASSERT_TRUE(prg.ok()) << prg.status();
  absl::StatusOr<CpuBuffer> out = CpuBuffer::Allocate(8 * sizeof(int32_t));
  ASSERT_TRUE(out.ok());
  void* bufs[] = {out->data()};
  prg->Run(bufs, {}, 8);
  const int32_t* ids = static_cast<const int32_t*>(out->data());
  for (int i = 0; i < 8; ++i) EXPECT_EQ(ids[i], 100 + i);
  // one thread: only core 0 runs
  absl::StatusOr<CpuBuffer> one = CpuBuffer::Allocate(8 * sizeof(int32_t));
  void* bufs1[] = {one->data()};
  prg->Run(bufs1, {}, 1);
  EXPECT_EQ(static_cast<const int32_t*>(one->data())[0], 100);
  EXPECT_EQ(static_cast<const int32_t*>(one->data())[1], 0);
}

TEST(CpuRuntimeTest, MemoryAndDiskCacheHits) {
  Fixture fx = MakeFixture();
  std::string src = WithCpuEntry(kCoreIds, "ids", 1, 0);
  {
    ClangCompiler cc(fx.Options());
    ASSERT_TRUE(cc.Compile(src).ok());
    ASSERT_TRUE(cc.Compile(src).ok());
    CompileCacheStats s = cc.cache_stats();
    EXPECT_EQ(s.misses, 1);
    EXPECT_EQ(s.memory_hits, 1);
    EXPECT_EQ(s.disk_hits, 0);
  }
  EXPECT_EQ(CountFiles(fx.dir.path()), 1);
  ClangCompiler again(fx.Options());
  absl::StatusOr<std::string> lib = again.Compile(src);
  ASSERT_TRUE(lib.ok());
  EXPECT_EQ(again.cache_stats().disk_hits, 1);
  EXPECT_EQ(again.cache_stats().misses, 0);
  EXPECT_TRUE(CpuProgram::Load(*lib, "ids").ok());
  // a different source is a different key
  ASSERT_TRUE(again.Compile(src + "\n").ok());
  EXPECT_EQ(again.cache_stats().misses, 1);
}

TEST(CpuRuntimeTest, CacheLevelZeroWritesNothing) {
  Fixture fx = MakeFixture();
  std::string src = WithCpuEntry(kCoreIds, "ids", 1, 0);
  ClangCompiler cc(fx.Options(/*cachelevel=*/0));
  ASSERT_TRUE(cc.Compile(src).ok());
  EXPECT_EQ(CountFiles(fx.dir.path()), 0);
  ClangCompiler again(fx.Options(0));
  ASSERT_TRUE(again.Compile(src).ok());
  EXPECT_EQ(again.cache_stats().misses, 1);
  EXPECT_EQ(again.cache_stats().disk_hits, 0);
}

TEST(CpuRuntimeTest, CorruptedCacheEntryIsRebuilt) {
  Fixture fx = MakeFixture();
  std::string src = WithCpuEntry(kCoreIds, "ids", 1, 0);
  std::string cache_file;
  {
    ClangCompiler cc(fx.Options());
    ASSERT_TRUE(cc.Compile(src).ok());
  }
  for (const auto& e : std::filesystem::recursive_directory_iterator(fx.dir.path()))
    if (e.is_regular_file()) cache_file = e.path().string();
  ASSERT_FALSE(cache_file.empty());
  std::filesystem::resize_file(cache_file, 100);  // truncated, as after a crash mid-copy
  ClangCompiler cc(fx.Options());
  absl::StatusOr<std::string> lib = cc.Compile(src);
  ASSERT_TRUE(lib.ok()) << lib.status();
  EXPECT_EQ(cc.cache_stats().bad_entries, 1);
  EXPECT_EQ(cc.cache_stats().misses, 1);
  absl::StatusOr<CpuProgram> prg = CpuProgram::Load(*lib, "ids");
  EXPECT_TRUE(prg.ok()) << prg.status();
  // and the entry was rewritten
  ClangCompiler third(fx.Options());
  ASSERT_TRUE(third.Compile(src).ok());
  EXPECT_EQ(third.cache_stats().disk_hits, 1);
}

TEST(CpuRuntimeTest, CompileErrorNamesTheProblem) {
  Fixture fx = MakeFixture();
  ClangCompiler cc(fx.Options());
  absl::StatusOr<std::string> lib = cc.Compile("void broken(int core_id) { undeclared_thing = 1; }");
  ASSERT_FALSE(lib.ok());
  EXPECT_EQ(lib.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(lib.status().message()).find("undeclared_thing"), std::string::npos)
      << lib.status();
  EXPECT_NE(std::string(lib.status().message()).find("error"), std::string::npos);
}

TEST(CpuRuntimeTest, MissingCompilerIsNotFound) {
  Fixture fx = MakeFixture();
  ClangCompilerOptions o = fx.Options();
  o.cc = "tg-no-such-clang";
  ClangCompiler cc(o);
  absl::StatusOr<std::string> lib = cc.Compile("void f(int core_id) {}");
  EXPECT_EQ(lib.status().code(), absl::StatusCode::kNotFound) << lib.status();
}

TEST(CpuRuntimeTest, LoadWithoutEntryIsNotFound) {
  Fixture fx = MakeFixture();
  ClangCompiler cc(fx.Options());
  absl::StatusOr<std::string> lib = cc.Compile(kCoreIds);  // no WithCpuEntry
  ASSERT_TRUE(lib.ok()) << lib.status();
  EXPECT_EQ(CpuProgram::Load(*lib, "ids").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(CpuProgram::Load("garbage", "ids").status().code(), absl::StatusCode::kUnavailable);
}

TEST(CpuRuntimeTest, SameKernelNameLoadedTwiceStaysDistinct) {
  Fixture fx = MakeFixture();
  ClangCompiler cc(fx.Options());
  const char* k1 = "void k(int* restrict data0, int core_id) { *data0 = 1; }";
  const char* k2 = "void k(int* restrict data0, int core_id) { *data0 = 2; }";
  absl::StatusOr<std::string> l1 = cc.Compile(WithCpuEntry(k1, "k", 1, 0));
  absl::StatusOr<std::string> l2 = cc.Compile(WithCpuEntry(k2, "k", 1, 0));
  ASSERT_TRUE(l1.ok() && l2.ok());
  absl::StatusOr<CpuProgram> p1 = CpuProgram::Load(*l1, "k");
  absl::StatusOr<CpuProgram> p2 = CpuProgram::Load(*l2, "k");
  ASSERT_TRUE(p1.ok() && p2.ok());
  int32_t v = 0;
  void* bufs[] = {&v};
  p1->Run(bufs, {});
  EXPECT_EQ(v, 1);
  p2->Run(bufs, {});
  EXPECT_EQ(v, 2);
  CpuProgram moved = std::move(*p1);
  moved.Run(bufs, {});
  EXPECT_EQ(v, 1);
}

TEST(CpuBufferTest, AlignedZeroedAndCopies) {
  for (size_t n : {size_t{0}, size_t{1}, size_t{63}, size_t{64}, size_t{1000}}) {
    absl::StatusOr<CpuBuffer> b = CpuBuffer::Allocate(n);
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(reinterpret_cast<uintptr_t>(b->data()) % CpuBuffer::kAlignment, 0u);
    EXPECT_EQ(b->size(), n);
    for (std::byte x : b->bytes()) EXPECT_EQ(x, std::byte{0});
  }
  absl::StatusOr<CpuBuffer> b = CpuBuffer::Allocate(4);
  std::vector<std::byte> in{std::byte{1}, std::byte{2}, std::byte{3}, std::byte{4}}, out(4);
  b->CopyIn(in);
  CpuBuffer moved = std::move(*b);
  moved.CopyOut(out);
  EXPECT_EQ(in, out);
}

TEST(CpuRuntimeTest, WithCpuEntrySignature) {
  std::string s = WithCpuEntry("/*k*/", "E_4", 2, 1);
  EXPECT_NE(s.find("void E_4_tg_entry(void** bufs, const int* vars, int core_id)"), std::string::npos);
  EXPECT_NE(s.find("E_4(bufs[0], bufs[1], vars[0], core_id);"), std::string::npos);
}

}  // namespace
}  // namespace tg
