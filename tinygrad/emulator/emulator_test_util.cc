// File: tinygrad/emulator/emulator_test_util.cc
// Running Tensor programs' kernels on the emulator, for tests (see the header).
#include "tinygrad/emulator/emulator_test_util.h"


#include <chrono>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/emulator/scalar_storage.h"
#include "tinygrad/emulator/uop_interpreter.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/uop/linear_text.h"
#include "tinygrad/uop/render.h"

namespace tg::emulator_testing {

std::vector<float> Inputs(int64_t n, uint32_t seed) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t h = (static_cast<uint32_t>(i) + seed * 7919u) * 2246822519u;
    v[static_cast<size_t>(i)] = static_cast<float>(static_cast<int>(h >> 25) - 64) / 64.0f;
  }
  return v;
}

int64_t Numel(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

Tensor In(const std::vector<int64_t>& shape, uint32_t seed) {
  return Tensor::FromVector<float>(Inputs(Numel(shape), seed), shape, "CPU");
}

Tensor IntIn(const std::vector<int64_t>& shape, uint32_t seed, int lo, int hi, bool nonzero) {
  std::vector<int32_t> v;
  for (float x : Inputs(Numel(shape), seed)) {
    int k = lo + static_cast<int>((x + 1) * 1000) % (hi - lo + 1);
    v.push_back(nonzero && k == 0 ? 1 : k);
  }
  return Tensor::FromVector<int32_t>(v, shape, "CPU");
}

double ElementAsDouble(const std::byte* in, DType scalar) {
  ConstValue v = LoadScalar(in, scalar);
  return v.is_float() ? v.to_float() : static_cast<double>(v.to_int());
}

absl::StatusOr<std::vector<std::byte>*> HostBuffers::Get(const UOp& b) {
  if (auto it = memory_.find(b); it != memory_.end()) return &it->second;
  std::vector<std::byte> bytes(static_cast<size_t>(b.arg().int64() * b.dtype().itemsize()));
  RETURN_IF_ERROR(EnsureOnDevice(b));
  // inputs hold data; buffers kernels make here were never realized
  if (absl::Status st = CopyOut(b, bytes); !st.ok() && st.code() != absl::StatusCode::kFailedPrecondition) return st;
  return &memory_.emplace(b, std::move(bytes)).first->second;
}

absl::StatusOr<std::vector<int64_t>> ProgramVarValues(const ProgramSpec& p, const ScheduleItem& item, const Schedule& s) {
  std::vector<int64_t> vals;
  for (const UOp& v : p.vars) {
    const std::string& name = v.arg()[0].str();
    if (auto fixed = item.fixedvars.find(name); fixed != item.fixedvars.end()) {
      vals.push_back(fixed->second);
    } else if (auto bound = s.var_vals.find(name); bound != s.var_vals.end()) {
      vals.push_back(bound->second);
    } else {
      return absl::InvalidArgumentError(absl::StrCat("no value for ", name));
    }
  }
  return vals;
}

namespace {

// Launch dims evaluated with the variables' values (ints past the third dim are ignored).
absl::StatusOr<LaunchDims> Dims(const std::vector<UOp>& d, const absl::flat_hash_map<std::string, ConstValue>& vars) {
  LaunchDims out{1, 1, 1};
  for (size_t k = 0; k < d.size() && k < 3; ++k) {
    ASSIGN_OR_RETURN(ConstValue v, SymInfer(d[k], vars));
    out[k] = static_cast<int64_t>(v.to_int());
  }
  return out;
}

}  // namespace

absl::Status RunProgram(const ProgramSpec& p, std::span<const std::span<std::byte>> bufs, std::span<const int64_t> vals,
                        double* seconds, ProgramForm form) {
  std::vector<UOp> parsed;
  if (form == ProgramForm::kText) {
    ASSIGN_OR_RETURN(parsed, ParseLinearProgram(p.src));
  }
  ASSIGN_OR_RETURN(UopInterpreter prog, UopInterpreter::Load(form == ProgramForm::kText ? parsed : p.uops));
  absl::flat_hash_map<std::string, ConstValue> vars;
  for (size_t i = 0; i < p.vars.size() && i < vals.size(); ++i) vars[p.vars[i].arg()[0].str()] = ConstValue(vals[i]);
  ASSIGN_OR_RETURN(LaunchDims global, Dims(p.global_size, vars));
  LaunchDims local{1, 1, 1};
  if (p.local_size) {
    ASSIGN_OR_RETURN(local, Dims(*p.local_size, vars));
  }
  auto start = std::chrono::steady_clock::now();
  absl::Status run = prog.Run(bufs, vals, global, local);
  if (seconds != nullptr) *seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!run.ok()) return absl::Status(run.code(), absl::StrCat(p.function_name, ": ", run.message(), "\n", p.src));
  return absl::OkStatus();
}

absl::StatusOr<EmulatedResult> RunOnEmulator(const Tensor& t, const EmulatorOptions& o) {
  EmulatorRenderer ren(o.target);
  Tensor x = t.contiguous();
  if (!x.ok()) return x.status();
  ASSIGN_OR_RETURN(Schedule s, CreateScheduleWithVars(UOp::Sink({x.uop()})));
  HostBuffers memory;
  size_t last_kernel = 0;
  for (size_t k = 0; k < s.items.size(); ++k)
    if (s.items[k].ast.op() == Ops::SINK) last_kernel = k;
  EmulatedResult result;
  for (size_t k = 0; k < s.items.size(); ++k) {
    const ScheduleItem& item = s.items[k];
    if (item.ast.op() != Ops::SINK) return absl::UnimplementedError(absl::StrCat("schedule item ", std::string(OpName(item.ast.op()))));
    UOp ast = item.ast;
    if (k == last_kernel && o.last_kernel_opts) {
      KernelInfo ki = ast.arg().is_none() ? KernelInfo{} : KernelInfo::FromArg(ast.arg());
      ki.opts_to_apply.emplace();
      for (const Opt& opt : *o.last_kernel_opts) ki.opts_to_apply->push_back(OptToArg(opt));
      ast = ast.replace_arg(ki.ToArg());
    }
    ASSIGN_OR_RETURN(ProgramSpec p, GetProgram(ast, ren, o.codegen));
    std::vector<std::span<std::byte>> bufs;
    for (int64_t slot : p.globals) {
      ASSIGN_OR_RETURN(std::vector<std::byte> * b, memory.Get(item.bufs.at(static_cast<size_t>(slot))));
      bufs.emplace_back(*b);
    }
    ASSIGN_OR_RETURN(std::vector<int64_t> vals, ProgramVarValues(p, item, s));
    RETURN_IF_ERROR(RunProgram(p, bufs, vals, &result.run_seconds));
    result.programs.push_back(std::move(p));
  }
  UOp out = s.becomes_map.at(x.uop()).base();
  if (out.op() == Ops::AFTER) out = out.src(0);
  if (out.op() != Ops::BUFFER) return absl::InternalError(absl::StrCat("the output is ", std::string(OpName(out.op()))));
  ASSIGN_OR_RETURN(std::vector<std::byte> * bytes, memory.Get(out));
  result.bytes = *bytes;
  return result;
}

}  // namespace tg::emulator_testing
