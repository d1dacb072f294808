// File: tinygrad/runtime/hip/toolchain_search_test.cc
#include "tinygrad/runtime/hip/toolchain_search.h"

#include <fstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tinygrad/runtime/subprocess.h"

namespace tg {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(ToolchainSearchTest, ComgrIsLookedForByLoaderNamesThenInRocmDirs) {
  HipToolchainOptions o;
  o.rocm_dirs = {"/r1", "/r2"};
  std::vector<std::string> c = ComgrLibraryCandidates(o);
  ASSERT_EQ(c.size(), 9u);
  EXPECT_EQ(c[0], "libamd_comgr.so.3");
  EXPECT_EQ(c[1], "libamd_comgr.so.2");
  EXPECT_EQ(c[3], "/r1/lib/libamd_comgr.so.3");
  EXPECT_EQ(c[8], "/r2/lib/libamd_comgr.so");
}

TEST(ToolchainSearchTest, AnExplicitPathIsTheOnlyOneTried) {
  HipToolchainOptions o;
  o.comgr_path = "/x/libamd_comgr.so";
  o.device_lib_dir = "/x/bitcode";
  o.clang_path = "/x/clang";
  EXPECT_THAT(ComgrLibraryCandidates(o), ElementsAre("/x/libamd_comgr.so"));
  EXPECT_THAT(DeviceLibDirCandidates(o), ElementsAre("/x/bitcode"));
  EXPECT_THAT(ClangCandidates(o), ElementsAre("/x/clang"));
}

TEST(ToolchainSearchTest, DeviceLibrariesAreTheFirstDirHoldingOcml) {
  absl::StatusOr<TempDir> a = TempDir::Create("tg-hip-search-");
  absl::StatusOr<TempDir> b = TempDir::Create("tg-hip-search-");
  ASSERT_TRUE(a.ok() && b.ok());
  std::ofstream(b->path() + "/ocml.bc") << "bitcode";
  HipToolchainOptions o;
  o.rocm_dirs = {"/nonexistent-rocm"};
  o.device_lib_dir = a->path();  // exists, but holds no ocml.bc
  absl::StatusOr<std::string> missing = FindDeviceLibDir(o);
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(missing.status().message(), HasSubstr(a->path()));
  EXPECT_THAT(missing.status().message(), HasSubstr("rocm-device-libs"));
  o.device_lib_dir = b->path();
  absl::StatusOr<std::string> found = FindDeviceLibDir(o);
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ(*found, b->path());
}

TEST(ToolchainSearchTest, ClangCandidatesAreRocmsThenVersionedNames) {
  HipToolchainOptions o;
  o.rocm_dirs = {"/r"};
  std::vector<std::string> c = ClangCandidates(o);
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c.front(), "/r/llvm/bin/clang");
  EXPECT_EQ(c.back(), "clang-15");
  o.clang_path = "/nonexistent/clang";
  absl::StatusOr<std::string> clang = FindClang(o);
  EXPECT_EQ(clang.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(clang.status().message(), HasSubstr("/nonexistent/clang"));
}

}  // namespace
}  // namespace tg
