// File: tinygrad/runtime/cuda/nvrtc_headers_test.cc
// The include closure NVRTC gets from memory, on a made-up include tree (no CUDA needed).
#include "tinygrad/runtime/cuda/nvrtc_headers.h"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tg {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<std::string> Names(const std::vector<NvrtcHeader>& headers) {
  std::vector<std::string> names;
  for (const NvrtcHeader& h : headers) names.push_back(h.name);
  return names;
}

class NvrtcHeadersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(::testing::TempDir()) / ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(root_);
    fs::create_directories(root_ / "a" / "nv" / "detail");
    fs::create_directories(root_ / "b");
  }
  void Write(const fs::path& rel, const std::string& text) { std::ofstream(root_ / rel) << text; }
  std::vector<std::string> Dirs() const { return {(root_ / "a").string(), (root_ / "b").string()}; }

  fs::path root_;
};

TEST(IncludesOfTest, AngledQuotedSpacedAndNotFollowed) {
  EXPECT_THAT(IncludesOf("#include <x.h>\n  #  include \"y.hpp\"\n#include MACRO\n#include_next <z>\n"
                         "// #include <comment.h>\nint a; #include <mid.h>\n#include <>\n#include \"open\n"),
              ElementsAre(IncludeLine{.name = "x.h", .quoted = false}, IncludeLine{.name = "y.hpp", .quoted = true}));
}

// Nested includes from either dir, each once (a cycle ends), names no dir holds skipped.
TEST_F(NvrtcHeadersTest, TheClosureOfTheRootsFromTheIncludeDirs) {
  Write("a/cuda_fp16.h", "#include \"cuda_fp16.hpp\"\n#include <utility>\n#include <nv/target>\n");
  Write("a/cuda_fp16.hpp", "#include \"cuda_fp16.h\"\nstruct half {};\n");
  Write("a/nv/target", "#include \"nv/detail/macros\"\n");
  Write("a/nv/detail/macros", "#define NV 1\n");
  Write("b/cuda_bf16.h", "#include \"cuda_fp16.h\"\n#include \"only_in_b.h\"\n");
  Write("b/only_in_b.h", "\n");
  Write("a/unused.h", "\n");
  const std::vector<std::string> dirs = Dirs();
  absl::StatusOr<std::vector<NvrtcHeader>> h = ReadHeaderClosure(dirs, kCudaKernelHeaders);
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_THAT(Names(*h), ElementsAre("cuda_fp16.h", "cuda_bf16.h", "cuda_fp16.hpp", "nv/target", "only_in_b.h",
                                     "nv/detail/macros"));
  EXPECT_EQ(h->back().text, "#define NV 1\n");
}

// A quoted include is first looked for next to the header that includes it, and named as
// written (NVRTC matches by that name).
TEST_F(NvrtcHeadersTest, AQuotedIncludeIsFoundNextToItsIncluder) {
  Write("a/nv/target", "#include \"detail/macros\"\n");
  Write("a/nv/detail/macros", "near\n");
  const std::vector<std::string> dirs = Dirs();
  const std::vector<std::string_view> roots = {"nv/target"};
  absl::StatusOr<std::vector<NvrtcHeader>> h = ReadHeaderClosure(dirs, roots);
  ASSERT_TRUE(h.ok()) << h.status();
  ASSERT_THAT(Names(*h), ElementsAre("nv/target", "detail/macros"));
  EXPECT_EQ((*h)[1].text, "near\n");
}

TEST_F(NvrtcHeadersTest, NoDirsOrNoHeadersIsAnEmptyList) {
  absl::StatusOr<std::vector<NvrtcHeader>> h = ReadHeaderClosure({}, kCudaKernelHeaders);
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_TRUE(h->empty());
  const std::vector<std::string> dirs = Dirs();
  h = ReadHeaderClosure(dirs, kCudaKernelHeaders);
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_TRUE(h->empty());
}

TEST_F(NvrtcHeadersTest, AHeaderThatCannotBeReadIsAnErrorNamingIt) {
  if (geteuid() == 0) GTEST_SKIP() << "root reads a file of mode 000";
  Write("a/cuda_fp16.h", "x\n");
  fs::permissions(root_ / "a" / "cuda_fp16.h", fs::perms::none);
  const std::vector<std::string> dirs = Dirs();
  absl::StatusOr<std::vector<NvrtcHeader>> h = ReadHeaderClosure(dirs, kCudaKernelHeaders);
  ASSERT_FALSE(h.ok());
  EXPECT_THAT(h.status().message(), HasSubstr("cuda_fp16.h"));
}

}  // namespace
}  // namespace tg
