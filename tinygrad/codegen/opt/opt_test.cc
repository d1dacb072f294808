// File: tinygrad/codegen/opt/opt_test.cc
// Opt repr, ordering, Arg round trip and KernelOptError marking.
#include "tinygrad/codegen/opt/opt.h"

#include <algorithm>
#include <vector>

#include "gtest/gtest.h"

namespace tg {
namespace {

TEST(OptTest, ReprMatchesReference) {
  EXPECT_EQ((Opt{OptOps::UPCAST, 0, int64_t{4}}).ToString(), "Opt(op=OptOps.UPCAST, axis=0, arg=4)");
  EXPECT_EQ((Opt{OptOps::NOLOCALS, std::nullopt, std::monostate{}}).ToString(),
            "Opt(op=OptOps.NOLOCALS, axis=None, arg=None)");
  EXPECT_EQ((Opt{OptOps::TC, 0, std::array<int64_t, 3>{-1, 2, 1}}).ToString(),
            "Opt(op=OptOps.TC, axis=0, arg=(-1, 2, 1))");
}

TEST(OptTest, OrdersByOpThenAxisThenArg) {
  std::vector<Opt> v{{OptOps::LOCAL, 1, int64_t{2}}, {OptOps::UPCAST, 1, int64_t{4}}, {OptOps::UPCAST, 0, int64_t{8}},
                     {OptOps::TC, 0, std::array<int64_t, 3>{-1, 0, 1}}};
  std::sort(v.begin(), v.end());
  EXPECT_EQ(v[0].op, OptOps::TC);
  EXPECT_EQ(v[1].axis, 0);
  EXPECT_EQ(v[2].axis, 1);
  EXPECT_EQ(v[3].op, OptOps::LOCAL);
}

TEST(OptTest, ArgRoundTrip) {
  for (const Opt& o : {Opt{OptOps::UNROLL, 1, int64_t{0}}, Opt{OptOps::NOLOCALS, std::nullopt, std::monostate{}},
                       Opt{OptOps::TC, 3, std::array<int64_t, 3>{-1, 2, 1}}, Opt{OptOps::SWAP, 0, int64_t{2}}}) {
    absl::StatusOr<Opt> back = OptFromArg(OptToArg(o));
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(*back, o);
  }
  EXPECT_EQ(OptToArg(Opt{OptOps::UPCAST, 0, int64_t{4}}).repr(), "('UPCAST', 0, 4)");
}

TEST(OptTest, MalformedArgsAreErrors) {
  EXPECT_FALSE(OptFromArg(Arg(3)).ok());
  EXPECT_FALSE(OptFromArg(Arg::Tuple({"SPLIT", 0, 4})).ok());
  EXPECT_FALSE(OptFromArg(Arg::Tuple({"UPCAST", "x", 4})).ok());
  EXPECT_FALSE(OptFromArg(Arg::Tuple({"TC", 0, Arg::Tuple({1, 2})})).ok());
  absl::StatusOr<Opt> bad = OptFromArg(Arg::Tuple({"SPLIT", 0, 4}));
  EXPECT_NE(bad.status().message().find("unknown op"), std::string::npos);
}

TEST(OptTest, KernelOptErrorIsMarked) {
  absl::Status s = KernelOptError("invalid upcast");
  EXPECT_TRUE(IsKernelOptError(s));
  EXPECT_EQ(s.message(), "invalid upcast");
  EXPECT_FALSE(IsKernelOptError(absl::FailedPreconditionError("invalid upcast")));
  EXPECT_FALSE(IsKernelOptError(absl::OkStatus()));
}

}  // namespace
}  // namespace tg
