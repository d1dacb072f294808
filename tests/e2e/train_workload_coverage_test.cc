// File: tests/e2e/train_workload_coverage_test.cc
// `tg tune train_mlp` / `train_cnn` tune the kernels of those workloads, and `tg train --model
// mlp|cnn` looks its kernels up in the tuning database: the two must be the same kernels, or
// training runs untuned ones. Compares, by the database's AST key (AstTuningHash), the kernels
// the workload's step compiles with those each call of tg train's jitted step compiles (the
// first call, the capture, and replays, which compile none), on a small synthetic dataset.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "autotune/db/tuning_key.h"
#include "gtest/gtest.h"
#include "tinygrad/engine/opt_chooser.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/nn/module.h"
#include "tinygrad/nn/optim.h"
#include "tinygrad/train/classifiers.h"
#include "tinygrad/train/trainer.h"
#include "tinygrad/uop/render.h"
#include "tinygrad/workloads/workloads.h"

namespace tg {
namespace {

// Records the kernels compiled while it is installed, and picks no opts. Each recorder has an
// id of its own, which is part of the method cache's key: every kernel a realize runs is
// compiled (and recorded) again, not only those no earlier realize compiled.
class RecordingChooser : public KernelOptChooser {
 public:
  RecordingChooser() { SetKernelOptChooser(this); }
  ~RecordingChooser() override { SetKernelOptChooser(nullptr); }
  absl::StatusOr<std::optional<ChosenOpts>> Choose(const UOp& ast, Device&, const CodegenOptions&,
                                                   int) override {
    kernels.try_emplace(autotune::AstTuningHash(ast), ast);
    return std::optional<ChosenOpts>();
  }
  std::string id() const override {
    return absl::StrCat("recording chooser ", reinterpret_cast<uintptr_t>(this), " ", serial_);
  }
  absl::flat_hash_map<uint64_t, UOp> kernels;

 private:
  static inline int next_serial_ = 0;
  int serial_ = next_serial_++;
};

// What `a` has that `b` lacks, printed.
std::string Missing(const absl::flat_hash_map<uint64_t, UOp>& a, const absl::flat_hash_map<uint64_t, UOp>& b) {
  std::string out;
  for (const auto& [key, ast] : a)
    if (!b.contains(key)) absl::StrAppend(&out, "\n", PrettyPrint(ast));
  return out;
}

train::LabeledImages NoiseImages(int64_t n) {
  train::LabeledImages d{.n = n, .rows = train::kImageSide, .cols = train::kImageSide};
  std::mt19937 rng(1);
  for (int64_t i = 0; i < n; ++i) d.labels.push_back(static_cast<uint8_t>(i % train::kClasses));
  for (int64_t i = 0; i < n * d.rows * d.cols; ++i) d.pixels.push_back(static_cast<uint8_t>(rng()));
  return d;
}

// The kernels `tg tune train_<model>` tunes at `batch` (the workload's other parameters are
// its defaults, tg train's model).
absl::flat_hash_map<uint64_t, UOp> WorkloadKernels(const std::string& model, int64_t batch) {
  const Workload* w = FindWorkload("train_" + model);
  EXPECT_NE(w, nullptr) << model;
  if (w == nullptr) return {};
  WorkloadParams p = w->Defaults();
  p["batch"] = batch;
  WorkloadGraph g = w->build(p);
  // What tg tune does: the inputs first, then the step's kernels (it tunes every SINK of the
  // outputs' schedule).
  EXPECT_TRUE(Realize(g.inputs).ok());
  RecordingChooser rec;
  EXPECT_TRUE(Realize(g.outputs).ok());
  return rec.kernels;
}

void ExpectTgTrainRunsTheWorkloadsKernels(const std::string& model, int64_t batch) {
  absl::flat_hash_map<uint64_t, UOp> tuned = WorkloadKernels(model, batch);
  ASSERT_GT(tuned.size(), 20u) << model;
  // What tg train does (tools/cli/train_command.cc), with the kernels of each jitted step
  // recorded. Outside the step, and not tuned: the lr's copy (every 10 steps) and the batch's
  // indices (two Randint kernels each step).
  const train::LabeledImages data = NoiseImages(64);
  Tensor::ManualSeed(42);
  std::unique_ptr<train::Classifier> net = train::MakeClassifier(model);
  ASSERT_NE(net, nullptr) << model;
  absl::StatusOr<std::unique_ptr<Optimizer>> opt = Adam(nn::GetParameters(*net), {.lr = 3e-3});
  ASSERT_TRUE(opt.ok()) << opt.status();
  ASSERT_TRUE(train::RealizeTrainingState(**opt).ok());
  train::BatchSampler sampler(data);
  train::JitTrainStep step(*net, **opt);
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(train::SetLearningRate(**opt, train::LinearDecay(3e-3, i, 4)).ok());
    train::Batch b = sampler.Next(batch);
    RecordingChooser rec;
    absl::StatusOr<float> loss = step(b.x, b.y);
    ASSERT_TRUE(loss.ok()) << loss.status();
    if (i >= 2) {
      EXPECT_TRUE(rec.kernels.empty()) << "replay " << i << " compiled " << rec.kernels.size() << " kernels";
      continue;
    }
    EXPECT_EQ(rec.kernels.size(), tuned.size()) << model << " step " << i;
    EXPECT_EQ(Missing(rec.kernels, tuned), "") << model << " step " << i << " runs kernels train_" << model
                                               << " does not tune";
    EXPECT_EQ(Missing(tuned, rec.kernels), "") << model << " step " << i << " does not run kernels train_"
                                               << model << " tunes";
  }
}

TEST(TrainWorkloadCoverage, TgTrainsMlpStepRunsExactlyTheKernelsTrainMlpTunes) {
  // The workload's defaults are tg train's MLP.
  WorkloadParams p = FindWorkload("train_mlp")->Defaults();
  EXPECT_EQ(p["in"], train::kImageSide * train::kImageSide);
  EXPECT_EQ(p["out"], train::kClasses);
  EXPECT_EQ(p["hidden"], train::Mlp().l1.weight.shape()[0]);
  ExpectTgTrainRunsTheWorkloadsKernels("mlp", 16);
}

TEST(TrainWorkloadCoverage, TgTrainsCnnStepRunsExactlyTheKernelsTrainCnnTunes) {
  ExpectTgTrainRunsTheWorkloadsKernels("cnn", 16);
}

}  // namespace
}  // namespace tg
