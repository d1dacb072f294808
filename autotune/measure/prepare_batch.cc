// File: autotune/measure/prepare_batch.cc
// Port of the compile half of tinygrad/codegen/opt/search.py's _try_compile and of
// beam_search's filters (BEAM_UOPS_MAX, the 1000x compute rule); duplicates go by the
// rendered source.
#include "autotune/measure/prepare_batch.h"

#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "autotune/measure/candidate_ast.h"
#include "autotune/measure/parallel_for.h"
#include "autotune/measure/thread_cpu_time.h"
#include "tinygrad/base/stable_hash.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/uop/render.h"

namespace tg::autotune {
bool CompiledInTime(const absl::Status& s, double compile_s, const MeasureOptions& options, CandidateResult& r) {
  if (!s.ok()) {
    r.outcome = Outcome::kCompileError;
    r.error = std::string(s.message());
    return false;
  }
  if (compile_s > options.timeout_s) {
    r.outcome = Outcome::kTimeout;
    r.error = absl::StrCat("compiling took ", compile_s, " s");
    return false;
  }
  return true;
}

void ApplyBatchRules(const KernelTask& task, const MeasureOptions& options,
                     const std::function<std::string(const ProgramSpec&)>& over_limits,
                     std::vector<PreparedCandidate>& prep, std::span<CandidateResult> results) {
  const size_t n = prep.size();
  absl::flat_hash_map<std::string, ConstValue> vars;
  for (const auto& [name, v] : task.var_vals) vars[name] = ConstValue(v);
  absl::flat_hash_map<uint64_t, int> first_of;
  double least_ops = kInf;
  std::vector<double> ops(n, 0);
  for (size_t i = 0; i < n; ++i) {
    if (!prep[i].pending) continue;
    CandidateResult& r = results[i];
    auto reject = [&](Outcome o, std::string why) {
      r.outcome = o;
      r.error = std::move(why);
      prep[i].pending = false;
    };
    if (options.known_programs.contains(r.program_hash)) {
      reject(Outcome::kDuplicate, "measured before");
      continue;
    }
    if (auto [it, fresh] = first_of.try_emplace(r.program_hash, static_cast<int>(i)); !fresh) {
      MarkDuplicate(it->second, r);
      prep[i].pending = false;
      continue;
    }
    if (options.uops_max > 0 && r.uops >= options.uops_max) {
      reject(Outcome::kRejected, absl::StrCat("too many uops: ", r.uops, " >= ", options.uops_max));
      continue;
    }
    if (over_limits) {
      if (std::string why = over_limits(prep[i].spec); !why.empty()) {
        reject(Outcome::kRejected, std::move(why));
        continue;
      }
    }
    if (const UOp& e = prep[i].spec.estimates.ops) {
      absl::StatusOr<ConstValue> v = SymInfer(e, vars);
      if (v.ok()) least_ops = std::min(least_ops, ops[i] = v->to_float());
    }
  }
  // filter out kernels that use 1000x more compute than the smallest (a least of 0 ops, a copy,
  // would reject every kernel that computes anything: not a ratio)
  for (size_t i = 0; i < n; ++i) {
    if (prep[i].pending && least_ops > 0 && ops[i] > least_ops * options.max_compute_ratio) {
      results[i].outcome = Outcome::kRejected;
      results[i].error = absl::StrCat("too much compute: ", ops[i], " when least is ", least_ops);
      prep[i].pending = false;
    }
  }
}

CodegenOptions CandidateCodegen(const KernelTask& task, const MeasureOptions& options) {
  CodegenOptions codegen = task.codegen;
  if (options.uops_max > 0) codegen.max_devectorized_nodes = options.uops_max + options.uops_max / 4;
  return codegen;
}

void MarkDuplicate(int first, CandidateResult& r) {
  r.outcome = Outcome::kDuplicate;
  r.duplicate_of = first;
  r.error = absl::StrCat("same program as candidate ", first);
}

absl::StatusOr<std::vector<PreparedCandidate>> PrepareBatch(CandidateCompiler& compiler, const KernelTask& task,
                                                            std::span<const std::vector<Opt>> candidates,
                                                            const MeasureOptions& options,
                                                            const PrepareSettings& settings,
                                                            std::vector<CandidateResult>& results) {
  Clock& clock = settings.clock != nullptr ? *settings.clock : Clock::Real();
  const size_t n = candidates.size();
  std::vector<PreparedCandidate> prep(n);
  FirstError hold_error;
  auto hold = [&]() -> absl::StatusOr<DeviceLock::Hold> {
    if (!settings.hold) return DeviceLock::Hold();
    return settings.hold();
  };

  const CodegenOptions codegen = CandidateCodegen(task, options);

  // ** lower and render every candidate, in parallel **
  ParallelFor(n, settings.threads, [&](size_t i) {
    absl::StatusOr<DeviceLock::Hold> h = hold();
    if (!h.ok()) return hold_error.Note(h.status());
    const Clock::TimePoint s = clock.Now();
    const double cpu0 = ThreadCpuSeconds();
    absl::StatusOr<ProgramSpec> spec = GetProgram(CandidateAst(task.ast, candidates[i]), compiler.renderer(), codegen);
    CandidateResult& r = results[i];
    r.cost.lower_cpu_s = ThreadCpuSeconds() - cpu0;
    r.cost.lower_s = clock.SecondsSince(s);
    if (!spec.ok()) {
      // (ResourceExhausted: too many uops, found before the end of the lowering)
      r.outcome = IsKernelOptError(spec.status())          ? Outcome::kInvalidOpts
                  : absl::IsResourceExhausted(spec.status()) ? Outcome::kRejected
                                                             : Outcome::kLoweringError;
      r.error = std::string(spec.status().message());
      return;
    }
    prep[i].spec = *std::move(spec);
    prep[i].pending = true;
    r.uops = static_cast<int64_t>(prep[i].spec.uops.size());
    r.program_hash = StableHasher().AddBytes(prep[i].spec.src).Finish();
  }, settings.thread_setup);
  RETURN_IF_ERROR(hold_error.Take());

  // ** dedup and the cheap rejections, in candidate order (deterministic) **
  ApplyBatchRules(task, options, settings.over_limits, prep, results);

  // ** compile what is left, in parallel **
  ParallelFor(n, settings.threads, [&](size_t i) {
    if (!prep[i].pending) return;
    absl::StatusOr<DeviceLock::Hold> h = hold();
    if (!h.ok()) return hold_error.Note(h.status());
    CandidateResult& r = results[i];
    const Clock::TimePoint s = clock.Now();
    absl::StatusOr<std::string> lib = compiler.Compile(prep[i].spec);
    r.cost.compile_s = clock.SecondsSince(s);
    prep[i].pending = CompiledInTime(lib.status(), r.cost.compile_s, options, r);
    if (prep[i].pending) prep[i].binary = *std::move(lib);
  }, settings.thread_setup);
  RETURN_IF_ERROR(hold_error.Take());
  return prep;
}

}  // namespace tg::autotune
