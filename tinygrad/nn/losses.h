// File: tinygrad/nn/losses.h
// Classification losses on logits. Port of Tensor.sparse_categorical_crossentropy
// (tinygrad/tensor.py, 35900290): the same formulation (log_softmax, a one-hot of the labels
// made by comparing them with arange, a mask for ignore_index), so the graph, its gradient and
// its kernels are the reference's. A free function here, not a Tensor method, so that the
// Tensor API does not grow for what only training code uses.
//
// Example:
//   Tensor logits = model(x);                                  // (batch, classes) float
//   Tensor loss = nn::SparseCategoricalCrossentropy(logits, y); // y: (batch,) int labels
//   RETURN_IF_ERROR(loss.backward());
#ifndef TINYGRAD_NN_LOSSES_H_
#define TINYGRAD_NN_LOSSES_H_

#include <cstdint>

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

}  // namespace tg::nn

#endif  // TINYGRAD_NN_LOSSES_H_
