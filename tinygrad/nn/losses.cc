// File: tinygrad/nn/losses.cc
#include "tinygrad/nn/losses.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace tg::nn {
namespace {

Tensor Error(const std::string& message) {
  return Tensor::Error(absl::InvalidArgumentError("sparse_categorical_crossentropy: " + message));
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
  Tensor loss_mask = o.ignore_index != -1 ? y.ne(o.ignore_index)
                                          : Tensor::Full(y.sshape(), true,
                                                         {.dtype = dtypes::bool_, .device = y.device()});
  // _one_hot_along_dim: labels == arange(classes), masked.
  Tensor classes_range = Tensor::Arange(classes, {.dtype = dtypes::int32, .device = y.device()});
  Tensor one_hot = y.unsqueeze(-1).eq(classes_range) * loss_mask.unsqueeze(-1);
  Tensor smoothing = o.label_smoothing * (log_probs.mean(-1) * loss_mask);
  Tensor unreduced = (1 - o.label_smoothing) * (log_probs * one_hot).sum(-1) + smoothing;
  switch (o.reduction) {
    case Reduction::kMean: return -(unreduced.sum() / loss_mask.sum());
    case Reduction::kSum: return -unreduced.sum();
    case Reduction::kNone: return -unreduced;
  }
  return -unreduced;
}

}  // namespace tg::nn
