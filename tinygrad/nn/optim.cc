// File: tinygrad/nn/optim.cc
// Port of tinygrad/nn/optim.py (tinygrad 35900290): Optimizer, LARS (and SGD, Muon), LAMB (and
// Adam, AdamW). The update formulas keep tinygrad's order of operations, so the same weights
// and gradients give the reference's float32 results. FUSE_OPTIM is the `fused` option. Not
// ported: OPTIM_DTYPE and CONST_LR (environment switches), OptimizerGroup (see optim.h).
#include "tinygrad/nn/optim.h"

#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "absl/strings/str_cat.h"

namespace tg {

// ** Optimizer **

absl::Status Optimizer::Init(Optimizer& opt, const std::vector<Tensor>& params, double lr, bool fused) {
  for (size_t i = 0; i < params.size(); ++i) {
    const Tensor& t = params[i];
    if (!t.ok())
      return absl::InvalidArgumentError(absl::StrCat("optimizer: parameter ", i, " is errored: ", t.status().message()));
    // tinygrad: a parameter whose requires_grad is None is put in the optimizer to be trained.
    if (!t.requires_grad().has_value()) t.requires_grad_(true);
    std::vector<Tensor>& dst = *t.requires_grad() ? opt.params_ : opt.buffers_;
    bool seen = false;
    for (const Tensor& d : dst) seen = seen || d.is(t);
    if (!seen) dst.push_back(t);
  }
  if (opt.params_.empty())
    return absl::InvalidArgumentError(
        "optimizer: must have at least one parameter that requires a gradient (all given have requires_grad false)");
  // lr in float32 (least_upper_dtype(default_float, float32)), a (1,) buffer on the device.
  opt.lr_ = Tensor::FromVector<float>(std::vector<float>{static_cast<float>(lr)}, {1}, opt.device())
                .requires_grad_(false);
  if (!opt.lr_.ok()) return opt.lr_.status();
  opt.fused_ = fused;
  if (fused) {
    opt.offsets_ = {0};
    for (const Tensor& t : opt.params_) {
      if (t.is_symbolic())
        return absl::InvalidArgumentError("optimizer: fused needs int shapes, not " + t.repr());
      opt.offsets_.push_back(opt.offsets_.back() + t.numel());
    }
  }
  return absl::OkStatus();
}

std::vector<Tensor> Optimizer::NewOptimParam() const {
  if (fused_)
    return {Tensor::Zeros({offsets_.back()}, {.dtype = dtypes::float32, .device = device()})
                .contiguous()
                .requires_grad_(false)};
  std::vector<Tensor> out;
  out.reserve(params_.size());
  for (const Tensor& t : params_)
    out.push_back(Tensor::Zeros(t.sshape(), {.dtype = dtypes::float32, .device = t.device()})
                      .contiguous()
                      .requires_grad_(false));
  return out;
}

void Optimizer::zero_grad() {
  for (const Tensor& p : params_) p.clear_grad();
}

absl::Status Optimizer::step() {
  absl::StatusOr<std::vector<Tensor>> ts = schedule_step();
  if (!ts.ok()) return ts.status();
  return Realize(*ts);
}

absl::StatusOr<std::vector<Tensor>> Optimizer::schedule_step() {
  if (!Tensor::training())
    return absl::FailedPreconditionError(
        "optimizer step: Tensor::training() is false; the optimizer needs training mode (a Tensor::Train scope)");
  std::vector<Tensor> grads;
  grads.reserve(params_.size());
  for (size_t i = 0; i < params_.size(); ++i) {
    std::optional<Tensor> g = params_[i].grad();
    if (!g)
      return absl::FailedPreconditionError(absl::StrCat("optimizer step: parameter ", i, " ", params_[i].repr(),
                                                        " has no gradient (call backward() first)"));
    if (!g->ok()) return g->status();
    grads.push_back(*g);
  }
  std::vector<Tensor> updated, extra;
  if (fused_) {
    // One update over everything, split back into the parameters' shapes (contiguous grads
    // for speed, as tinygrad).
    std::vector<Tensor> flat_p, flat_g;
    for (size_t i = 0; i < params_.size(); ++i) {
      flat_p.push_back(params_[i].flatten());
      flat_g.push_back(grads[i].contiguous().flatten());
    }
    auto [out, ex] = Step({Tensor::Cat(flat_p)}, {Tensor::Cat(flat_g)});
    extra = std::move(ex);
    for (size_t i = 0; i < params_.size(); ++i)
      updated.push_back(out[0].slice({Slice(offsets_[i], offsets_[i + 1])}).reshape(params_[i].sshape()));
  } else {
    std::tie(updated, extra) = Step(params_, grads);
  }
  // Check every update before assigning any, so a failed step leaves the parameters alone.
  for (size_t i = 0; i < updated.size(); ++i) {
    if (!updated[i].ok())
      return absl::InvalidArgumentError(absl::StrCat("optimizer step: parameter ", i, ": ", updated[i].status().message()));
  }
  for (size_t i = 0; i < params_.size(); ++i) {
    Tensor r = params_[i].assign(updated[i]);
    if (!r.ok()) return r.status();
  }
  std::vector<Tensor> out = std::move(extra);
  out.insert(out.end(), params_.begin(), params_.end());
  out.insert(out.end(), buffers_.begin(), buffers_.end());
  return out;
}

namespace {

// A trust ratio: a tensor, or the number 1.0 when there is none (tinygrad's `r: Tensor|float`).
using Ratio = std::variant<Tensor, double>;
Tensor Mul(const Tensor& a, const Ratio& r) {
  return std::holds_alternative<Tensor>(r) ? a * std::get<Tensor>(r) : a * std::get<double>(r);
}

class LarsOptimizer : public Optimizer {
 public:
  explicit LarsOptimizer(const LARSOpts& o) : o_(o) {}
  absl::Status Init(const std::vector<Tensor>& params) {
    if (absl::Status s = Optimizer::Init(*this, params, o_.lr, o_.fused); !s.ok()) return s;
    if (o_.momentum != 0) b_ = NewOptimParam();
    return absl::OkStatus();
  }

 protected:
  std::pair<std::vector<Tensor>, std::vector<Tensor>> Step(const std::vector<Tensor>& params,
                                                            const std::vector<Tensor>& grads) override {
    std::vector<Tensor> ret;
    for (size_t i = 0; i < params.size(); ++i) {
      Tensor t = params[i], g = grads[i];
      Ratio r = 1.0;
      if (o_.tcoef != 0) {
        Tensor r1 = t.detach().square().sum().sqrt();
        Tensor r2 = g.square().sum().sqrt();
        r = r1.gt(0).where(r2.gt(0).where(o_.tcoef * r1 / (r2 + o_.weight_decay * r1), 1.0), 1.0);
      }
      if (o_.pre_wd && o_.weight_decay > 0) g = g + o_.weight_decay * t.detach();
      // classic momentum applies the learning rate before the momentum
      if (o_.classic) g = Mul(g, r) * lr();
      if (o_.momentum != 0) {
        // b is zero on the first step, so no special case is needed
        Tensor assigned = b_[i].assign(o_.momentum * b_[i] + g);
        if (!assigned.ok()) {
          ret.push_back(assigned);
          continue;
        }
        g = o_.nesterov ? g + o_.momentum * b_[i] : b_[i];
      }
      if (!g.ok()) {
        ret.push_back(g);
        continue;
      }
      if (!o_.ns_coefficients.empty()) {
        if (g.ndim() == 0) {
          ret.push_back(Tensor::Error(absl::InvalidArgumentError("muon: a 0-d parameter has no matrix to orthogonalize")));
          continue;
        }
        // the update as a matrix: the first dim by the rest
        g = g.reshape({g.sshape()[0], -1}).newton_schulz(o_.ns_steps, o_.ns_coefficients).reshape(g.sshape());
      }
      // muon's weight decay comes after the momentum
      if (!o_.pre_wd && o_.weight_decay > 0) t = t.detach() * (1.0 - o_.weight_decay * lr());
      // popular momentum applies the learning rate after the momentum
      if (!o_.classic) g = Mul(g, r) * lr();
      ret.push_back((t.detach() - g).cast(params[i].dtype()));
    }
    return {ret, state()};
  }

 public:
  std::vector<Tensor> state() const override { return b_; }

 private:
  LARSOpts o_;
  std::vector<Tensor> b_;
};

class LambOptimizer : public Optimizer {
 public:
  explicit LambOptimizer(const LAMBOpts& o) : o_(o) {}
  absl::Status Init(const std::vector<Tensor>& params) {
    if (absl::Status s = Optimizer::Init(*this, params, o_.lr, o_.fused); !s.ok()) return s;
    for (Tensor* bt : {&b1_t_, &b2_t_})
      *bt = Tensor::Ones({1}, {.dtype = dtypes::float32, .device = device()}).contiguous().requires_grad_(false);
    m_ = NewOptimParam();
    v_ = NewOptimParam();
    return absl::OkStatus();
  }

 protected:
  std::pair<std::vector<Tensor>, std::vector<Tensor>> Step(const std::vector<Tensor>& params,
                                                            const std::vector<Tensor>& grads) override {
    std::vector<Tensor> ret;
    (void)b1_t_.assign(b1_t_ * o_.b1);  // same shape, dtype and device: cannot fail
    (void)b2_t_.assign(b2_t_ * o_.b2);
    for (size_t i = 0; i < params.size(); ++i) {
      const Tensor& t = params[i];
      Tensor g = grads[i];
      if (g.ok() && g.device() != m_[i].device()) g = g.contiguous().to(m_[i].device());
      Tensor am = m_[i].assign((o_.b1 * m_[i] + (1.0 - o_.b1) * g).cast(m_[i].dtype()));
      Tensor av = v_[i].assign((o_.b2 * v_[i] + (1.0 - o_.b2) * (g * g)).cast(v_[i].dtype()));
      if (!am.ok() || !av.ok()) {
        ret.push_back(am.ok() ? av : am);
        continue;
      }
      Tensor m_hat = m_[i] / (1.0 - b1_t_);
      Tensor v_hat = v_[i] / (1.0 - b2_t_);
      Tensor up = (m_hat / (v_hat.sqrt() + o_.eps)) + o_.weight_decay * t.detach();
      Ratio r = 1.0;
      if (!o_.adam) {
        Tensor r1 = t.detach().square().sum().sqrt();
        Tensor r2 = up.square().sum().sqrt();
        r = r1.gt(0).where(r2.gt(0).where(r1 / r2, 1.0), 1.0);
      }
      ret.push_back((t.detach() - Mul(lr(), r) * up).cast(t.dtype()));
    }
    return {ret, state()};
  }

 public:
  std::vector<Tensor> state() const override {
    std::vector<Tensor> state = {b1_t_, b2_t_};
    state.insert(state.end(), m_.begin(), m_.end());
    state.insert(state.end(), v_.begin(), v_.end());
    return state;
  }

 private:
  LAMBOpts o_;
  Tensor b1_t_ = Tensor::Error(absl::FailedPreconditionError("not initialized"));
  Tensor b2_t_ = b1_t_;
  std::vector<Tensor> m_, v_;
};

template <typename Opt, typename Opts>
absl::StatusOr<std::unique_ptr<Optimizer>> Make(const std::vector<Tensor>& params, const Opts& o) {
  auto opt = std::make_unique<Opt>(o);
  if (absl::Status s = opt->Init(params); !s.ok()) return s;
  return std::unique_ptr<Optimizer>(std::move(opt));
}

}  // namespace

absl::StatusOr<std::unique_ptr<Optimizer>> LARS(const std::vector<Tensor>& params, const LARSOpts& o) {
  return Make<LarsOptimizer>(params, o);
}

absl::StatusOr<std::unique_ptr<Optimizer>> SGD(const std::vector<Tensor>& params, const SGDOpts& o) {
  // LARS with the trust coefficient 0 is SGD.
  return LARS(params, {.lr = o.lr, .momentum = o.momentum, .weight_decay = o.weight_decay, .ns_steps = 0,
                       .ns_coefficients = {}, .nesterov = o.nesterov, .classic = o.classic, .pre_wd = true,
                       .tcoef = 0.0, .fused = o.fused});
}

absl::StatusOr<std::unique_ptr<Optimizer>> Muon(const std::vector<Tensor>& params, const MuonOpts& o) {
  return LARS(params, {.lr = o.lr, .momentum = o.momentum, .weight_decay = o.weight_decay, .ns_steps = o.ns_steps,
                       .ns_coefficients = o.ns_coefficients, .nesterov = o.nesterov, .classic = false,
                       .pre_wd = false, .tcoef = 0.0});
}

absl::StatusOr<std::unique_ptr<Optimizer>> LAMB(const std::vector<Tensor>& params, const LAMBOpts& o) {
  return Make<LambOptimizer>(params, o);
}

absl::StatusOr<std::unique_ptr<Optimizer>> Adam(const std::vector<Tensor>& params, const AdamOpts& o) {
  return LAMB(params, {.lr = o.lr, .b1 = o.b1, .b2 = o.b2, .eps = o.eps, .weight_decay = 0.0, .adam = true,
                       .fused = o.fused});
}

absl::StatusOr<std::unique_ptr<Optimizer>> AdamW(const std::vector<Tensor>& params, const AdamWOpts& o) {
  return LAMB(params, {.lr = o.lr, .b1 = o.b1, .b2 = o.b2, .eps = o.eps, .weight_decay = o.weight_decay,
                       .adam = true, .fused = o.fused});
}

}  // namespace tg
