// File: tinygrad/runtime/compile_cache_test.cc
#include "tinygrad/runtime/compile_cache.h"

#include <filesystem>
#include <fstream>

#include "gtest/gtest.h"
#include "tinygrad/runtime/subprocess.h"

namespace tg {
namespace {

TEST(CompileCacheTest, MemoryOnly) {
  CompileCache cache("");
  EXPECT_FALSE(cache.Get(1).has_value());
  cache.Put(1, "lib");
  EXPECT_EQ(cache.Get(1).value_or(""), "lib");
  CompileCacheStats s = cache.stats();
  EXPECT_EQ(s.memory_hits, 1);
  EXPECT_EQ(s.misses, 1);
  EXPECT_EQ(cache.PathFor(1), "");
}

TEST(CompileCacheTest, DiskSurvivesInstancesAndIgnoresCorruption) {
  absl::StatusOr<TempDir> dir = TempDir::Create("tg_cache_test_");
  ASSERT_TRUE(dir.ok());
  std::string d = dir->path() + "/sub";
  {
    CompileCache a(d);
    a.Put(42, std::string("\0binary\xff", 8));
  }
  CompileCache b(d);
  EXPECT_EQ(b.Get(42).value_or(""), std::string("\0binary\xff", 8));
  EXPECT_EQ(b.stats().disk_hits, 1);
  // no temp files left behind
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(d)) files += e.is_regular_file();
  EXPECT_EQ(files, 1);

  // flip a payload byte: the checksum rejects it
  {
    std::fstream f(b.PathFor(42), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(-1, std::ios::end);
    f.put('X');
  }
  CompileCache c(d);
  EXPECT_FALSE(c.Get(42).has_value());
  EXPECT_EQ(c.stats().bad_entries, 1);
  // garbage and empty files too
  std::ofstream(c.PathFor(7)) << "not a cache entry";
  std::ofstream(c.PathFor(8)).close();
  EXPECT_FALSE(c.Get(7).has_value());
  EXPECT_FALSE(c.Get(8).has_value());
  EXPECT_EQ(c.stats().bad_entries, 3);
  // a Put repairs it
  c.Put(42, "fresh");
  CompileCache e(d);
  EXPECT_EQ(e.Get(42).value_or(""), "fresh");
}

TEST(CompileCacheTest, WrongKeyInFileIsRejected) {
  absl::StatusOr<TempDir> dir = TempDir::Create("tg_cache_test_");
  ASSERT_TRUE(dir.ok());
  CompileCache a(dir->path());
  a.Put(1, "one");
  std::filesystem::copy_file(a.PathFor(1), a.PathFor(2));
  CompileCache b(dir->path());
  EXPECT_FALSE(b.Get(2).has_value());
  EXPECT_EQ(b.Get(1).value_or(""), "one");
}

TEST(CompileCacheTest, GetOrCompileStoresValuesAndNotErrors) {
  CompileCache cache("");
  int compiles = 0;
  auto fails = [&]() -> absl::StatusOr<std::string> {
    ++compiles;
    return absl::InvalidArgumentError("does not compile");
  };
  EXPECT_EQ(cache.GetOrCompile(7, fails).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(cache.GetOrCompile(7, fails).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(compiles, 2) << "an error is not cached";
  auto works = [&]() -> absl::StatusOr<std::string> {
    ++compiles;
    return std::string("binary");
  };
  EXPECT_EQ(cache.GetOrCompile(7, works).value_or(""), "binary");
  EXPECT_EQ(cache.GetOrCompile(7, fails).value_or(""), "binary") << "the stored value answers";
  EXPECT_EQ(compiles, 3);
}

TEST(CompileCacheTest, DirIsPerCompilerAndNoneWithoutCaching) {
  EXPECT_EQ(CompileCacheDir(2, "/cache", "cuda_sm_90"), "/cache/compile_cuda_sm_90");
  EXPECT_EQ(CompileCacheDir(0, "/cache", "cuda_sm_90"), "") << "CACHELEVEL=0: memory only";
  EXPECT_EQ(CompileCacheDir(2, "", "cuda_sm_90"), "");
}

TEST(SubprocessTest, MissingProgramIsNotFound) {
  absl::StatusOr<ProcessResult> r = RunProcess({"tg-no-such-program-xyz"});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kNotFound) << r.status();
}

TEST(SubprocessTest, CollectsOutputAndExitCode) {
  absl::StatusOr<ProcessResult> r = RunProcess({"sh", "-c", "echo out; echo err >&2; exit 3"});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->exit_code, 3);
  EXPECT_EQ(r->output, "out\nerr\n");
}

}  // namespace
}  // namespace tg
