// File: tinygrad/runtime/dynamic_library_test.cc
#include "tinygrad/runtime/dynamic_library.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace tg {
namespace {

TEST(DynamicLibraryTest, MissingLibraryIsNotFoundNamingEveryCandidate) {
  std::vector<std::string> names = {"libtg_no_such_library.so.7", "/nonexistent/dir/libtg_x.so"};
  absl::StatusOr<DynamicLibrary> lib = DynamicLibrary::Open("the test library", names);
  ASSERT_FALSE(lib.ok());
  EXPECT_EQ(lib.status().code(), absl::StatusCode::kNotFound);
  const std::string message(lib.status().message());
  EXPECT_NE(message.find("the test library not found"), std::string::npos) << message;
  EXPECT_NE(message.find("libtg_no_such_library.so.7"), std::string::npos) << message;
  EXPECT_NE(message.find("/nonexistent/dir/libtg_x.so"), std::string::npos) << message;
}

TEST(DynamicLibraryTest, NoCandidatesIsInvalidArgument) {
  EXPECT_EQ(DynamicLibrary::Open("x", {}).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(DynamicLibraryTest, FirstLoadableCandidateWinsAndBindsSymbols) {
  // libm is on every glibc system; the first candidate does not exist.
  std::vector<std::string> names = {"libtg_no_such_library.so", "libm.so.6"};
  absl::StatusOr<DynamicLibrary> lib = DynamicLibrary::Open("libm", names);
  ASSERT_TRUE(lib.ok()) << lib.status();
  EXPECT_EQ(lib->loaded_from(), "libm.so.6");
  // the loader's file is a path ending in the name it was found by
  EXPECT_EQ(lib->file().front(), '/') << lib->file();
  EXPECT_TRUE(lib->file().ends_with("/libm.so.6")) << lib->file();
  double (*cos_fn)(double) = nullptr;
  // the first name is missing, the second is found
  ASSERT_TRUE(lib->Bind(cos_fn, {"tg_no_such_symbol", "cos"}).ok());
  EXPECT_EQ(cos_fn(0.0), 1.0);
}

TEST(DynamicLibraryTest, MissingSymbolIsNotFoundNamingLibraryAndSymbols) {
  std::vector<std::string> names = {"libm.so.6"};
  absl::StatusOr<DynamicLibrary> lib = DynamicLibrary::Open("libm", names);
  ASSERT_TRUE(lib.ok()) << lib.status();
  void (*fn)() = nullptr;
  absl::Status s = lib->Bind(fn, {"tg_missing_v2", "tg_missing"});
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(fn, nullptr);
  const std::string message(s.message());
  EXPECT_NE(message.find("libm (libm.so.6) has no symbol tg_missing_v2 or tg_missing"),
            std::string::npos)
      << message;
}

}  // namespace
}  // namespace tg
