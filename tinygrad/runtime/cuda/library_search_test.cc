// File: tinygrad/runtime/cuda/library_search_test.cc
#include "tinygrad/runtime/cuda/library_search.h"

#include <stdlib.h>
#include <sys/stat.h>

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tinygrad/runtime/subprocess.h"

namespace tg {
namespace {

using ::testing::ElementsAre;

TEST(LibrarySearchTest, ExplicitFileThenLoaderNamesThenInstallDirs) {
  CudaLibraryOptions o;
  o.cuda_dirs = {"/opt/cudaA", "/opt/cudaB"};
  EXPECT_THAT(ToolkitLibraryCandidates(o, "/x/libnvrtc.so", {"libnvrtc.so.13", "libnvrtc.so"}),
              ElementsAre("/x/libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so",
                          "/opt/cudaA/lib64/libnvrtc.so.13", "/opt/cudaA/lib64/libnvrtc.so",
                          "/opt/cudaA/lib/libnvrtc.so.13", "/opt/cudaA/lib/libnvrtc.so",
                          "/opt/cudaB/lib64/libnvrtc.so.13", "/opt/cudaB/lib64/libnvrtc.so",
                          "/opt/cudaB/lib/libnvrtc.so.13", "/opt/cudaB/lib/libnvrtc.so"));
}

TEST(LibrarySearchTest, EachCandidateOnce) {
  CudaLibraryOptions o;
  o.cuda_dirs = {"/usr/local/cuda", "/usr/local/cuda"};
  EXPECT_THAT(ToolkitLibraryCandidates(o, "", {"libnvrtc.so"}),
              ElementsAre("libnvrtc.so", "/usr/local/cuda/lib64/libnvrtc.so",
                          "/usr/local/cuda/lib/libnvrtc.so"));
}

TEST(LibrarySearchTest, EnvironmentPutsCudaPathAndHomeBeforeTheDefault) {
  ::setenv("CUDA_PATH", "/opt/from_cuda_path", 1);
  ::setenv("CUDA_HOME", "/opt/from_cuda_home", 1);
  ::setenv("NVRTC_PATH", "/opt/nvrtc/libnvrtc.so", 1);
  ::setenv("NVJITLINK_PATH", "/opt/jl/libnvJitLink.so", 1);
  ::setenv("CUDA_DRIVER_PATH", "/opt/drv/libcuda.so.1", 1);
  CudaLibraryOptions o = CudaLibraryOptions::FromEnvironment();
  for (const char* v :
       {"CUDA_PATH", "CUDA_HOME", "NVRTC_PATH", "NVJITLINK_PATH", "CUDA_DRIVER_PATH"})
    ::unsetenv(v);
  EXPECT_THAT(o.cuda_dirs,
              ElementsAre("/opt/from_cuda_path", "/opt/from_cuda_home", "/usr/local/cuda"));
  EXPECT_EQ(o.nvrtc_path, "/opt/nvrtc/libnvrtc.so");
  EXPECT_EQ(o.nvjitlink_path, "/opt/jl/libnvJitLink.so");
  EXPECT_EQ(o.driver_path, "/opt/drv/libcuda.so.1");
  EXPECT_THAT(CudaLibraryOptions::FromEnvironment().cuda_dirs, ElementsAre("/usr/local/cuda"));
}

TEST(LibrarySearchTest, IncludeDirsAreTheInstallDirsThatHaveOne) {
  absl::StatusOr<TempDir> with = TempDir::Create("tg_cuda_with_");
  absl::StatusOr<TempDir> without = TempDir::Create("tg_cuda_without_");
  ASSERT_TRUE(with.ok() && without.ok());
  ASSERT_EQ(::mkdir((with->path() + "/include").c_str(), 0700), 0);
  CudaLibraryOptions o;
  o.cuda_dirs = {without->path(), with->path(), "/nonexistent/cuda"};
  EXPECT_THAT(CudaIncludeDirs(o), ElementsAre(with->path() + "/include"));
}

}  // namespace
}  // namespace tg
