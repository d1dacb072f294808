// File: tinygrad/train/trainer.cc
#include "tinygrad/train/trainer.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tinygrad/base/device_name.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/nn/losses.h"
#include "tinygrad/tensor/autograd.h"

namespace tg::train {

absl::StatusOr<LabeledImages> LabeledImages::FromTensors(const Tensor& images, const Tensor& labels) {
  RETURN_IF_ERROR(images.status());
  RETURN_IF_ERROR(labels.status());
  if (images.dtype() != dtypes::uint8 || labels.dtype() != dtypes::uint8) {
    return absl::InvalidArgumentError(absl::StrCat("images and labels must be uint8, got ",
                                                   images.dtype().repr(), " and ",
                                                   labels.dtype().repr()));
  }
  std::vector<int64_t> is = images.shape(), ls = labels.shape();
  if (is.size() != 4 || is[1] != 1 || ls.size() != 1 || ls[0] != is[0]) {
    return absl::InvalidArgumentError(
        "images must be (n, 1, rows, cols) and labels (n,) for the same n");
  }
  LabeledImages out{.n = is[0], .rows = is[2], .cols = is[3]};
  ASSIGN_OR_RETURN(out.pixels, images.to_vector<uint8_t>());
  ASSIGN_OR_RETURN(out.labels, labels.to_vector<uint8_t>());
  auto bad = std::find_if(out.labels.begin(), out.labels.end(), [](uint8_t l) { return l >= kClasses; });
  if (bad != out.labels.end()) {
    return absl::InvalidArgumentError(absl::StrCat("label ", *bad, " at ", bad - out.labels.begin(),
                                                   " is not a class id below ", kClasses));
  }
  return out;
}

Batch GatherBatch(const LabeledImages& images, const std::vector<int64_t>& indices,
                  const std::string& device) {
  if (IsMultiDeviceName(device)) {
    const std::vector<std::string> devices = DeviceNames(CanonicalDeviceName(device));
    Batch whole = GatherBatch(images, indices, devices[0]);
    const int64_t count = static_cast<int64_t>(indices.size());
    std::optional<int64_t> axis;
    if (count % static_cast<int64_t>(devices.size()) == 0) axis = 0;
    return {whole.x.shard(devices, axis), whole.y.shard(devices, axis)};
  }
  const int64_t pixels = images.rows * images.cols;
  const int64_t count = static_cast<int64_t>(indices.size());
  std::vector<float> x(static_cast<size_t>(count * pixels));
  std::vector<int32_t> y(indices.size());
  for (int64_t i = 0; i < count; ++i) {
    const uint8_t* src = images.pixels.data() + indices[i] * pixels;
    std::transform(src, src + pixels, x.begin() + i * pixels, [](uint8_t p) { return p / 255.0f; });
    y[i] = images.labels[indices[i]];
  }
  return {Tensor::FromVector<float>(x, {count, 1, images.rows, images.cols}, device),
          Tensor::FromVector<int32_t>(y, {count}, device)};
}

Batch BatchSampler::Next(int64_t batch_size, const std::string& device) {
  auto error = [](const absl::Status& s) {
    Tensor e = Tensor::Error(s);
    return Batch{e, e};
  };
  if (images_.n <= 0 || batch_size <= 0) {
    return error(absl::InvalidArgumentError("a batch needs images and a positive size"));
  }
  // Drawn with replacement, a batch could be larger; capping it at the dataset bounds the host
  // memory a batch takes by the dataset's own.
  if (batch_size > images_.n) {
    return error(absl::InvalidArgumentError(
        absl::StrCat("a batch of ", batch_size, " from ", images_.n, " images: at most ", images_.n)));
  }
  absl::StatusOr<std::vector<int32_t>> drawn = Tensor::Randint({batch_size}, 0, images_.n).to_vector<int32_t>();
  if (!drawn.ok()) return error(drawn.status());
  return GatherBatch(images_, std::vector<int64_t>(drawn->begin(), drawn->end()), device);
}

absl::Status PlaceModel(nn::Module& model, const std::vector<std::string>& devices) {
  if (devices.empty()) return absl::InvalidArgumentError("placing a model on no devices");
  for (auto& [name, t] : nn::GetStateDict(model)) {
    if (t.uop().device().is_tuple())
      return absl::InvalidArgumentError(absl::StrCat("'", name, "' is on several devices already"));
    Tensor placed = devices.size() == 1 ? t.to_(devices[0]) : t.shard_(devices);
    if (!placed.ok())
      return absl::Status(placed.status().code(),
                          absl::StrCat("'", name, "': ", placed.status().message()));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<Tensor>> StepTensors(const Classifier& model, Optimizer& opt,
                                                const Tensor& x, const Tensor& y) {
  opt.zero_grad();
  Tensor loss = nn::SparseCategoricalCrossentropy(model(x), y);
  RETURN_IF_ERROR(loss.backward());
  ASSIGN_OR_RETURN(std::vector<Tensor> step, opt.schedule_step());
  step.insert(step.begin(), loss);
  return step;
}

absl::StatusOr<float> TrainStep(const Classifier& model, Optimizer& opt, const Tensor& x,
                                const Tensor& y) {
  Tensor::Train train;
  ASSIGN_OR_RETURN(std::vector<Tensor> step, StepTensors(model, opt, x, y));
  RETURN_IF_ERROR(Realize(step));
  return step[0].item<float>();
}

absl::Status RealizeTrainingState(const Optimizer& opt) {
  std::vector<Tensor> all = opt.params();
  for (const std::vector<Tensor>& more : {opt.buffers(), opt.state()})
    all.insert(all.end(), more.begin(), more.end());
  return Realize(all);
}

JitTrainStep::JitTrainStep(const Classifier& model, Optimizer& opt)
    : opt_(opt),
      jit_([&model, &opt](std::span<const Tensor> in) { return StepTensors(model, opt, in[0], in[1]); }) {}

absl::StatusOr<float> JitTrainStep::operator()(const Tensor& x, const Tensor& y) {
  if (jit_.calls() == 0) RETURN_IF_ERROR(RealizeTrainingState(opt_));
  Tensor::Train train;
  ASSIGN_OR_RETURN(std::vector<Tensor> out, jit_({x, y}));
  return out[0].item<float>();
}

absl::Status SetLearningRate(Optimizer& opt, double lr) {
  if (!(lr >= 0)) return absl::InvalidArgumentError(absl::StrCat("learning rate ", lr, " is negative"));
  return opt.lr().assign(Tensor::FromVector<float>({static_cast<float>(lr)}, {1}, opt.device())).realize();
}

double LinearDecay(double peak, int64_t step, int64_t steps) {
  if (steps <= 0 || step >= steps) return 0.0;
  return peak * static_cast<double>(steps - std::max<int64_t>(step, 0)) / static_cast<double>(steps);
}

absl::StatusOr<double> Accuracy(const Classifier& model, const LabeledImages& images,
                                int64_t batch_size, const std::string& device) {
  if (images.n <= 0) return absl::InvalidArgumentError("accuracy of no images");
  if (batch_size <= 0) return absl::InvalidArgumentError("accuracy: batch size must be positive");
  NoGradScope no_grad;
  Tensor::Train eval(false);
  int64_t correct = 0;
  std::vector<int64_t> indices;
  for (int64_t start = 0; start < images.n; start += batch_size) {
    indices.resize(std::min(batch_size, images.n - start));
    std::iota(indices.begin(), indices.end(), start);
    Batch b = GatherBatch(images, indices, device);
    ASSIGN_OR_RETURN(int64_t right, model(b.x).argmax(1).eq(b.y).sum().item<int64_t>());
    correct += right;
  }
  return 100.0 * static_cast<double>(correct) / static_cast<double>(images.n);
}

}  // namespace tg::train
