// File: tests/e2e/opt_chooser_test.cc
// The engine's KernelOptChooser hook (tinygrad/engine/opt_chooser.h): a tuner's opts reach the
// compiled kernel, a chooser is asked once per kernel (then the method cache answers), its
// errors fail the realize with the cause, opts that do not apply are named in a warning with
// their origin and the kernel runs with the default opts, and nullopt keeps the default.
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "tests/e2e/e2e_util.h"
#include "tinygrad/base/config.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/engine/engine_stats.h"
#include "tinygrad/engine/opt_chooser.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

using e2e::ExpectAllClose;
using e2e::RandomInput;

// Returns fixed opts (or an error) and counts the calls.
class FixedChooser : public KernelOptChooser {
 public:
  FixedChooser(std::string id, absl::StatusOr<std::optional<std::vector<Opt>>> answer)
      : id_(std::move(id)), answer_(std::move(answer)) {}
  absl::StatusOr<std::optional<ChosenOpts>> Choose(const UOp& ast, Device&, const CodegenOptions&,
                                                   int) override {
    ++calls;
    last_ast = ast;
    RETURN_IF_ERROR(answer_.status());
    if (!answer_->has_value()) return std::optional<ChosenOpts>();
    return std::optional<ChosenOpts>(ChosenOpts{**answer_, "the fixed chooser " + id_});
  }
  std::string id() const override { return id_; }
  int calls = 0;
  UOp last_ast;

 private:
  std::string id_;
  absl::StatusOr<std::optional<std::vector<Opt>>> answer_;
};

// Installs a chooser for a scope.
class ScopedChooser {
 public:
  explicit ScopedChooser(KernelOptChooser* c) { SetKernelOptChooser(c); }
  ~ScopedChooser() { SetKernelOptChooser(nullptr); }
};

// What is written to `stream` (std::cout, std::cerr) while it lives.
class Capture {
 public:
  explicit Capture(std::ostream& stream) : stream_(stream), old_(stream.rdbuf(out_.rdbuf())) {}
  ~Capture() { stream_.rdbuf(old_); }
  std::string str() const { return out_.str(); }

 private:
  std::ostream& stream_;
  std::ostringstream out_;
  std::streambuf* old_;
};

// A row sum of a 37 x 64 input (a size no other test here uses, so the method cache is cold).
Tensor Input(uint32_t seed, std::vector<double>* x) { return RandomInput({37, 64}, seed, x); }
Tensor RowSum(const Tensor& x) { return x.sum({1}); }

// The tensor's elements, or the realize error.
absl::StatusOr<std::vector<double>> Read(const Tensor& t) {
  absl::StatusOr<std::vector<float>> v = t.to_vector<float>();
  if (!v.ok()) return v.status();
  return std::vector<double>(v->begin(), v->end());
}

std::vector<double> RowSumWant(const std::vector<double>& x) {
  std::vector<double> want(37, 0.0);
  for (int i = 0; i < 37; ++i)
    for (int j = 0; j < 64; ++j) want[i] += x[i * 64 + j];
  return want;
}

TEST(OptChooserTest, ChosenOptsAreAppliedAndCached) {
  std::vector<double> xv;
  Tensor x = Input(1, &xv);
  FixedChooser chooser("fixed-upcast-unroll",
                       std::optional<std::vector<Opt>>{{Opt{OptOps::UNROLL, 0, int64_t{4}}}});
  ScopedChooser scoped(&chooser);
  Config c = GetConfig();
  c.debug = 3;
  std::string log;
  {
    ScopedConfig sc(c);
    Capture capture(std::cout);
    absl::StatusOr<std::vector<double>> got = Read(RowSum(x));
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectAllClose(*got, RowSumWant(xv), 1e-4, 1e-5, "row sum");
    log = capture.str();
  }
  EXPECT_EQ(chooser.calls, 1);
  EXPECT_TRUE(absl::StrContains(log, "('UNROLL', 0, 4)")) << log;
  // Same kernel again: the method cache answers, the chooser is not asked.
  absl::StatusOr<std::vector<double>> again = Read(RowSum(x));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(chooser.calls, 1);
}

TEST(OptChooserTest, NulloptKeepsTheDefault) {
  std::vector<double> xv;
  Tensor x = Input(2, &xv);
  FixedChooser chooser("none", std::optional<std::vector<Opt>>{});
  ScopedChooser scoped(&chooser);
  absl::StatusOr<std::vector<double>> got = Read(RowSum(x) * 2.0f);
  ASSERT_TRUE(got.ok()) << got.status();
  std::vector<double> want = RowSumWant(xv);
  for (double& v : want) v *= 2;
  ExpectAllClose(*got, want, 1e-4, 1e-5, "row sum * 2");
  EXPECT_GE(chooser.calls, 1);
}

TEST(OptChooserTest, ChooserErrorFailsTheRealize) {
  std::vector<double> xv;
  Tensor x = Input(3, &xv);
  FixedChooser chooser("broken", absl::UnavailableError("tuning database is locked"));
  ScopedChooser scoped(&chooser);
  absl::StatusOr<std::vector<double>> got = Read(RowSum(x) + 3.0f);
  ASSERT_FALSE(got.ok());
  EXPECT_TRUE(absl::StrContains(got.status().message(), "tuning database is locked")) << got.status();
}

TEST(OptChooserTest, OptsThatDoNotApplyAreNamedAndTheKernelRunsWithTheDefault) {
  std::vector<double> xv;
  Tensor x = Input(4, &xv);
  // Axis 0 has 37 elements: an upcast by 4 does not divide it.
  FixedChooser chooser("bad-upcast", std::optional<std::vector<Opt>>{{Opt{OptOps::UPCAST, 0, int64_t{4}}}});
  ScopedChooser scoped(&chooser);
  std::string warning;
  absl::StatusOr<std::vector<double>> got;
  const int64_t failed_before = GetEngineStats().chosen_opts_failed;
  {
    Capture capture(std::cerr);
    got = Read(RowSum(x) - 1.0f);
    warning = capture.str();
  }
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(GetEngineStats().chosen_opts_failed, failed_before + 1);
  std::vector<double> want = RowSumWant(xv);
  for (double& v : want) v -= 1;
  ExpectAllClose(*got, want, 1e-4, 1e-5, "row sum - 1");
  EXPECT_TRUE(absl::StrContains(warning, "the opts [Opt(op=OptOps.UPCAST, axis=0, arg=4)] of the fixed chooser "
                                         "bad-upcast do not work here"))
      << warning;
  EXPECT_TRUE(absl::StrContains(warning, "can't divide")) << warning;
  EXPECT_TRUE(absl::StrContains(warning, "it runs with the default opts")) << warning;
  // Once per kernel: the method cache keeps the kernel built with the default opts.
  {
    Capture capture(std::cerr);
    got = Read(RowSum(x) - 1.0f);
    EXPECT_EQ(capture.str(), "");
  }
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(chooser.calls, 1);
}

// A kernel that fails with the default opts too is an error (the chooser is not to blame).
TEST(OptChooserTest, AKernelFailingWithTheDefaultOptsIsStillAnError) {
  std::vector<double> xv;
  Tensor x = Input(5, &xv);
  FixedChooser chooser("bad-upcast", std::optional<std::vector<Opt>>{{Opt{OptOps::UPCAST, 0, int64_t{4}}}});
  ScopedChooser scoped(&chooser);
  Config c = GetConfig();
  c.cc = "tinygrad-cc-no-such-compiler";  // CPU_CC: no CPU kernel compiles
  ScopedConfig sc(c);
  absl::StatusOr<std::vector<double>> got = Read(RowSum(x) * 5.0f);
  ASSERT_FALSE(got.ok());
  EXPECT_TRUE(absl::StrContains(got.status().message(), "tinygrad-cc-no-such-compiler")) << got.status();
}

}  // namespace
}  // namespace tg
