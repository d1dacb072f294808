// File: autotune/measure/warm_up_test.cc
#include "autotune/measure/warm_up.h"

#include <memory>

#include "autotune/measure/local_measurer.h"
#include "gtest/gtest.h"

namespace tg::autotune {
namespace {

TEST(WarmUpTest, TheTaskIsASmallKernel) {
  absl::StatusOr<KernelTask> t = WarmUpTask();
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_EQ(t->buffers.size(), 2u);
  EXPECT_EQ(t->buffers[0].size, 4);
  EXPECT_TRUE(t->var_vals.empty());
}

TEST(WarmUpTest, MeasuresOnTheCpu) {
  absl::StatusOr<std::unique_ptr<LocalMeasurer>> m = LocalMeasurer::Create({.compile_threads = 1});
  ASSERT_TRUE(m.ok()) << m.status();
  absl::Status s = WarmUp(**m);
  EXPECT_TRUE(s.ok()) << s;
}

// Answers every candidate with one outcome, or fails the batch.
class CannedMeasurer : public Measurer {
 public:
  CannedMeasurer(absl::Status status, Outcome outcome) : status_(status), outcome_(outcome) {}
  absl::StatusOr<MeasureBatch> Measure(const KernelTask&, std::span<const std::vector<Opt>> candidates,
                                       const MeasureOptions&) override {
    if (!status_.ok()) return status_;
    MeasureBatch b;
    for (size_t i = 0; i < candidates.size(); ++i)
      b.results.push_back(CandidateResult{.outcome = outcome_, .error = "clang: no such thing"});
    return b;
  }

 private:
  absl::Status status_;
  Outcome outcome_;
};

TEST(WarmUpTest, SaysWhyTheKernelWasNotMeasured) {
  CannedMeasurer compile_error(absl::OkStatus(), Outcome::kCompileError);
  absl::Status s = WarmUp(compile_error);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(s.message(), "the warm-up kernel: compile_error: clang: no such thing");
  CannedMeasurer broken(absl::UnavailableError("no device"), Outcome::kOk);
  EXPECT_EQ(WarmUp(broken), absl::UnavailableError("no device"));
}

}  // namespace
}  // namespace tg::autotune
