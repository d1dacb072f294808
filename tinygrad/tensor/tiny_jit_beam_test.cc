// File: tinygrad/tensor/tiny_jit_beam_test.cc
// JITBEAM and IGNORE_JIT_FIRST_BEAM: the width the engine's chooser (a tuner) is asked to
// search at, call by call of a TinyJit, as the reference's Context around each call sets BEAM.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tinygrad/base/config.h"
#include "tinygrad/engine/opt_chooser.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/tensor/tiny_jit.h"

namespace tg {
namespace {

using Tensors = std::vector<Tensor>;

// Installed while alive: records the width each kernel is compiled at, picks no opts. Its id is
// its own, so every kernel a realize runs is compiled (and recorded) anew.
class WidthRecorder : public KernelOptChooser {
 public:
  WidthRecorder() { SetKernelOptChooser(this); }
  ~WidthRecorder() override { SetKernelOptChooser(nullptr); }
  absl::StatusOr<std::optional<ChosenOpts>> Choose(const UOp&, Device&, const CodegenOptions&,
                                                   int beam) override {
    widths.push_back(beam);
    return std::optional<ChosenOpts>();
  }
  std::string id() const override { return absl::StrCat("width recorder ", serial_); }
  // The widths asked since the last call, then forgets them.
  std::vector<int> Take() { return std::exchange(widths, {}); }
  std::vector<int> widths;

 private:
  static inline int next_serial_ = 0;
  const int serial_ = next_serial_++;
};

Tensor Input(float v) {
  Tensor t = Tensor::FromVector<float>({v, v + 1, v + 2}, {3});
  EXPECT_TRUE(t.realize().ok());
  return t;
}

absl::StatusOr<Tensors> Step(std::span<const Tensor> in) {
  return Tensors{(in[0] * 3 + 1).exp2().sum()};
}

// The widths of the kernels each of a TinyJit's first three calls compiled under `config`.
std::vector<std::vector<int>> WidthsPerCall(const Config& config) {
  ScopedConfig scoped(config);
  WidthRecorder recorder;
  TinyJit jit(Step);
  std::vector<std::vector<int>> per_call;
  for (int call = 0; call < 3; ++call) {
    EXPECT_TRUE(jit({Input(static_cast<float>(call))}).ok());
    per_call.push_back(recorder.Take());
  }
  return per_call;
}

TEST(TinyJitBeamTest, TheCaptureCompilesAtJitbeamsWidth) {
  Config c = GetConfig();
  c.beam = 0;
  c.jitbeam = 3;
  std::vector<std::vector<int>> w = WidthsPerCall(c);
  ASSERT_FALSE(w[0].empty());
  EXPECT_EQ(w[0], std::vector<int>(w[0].size(), 0)) << "the first call runs at BEAM";
  EXPECT_EQ(w[1], std::vector<int>(w[0].size(), 3)) << "the capture compiles again at JITBEAM";
  EXPECT_TRUE(w[2].empty()) << "a replay compiles nothing";
}

TEST(TinyJitBeamTest, WithoutJitbeamTheCaptureUsesBeamAndIgnoreJitFirstBeamSkipsTheFirstCall) {
  Config c = GetConfig();
  c.beam = 2;
  c.jitbeam.reset();
  std::vector<std::vector<int>> w = WidthsPerCall(c);
  ASSERT_FALSE(w[0].empty());
  EXPECT_EQ(w[0], std::vector<int>(w[0].size(), 2));
  EXPECT_TRUE(w[1].empty())
      << "the capture finds the first call's kernels compiled at the same width";

  c.ignore_jit_first_beam = true;
  w = WidthsPerCall(c);
  EXPECT_EQ(w[0], std::vector<int>(w[0].size(), 0)) << "IGNORE_JIT_FIRST_BEAM";
  EXPECT_EQ(w[1], std::vector<int>(w[0].size(), 2));
}

// JIT=0 runs the function on every call; IGNORE_JIT_FIRST_BEAM then holds for every call, as in
// the reference, whose `not JIT` branch is the first call's.
TEST(TinyJitBeamTest, AtJit0EveryCallIsAFirstCall) {
  Config c = GetConfig();
  c.jit = 0;
  c.beam = 2;
  c.ignore_jit_first_beam = true;
  std::vector<std::vector<int>> w = WidthsPerCall(c);
  ASSERT_FALSE(w[0].empty());
  EXPECT_EQ(w[0], std::vector<int>(w[0].size(), 0));
  EXPECT_TRUE(w[1].empty() && w[2].empty()) << "compiled once at width 0, then cached";
}

}  // namespace
}  // namespace tg
