// File: tinygrad/tensor/tiny_jit.cc
// Port of tinygrad/engine/jit.py: TinyJit.__call__ and _prepare_jit_inputs.
#include "tinygrad/tensor/tiny_jit.h"

#include <algorithm>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "tinygrad/base/config.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/engine/jit.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/tensor/tensor_internal.h"
#include "tinygrad/uop/graph_rewrite.h"

namespace tg {

// The inputs of one call as the JIT sees them (_prepare_jit_inputs).
struct TinyJit::Prepared {
  std::vector<UOp> buffers;  // each input's BUFFER
  std::vector<InputInfo> info;
  CapturedJit::VarVals var_vals;
};

namespace {

// The reference's JitError: a call the JIT cannot take.
absl::Status JitError(const std::string& msg) {
  return absl::InvalidArgumentError(absl::StrCat("TinyJit: ", msg));
}

// The view of an input's buffer: a multi-device input's is its shard's (MULTI's source), as
// the reference's _prepare_jit_inputs takes it.
UOp BufferView(const UOp& u) { return u.op() == Ops::MULTI ? u.src(0) : u; }

// Whether `base` holds an input's data: a BUFFER (on one device or several), or an MSTACK of
// one BUFFER per device (a tensor just sharded).
bool IsBuffers(const UOp& base) {
  if (base.op() == Ops::BUFFER) return true;
  return base.op() == Ops::MSTACK &&
         std::all_of(base.src().begin(), base.src().end(),
                     [](const UOp& s) { return s.op() == Ops::BUFFER; });
}

// `u` with its buffer replaced by a NOOP and every BIND by its variable: what must stay the
// same between calls while the buffer and the variables' values change.
UOp ViewSignature(const UOp& u) {
  absl::flat_hash_map<UOp, UOp> subs{{BufferView(u).base(), UOp::Make(Ops::NOOP)}};
  for (const UOp& n : u.toposort())
    if (n.op() == Ops::BIND) subs[n] = n.src(0);
  return Substitute(u, subs);
}

// Runs the step and realizes everything it returns, in one schedule, under `config` (the
// reference's Context around the call: the width kernels are tuned at, the memory planner).
absl::StatusOr<std::vector<Tensor>> RunStep(const TinyJit::Fn& fn, std::span<const Tensor> inputs,
                                            std::span<const SInt> vars, const Config& config) {
  ScopedConfig scoped(config);
  ASSIGN_OR_RETURN(std::vector<Tensor> ret, fn(inputs, vars));
  RETURN_IF_ERROR(Realize(ret));
  return ret;
}

// The settings of a call that runs the function without capturing it (the first, or every one
// at JIT=0): BEAM=0 under IGNORE_JIT_FIRST_BEAM.
Config UncapturedCallConfig(Config c) {
  if (c.ignore_jit_first_beam) c.beam = 0;
  return c;
}

// The settings of the capture call: JITBEAM's width (BEAM's when unset); pruning keeps every
// kernel's results in memory of its own (NO_MEMORY_PLANNER), as the reference does.
Config CaptureCallConfig(Config c, const TinyJitOptions& options) {
  c.beam = c.jitbeam.value_or(c.beam);
  if (options.prune) c.no_memory_planner = true;
  return c;
}

}  // namespace

TinyJit::TinyJit(Fn fn, TinyJitOptions options) : fn_(std::move(fn)), options_(options) {}
TinyJit::TinyJit(TensorFn fn, TinyJitOptions options)
    : fn_([fn = std::move(fn)](std::span<const Tensor> inputs, std::span<const SInt>) {
        return fn(inputs);
      }),
      options_(options) {}
TinyJit::TinyJit(TinyJit&&) noexcept = default;
TinyJit& TinyJit::operator=(TinyJit&&) noexcept = default;
TinyJit::~TinyJit() = default;

size_t TinyJit::captured_size() const { return captured_ ? captured_->size() : 0; }

size_t TinyJit::pruned_size() const { return captured_ ? captured_->pruned() : 0; }

JitMemory TinyJit::captured_memory() const { return captured_ ? captured_->memory() : JitMemory{}; }

size_t TinyJit::captured_graphs() const { return captured_ ? captured_->graphs() : 0; }

void TinyJit::reset() {
  calls_ = 0;
  captured_.reset();
  random_draws_.clear();
  expected_.clear();
  ret_.clear();
}

absl::StatusOr<TinyJit::Prepared> TinyJit::Prepare(const std::vector<Tensor>& inputs,
                                                   const std::vector<SInt>& vars) {
  // Lazy inputs are realized (together); realized ones only get their pending host contents
  // onto the device, without a schedule.
  std::vector<Tensor> lazy;
  for (const Tensor& t : inputs) {
    if (!t.ok()) return t.status();
    const UOp base = BufferView(t.uop()).base();
    if (!IsBuffers(base)) {
      lazy.push_back(t);
    } else {
      RETURN_IF_ERROR(EnsureOnDevice(base));
    }
  }
  if (!lazy.empty()) {
    RETURN_IF_ERROR(Realize(lazy));
  }

  Prepared p;
  absl::flat_hash_set<UOp> seen;
  std::vector<UOp> bound;  // where the variables' values come from
  for (size_t i = 0; i < inputs.size(); ++i) {
    const UOp& u = inputs[i].uop();
    UOp base = BufferView(u).base();
    if (!IsBuffers(base))
      return JitError(absl::StrCat("input ", i, " is ",
                                   base.op() == Ops::CONST ? "a constant" : "not a buffer",
                                   "; JIT inputs cannot be const, create a buffer with .contiguous()"));
    if (!seen.insert(base).second)
      return JitError(absl::StrCat("duplicate inputs to JIT: input ", i,
                                   " is the buffer of an earlier input"));
    p.buffers.push_back(base);
    p.info.push_back({ViewSignature(u), tensor_internal::ShapeStr(inputs[i].sshape()),
                      inputs[i].dtype(), inputs[i].device(), inputs[i].shard_axis()});
    bound.push_back(u);
  }
  for (size_t i = 0; i < vars.size(); ++i) {
    if (vars[i].is_int() || vars[i].uop().op() != Ops::BIND)
      return JitError(absl::StrCat("vars[", i, "] is not a bound variable (Variable::bind)"));
    bound.push_back(vars[i].uop());
  }
  if (!bound.empty()) {
    absl::StatusOr<CapturedJit::VarVals> vals = tensor_internal::CollectBindings(UOp::Sink(bound));
    if (!vals.ok()) return JitError(std::string(vals.status().message()));
    p.var_vals = *std::move(vals);
  }
  return p;
}

absl::StatusOr<std::vector<Tensor>> TinyJit::operator()(const std::vector<Tensor>& inputs,
                                                        const std::vector<SInt>& vars) {
  ASSIGN_OR_RETURN(Prepared p, Prepare(inputs, vars));
  const Config config = GetConfig();  // a copy: RunStep installs its own settings meanwhile
  if (config.jit == 0) {
    // JIT=0: the function on every call, nothing captured (as the reference's `not JIT`).
    ASSIGN_OR_RETURN(std::vector<Tensor> ret,
                     RunStep(fn_, inputs, vars, UncapturedCallConfig(config)));
    calls_ = std::max(calls_, 1);
    return ret;
  }
  if (calls_ == 0) {
    // jit ignore: the first call only runs the step.
    ASSIGN_OR_RETURN(std::vector<Tensor> ret,
                     RunStep(fn_, inputs, vars, UncapturedCallConfig(config)));
    calls_ = 1;
    return ret;
  }
  if (calls_ == 1) {
    // jit capture: the step once more, recording what its realizes run.
    ASSIGN_OR_RETURN(JitCapture capture, JitCapture::Start());
    tensor_internal::RandomDrawRecorder random;
    ASSIGN_OR_RETURN(std::vector<Tensor> ret,
                     RunStep(fn_, inputs, vars, CaptureCallConfig(config, options_)));
    // NO_MEMORY_PLANNER (the caller's, not pruning's) turns the JIT's planning off too, as in
    // the reference.
    JitOptions jit_options = JitOptions::FromConfig(config);
    jit_options.prune = options_.prune;
    std::vector<UOp> refreshed;
    for (const tensor_internal::RandomDraw& d : random.draws) refreshed.push_back(d.params);
    ASSIGN_OR_RETURN(CapturedJit jit,
                     CapturedJit::Make(std::move(capture), p.buffers, jit_options, refreshed));
    for (const std::string& v : jit.variables())
      if (!p.var_vals.contains(v))
        return JitError(absl::StrCat("the captured kernels take variable '", v,
                                     "', which no input's shape and no entry of vars binds: pass "
                                     "it in vars so that replays can set it"));
    captured_ = std::make_unique<CapturedJit>(std::move(jit));
    random_draws_ = std::move(random.draws);
    expected_ = std::move(p.info);
    ret_ = ret;
    calls_ = 2;
    return ret;
  }
  // jit exec: the captured kernels on this call's inputs.
  if (p.info.size() != expected_.size())
    return JitError(absl::StrCat("args mismatch in JIT: captured with ", expected_.size(),
                                 " inputs, called with ", p.info.size()));
  for (size_t i = 0; i < expected_.size(); ++i) {
    const InputInfo& want = expected_[i];
    const InputInfo& got = p.info[i];
    if (want.view == got.view && want.dtype == got.dtype && want.device == got.device) continue;
    auto split = [](std::optional<int64_t> a) {
      return a ? absl::StrCat("split along axis ", *a) : std::string("whole on each device");
    };
    std::string what =
        want.dtype != got.dtype
            ? absl::StrCat("dtype ", want.dtype.name(), ", called with ", got.dtype.name())
        : want.device != got.device
            ? absl::StrCat("device ", want.device, ", called with ", got.device)
        : want.shape != got.shape ? absl::StrCat("shape ", want.shape, ", called with ", got.shape)
        : want.split_axis != got.split_axis
            ? absl::StrCat(split(want.split_axis), ", called ", split(got.split_axis))
            : std::string("another view of its buffer");
    return JitError(absl::StrCat("args mismatch in JIT: input ", i, " was captured with ", what));
  }
  // Random numbers continue where the last call left them, as an eager call's would.
  for (const tensor_internal::RandomDraw& d : random_draws_) {
    ASSIGN_OR_RETURN(auto params, tensor_internal::NextRandomParams(d.device, d.words));
    RETURN_IF_ERROR(CopyIn(d.params, std::as_bytes(std::span(params))));
  }
  RETURN_IF_ERROR(captured_->Replay(p.buffers, p.var_vals));
  ++calls_;
  return ret_;
}

}  // namespace tg
