// File: tinygrad/nn/losses.h
// Losses. Port of tinygrad/tensor.py's (35900290) sparse_categorical_crossentropy,
// cross_entropy, nll_loss, binary_crossentropy and binary_crossentropy_logits: the same
// formulations (log_softmax, one-hots made by comparing labels with arange, masks for
// ignore_index), so the graphs, their gradients and their kernels are the reference's. Free
// functions here, not Tensor methods, so that the Tensor API does not grow for what only
// training code uses. Errors come back as errored tensors naming the loss and the problem.
//
// Example:
//   Tensor logits = model(x);                                  // (batch, classes) float
//   Tensor loss = nn::SparseCategoricalCrossentropy(logits, y); // y: (batch,) int labels
//   RETURN_IF_ERROR(loss.backward());
#ifndef TINYGRAD_NN_LOSSES_H_
#define TINYGRAD_NN_LOSSES_H_

#include <cstdint>
#include <optional>

#include "tinygrad/tensor/tensor.h"

namespace tg::nn {

enum class Reduction { kMean, kSum, kNone };

struct CrossentropyOptions {
  // Labels equal to it add nothing and are not counted in the mean; -1: every label counts.
  int64_t ignore_index = -1;
  // In [0, 1]: the target is (1 - s) * one_hot + s / classes.
  double label_smoothing = 0.0;
  Reduction reduction = Reduction::kMean;
};

// The cross entropy of `logits` (..., classes), classes on the last axis, against integer
// class ids `labels` (...). The mean divides by the number of labels that are not
// ignore_index. Errors come back as an errored tensor naming the problem: label_smoothing
// outside [0, 1], labels that are not ints, or whose shape is not logits' without its last
// axis, an errored input.
Tensor SparseCategoricalCrossentropy(const Tensor& logits, const Tensor& labels,
                                     const CrossentropyOptions& o = {});

struct CrossEntropyOptions {
  Reduction reduction = Reduction::kMean;
  // In [0, 1]: the target is (1 - s) * target + s / classes.
  double label_smoothing = 0.0;
};
// torch's cross_entropy (tinygrad's): `logits` (N, C, ...) with the classes on axis 1, or (C,);
// `target` either class ids of logits' shape without the class axis, or class probabilities of
// logits' shape.
Tensor CrossEntropy(const Tensor& logits, const Tensor& target, const CrossEntropyOptions& o = {});

struct NllLossOptions {
  std::optional<Tensor> weight;         // (C,): each class's weight in the sum and the mean
  std::optional<int64_t> ignore_index;  // labels equal to it add nothing and weigh nothing
  Reduction reduction = Reduction::kMean;
};
// The negative log likelihood of `log_probs` (N, C, ...) at int `labels` (N, ...). The mean
// divides by the labels' summed weights (a label outside [-C, C) picks nothing, as the
// reference's indexing does).
Tensor NllLoss(const Tensor& log_probs, const Tensor& labels, const NllLossOptions& o = {});

// Binary cross entropy of probabilities in (0, 1) against targets in [0, 1] (same shape).
Tensor BinaryCrossentropy(const Tensor& probs, const Tensor& target,
                          Reduction reduction = Reduction::kMean);
// The same on logits (through logsigmoid, stable for large |x|); `pos_weight` scales the
// positive term.
Tensor BinaryCrossentropyLogits(const Tensor& logits, const Tensor& target,
                                Reduction reduction = Reduction::kMean,
                                const std::optional<Tensor>& pos_weight = std::nullopt);

}  // namespace tg::nn

#endif  // TINYGRAD_NN_LOSSES_H_
