// File: tinygrad/nn/embedding.h
// nn.Embedding (tinygrad/nn/__init__.py): a (vocab_size, embed_size) table, glorot_uniform at
// the start, looked up by an int tensor of ids: out[..., :] = weight[idx[...], :]. The lookup is
// the reference's arange == idx mask summed over the vocabulary, so its gradient is a plain
// sum. Unlike the reference, the arange is not kept on the module (nor in its state dict).
#ifndef TINYGRAD_NN_EMBEDDING_H_
#define TINYGRAD_NN_EMBEDDING_H_

#include <cstdint>

#include "tinygrad/nn/module.h"
#include "tinygrad/tensor/tensor.h"

namespace tg::nn {

class Embedding : public Module {
 public:
  Embedding(int64_t vocab_size, int64_t embed_size);
  // idx of an int dtype (else an errored tensor); ids outside [0, vocab_size) give zeros.
  Tensor operator()(const Tensor& idx) const;
  void VisitState(StateVisitor& v) override;

  int64_t vocab_size, embed_size;
  Tensor weight;
};

}  // namespace tg::nn

#endif  // TINYGRAD_NN_EMBEDDING_H_
