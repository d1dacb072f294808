// File: tinygrad/nn/lstm_cell.h
// nn.LSTMCell (tinygrad/nn/__init__.py): one step of an LSTM, gates in torch's order (input,
// forget, cell, output). Weights drawn from uniform(-1/sqrt(hidden), 1/sqrt(hidden)), biases
// zeros, as the reference's.
#ifndef TINYGRAD_NN_LSTM_CELL_H_
#define TINYGRAD_NN_LSTM_CELL_H_

#include <cstdint>
#include <optional>
#include <utility>

#include "tinygrad/nn/module.h"
#include "tinygrad/tensor/tensor.h"

namespace tg::nn {

class LSTMCell : public Module {
 public:
  LSTMCell(int64_t input_size, int64_t hidden_size, bool bias = true);
  // x: (batch, input_size); hc: (h, c), each (batch, hidden_size), zeros when absent.
  // Returns the new (h, c), contiguous.
  std::pair<Tensor, Tensor> operator()(
      const Tensor& x, const std::optional<std::pair<Tensor, Tensor>>& hc = std::nullopt) const;
  void VisitState(StateVisitor& v) override;

  Tensor weight_ih;  // (4 * hidden, input)
  Tensor weight_hh;  // (4 * hidden, hidden)
  std::optional<Tensor> bias_ih, bias_hh;  // (4 * hidden)
};

}  // namespace tg::nn

#endif  // TINYGRAD_NN_LSTM_CELL_H_
