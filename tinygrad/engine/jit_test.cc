// File: tinygrad/engine/jit_test.cc
// JitCapture and CapturedJit on their own, below TinyJit: what a capture records, the
// buffer-level checks a replay makes (TinyJit checks shapes first, so most of these are
// reachable only here), and input buffers swapped in and let go of.
#include "tinygrad/engine/jit.h"

#include <numeric>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/engine/buffer.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

Tensor Realized(std::vector<float> v) {
  Tensor t = Tensor::FromVector<float>(v);
  EXPECT_TRUE(t.realize().ok());
  return t;
}

std::vector<float> Values(const Tensor& t) {
  absl::StatusOr<std::vector<float>> v = t.to_vector<float>();
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : std::vector<float>{};
}

void ExpectError(const absl::Status& s, absl::StatusCode code, const std::string& part) {
  EXPECT_EQ(s.code(), code) << s;
  EXPECT_NE(std::string(s.message()).find(part), std::string::npos) << s;
}

// Captures out = in * 2 + 1 realized; returns the capture and the output tensor.
struct Captured {
  CapturedJit jit;
  Tensor out;
};
absl::StatusOr<Captured> CaptureDoubling(const Tensor& in) {
  absl::StatusOr<JitCapture> capture = JitCapture::Start();
  if (!capture.ok()) return capture.status();
  Tensor out = in * 2 + 1;
  if (absl::Status s = out.realize(); !s.ok()) return s;
  EXPECT_GT(capture->size(), 0u);
  std::vector<UOp> inputs = {in.uop().base()};
  absl::StatusOr<CapturedJit> jit = CapturedJit::Make(*std::move(capture), inputs);
  if (!jit.ok()) return jit.status();
  return Captured{*std::move(jit), out};
}

TEST(CapturedJit, ReplaySwapsInTheNewInputBuffer) {
  Tensor a = Realized({1, 2, 3});
  absl::StatusOr<Captured> c = CaptureDoubling(a);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(Values(c->out), (std::vector<float>{3, 5, 7}));
  Tensor b = Realized({10, 20, 30});
  std::vector<UOp> inputs = {b.uop().base()};
  const int64_t schedules = GetEngineStats().schedules;
  ASSERT_TRUE(c->jit.Replay(inputs, {}).ok());
  EXPECT_EQ(GetEngineStats().schedules, schedules);
  EXPECT_EQ(Values(c->out), (std::vector<float>{21, 41, 61}));
  EXPECT_EQ(Values(a), (std::vector<float>{1, 2, 3}));  // the capture's input is untouched
  EXPECT_EQ(c->jit.graphs(), 0u) << "one kernel alone is not graphed";
}

TEST(CapturedJit, ReplayChecksTheInputBuffers) {
  absl::StatusOr<Captured> c = CaptureDoubling(Realized({1, 2, 3}));
  ASSERT_TRUE(c.ok()) << c.status();
  Tensor longer = Realized({1, 2, 3, 4});
  Tensor ints = Tensor::FromVector<int32_t>({1, 2, 3});
  ASSERT_TRUE(ints.realize().ok());
  Tensor b = Realized({4, 5, 6});
  std::vector<UOp> none, two = {b.uop().base(), b.uop().base()};
  std::vector<UOp> size = {longer.uop().base()}, dtype = {ints.uop().base()};
  std::vector<UOp> not_buffer = {(b + 1).uop()};
  ExpectError(c->jit.Replay(none, {}), absl::StatusCode::kInvalidArgument, "captured with 1 inputs");
  ExpectError(c->jit.Replay(two, {}), absl::StatusCode::kInvalidArgument, "captured with 1 inputs");
  ExpectError(c->jit.Replay(size, {}), absl::StatusCode::kInvalidArgument, "was a buffer of 3 float");
  ExpectError(c->jit.Replay(dtype, {}), absl::StatusCode::kInvalidArgument, "now 3 int");
  ExpectError(c->jit.Replay(not_buffer, {}), absl::StatusCode::kInvalidArgument, "not a buffer");
  // Still replays after refusing.
  std::vector<UOp> good = {b.uop().base()};
  ASSERT_TRUE(c->jit.Replay(good, {}).ok());
  EXPECT_EQ(Values(c->out), (std::vector<float>{9, 11, 13}));
}

TEST(CapturedJit, DuplicateInputsAreRefused) {
  Tensor a = Realized({1, 2});
  absl::StatusOr<JitCapture> capture = JitCapture::Start();
  ASSERT_TRUE(capture.ok());
  ASSERT_TRUE((a + a).realize().ok());
  std::vector<UOp> twice = {a.uop().base(), a.uop().base()};
  ExpectError(CapturedJit::Make(*std::move(capture), twice).status(),
              absl::StatusCode::kInvalidArgument, "duplicate inputs");
}

TEST(CapturedJit, NothingCapturedIsAnError) {
  absl::StatusOr<JitCapture> capture = JitCapture::Start();
  ASSERT_TRUE(capture.ok());
  ExpectError(CapturedJit::Make(*std::move(capture), {}).status(),
              absl::StatusCode::kFailedPrecondition, "didn't JIT anything");
}

TEST(JitCapture, OneAtATimePerThread) {
  absl::StatusOr<JitCapture> first = JitCapture::Start();
  ASSERT_TRUE(first.ok());
  ExpectError(JitCapture::Start().status(), absl::StatusCode::kFailedPrecondition,
              "inside another TinyJit");
  Tensor a = Realized({1});
  ASSERT_TRUE((a + 1).realize().ok());
  ASSERT_TRUE((a + 2).realize().ok());
  EXPECT_EQ(first->size(), 2u);  // every realize while it is alive
  { JitCapture ended = *std::move(first); }
  absl::StatusOr<JitCapture> again = JitCapture::Start();
  EXPECT_TRUE(again.ok()) << again.status();
}

TEST(CapturedJit, AKernelVariableWithoutAValueIsAnError) {
  Variable n("n", 1, 4);
  Tensor a = Realized({1, 2, 3, 4});
  absl::StatusOr<JitCapture> capture = JitCapture::Start();
  ASSERT_TRUE(capture.ok());
  Tensor out = a.shrink({{0, n.bind(2)}}).sum();
  ASSERT_TRUE(out.realize().ok());
  std::vector<UOp> inputs = {a.uop().base()};
  absl::StatusOr<CapturedJit> jit = CapturedJit::Make(*std::move(capture), inputs);
  ASSERT_TRUE(jit.ok()) << jit.status();
  EXPECT_TRUE(jit->variables().contains("n"));
  ExpectError(jit->Replay(inputs, {}), absl::StatusCode::kInvalidArgument, "variable 'n'");
  ASSERT_TRUE(jit->Replay(inputs, {{"n", ConstValue(int64_t{3})}}).ok());
  EXPECT_EQ(Values(out), (std::vector<float>{6}));
}

// Two realizes, each with a 16 KiB intermediate, captured together: the JIT plans them into
// one arena where they share memory (each realize planned alone could not share them); the
// input and the outputs keep their own buffers; replays give what the eager ops give.
std::vector<Tensor> TwoRealizes(const Tensor& in) {
  Tensor first = ((in * 2).contiguous() + 1).sum(1);
  EXPECT_TRUE(first.realize().ok());
  Tensor second = ((in * 3).contiguous() - 1).max(1);
  EXPECT_TRUE(second.realize().ok());
  return {first, second};
}

TEST(CapturedJit, IntermediatesOfAllRealizesShareMemory) {
  std::vector<float> v(64 * 64), w(64 * 64);
  std::iota(v.begin(), v.end(), 0.5f);
  std::iota(w.begin(), w.end(), -7.25f);
  Tensor a = Tensor::FromVector<float>(v, {64, 64}), b = Tensor::FromVector<float>(w, {64, 64});
  ASSERT_TRUE(a.realize().ok());
  ASSERT_TRUE(b.realize().ok());
  const std::vector<Tensor> want = TwoRealizes(b);
  for (bool plan : {true, false}) {
    absl::StatusOr<JitCapture> capture = JitCapture::Start();
    ASSERT_TRUE(capture.ok());
    const std::vector<Tensor> outs = TwoRealizes(a);
    std::vector<UOp> inputs = {a.uop().base()};
    absl::StatusOr<CapturedJit> jit =
        CapturedJit::Make(*std::move(capture), inputs, {.plan_memory = plan});
    ASSERT_TRUE(jit.ok()) << jit.status();
    EXPECT_EQ(jit->memory().captured_bytes, 2u * 64 * 64 * 4);
    EXPECT_EQ(jit->memory().planned_bytes, (plan ? 1u : 2u) * 64 * 64 * 4);
    // The outputs are still their tensors' buffers; the input's slots are empty.
    for (const Tensor& out : outs) {
      const Buffer* named = BufferTable::Get().Find(out.uop().base()).get();
      ASSERT_NE(named, nullptr);
      int uses = 0;
      for (const ExecItem& ei : jit->items())
        for (const std::shared_ptr<Buffer>& buf : ei.bufs) uses += buf.get() == named;
      EXPECT_EQ(uses, 1) << "plan " << plan;
    }
    for (const ExecItem& ei : jit->items())
      for (const std::shared_ptr<Buffer>& buf : ei.bufs) {
        if (buf != nullptr) EXPECT_NE(buf.get(), BufferTable::Get().Find(a.uop().base()).get());
      }
    std::vector<UOp> other = {b.uop().base()};
    ASSERT_TRUE(jit->Replay(other, {}).ok());
    EXPECT_EQ(Values(outs[0]), Values(want[0])) << "plan " << plan;
    EXPECT_EQ(Values(outs[1]), Values(want[1])) << "plan " << plan;
  }
}

}  // namespace
}  // namespace tg
