// File: tinygrad/nn/losses.cc
#include "tinygrad/nn/losses.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace tg::nn {
namespace {

Tensor Error(const std::string& loss, const std::string& message) {
  return Tensor::Error(absl::InvalidArgumentError(loss + ": " + message));
}
Tensor Error(const std::string& message) {
  return Error("sparse_categorical_crossentropy", message);
}

// tinygrad's _do_reduction.
Tensor Reduce(const Tensor& t, Reduction reduction) {
  switch (reduction) {
    case Reduction::kMean:
      return t.mean();
    case Reduction::kSum:
      return t.sum();
    case Reduction::kNone:
      return t;
  }
  return t;
}

// tinygrad's _one_hot_along_dim: ids == arange(classes), the classes along `dim` of `ids`.
Tensor OneHotAlong(const Tensor& ids, int64_t classes, int64_t dim) {
  const int64_t d = dim < 0 ? dim + ids.ndim() : dim;
  std::vector<int64_t> shape(static_cast<size_t>(ids.ndim() - d), 1);
  shape[0] = classes;
  return ids.eq(
      Tensor::Arange(classes, {.dtype = dtypes::int32, .device = ids.device()}).reshape(shape));
}

std::string ShapeString(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) absl::StrAppend(&s, i ? ", " : "", shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

}  // namespace

Tensor SparseCategoricalCrossentropy(const Tensor& logits, const Tensor& labels,
                                     const CrossentropyOptions& o) {
  if (!logits.ok()) return logits;
  if (!labels.ok()) return labels;
  if (!(o.label_smoothing >= 0.0 && o.label_smoothing <= 1.0)) {
    return Error(absl::StrCat("label_smoothing must be in [0, 1], got ", o.label_smoothing));
  }
  if (!dtypes::is_int(labels.dtype())) {
    return Error("labels must be class ids of an int dtype, got " + labels.dtype().repr());
  }
  std::vector<int64_t> want = logits.shape();
  if (want.empty()) return Error("logits must have a class axis, got a 0-d tensor");
  const int64_t classes = want.back();
  want.pop_back();
  if (labels.shape() != want) {
    return Error("labels of shape " + ShapeString(labels.shape()) + " for logits of shape " +
                 ShapeString(logits.shape()) + ": want " + ShapeString(want));
  }
  Tensor log_probs = logits.log_softmax();
  Tensor y = labels.to(logits.device());
  Tensor loss_mask =
      o.ignore_index != -1
          ? y.ne(o.ignore_index)
          : Tensor::Full(y.sshape(), true, {.dtype = dtypes::bool_, .device = y.device()});
  // _one_hot_along_dim: labels == arange(classes), masked.
  Tensor classes_range = Tensor::Arange(classes, {.dtype = dtypes::int32, .device = y.device()});
  Tensor one_hot = y.unsqueeze(-1).eq(classes_range) * loss_mask.unsqueeze(-1);
  Tensor smoothing = o.label_smoothing * (log_probs.mean(-1) * loss_mask);
  Tensor unreduced = (1 - o.label_smoothing) * (log_probs * one_hot).sum(-1) + smoothing;
  switch (o.reduction) {
    case Reduction::kMean:
      return -(unreduced.sum() / loss_mask.sum());
    case Reduction::kSum:
      return -unreduced.sum();
    case Reduction::kNone:
      return -unreduced;
  }
  return -unreduced;
}

Tensor CrossEntropy(const Tensor& logits, const Tensor& target, const CrossEntropyOptions& o) {
  if (!logits.ok()) return logits;
  if (!target.ok()) return target;
  if (!(o.label_smoothing >= 0.0 && o.label_smoothing <= 1.0)) {
    return Error("cross_entropy",
                 absl::StrCat("label_smoothing must be in [0, 1], got ", o.label_smoothing));
  }
  if (logits.ndim() == 0)
    return Error("cross_entropy", "logits must have a class axis, got a 0-d tensor");
  const int64_t classes_dim = logits.ndim() == 1 ? 0 : 1;
  const int64_t classes = logits.shape()[classes_dim];
  Tensor y = target;
  if (target.shape() != logits.shape()) {
    std::vector<int64_t> ids_shape = logits.shape();
    ids_shape.erase(ids_shape.begin() + classes_dim);
    if (target.shape() != ids_shape) {
      return Error("cross_entropy", "target of shape " + ShapeString(target.shape()) +
                                        " for logits of shape " + ShapeString(logits.shape()) +
                                        ": want " + ShapeString(ids_shape) + " (class ids) or " +
                                        ShapeString(logits.shape()) + " (probabilities)");
    }
    if (!dtypes::is_int(target.dtype())) {
      return Error("cross_entropy",
                   "class ids must be of an int dtype, got " + target.dtype().repr());
    }
    y = OneHotAlong(target.unsqueeze(classes_dim), classes, classes_dim);
  }
  y = (1 - o.label_smoothing) * y + o.label_smoothing / static_cast<double>(classes);
  return Reduce(-logits.log_softmax(classes_dim).mul(y).sum(classes_dim), o.reduction);
}

Tensor NllLoss(const Tensor& log_probs, const Tensor& labels, const NllLossOptions& o) {
  if (!log_probs.ok()) return log_probs;
  if (!labels.ok()) return labels;
  if (o.weight.has_value() && !o.weight->ok()) return *o.weight;
  if (!dtypes::is_int(labels.dtype())) {
    return Error("nll_loss",
                 "labels must be class ids of an int dtype, got " + labels.dtype().repr());
  }
  std::vector<int64_t> want = log_probs.shape();
  if (want.size() < 2)
    return Error("nll_loss", "log_probs must be (N, C, ...), got " + ShapeString(want));
  const int64_t classes = want[1];
  want.erase(want.begin() + 1);
  if (labels.shape() != want) {
    return Error("nll_loss", "labels of shape " + ShapeString(labels.shape()) +
                                 " for log_probs of shape " + ShapeString(log_probs.shape()) +
                                 ": want " + ShapeString(want));
  }
  Tensor weight = labels.ones_like().cast(log_probs.dtype());
  if (o.weight.has_value()) {
    if (o.weight->shape() != std::vector<int64_t>{classes}) {
      return Error("nll_loss", "weight of shape " + ShapeString(o.weight->shape()) + " for " +
                                   std::to_string(classes) + " classes: want (" +
                                   std::to_string(classes) + ",)");
    }
    // weight[labels]: negative labels count from the end; one outside the classes picks 0
    Tensor ids = labels.lt(0).where(labels + classes, labels);
    weight = (OneHotAlong(ids.unsqueeze(-1), classes, -1) * *o.weight).sum(-1);
  }
  Tensor masked_weight = o.ignore_index.has_value() ? weight * labels.ne(*o.ignore_index) : weight;
  Tensor nll = -log_probs.gather(1, labels.unsqueeze(1)).squeeze(1) * masked_weight;
  if (o.reduction == Reduction::kMean) return nll.sum() / masked_weight.sum();
  return Reduce(nll, o.reduction);
}

Tensor BinaryCrossentropy(const Tensor& probs, const Tensor& target, Reduction reduction) {
  if (!probs.ok()) return probs;
  if (!target.ok()) return target;
  if (probs.shape() != target.shape()) {
    return Error("binary_crossentropy", "target of shape " + ShapeString(target.shape()) +
                                            " for probabilities of shape " +
                                            ShapeString(probs.shape()));
  }
  return Reduce(-target * probs.log() - (1 - target) * (1 - probs).log(), reduction);
}

Tensor BinaryCrossentropyLogits(const Tensor& logits, const Tensor& target, Reduction reduction,
                                const std::optional<Tensor>& pos_weight) {
  if (!logits.ok()) return logits;
  if (!target.ok()) return target;
  if (pos_weight.has_value() && !pos_weight->ok()) return *pos_weight;
  if (logits.shape() != target.shape()) {
    return Error("binary_crossentropy_logits", "target of shape " + ShapeString(target.shape()) +
                                                   " for logits of shape " +
                                                   ShapeString(logits.shape()));
  }
  Tensor positive = target * logits.logsigmoid();
  if (pos_weight.has_value()) positive = *pos_weight * positive;
  return Reduce(-(positive + (1 - target) * (-logits).logsigmoid()), reduction);
}

}  // namespace tg::nn
