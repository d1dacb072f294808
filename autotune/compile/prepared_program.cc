// File: autotune/compile/prepared_program.cc
#include "autotune/compile/prepared_program.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/uop/render.h"

namespace tg::autotune {
namespace {

using Sizes = std::array<int64_t, 3>;

absl::flat_hash_map<std::string, ConstValue> VarsOf(const KernelTask& task) {
  absl::flat_hash_map<std::string, ConstValue> vars;
  for (const auto& [name, v] : task.var_vals) vars[name] = ConstValue(v);
  return vars;
}

absl::StatusOr<Sizes> Evaluate(const std::vector<UOp>& dims, const absl::flat_hash_map<std::string, ConstValue>& vars,
                               const char* what) {
  if (dims.size() != 3) return absl::InvalidArgumentError(absl::StrCat(what, " has ", dims.size(), " dimensions, not 3"));
  Sizes out{};
  for (size_t k = 0; k < 3; ++k) {
    absl::StatusOr<ConstValue> v = SymInfer(dims[k], vars);
    if (!v.ok()) return absl::InvalidArgumentError(absl::StrCat(what, "[", k, "]: ", v.status().message()));
    out[k] = v->to_int64();
  }
  return out;
}

// (the spec's text and lists move into `w` once everything evaluated)
absl::Status Fill(ProgramSpec& s, const KernelTask& task, codec::PreparedProgram& w) {
  const absl::flat_hash_map<std::string, ConstValue> vars = VarsOf(task);
  ASSIGN_OR_RETURN(w.global_size, Evaluate(s.global_size, vars, "global size"));
  if (s.local_size) {
    ASSIGN_OR_RETURN(w.local_size, Evaluate(*s.local_size, vars, "local size"));
  }
  for (const UOp& v : s.vars)
    w.vars.push_back({.name = v.arg()[0].str(), .min = v.arg()[1].int64(), .max = v.arg()[2].int64(), .dtype = v.dtype()});
  auto estimate = [&](const UOp& e, const char* what) -> absl::StatusOr<double> {
    if (!e) return 0.0;
    absl::StatusOr<ConstValue> v = SymInfer(e, vars);
    if (!v.ok()) return absl::InvalidArgumentError(absl::StrCat(what, ": ", v.status().message()));
    return v->to_float();
  };
  ASSIGN_OR_RETURN(w.ops, estimate(s.estimates.ops, "ops estimate"));
  ASSIGN_OR_RETURN(w.mem, estimate(s.estimates.mem, "mem estimate"));
  ASSIGN_OR_RETURN(w.lds, estimate(s.estimates.lds, "lds estimate"));
  w.name = std::move(s.name);
  w.function_name = std::move(s.function_name);
  w.src = std::move(s.src);
  w.globals = std::move(s.globals);
  w.outs = std::move(s.outs);
  w.ins = std::move(s.ins);
  w.dynamic_shared_bytes = s.dynamic_shared_bytes;
  w.tensor_maps = std::move(s.tensor_maps);
  return absl::OkStatus();
}

// What the client needs of a program before it may reach the device.
absl::Status Check(const codec::PreparedProgram& w, const KernelTask& task) {
  auto has_slot = [&](int64_t slot) {
    return std::any_of(task.buffers.begin(), task.buffers.end(), [&](const BufferSpec& b) { return b.slot == slot; });
  };
  for (const auto* list : {&w.globals, &w.outs, &w.ins})
    for (int64_t slot : *list)
      if (!has_slot(slot)) return absl::InvalidArgumentError(absl::StrCat("buffer slot ", slot, " is not one of the task's"));
  for (const codec::ProgramVar& v : w.vars) {
    if (std::none_of(task.var_vals.begin(), task.var_vals.end(), [&](const auto& kv) { return kv.first == v.name; }))
      return absl::InvalidArgumentError(absl::StrCat("variable '", v.name, "' is not one of the task's"));
  }
  auto positive = [](const Sizes& s) { return s[0] >= 1 && s[1] >= 1 && s[2] >= 1; };
  if (!positive(w.global_size)) return absl::InvalidArgumentError("a global size below 1");
  if (w.local_size && !positive(*w.local_size)) return absl::InvalidArgumentError("a local size below 1");
  for (const TensorMapSpec& m : w.tensor_maps)
    if (m.buffer < 0 || m.buffer >= static_cast<int64_t>(w.globals.size()))
      return absl::InvalidArgumentError(absl::StrCat("a tensor map of buffer argument ", m.buffer, " of ", w.globals.size()));
  if (w.dynamic_shared_bytes < 0) return absl::InvalidArgumentError("negative shared memory");
  if (w.binary.empty()) return absl::InvalidArgumentError("no binary");
  return absl::OkStatus();
}

std::vector<UOp> Consts(const Sizes& s) {
  return {UOp::Const(dtypes::index, s[0]), UOp::Const(dtypes::index, s[1]), UOp::Const(dtypes::index, s[2])};
}

}  // namespace

codec::PreparedProgram ToWire(PreparedCandidate p, const CandidateResult& r, const KernelTask& task) {
  codec::PreparedProgram w{.outcome = r.outcome,
                           .error = r.error,
                           .duplicate_of = r.duplicate_of,
                           .program_hash = r.program_hash,
                           .uops = r.uops,
                           .cost = r.cost};
  if (!p.pending) return w;
  if (absl::Status s = Fill(p.spec, task, w); !s.ok()) {
    return codec::PreparedProgram{.outcome = Outcome::kLoweringError,
                                  .error = absl::StrCat("not launchable at the task's variables: ", s.message()),
                                  .program_hash = r.program_hash,
                                  .uops = r.uops,
                                  .cost = r.cost};
  }
  w.binary = std::move(p.binary);
  return w;
}

void FromWire(codec::PreparedProgram w, const KernelTask& task, PreparedCandidate& p, CandidateResult& r) {
  p = PreparedCandidate{};
  r.outcome = w.outcome;
  r.error = std::move(w.error);
  r.duplicate_of = w.duplicate_of;
  r.program_hash = w.program_hash;
  r.uops = w.uops;
  r.cost = w.cost;
  r.cost.run_s = 0;
  if (!DecidedBeforeRun(w.outcome)) {
    r.outcome = Outcome::kCompileError;
    r.error = absl::StrCat("the compile server answered '", std::string(OutcomeName(w.outcome)), "', which only a run can tell");
    return;
  }
  if (w.outcome != Outcome::kOk) return;
  if (absl::Status s = Check(w, task); !s.ok()) {
    r.outcome = Outcome::kCompileError;
    r.error = absl::StrCat("the compile server's program: ", s.message());
    return;
  }
  ProgramSpec& s = p.spec;
  s.name = std::move(w.name);
  s.function_name = std::move(w.function_name);
  s.src = std::move(w.src);
  s.global_size = Consts(w.global_size);
  if (w.local_size) s.local_size = Consts(*w.local_size);
  for (const codec::ProgramVar& v : w.vars) s.vars.push_back(UOp::Variable(v.name, ConstValue(v.min), ConstValue(v.max), v.dtype));
  s.globals = std::move(w.globals);
  s.outs = std::move(w.outs);
  s.ins = std::move(w.ins);
  s.estimates = Estimates{.ops = UOp::Const(dtypes::index, static_cast<int64_t>(w.ops)),
                          .lds = UOp::Const(dtypes::index, static_cast<int64_t>(w.lds)),
                          .mem = UOp::Const(dtypes::index, static_cast<int64_t>(w.mem))};
  s.dynamic_shared_bytes = w.dynamic_shared_bytes;
  s.tensor_maps = std::move(w.tensor_maps);
  p.binary = std::move(w.binary);
  p.pending = true;
}

}  // namespace tg::autotune
