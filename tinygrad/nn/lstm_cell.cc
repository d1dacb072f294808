// File: tinygrad/nn/lstm_cell.cc
#include "tinygrad/nn/lstm_cell.h"

#include <cmath>
#include <vector>

#include "absl/status/status.h"

namespace tg::nn {
namespace {

Tensor Unset() { return Tensor::Error(absl::InvalidArgumentError("LSTMCell: hidden_size must be positive")); }

}  // namespace

LSTMCell::LSTMCell(int64_t input_size, int64_t hidden_size, bool bias)
    : weight_ih(Unset()), weight_hh(Unset()) {
  if (hidden_size <= 0) return;
  double stdv = 1.0 / std::sqrt(static_cast<double>(hidden_size));
  weight_ih = Tensor::Uniform({hidden_size * 4, input_size}, -stdv, stdv);
  weight_hh = Tensor::Uniform({hidden_size * 4, hidden_size}, -stdv, stdv);
  if (bias) {
    bias_ih = Tensor::Zeros(Shape{hidden_size * 4});
    bias_hh = Tensor::Zeros(Shape{hidden_size * 4});
  }
}

std::pair<Tensor, Tensor> LSTMCell::operator()(
    const Tensor& x, const std::optional<std::pair<Tensor, Tensor>>& hc_in) const {
  if (!x.ok()) return {x, x};
  if (!weight_hh.ok()) return {weight_hh, weight_hh};
  if (x.ndim() != 2) {
    Tensor e = Tensor::Error(absl::InvalidArgumentError("LSTMCell: the input must be (batch, input_size)"));
    return {e, e};
  }
  std::pair<Tensor, Tensor> hc = hc_in.value_or([&] {
    Tensor zeros = Tensor::Zeros(Shape{x.sshape()[0], weight_hh.sshape()[1]},
                                 {.dtype = x.dtype(), .device = x.device()});
    return std::pair<Tensor, Tensor>{zeros, zeros};
  }());
  Tensor gates = x.linear(weight_ih.T(), bias_ih) + hc.first.linear(weight_hh.T(), bias_hh);
  std::vector<Tensor> g = gates.chunk(4, 1);
  if (g.size() != 4) return {g.front(), g.front()};  // errored: chunk gives the error alone
  Tensor i = g[0].sigmoid(), f = g[1].sigmoid(), c = g[2].tanh(), o = g[3].sigmoid();
  Tensor new_c = f * hc.second + i * c;
  Tensor new_h = o * new_c.tanh();
  return {new_h.contiguous(), new_c.contiguous()};
}

void LSTMCell::VisitState(StateVisitor& v) {
  v.Parameter("weight_ih", weight_ih);
  v.Parameter("weight_hh", weight_hh);
  v.Parameter("bias_ih", bias_ih);
  v.Parameter("bias_hh", bias_hh);
}

}  // namespace tg::nn
