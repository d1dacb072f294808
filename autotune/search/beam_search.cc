// File: autotune/search/beam_search.cc
// Port of tinygrad/codegen/opt/search.py: actions, get_kernel_actions, beam_search.
#include "autotune/search/beam_search.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <span>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "autotune/search/register_tiles.h"
#include "autotune/search/simd_actions.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/clock.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/base/terminal.h"
#include "tinygrad/codegen/opt/gemm_opt.h"
#include "tinygrad/codegen/opt/heuristic.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/uop/arg.h"

namespace tg::autotune {

// Finalists slower than this factor times the best are not re-measured (the reference's early
// exit uses the same factor: such a candidate is out of the running).
constexpr double kFinalistCutoff = 3.0;
// Every finalist this much slower in the final phase than in the search: the machine was busy.
constexpr double kDisturbedRatio = 1.25;
namespace {

using Clock = std::chrono::steady_clock;

// Result j of a batch; for a duplicate, the result of the candidate measured in its place.
const CandidateResult& Resolved(const MeasureBatch& b, size_t j) {
  const CandidateResult& r = b.results[j];
  return r.outcome == Outcome::kDuplicate && r.duplicate_of >= 0 ? b.results[r.duplicate_of] : r;
}

int64_t MaxOf(const SInt& x) { return x.is_int() ? x.value() : x.vmax(); }

std::string OptsRepr(const std::vector<Opt>& opts) {
  std::string s = "[";
  for (const Opt& o : opts) s += (s.size() > 1 ? ", " : "") + o.ToString();
  return s + "]";
}

// tinygrad's time_to_str: "  123.45us" style, `w` wide.
std::string TimeStr(double s, int w = 10) {
  if (s == kInf) return absl::StrFormat("%*s", w, "inf");
  if (s >= 1) return absl::StrFormat("%*.2fs", w - 1, s);
  if (s >= 1e-3) return absl::StrFormat("%*.2fms", w - 2, s * 1e3);
  return absl::StrFormat("%*.2fus", w - 2, s * 1e6);
}


}  // namespace

std::vector<Opt> BeamActions(const SearchSettings& s, const VectorIsa& isa) {
  std::vector<Opt> a;
  auto add = [&](OptOps op, std::initializer_list<int64_t> amts, int axes) {
    for (int64_t amt : amts)
      for (int axis = 0; axis < axes; ++axis) a.push_back(Opt{op, axis, amt});
  };
  add(OptOps::UPCAST, {0, 2, 3, 4, 5, 7}, 8);
  add(OptOps::UNROLL, {0, 4, 7}, 5);
  add(OptOps::LOCAL, {2, 3, 4, 8, 13, 16, 29}, 6);
  add(OptOps::GROUPTOP, {13, 16, 28, 29, 32, 49, 64, 256}, 3);
  add(OptOps::GROUP, {0, 4, 8, 16}, 3);
  if (s.padto) add(OptOps::PADTO, {32}, 7);
  a.push_back(Opt{OptOps::LOCAL, 0, int64_t{32}});
  a.push_back(Opt{OptOps::LOCAL, 6, int64_t{2}});
  a.push_back(Opt{OptOps::TC, 0, std::array<int64_t, 3>{-1, 0, s.tc}});
  // covers resnet kernels (3 global * 3 reduce)
  for (int axis = 0; axis < 9; ++axis) a.push_back(Opt{OptOps::TC, axis, std::array<int64_t, 3>{-1, s.tc_opt, s.tc}});
  for (int a0 = 0; a0 < 5; ++a0)
    for (int a1 = a0 + 1; a1 < 5; ++a1) a.push_back(Opt{OptOps::SWAP, a0, int64_t{a1}});
  add(OptOps::THREAD, {2, 3, 4, 5, 8, 12, 16, 24, 32, 64}, 3);
  if (s.nolocals) a.push_back(Opt{OptOps::NOLOCALS, std::nullopt, std::monostate{}});
  if (s.simd) {
    std::vector<Opt> simd = SimdActions(isa);  // ours, sized by the vector unit
    a.insert(a.end(), simd.begin(), simd.end());
  }
  // ours: cache blocking of an output loop (1: move the whole loop outermost), on the first
  // three axes, where a CPU kernel's output loops are (and a plain matmul's reduce: K blocks);
  // then K blocks of 128 and 256 iterations on the axes a reduce takes after the register
  // tile's upcasts
  if (s.block) {
    add(OptOps::BLOCK, {1, 2, 4, 8, 16, 32, 64}, 3);
    for (int64_t amt : {128, 256})
      for (int axis = 2; axis < 6; ++axis) a.push_back(Opt{OptOps::BLOCK, axis, amt});
  }
  // ours: a packed copy of input buffer 1, 2 or 3 (a matmul's A and B; a fused kernel's third)
  if (s.pack)
    for (int64_t buffer = 1; buffer <= 3; ++buffer) a.push_back(Opt{OptOps::PACK, std::nullopt, buffer});
  return a;
}

bool WithinLimits(const Scheduler& s2, const SearchLimits& limits, const SearchSettings& settings,
                  const VectorIsa& isa) {
  int64_t up = 1, unroll = 1, lcl = 1, tc_up = 1;
  if (const TensorCore* tc = s2.tensor_core())
    tc_up = tc->dims[0] * tc->dims[1] * tc->dims[2] / tc->threads;
  const std::vector<SInt> shape2 = s2.full_shape();
  const std::vector<AxisType> types = s2.axis_types();
  for (size_t k = 0; k < shape2.size() && k < types.size(); ++k) {
    if (types[k] == AxisType::UPCAST) up *= MaxOf(shape2[k]);
    else if (types[k] == AxisType::UNROLL) unroll *= MaxOf(shape2[k]);
    else if (types[k] == AxisType::WARP || types[k] == AxisType::LOCAL || types[k] == AxisType::GROUP_REDUCE)
      lcl *= MaxOf(shape2[k]);
  }
  // the reference counts UNROLL in the upcast product; register tiles bound it apart
  if (limits.unroll_max == 0) up *= unroll;
  else if (unroll > limits.unroll_max) return false;
  if (up / tc_up > limits.upcast_max || lcl > settings.local_max) return false;
  return !settings.simd || FitsVectorRegisters(s2, isa);  // ours: no tile that spills
}

std::vector<std::pair<int, Scheduler>> GetKernelActions(const Scheduler& s, const std::vector<Opt>& actions,
                                                        const SearchSettings& settings, bool include_0,
                                                        const VectorIsa& isa) {
  std::vector<std::pair<int, Scheduler>> acted;
  const SearchLimits limits = SearchLimitsFor(settings, isa);
  if (include_0) acted.emplace_back(0, s);
  const std::vector<SInt> shape = s.full_shape();
  for (size_t i = 0; i < actions.size(); ++i) {
    const Opt& a = actions[i];
    if (a.axis.has_value() && a.op != OptOps::TC && a.op != OptOps::GEMM) {
      absl::StatusOr<int> ax = s.RealAxis(a.op, a.axis);
      if (!ax.ok()) continue;
      if (*ax >= s.shape_len()) continue;
      // splitting by the whole axis is what the arg-0 action does: only try it once
      const int64_t* amt = std::get_if<int64_t>(&a.arg);
      if (amt != nullptr && shape[*ax].is_int() && shape[*ax].value() == *amt &&
          std::find(actions.begin(), actions.end(), Opt{a.op, a.axis, int64_t{0}}) != actions.end())
        continue;
    }
    Scheduler s2 = s;
    if (!s2.ApplyOpt(a).ok()) continue;
    if (!WithinLimits(s2, limits, settings, isa)) continue;
    acted.emplace_back(static_cast<int>(i) + 1, std::move(s2));
  }
  return acted;
}

absl::StatusOr<UOp> OptimizerInput(const UOp& ast, const Renderer& ren, const CodegenOptions& codegen) {
  if (!ast || ast.op() != Ops::SINK) return absl::InvalidArgumentError("the optimizer needs a SINK kernel AST");
  UOp sink = ast.arg().is_none() ? ast.replace_arg(KernelInfo{}.ToArg()) : ast;
  if (!KernelInfo::IsKernelInfo(sink.arg())) return absl::InvalidArgumentError("the kernel SINK's arg is not a KernelInfo");
  // empty opts_to_apply: apply_opts does nothing (no heuristic), the cheapest way through
  KernelInfo ki = KernelInfo::FromArg(sink.arg());
  ki.opts_to_apply = std::vector<Arg>{};
  UOp prev = sink.replace_arg(ki.ToArg()), input;
  absl::StatusOr<UOp> full = FullRewriteToSinkTraced(prev, ren, /*optimize=*/true, codegen, [&](std::string_view name, const UOp& u) {
    if (name == "apply_opts" && !input) input = prev;
    prev = u;
  });
  if (!full.ok()) return full.status();
  if (!input) return absl::InternalError("the pipeline ran no apply_opts pass");
  return input.replace_arg(sink.arg());
}

absl::StatusOr<std::vector<Opt>> HeuristicOpts(const UOp& ast, const Renderer& ren, const CodegenOptions& codegen) {
  const std::vector<UOp> slice = ast.backward_slice();
  if (std::any_of(slice.begin(), slice.end(), [](const UOp& u) { return u.op() == Ops::BUFFERIZE; }))
    return std::vector<Opt>{};
  ASSIGN_OR_RETURN(UOp input, OptimizerInput(ast, ren, codegen));
  Scheduler k(input, ren, codegen);
  k.ConvertLoopToGlobal();
  ASSIGN_OR_RETURN(Scheduler opt, HandCodedOptimizations(k));
  return opt.applied_opts();
}

absl::Status CheckOptsApply(const UOp& ast, const Renderer& ren, const CodegenOptions& codegen,
                            const std::vector<Opt>& opts) {
  ASSIGN_OR_RETURN(UOp input, OptimizerInput(ast, ren, codegen));
  Scheduler k(input, ren, codegen);
  k.ConvertLoopToGlobal();
  for (const Opt& o : opts)
    if (absl::Status s = k.ApplyOpt(o); !s.ok())
      return IsKernelOptError(s) ? KernelOptError(absl::StrCat(o.ToString(), ": ", s.message())) : s;
  return absl::OkStatus();
}

absl::StatusOr<SearchStart> StartSearch(const UOp& ast, const Renderer& ren,
                                        const CodegenOptions& codegen, BeamOptions options) {
  ASSIGN_OR_RETURN(KernelTask task, KernelTask::FromAst(ast));
  task.codegen = codegen;
  absl::StatusOr<std::vector<Opt>> h = HeuristicOpts(ast, ren, codegen);
  if (h.ok()) options.heuristic_opts = *std::move(h);
  return SearchStart{.task = std::move(task), .options = std::move(options)};
}

absl::StatusOr<std::unique_ptr<BeamSearcher>> BeamSearcher::Create(KernelTask task, const Renderer& ren,
                                                                   SearchSettings settings, BeamOptions options) {
  ASSIGN_OR_RETURN(UOp input, OptimizerInput(task.ast, ren, task.codegen));
  return std::unique_ptr<BeamSearcher>(
      new BeamSearcher(std::move(task), input, ren, settings, std::move(options)));
}

BeamSearcher::BeamSearcher(KernelTask task, const UOp& optimizer_input, const Renderer& ren, SearchSettings settings,
                           BeamOptions options)
    : task_(std::move(task)),
      ren_(&ren),
      settings_(settings),
      options_(std::move(options)),
      root_(optimizer_input, ren, task_.codegen),
      actions_(BeamActions(settings_, options_.vector_isa)),
      start_(Clock::now()) {
  // ours: the renderer's generated matmuls, one action per tiling (ApplyOpt keeps them to plain
  // matmuls), wherever the renderer has them: beyond the reference's opt space, the only way to a
  // Hopper matmul near cuBLAS
  for (const GemmTiling& t : ren.gemm_tilings) actions_.push_back(GemmOpt(t));
  base_.runs = options_.runs;
  base_.uops_max = SearchLimitsFor(settings_, options_.vector_isa).uops_max;
  base_.timeout_s = settings_.timeout_sec;
  root_.ConvertLoopToGlobal();
  beam_.push_back({root_, kInf});
}

BeamSearcher::~BeamSearcher() = default;

double BeamSearcher::elapsed_s() const { return SecondsSince(start_); }

std::string BeamSearcher::KernelNameWith(const std::vector<Opt>& opts) const {
  // A name the AST brings wins, as in ApplyOpts ("test" is KernelInfo's default: no name).
  if (KernelInfo::IsKernelInfo(task_.ast.arg())) {
    std::string own = KernelInfo::FromArg(task_.ast.arg()).name;
    if (own != "test") return StripAnsi(own);
  }
  Scheduler k = root_;
  for (const Opt& o : opts)
    if (!k.ApplyOpt(o).ok()) return "";  // cannot happen for opts that were timed
  return StripAnsi(k.KernelName());
}

void BeamSearcher::Report(BeamProgress::Phase phase, int cands, int timed) const {
  if (!options_.progress) return;
  const bool done = phase == BeamProgress::Phase::kDone;
  auto baseline = [&](size_t i) {
    if (done) return i == 0 ? result_.noopt_s : result_.heuristic_s;
    return i < finalists_.size() ? finalists_[i].search_s : kInf;
  };
  options_.progress(BeamProgress{.phase = phase, .round = result_.rounds, .candidates = cands, .timed = timed,
                                 .best_s = best_s_, .best_opts = best_opts_, .elapsed_s = elapsed_s(),
                                 .noopt_s = baseline(0),
                                 .heuristic_s = options_.heuristic_opts ? baseline(1) : kInf,
                                 .total_candidates = result_.candidates, .total_timed = result_.timed,
                                 .outcomes = result_.outcomes});
}

std::optional<BeamRequest> BeamSearcher::Next() {
  TG_CHECK(!pending_) << "Next() again before Feed()";
  BeamRequest req{.options = base_};
  switch (phase_) {
    case BeamProgress::Phase::kBaseline:
      // The unoptimized kernel and the heuristic's opts, in one batch so that they compile in
      // parallel. The heuristic runs first: with its exact time in, the unoptimized kernel's
      // first run stops at kFinalistCutoff x that (on a big matmul it runs seconds per run and
      // cannot win), and only a time within that gets the rest of its runs.
      if (options_.heuristic_opts) req.candidates.push_back(*options_.heuristic_opts);
      req.candidates.push_back({});
      req.options.keep = 1;
      req.options.refine_ratio = kFinalistCutoff;
      break;
    case BeamProgress::Phase::kRound: {
      if (!confirm_.empty()) {  // before ending the search: re-time the beam's best and the round's
        for (const BeamEntry& e : confirm_) req.candidates.push_back(e.sched.applied_opts());
        req.options.interleaved = true;
        req.retime = absl::StrCat("confirm", result_.rounds);
        break;
      }
      Clock::time_point a0 = Clock::now();
      round_.clear();
      for (const BeamEntry& e : beam_)
        for (auto& [idx, child] : GetKernelActions(e.sched, actions_, settings_, /*include_0=*/false, options_.vector_isa))
          round_.push_back(std::move(child));
      // ours: the first round also tries the ISA's register tiles whole (register_tiles.h)
      seeds_ = 0;
      if (result_.rounds == 0 && UsesRegisterTiles(settings_, options_.vector_isa)) {
        const SearchLimits limits = SearchLimitsFor(settings_, options_.vector_isa);
        for (const std::vector<Opt>& seed : RegisterTileSeeds(root_, options_.vector_isa)) {
          Scheduler t = root_;
          bool ok = true;
          for (const Opt& o : seed) ok = ok && t.ApplyOpt(o).ok();
          if (!ok || !WithinLimits(t, limits, settings_, options_.vector_isa)) continue;
          round_.push_back(std::move(t));
          seeds_ += 1;
        }
        if (options_.beam_debug >= 1 && seeds_ > 0) {
          std::printf("BEAM_SEARCH: %zu register tile seeds:", seeds_);
          for (size_t i = round_.size() - seeds_; i < round_.size(); ++i)
            std::printf(" %s", OptsRepr(round_[i].applied_opts()).c_str());
          std::printf("\n");
        }
      }
      result_.actions_wall_s += SecondsSince(a0);
      for (const Scheduler& c : round_) req.candidates.push_back(c.applied_opts());
      // the reference stops a candidate at 3x the best of the beam; the baselines bound it too
      req.options.early_stop_s = std::min(beam_[0].time_s, best_s_) * 3;
      // ours: a first run past refine_ratio x that best only needs a rank (an estimate), not
      // the rest of its run (the early rounds' candidates are all far slower than the heuristic)
      req.options.first_run_stop_s = std::min(beam_[0].time_s, best_s_) * options_.refine_ratio;
      // the next beam needs an exact time for its members, however slow they are
      req.options.keep = std::max(1, settings_.width);
      req.options.refine_ratio = options_.refine_ratio;
      req.options.known_programs = seen_;
      break;
    }
    case BeamProgress::Phase::kFinalists: {
      if (final_phases_ > 0) {  // the last final phase was disturbed: the same batch again
        for (size_t i : remeasured_) req.candidates.push_back(finalists_[i].opts);
        req.options.runs = options_.finalist_runs;
        req.options.interleaved = true;
        req.retime = absl::StrCat("final", final_phases_ + 1);
        Report(BeamProgress::Phase::kFinalists, static_cast<int>(req.candidates.size()), 0);
        break;
      }
      // the best distinct programs of the search (the baselines' programs are finalists already)
      std::stable_sort(all_timed_.begin(), all_timed_.end(),
                       [](const BeamEntry& x, const BeamEntry& y) { return x.time_s < y.time_s; });
      absl::flat_hash_set<uint64_t> picked;
      for (const Finalist& f : finalists_) picked.insert(f.program_hash);
      int beam_finalists = 0;
      for (const BeamEntry& t : all_timed_) {
        if (beam_finalists >= options_.finalists) break;
        if (!picked.insert(t.program_hash).second) continue;
        beam_finalists += 1;
        finalists_.push_back(Finalist{.opts = t.sched.applied_opts(), .kind = "beam", .search_s = t.time_s});
      }
      // A finalist already kFinalistCutoff times slower than the best cannot win: its search
      // time stands. This keeps a slow unoptimized kernel (seconds per run on big matmuls) from
      // dominating the final phase.
      remeasured_.clear();
      for (size_t i = 0; i < finalists_.size(); ++i) {
        if (finalists_[i].search_s > best_s_ * kFinalistCutoff) continue;
        remeasured_.push_back(i);
        req.candidates.push_back(finalists_[i].opts);
      }
      req.options.runs = options_.finalist_runs;
      // every finalist gets all its runs: the baselines' final times are what tg tune reports
      // (cutting the far-behind ones after two runs left those times noisy)
      req.options.interleaved = true;
      req.retime = "final";
      Report(BeamProgress::Phase::kFinalists, static_cast<int>(req.candidates.size()), 0);
      break;
    }
    case BeamProgress::Phase::kDone:
      return std::nullopt;
  }
  pending_ = req.candidates.size();
  pending_valid_ = true;
  return req;
}

void BeamSearcher::Account(const MeasureBatch& b, Batch kind) {
  result_.prepare_wall_s += b.prepare_wall_s;
  result_.run_wall_s += b.run_wall_s;
  for (const CandidateResult& r : b.results) {
    result_.cost.lower_s += r.cost.lower_s;
    result_.cost.lower_cpu_s += r.cost.lower_cpu_s;
    result_.cost.compile_s += r.cost.compile_s;
    result_.cost.run_s += r.cost.run_s;
    if (kind == Batch::kRetime) continue;  // programs counted when first measured
    result_.candidates += 1;
    result_.outcomes[static_cast<int>(r.outcome)] += 1;
    if (std::string& e = result_.first_error[static_cast<int>(r.outcome)]; e.empty()) e = r.error;
    if (r.timed()) result_.timed += 1;
    // Programs of the search proper are not timed again in later rounds (seen_libs). The
    // baselines are not remembered, so that they do not change which programs the search
    // itself times and keeps (the heuristic's program may well be a round-1 candidate).
    if (kind == Batch::kRound && r.program_hash != 0) seen_.insert(r.program_hash);
  }
}

void BeamSearcher::Feed(const MeasureBatch& b) {
  TG_CHECK(pending_valid_) << "Feed() without Next()";
  TG_CHECK(b.results.size() == pending_) << "the measurer answered " << b.results.size() << " of " << pending_;
  pending_valid_ = false;
  pending_ = 0;
  const BeamOptions& cfg = options_;
  switch (phase_) {
    case BeamProgress::Phase::kBaseline: {
      Account(b, Batch::kBaselines);
      // finalists_[0] is the unoptimized kernel, [1] the heuristic (when given); an empty
      // heuristic is the unoptimized program, measured once
      std::vector<CandidateResult> baselines{Resolved(b, b.results.size() - 1)};
      if (options_.heuristic_opts) baselines.push_back(Resolved(b, 0));
      int timed = 0;
      for (size_t i = 0; i < baselines.size(); ++i) {
        const CandidateResult& c = baselines[i];
        std::vector<Opt> opts = i == 0 ? std::vector<Opt>{} : *options_.heuristic_opts;
        finalists_.push_back(Finalist{.opts = opts, .kind = i == 0 ? "noopt" : "heuristic", .search_s = c.min_s,
                                      .program_hash = c.program_hash});
        if (c.timed()) timed += 1;
        if (c.timed() && c.min_s < best_s_) best_s_ = c.min_s, best_opts_ = opts;
      }
      phase_ = BeamProgress::Phase::kRound;
      Report(BeamProgress::Phase::kBaseline, static_cast<int>(baselines.size()), timed);
      return;
    }
    case BeamProgress::Phase::kRound: {
      if (!confirm_.empty()) {
        FeedConfirmation(b);
        return;
      }
      Account(b, Batch::kRound);
      result_.rounds += 1;
      if (cfg.beam_debug >= 2) {
        for (size_t i = 0; i < round_.size(); ++i) {
          const CandidateResult& c = b.results[i];
          std::printf("%7.2fs: %5zu %5lld uops %s compile/%s run  %-13s %s%s\n", elapsed_s(), i,
                      static_cast<long long>(c.uops), TimeStr(c.cost.compile_s).c_str(), TimeStr(c.min_s).c_str(),
                      std::string(OutcomeName(c.outcome)).c_str(), OptsRepr(round_[i].applied_opts()).c_str(),
                      i + seeds_ >= round_.size() ? " (seed)" : "");
          if (cfg.beam_debug >= 3) {  // every sample, and why the candidate stopped or failed
            std::string samples;
            for (double x : c.samples_s) absl::StrAppend(&samples, " ", TimeStr(x));
            std::printf("           samples:%s  %s\n", samples.c_str(), c.error.c_str());
          }
        }
      }
      std::vector<BeamEntry> timed;
      for (size_t i = 0; i < round_.size(); ++i)
        if (b.results[i].timed()) timed.push_back(BeamEntry{round_[i], b.results[i].min_s, b.results[i].program_hash});
      std::stable_sort(timed.begin(), timed.end(), [](const BeamEntry& x, const BeamEntry& y) { return x.time_s < y.time_s; });
      const double min_progress = settings_.min_progress_us * 1e-6;
      const bool exiting = timed.empty() || timed[0].time_s < min_progress || beam_[0].time_s - timed[0].time_s < min_progress;
      if (exiting && options_.confirm_exit && !timed.empty() && timed[0].time_s >= min_progress &&
          beam_[0].time_s < kInf) {
        confirm_ = {beam_[0]};
        confirm_.insert(confirm_.end(), timed.begin(),
                        timed.begin() + std::min<size_t>(timed.size(), std::max(1, settings_.width)));
      } else if (!exiting) {
        beam_.assign(timed.begin(), timed.begin() + std::min<size_t>(timed.size(), std::max(1, settings_.width)));
      } else if (!timed.empty() && timed[0].time_s < beam_[0].time_s) {
        beam_ = {timed[0]};
      }
      if (!timed.empty() && timed[0].time_s < best_s_) best_s_ = timed[0].time_s, best_opts_ = timed[0].sched.applied_opts();
      if (cfg.debug >= 2 || cfg.beam_debug >= 1)
        std::printf("%7.2fs: %s from %3zu -> %3zu actions %s\n", elapsed_s(), TimeStr(beam_[0].time_s).c_str(),
                    round_.size(), timed.size(), ForStream(beam_[0].sched.colored_shape(), stdout).c_str());
      Report(BeamProgress::Phase::kRound, static_cast<int>(round_.size()), static_cast<int>(timed.size()));
      for (BeamEntry& t : timed) all_timed_.push_back(std::move(t));
      round_.clear();
      if (exiting && confirm_.empty()) phase_ = BeamProgress::Phase::kFinalists;
      return;
    }
    case BeamProgress::Phase::kFinalists: {
      Account(b, Batch::kRetime);
      // Finalists not re-measured keep their search time (and cannot win: they are far slower).
      if (final_phases_ == 0)
        for (Finalist& f : finalists_) f.final_s = f.search_s;
      final_phases_ += 1;
      bool disturbed = true;  // every finalist timed, and each far slower than in the search
      for (size_t j = 0; j < remeasured_.size(); ++j) {
        const size_t i = remeasured_[j];
        // the same program twice (the heuristic's opts may change nothing): it has the first's time
        const CandidateResult& r = Resolved(b, j);
        Finalist& f = finalists_[i];
        if (final_phases_ == 1) {
          f.final_s = kInf;
          f.final_samples_s.clear();
        }
        f.outcome = r.outcome;
        f.program_hash = r.program_hash;
        if (r.timed()) {
          f.final_s = std::min(f.final_s, r.min_s);
          f.final_samples_s.insert(f.final_samples_s.end(), r.samples_s.begin(), r.samples_s.end());
        }
        disturbed = disturbed && r.timed() && r.min_s > f.search_s * kDisturbedRatio;
      }
      if (disturbed && !remeasured_.empty() && final_phases_ < options_.max_final_phases) {
        if (cfg.beam_debug >= 1)
          std::printf("BEAM_SEARCH: every finalist ran over %.2fx its search time: the final phase again\n",
                      kDisturbedRatio);
        return;  // still kFinalists: Next() asks for the same batch
      }
      int winner = -1;
      for (size_t i : remeasured_) {
        // ties go to the earlier finalist: noopt, then the heuristic, then the search's best
        if (finalists_[i].final_s < kInf && (winner < 0 || finalists_[i].final_s < finalists_[winner].final_s))
          winner = static_cast<int>(i);
      }
      result_.noopt_s = finalists_[0].final_s;
      if (options_.heuristic_opts) result_.heuristic_s = finalists_[1].final_s;
      if (winner >= 0) {
        result_.opts = finalists_[winner].opts;
        result_.time_s = finalists_[winner].final_s;
        result_.samples_s = finalists_[winner].final_samples_s;
        result_.program_hash = finalists_[winner].program_hash;
        result_.kernel_name = KernelNameWith(result_.opts);
      }
      best_s_ = result_.time_s;
      best_opts_ = result_.opts;
      result_.finalists = finalists_;
      result_.search_wall_s = elapsed_s();
      phase_ = BeamProgress::Phase::kDone;
      if (cfg.beam_debug >= 1) {
        for (const Finalist& f : result_.finalists)
          std::printf("BEAM_SEARCH: finalist %-9s search %s final %s %s\n", f.kind.c_str(), TimeStr(f.search_s).c_str(),
                      TimeStr(f.final_s).c_str(), OptsRepr(f.opts).c_str());
        std::printf("BEAM_SEARCH: final tm=%s, applied_opts=%s\n", TimeStr(result_.time_s, 0).c_str(),
                    OptsRepr(result_.opts).c_str());
      }
      Report(BeamProgress::Phase::kDone, static_cast<int>(b.results.size()), static_cast<int>(b.results.size()));
      return;
    }
    case BeamProgress::Phase::kDone:
      TG_CHECK(false) << "Feed() after the search ended";
  }
}

void BeamSearcher::FeedConfirmation(const MeasureBatch& b) {
  Account(b, Batch::kRetime);
  std::vector<BeamEntry> confirmed = std::move(confirm_);
  confirm_.clear();
  for (size_t j = 0; j < confirmed.size(); ++j) {
    const CandidateResult& r = Resolved(b, j);
    confirmed[j].time_s = r.timed() ? r.min_s : kInf;
  }
  const double beam_best = confirmed[0].time_s;
  std::vector<BeamEntry> round(confirmed.begin() + 1, confirmed.end());
  std::stable_sort(round.begin(), round.end(), [](const BeamEntry& x, const BeamEntry& y) { return x.time_s < y.time_s; });
  const double min_progress = settings_.min_progress_us * 1e-6;
  const bool progress = !round.empty() && round[0].time_s < kInf && beam_best - round[0].time_s >= min_progress;
  if (options_.beam_debug >= 1)
    std::printf("%7.2fs: re-timed, the beam's best %s against the round's %s: %s\n", elapsed_s(),
                TimeStr(beam_best).c_str(), TimeStr(round.empty() ? kInf : round[0].time_s).c_str(),
                progress ? "the search goes on" : "the search ends");
  // the new times rank these programs among the finalists too (each keeps its best time)
  for (const BeamEntry& e : confirmed)
    for (BeamEntry& t : all_timed_)
      if (t.program_hash == e.program_hash) t.time_s = std::min(t.time_s, e.time_s);
  if (!progress) {
    phase_ = BeamProgress::Phase::kFinalists;
    return;
  }
  beam_ = std::move(round);  // the round did make progress: its re-timed best are the beam
  if (beam_[0].time_s < best_s_) best_s_ = beam_[0].time_s, best_opts_ = beam_[0].sched.applied_opts();
}

absl::StatusOr<BeamResult> BeamSearch(const KernelTask& task, const Renderer& ren, Measurer& measurer,
                                      const SearchSettings& settings, const BeamOptions& options) {
  ASSIGN_OR_RETURN(std::unique_ptr<BeamSearcher> search, BeamSearcher::Create(task, ren, settings, options));
  while (std::optional<BeamRequest> req = search->Next()) {
    ASSIGN_OR_RETURN(MeasureBatch b, measurer.Measure(search->task(), req->candidates, req->options));
    search->Feed(b);
  }
  return search->result();
}

}  // namespace tg::autotune
