// File: tinygrad/nn/embedding.cc
#include "tinygrad/nn/embedding.h"

#include <vector>

#include "absl/status/status.h"
#include "tinygrad/nn/init.h"

namespace tg::nn {

Embedding::Embedding(int64_t vocab, int64_t embed)
    : vocab_size(vocab), embed_size(embed), weight(GlorotUniform({vocab, embed})) {}

Tensor Embedding::operator()(const Tensor& idx) const {
  if (!idx.ok()) return idx;
  if (!weight.ok()) return weight;
  if (!dtypes::is_int(idx.dtype()))
    return Tensor::Error(absl::InvalidArgumentError(
        "Embedding: expected an integer dtype for the index, got " + idx.dtype().repr()));
  Shape big = idx.sshape();
  big.insert(big.end(), {vocab_size, embed_size});
  Shape idx_shape = idx.sshape();
  idx_shape.insert(idx_shape.end(), {1, 1});
  Tensor arange = Tensor::Arange(vocab_size, {.device = weight.device()}).unsqueeze(-1).expand(big);
  Tensor vals = weight.expand(big);
  return arange.eq(idx.reshape(idx_shape).expand(big)).where(vals, 0).sum(-2, false, vals.dtype());
}

void Embedding::VisitState(StateVisitor& v) { v.Parameter("weight", weight); }

}  // namespace tg::nn
