// File: tinygrad/tensor/training.cc
// Training mode (Tensor::Train, tinygrad's `with Tensor.train():`) and dropout, the op that
// reads it. Port of tinygrad/tensor.py (tinygrad 35900290): Tensor.training, Tensor.train,
// dropout.
#include <string>

#include "absl/strings/str_cat.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/tensor/tensor_internal.h"

namespace tg {

namespace {
// Per thread, like NoGradScope: a test or a worker thread that trains does not switch another
// thread's model into training mode (tinygrad's is a class variable; Python runs one thread).
thread_local bool training_mode = false;
}  // namespace

Tensor::Train::Train(bool mode) : prev_(training_mode) { training_mode = mode; }
Tensor::Train::~Train() { training_mode = prev_; }
bool Tensor::training() { return training_mode; }

Tensor Tensor::dropout(double p) const {
  if (!ok()) return *this;
  if (!(p >= 0 && p <= 1)) return tensor_internal::Err("dropout", absl::StrCat("p=", p, " is out of range [0, 1]"));
  if (!training_mode || p == 0) return *this;
  if (p == 1) return zeros_like();
  if (is_symbolic()) return Error(tensor_internal::NeedsIntShape("dropout", *this));
  // The mask never takes part in a gradient (rand_like(requires_grad=False)); tinygrad makes
  // it contiguous after the comparison only, so the random bits are not a kernel of their own.
  Tensor r = tensor_internal::NoGradLeaf(
      tensor_internal::RandLike(*this, dtypes::default_float, /*contiguous=*/false));
  return r.ge(p).contiguous().where(*this, int64_t{0}).div(1.0 - p);
}

}  // namespace tg
