// File: tinygrad/train/trainer.h
// Training a Classifier: random batches, the training step, test-set accuracy. The loop of
// tinygrad's examples/beautiful_mnist.py:
//
//   ASSIGN_OR_RETURN(LabeledImages train, LabeledImages::FromTensors(d.x_train, d.y_train));
//   Tensor::ManualSeed(seed);   // the initial weights and the batches
//   std::unique_ptr<Classifier> model = MakeClassifier("mlp");
//   ASSIGN_OR_RETURN(std::unique_ptr<Optimizer> opt, Adam(nn::GetParameters(*model), {.lr = lr}));
//   BatchSampler sampler(train);
//   for (int i = 0; i < steps; ++i) {
//     Batch b = sampler.Next(128);
//     ASSIGN_OR_RETURN(float loss, TrainStep(*model, *opt, b.x, b.y));
//   }
//   ASSIGN_OR_RETURN(double accuracy, Accuracy(*model, test));
//
// The dataset stays in host memory as bytes; each batch is gathered there and uploaded as a
// new pair of tensors, so a step's inputs are plain buffers (what a JIT replays with).
#ifndef TINYGRAD_TRAIN_TRAINER_H_
#define TINYGRAD_TRAIN_TRAINER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/nn/module.h"
#include "tinygrad/nn/optim.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/tensor/tiny_jit.h"
#include "tinygrad/train/classifiers.h"

namespace tg::train {

// n images of rows x cols uint8 pixels, row-major, and their class ids.
struct LabeledImages {
  int64_t n = 0, rows = 0, cols = 0;
  std::vector<uint8_t> pixels;  // n * rows * cols
  std::vector<uint8_t> labels;  // n, each < kClasses

  // From a dataset's tensors: images uint8 (n, 1, rows, cols), labels uint8 (n,) (what
  // LoadFashionMnist gives). InvalidArgument for other dtypes or shapes, or a label >= 10.
  static absl::StatusOr<LabeledImages> FromTensors(const Tensor& images, const Tensor& labels);
};

// Images i..: float32 (count, 1, rows, cols) scaled to [0, 1], labels int32 (count,).
struct Batch {
  Tensor x, y;
};
// The images at `indices` (each < images.n), as a Batch on `device`. On several devices
// ("(A, B)", MultiDeviceName) the batch is split among them along its first axis (data
// parallelism), or, when its size does not divide evenly, whole on each.
Batch GatherBatch(const LabeledImages& images, const std::vector<int64_t>& indices,
                  const std::string& device = DefaultDevice());

// Moves the model's state (weights and buffers such as running statistics) to `devices` in
// place: to the one device, or a copy on each of several, for data-parallel training with
// batches split among them. Call it before making the optimizer, which keeps its own state on
// its parameters' devices. Errors: no devices, a model already on several devices.
absl::Status PlaceModel(nn::Module& model, const std::vector<std::string>& devices);

// Uniformly random batches: the indices are the reference's `Tensor.randint(batch_size,
// high=n)`, drawn from the Tensor generator (Tensor::ManualSeed seeds it), so after the same
// seed and the same draws before (the model's initial weights) they are the indices the
// reference draws; the images are gathered on the host. `images` must outlive the sampler.
// An empty dataset, or a batch_size < 1 or larger than the dataset, gives errored tensors.
class BatchSampler {
 public:
  explicit BatchSampler(const LabeledImages& images) : images_(images) {}
  Batch Next(int64_t batch_size, const std::string& device = DefaultDevice());

 private:
  const LabeledImages& images_;
};

// Realizes the optimizer's parameters (their initial values) and its state (zeroed moments,
// step counters) as buffers. Call it once before the first step: otherwise that step fuses the
// weights' initialization into its kernels and folds the zero moments away, compiling ~20
// kernels that no later step runs, and which `tg tune train_mlp` (whose step starts from
// realized buffers) does not tune. Realizing changes no value. JitTrainStep calls it itself.
absl::Status RealizeTrainingState(const Optimizer& opt);

// What one training step realizes, lazy: zero_grad, forward, sparse_categorical_crossentropy,
// backward and the optimizer's update; the loss first, then the optimizer's state and
// parameters. Call it in training mode (Tensor::Train). TrainStep realizes these, and
// JitTrainStep captures them.
absl::StatusOr<std::vector<Tensor>> StepTensors(const Classifier& model, Optimizer& opt, const Tensor& x,
                                                const Tensor& y);

// One training step, as one schedule: zero_grad, forward, sparse_categorical_crossentropy,
// backward, and the optimizer's update realized together with the loss (schedule_step), in
// training mode. Returns the loss (computed before the update). Every kernel is scheduled
// each call (cached programs are reused); JitTrainStep replays them instead.
absl::StatusOr<float> TrainStep(const Classifier& model, Optimizer& opt, const Tensor& x,
                                const Tensor& y);

// The same step under TinyJit (tinygrad's @TinyJit train_step): the first two calls run it as
// TrainStep does (the second captures its kernels), later calls replay the kernels with the
// new batch's buffers, scheduling and compiling nothing; the losses are TrainStep's. Every
// batch must have the first one's shape (an InvalidArgument otherwise). The model and the
// optimizer must outlive it; the optimizer's lr may be set between calls.
class JitTrainStep {
 public:
  JitTrainStep(const Classifier& model, Optimizer& opt);
  absl::StatusOr<float> operator()(const Tensor& x, const Tensor& y);
  const TinyJit& jit() const { return jit_; }

 private:
  Optimizer& opt_;
  TinyJit jit_;
};

// Sets the optimizer's learning rate: assigns its lr tensor, so the step's kernels stay the same
// (a schedule such as a linear decay costs a copy, not a compile). A negative lr is an
// InvalidArgument.
absl::Status SetLearningRate(Optimizer& opt, double lr);

// The linear decay `tg train` uses: `peak` at step 0, falling to 0 at step `steps`.
double LinearDecay(double peak, int64_t step, int64_t steps);

// The percentage of `images` the model classifies right, evaluated in batches of `batch_size`
// (the last one smaller) on `device` (the model's; GatherBatch's split on several), under
// no-grad and outside training mode. 0 images is an error.
absl::StatusOr<double> Accuracy(const Classifier& model, const LabeledImages& images,
                                int64_t batch_size = 1000,
                                const std::string& device = DefaultDevice());

}  // namespace tg::train

#endif  // TINYGRAD_TRAIN_TRAINER_H_
