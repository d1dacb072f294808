// File: tinygrad/nn/conv_transpose.h
// Transposed convolution, tinygrad's Tensor.conv_transpose2d (tensor.py): the gradient of
// conv2d with respect to its input, written as a conv2d of the input dilated by the stride with
// the flipped, transposed weight. Any number of spatial dims (weight (in, out/groups, *k)).
#ifndef TINYGRAD_NN_CONV_TRANSPOSE_H_
#define TINYGRAD_NN_CONV_TRANSPOSE_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "tinygrad/tensor/tensor.h"

namespace tg {

struct ConvTranspose2dOpts {
  int64_t groups = 1;
  std::vector<int64_t> stride = {1};          // one value for every spatial dim, or one per dim
  std::vector<int64_t> dilation = {1};
  std::vector<int64_t> padding = {0};         // as Conv2dOpts::padding
  std::vector<int64_t> output_padding = {0};  // extra size at the end of each spatial dim
};

// Errors (an errored tensor naming conv_transpose2d): a weight of fewer than 3 dims, option
// lists of the wrong length, a channel count that the groups don't divide; and conv2d's.
Tensor ConvTranspose2dOp(const Tensor& x, const Tensor& weight,
                         const std::optional<Tensor>& bias = std::nullopt,
                         const ConvTranspose2dOpts& o = {});

}  // namespace tg

#endif  // TINYGRAD_NN_CONV_TRANSPOSE_H_
