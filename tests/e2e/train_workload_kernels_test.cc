// File: tests/e2e/train_workload_kernels_test.cc
// `tg tune train_mlp` / `tg tune train_cnn` tune the kernels of one training step so that
// `tg train --model mlp|cnn` finds them in the tuning database: the database's key is the kernel
// AST's structure (AstTuningHash: UOp::key() less a KernelInfo name), so every kernel tg train's
// step compiles must be one of the workload's, at the same batch. Both are scheduled here, not
// run (the kernels are what matters; weights and batches are empty buffers).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "gtest/gtest.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/nn/module.h"
#include "tinygrad/nn/optim.h"
#include "tinygrad/schedule/schedule.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/train/classifiers.h"
#include "tinygrad/train/trainer.h"
#include "tinygrad/workloads/workloads.h"

namespace tg {
namespace {

// The kernel ASTs a realize of `outs` would run, by structure; the KernelInfo names are left out.
absl::flat_hash_set<uint64_t> KernelKeys(const std::vector<Tensor>& outs) {
  std::vector<UOp> roots;
  for (const Tensor& t : outs) {
    EXPECT_TRUE(t.ok()) << t.status();
    if (t.ok()) roots.push_back(t.uop());
  }
  absl::StatusOr<Schedule> s = CreateScheduleWithVars(UOp::Sink(roots));
  EXPECT_TRUE(s.ok()) << s.status();
  absl::flat_hash_set<uint64_t> keys;
  if (!s.ok()) return keys;
  for (const ScheduleItem& item : s->items) {
    if (item.ast.op() == Ops::SINK) keys.insert(item.ast.key());
  }
  return keys;
}

// The kernels of tg train's first step of `model` at `batch` (TrainStep's tensors; its weights
// realized first, as a freshly made model's are by the time it trains).
absl::flat_hash_set<uint64_t> TgTrainStepKernels(const std::string& model, int64_t batch) {
  std::unique_ptr<train::Classifier> m = train::MakeClassifier(model);
  EXPECT_NE(m, nullptr) << model;
  if (m == nullptr) return {};
  std::vector<Tensor> params = nn::GetParameters(*m);
  EXPECT_TRUE(Realize(params).ok());
  absl::StatusOr<std::unique_ptr<Optimizer>> opt = Adam(params);
  EXPECT_TRUE(opt.ok()) << opt.status();
  if (!opt.ok()) return {};
  Tensor x = Tensor::Empty({batch, 1, train::kImageSide, train::kImageSide});
  Tensor y = Tensor::Empty({batch}, {.dtype = dtypes::int32});
  Tensor::Train training;
  absl::StatusOr<std::vector<Tensor>> step = train::StepTensors(*m, **opt, x, y);
  EXPECT_TRUE(step.ok()) << step.status();
  return step.ok() ? KernelKeys(*step) : absl::flat_hash_set<uint64_t>{};
}

absl::flat_hash_set<uint64_t> WorkloadKernels(const std::string& name, int64_t batch) {
  const Workload* w = FindWorkload(name);
  EXPECT_NE(w, nullptr) << name;
  if (w == nullptr) return {};
  return KernelKeys(w->build({{"batch", batch}}, {.empty_inputs = true}).outputs);
}

void ExpectStepKernelsAreTheWorkloads(const std::string& model, int64_t batch) {
  absl::flat_hash_set<uint64_t> step = TgTrainStepKernels(model, batch);
  absl::flat_hash_set<uint64_t> workload = WorkloadKernels("train_" + model, batch);
  ASSERT_GE(step.size(), 10u) << model;
  int missing = 0;
  for (uint64_t k : step) missing += !workload.contains(k);
  EXPECT_EQ(missing, 0) << "of the " << step.size() << " kernels of tg train's " << model << " step at batch "
                        << batch << ", " << missing << " are not train_" << model << "'s (" << workload.size()
                        << " kernels): tg tune train_" << model << " would not tune them";
}

TEST(TrainWorkloadKernels, CnnStepKernelsAreTrainCnns) { ExpectStepKernelsAreTheWorkloads("cnn", 32); }
TEST(TrainWorkloadKernels, MlpStepKernelsAreTrainMlps) { ExpectStepKernelsAreTheWorkloads("mlp", 32); }

}  // namespace
}  // namespace tg
