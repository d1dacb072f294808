// File: tools/cli/compile_workload.cc
#include "tools/cli/compile_workload.h"

#include <array>
#include <chrono>
#include <variant>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tinygrad/base/config.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/schedule/schedule.h"
#include "tinygrad/uop/kernel_info.h"

namespace tg {
namespace {

// The workload's kernels as `tg tune` finds them: inputs realized first (quietly, on the default
// device: the CPU, or the GPU of a machine that has one, as `tg tune` there),
// then the outputs scheduled; each distinct kernel AST once, in schedule order. The inputs are
// only allocated (nothing runs: a bfloat16 input needs no CPU bfloat16 kernel), and buffers of
// the same shapes and dtype make the same kernel ASTs as `tg tune`'s random ones, so its
// database keys are the same.
absl::StatusOr<std::vector<UOp>> WorkloadKernels(const CompileWorkloadOptions& o) {
  WorkloadParams params = o.params.empty() ? o.workload->Defaults() : o.params;
  WorkloadGraph g = o.workload->build(params, {.dtype = o.dtype, .empty_inputs = true});
  {
    Config quiet = GetConfig();
    quiet.debug = 0;
    ScopedConfig scoped(quiet);
    if (absl::Status s = Realize(g.inputs); !s.ok())
      return absl::Status(s.code(), absl::StrCat("making the inputs failed: ", s.message()));
  }
  std::vector<UOp> roots;
  for (const Tensor& t : g.outputs) roots.push_back(t.uop());
  ASSIGN_OR_RETURN(Schedule sched, CreateScheduleWithVars(UOp::Sink(roots)));
  std::vector<UOp> kernels;
  absl::flat_hash_set<uint64_t> seen;
  for (const ScheduleItem& item : sched.items)
    if (item.ast.op() == Ops::SINK && seen.insert(item.ast.key()).second) kernels.push_back(item.ast);
  return kernels;
}

// The database's record for `key`: one stored under the target's own class (from any search
// settings), else the fastest any GPU of the target's arch stored (a real GPU's class names the
// GPU and its driver, which the target's cannot).
absl::StatusOr<std::optional<autotune::TuningRecord>> TunedRecord(const autotune::TuningKey& key,
                                                                  const CompileWorkloadOptions& o,
                                                                  const std::string& gpu_arch) {
  if (o.db == nullptr) return std::nullopt;
  ASSIGN_OR_RETURN(std::optional<autotune::TuningRecord> own, o.db->LookupBest(key));
  if (own.has_value() || gpu_arch.empty()) return own;
  return o.db->LookupBestForArch(key, gpu_arch);
}

// Where tuned opts came from: the record's device description, the first 16 hex digits of its
// key and its worker: "CUDA | NVIDIA H100 80GB HBM3 | sm_90 | ... (record 0a1b2c3d4e5f6a7b,
// worker w1 on node7)".
std::string TunedOn(const autotune::TuningRecord& r) {
  std::string where = r.device_description.empty() ? "an unnamed device" : r.device_description;
  absl::StrAppend(&where, " (record ", r.key.Digest().substr(0, 16));
  if (!r.worker.empty()) absl::StrAppend(&where, ", worker ", r.worker);
  if (!r.host.empty()) absl::StrAppend(&where, " on ", r.host);
  return where + ")";
}

CompiledKernel CompileOne(const UOp& kernel, CompileTarget& target, const CompileWorkloadOptions& o,
                          const autotune::TuningKey& key, const std::optional<autotune::TuningRecord>& record) {
  CompiledKernel out;
  out.key = key;
  UOp ast = kernel;
  if (record.has_value()) {
    out.tuned_on = TunedOn(*record);
    KernelInfo ki = KernelInfo::IsKernelInfo(ast.arg()) ? KernelInfo::FromArg(ast.arg()) : KernelInfo{};
    std::vector<Arg> args;
    for (const Opt& opt : record->opts) args.push_back(OptToArg(opt));
    ki.opts_to_apply = std::move(args);
    ast = ast.replace_arg(ki.ToArg());
    out.tuned = true;
  }
  absl::StatusOr<ProgramSpec> spec = GetProgram(ast, target.renderer(), o.codegen);
  if (!spec.ok() && out.tuned) {
    // A damaged or hand-edited record must not fail a build: the heuristic's kernel instead.
    out.untuned_why = std::string(spec.status().message());
    out.tuned = false;
    ast = kernel;
    spec = GetProgram(ast, target.renderer(), o.codegen);
  }
  out.ast = PrettyPrint(ast);
  if (!spec.ok()) {
    out.status = absl::Status(spec.status().code(), absl::StrCat("rendering failed: ", spec.status().message()));
    return out;
  }
  out.name = StripAnsi(spec->name);
  out.function_name = spec->function_name;
  out.src = spec->src;
  for (const Arg& a : spec->applied_opts)
    if (absl::StatusOr<Opt> opt = OptFromArg(a); opt.ok()) out.opts.push_back(*opt);
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<std::string> binary = target.compiler().Compile(spec->src);
  out.compile_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!binary.ok()) {
    out.status = binary.status();
    return out;
  }
  out.binary_bytes = binary->size();
  out.binary = *std::move(binary);
  return out;
}

}  // namespace

absl::StatusOr<std::vector<CompiledKernel>> CompileWorkload(
    CompileTarget& target, const CompileWorkloadOptions& options,
    const std::function<void(const CompiledKernel&)>& on_kernel) {
  if (options.workload == nullptr) return absl::InvalidArgumentError("no workload given");
  ASSIGN_OR_RETURN(std::vector<UOp> kernels, WorkloadKernels(options));
  std::vector<CompiledKernel> out;
  const autotune::DeviceClass device_class = target.device_class();
  for (const UOp& k : kernels) {
    autotune::TuningKey key =
        autotune::TuningKey::Make(k, device_class, autotune::SearchSettings{}, options.codegen);
    ASSIGN_OR_RETURN(std::optional<autotune::TuningRecord> record,
                     TunedRecord(key, options, device_class.gpu_arch));
    out.push_back(CompileOne(k, target, options, key, record));
    if (on_kernel) on_kernel(out.back());
  }
  return out;
}

std::string ShortOptsText(const std::vector<Opt>& opts) {
  std::vector<std::string> parts;
  for (const Opt& o : opts) {
    std::string arg;
    if (const auto* i = std::get_if<int64_t>(&o.arg)) arg = absl::StrCat(*i);
    if (const auto* t = std::get_if<std::array<int64_t, 3>>(&o.arg))
      arg = absl::StrCat((*t)[0], ",", (*t)[1], ",", (*t)[2]);
    parts.push_back(absl::StrCat(std::string(OptOpsName(o.op)), o.axis ? absl::StrCat(*o.axis) : "",
                                 arg.empty() ? "" : ":", arg));
  }
  return parts.empty() ? "(none)" : absl::StrJoin(parts, " ");
}

}  // namespace tg
