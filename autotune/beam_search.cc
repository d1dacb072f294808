// File: autotune/beam_search.cc
// Port of tinygrad/codegen/opt/search.py: actions, get_kernel_actions, beam_search.
#include "autotune/beam_search.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <span>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_format.h"
#include "tinygrad/base/config.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/codegen/opt/heuristic.h"
#include "tinygrad/uop/arg.h"

namespace tg::autotune {
namespace {

using Clock = std::chrono::steady_clock;
double Since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

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

// One timed candidate of the search.
struct Timed {
  Scheduler sched;
  double time_s;
  uint64_t program_hash;
};

}  // namespace

std::vector<Opt> BeamActions(const SearchSettings& s) {
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
  return a;
}

std::vector<std::pair<int, Scheduler>> GetKernelActions(const Scheduler& s, const std::vector<Opt>& actions,
                                                        const SearchSettings& settings, bool include_0) {
  std::vector<std::pair<int, Scheduler>> acted;
  if (include_0) acted.emplace_back(0, s);
  const std::vector<SInt> shape = s.full_shape();
  for (size_t i = 0; i < actions.size(); ++i) {
    const Opt& a = actions[i];
    if (a.axis.has_value() && a.op != OptOps::TC) {
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
    int64_t up = 1, lcl = 1, tc_up = 1;
    if (const TensorCore* tc = s2.tensor_core())
      tc_up = tc->dims[0] * tc->dims[1] * tc->dims[2] / tc->threads;
    const std::vector<SInt> shape2 = s2.full_shape();
    const std::vector<AxisType> types = s2.axis_types();
    for (size_t k = 0; k < shape2.size() && k < types.size(); ++k) {
      if (types[k] == AxisType::UPCAST || types[k] == AxisType::UNROLL) up *= MaxOf(shape2[k]);
      else if (types[k] == AxisType::WARP || types[k] == AxisType::LOCAL || types[k] == AxisType::GROUP_REDUCE)
        lcl *= MaxOf(shape2[k]);
    }
    if (up / tc_up > settings.upcast_max || lcl > settings.local_max) continue;
    acted.emplace_back(static_cast<int>(i) + 1, std::move(s2));
  }
  return acted;
}

absl::StatusOr<std::vector<Opt>> HeuristicOpts(const UOp& ast, const Renderer& ren) {
  Scheduler k(ast, ren);
  k.ConvertLoopToGlobal();
  const std::vector<UOp> slice = ast.backward_slice();
  if (std::any_of(slice.begin(), slice.end(), [](const UOp& u) { return u.op() == Ops::BUFFERIZE; }))
    return std::vector<Opt>{};
  ASSIGN_OR_RETURN(Scheduler opt, HandCodedOptimizations(k));
  return opt.applied_opts();
}

absl::StatusOr<BeamResult> BeamSearch(const KernelTask& task, const Renderer& ren, Measurer& measurer,
                                      const SearchSettings& settings, const BeamOptions& options) {
  const Clock::time_point start = Clock::now();
  BeamResult res;
  const double min_progress = settings.min_progress_us * 1e-6;
  absl::flat_hash_set<uint64_t> seen;  // programs timed (or failed) before: reference seen_libs

  MeasureOptions mopts;
  mopts.runs = options.runs;
  mopts.uops_max = settings.uops_max;
  mopts.timeout_s = settings.timeout_sec;

  // `search`: a batch of the search proper, whose programs are not timed again in later rounds.
  // The baselines are not remembered, so that they do not change which programs the search
  // itself times and keeps (the heuristic's program may well be a round-1 candidate).
  auto measure = [&](std::span<const std::vector<Opt>> cands, const MeasureOptions& o,
                     bool search) -> absl::StatusOr<MeasureBatch> {
    absl::StatusOr<MeasureBatch> b = measurer.Measure(task, cands, o);
    if (!b.ok()) return b.status();
    TG_CHECK(b->results.size() == cands.size()) << "the measurer answered " << b->results.size() << " of " << cands.size();
    res.prepare_wall_s += b->prepare_wall_s;
    res.run_wall_s += b->run_wall_s;
    res.candidates += static_cast<int64_t>(cands.size());
    for (const CandidateResult& r : b->results) {
      res.outcomes[static_cast<int>(r.outcome)] += 1;
      if (std::string& e = res.first_error[static_cast<int>(r.outcome)]; e.empty()) e = r.error;
      if (r.timed()) res.timed += 1;
      res.cost.lower_s += r.cost.lower_s;
      res.cost.compile_s += r.cost.compile_s;
      res.cost.run_s += r.cost.run_s;
      if (search && r.program_hash != 0) seen.insert(r.program_hash);
    }
    return b;
  };
  double best_s = kInf;
  std::vector<Opt> best_opts;
  auto report = [&](BeamProgress::Phase phase, int round, int cands, int timed) {
    if (!options.progress) return;
    options.progress(BeamProgress{.phase = phase, .round = round, .candidates = cands, .timed = timed,
                                  .best_s = best_s, .best_opts = best_opts, .elapsed_s = Since(start)});
  };

  // ** the baselines: unoptimized, and the heuristic's opts **
  std::vector<std::vector<Opt>> base_cands{{}};
  if (options.heuristic_opts) base_cands.push_back(*options.heuristic_opts);
  absl::StatusOr<MeasureBatch> base = measure(base_cands, mopts, /*search=*/false);
  if (!base.ok()) return base.status();
  std::vector<Finalist> finalists;
  for (size_t i = 0; i < base_cands.size(); ++i) {
    const CandidateResult& r = base->results[i];
    finalists.push_back(Finalist{.opts = base_cands[i], .kind = i == 0 ? "noopt" : "heuristic", .search_s = r.min_s});
    if (r.timed() && r.min_s < best_s) best_s = r.min_s, best_opts = base_cands[i];
  }
  report(BeamProgress::Phase::kBaseline, 0, static_cast<int>(base_cands.size()),
         static_cast<int>(std::count_if(base->results.begin(), base->results.end(),
                                        [](const CandidateResult& r) { return r.timed(); })));

  // ** beam_search **
  Scheduler root(task.ast, ren);
  root.ConvertLoopToGlobal();
  const std::vector<Opt> actions = BeamActions(settings);
  std::vector<std::pair<Scheduler, double>> beam{{root, kInf}};
  std::vector<Timed> all_timed;  // for the finalists
  for (bool exiting = false; !exiting;) {
    Clock::time_point a0 = Clock::now();
    std::vector<Scheduler> candidates;
    for (const auto& [si, unused] : beam)
      for (auto& [idx, child] : GetKernelActions(si, actions, settings, /*include_0=*/false))
        candidates.push_back(std::move(child));
    res.actions_wall_s += Since(a0);
    std::vector<std::vector<Opt>> cand_opts;
    for (const Scheduler& c : candidates) cand_opts.push_back(c.applied_opts());

    MeasureOptions o = mopts;
    // the reference stops a candidate at 3x the best of the beam; the baselines bound it too
    o.early_stop_s = std::min(beam[0].second, best_s) * 3;
    o.known_programs = seen;
    absl::StatusOr<MeasureBatch> b = measure(cand_opts, o, /*search=*/true);
    if (!b.ok()) return b.status();
    res.rounds += 1;

    const Config& cfg = GetConfig();
    if (cfg.beam_debug >= 2) {
      for (size_t i = 0; i < candidates.size(); ++i) {
        const CandidateResult& c = b->results[i];
        std::printf("%7.2fs: %5zu %5lld uops %s compile/%s run  %-13s %s\n", Since(start), i,
                    static_cast<long long>(c.uops), TimeStr(c.cost.compile_s).c_str(), TimeStr(c.min_s).c_str(),
                    std::string(OutcomeName(c.outcome)).c_str(), OptsRepr(cand_opts[i]).c_str());
      }
    }
    std::vector<Timed> timed;
    for (size_t i = 0; i < candidates.size(); ++i)
      if (b->results[i].timed()) timed.push_back(Timed{candidates[i], b->results[i].min_s, b->results[i].program_hash});
    std::stable_sort(timed.begin(), timed.end(), [](const Timed& x, const Timed& y) { return x.time_s < y.time_s; });
    exiting = timed.empty() || timed[0].time_s < min_progress || beam[0].second - timed[0].time_s < min_progress;
    if (!exiting) {
      beam.clear();
      for (size_t i = 0; i < timed.size() && static_cast<int>(i) < settings.width; ++i)
        beam.emplace_back(timed[i].sched, timed[i].time_s);
    } else if (!timed.empty() && timed[0].time_s < beam[0].second) {
      beam = {{timed[0].sched, timed[0].time_s}};
    }
    if (!timed.empty() && timed[0].time_s < best_s) best_s = timed[0].time_s, best_opts = timed[0].sched.applied_opts();
    if (cfg.debug >= 2 || cfg.beam_debug >= 1)
      std::printf("%7.2fs: %s from %3zu -> %3zu actions %s\n", Since(start), TimeStr(beam[0].second).c_str(),
                  candidates.size(), timed.size(), beam[0].first.colored_shape().c_str());
    for (Timed& t : timed) all_timed.push_back(std::move(t));
    report(BeamProgress::Phase::kRound, res.rounds, static_cast<int>(candidates.size()), static_cast<int>(timed.size()));
  }

  // ** finalists: the best distinct programs of the search and the baselines, re-measured
  // together in a quiet, interleaved phase **
  std::stable_sort(all_timed.begin(), all_timed.end(), [](const Timed& x, const Timed& y) { return x.time_s < y.time_s; });
  absl::flat_hash_set<uint64_t> picked;  // the baselines' programs are finalists already
  for (const CandidateResult& r : base->results) picked.insert(r.program_hash);
  int beam_finalists = 0;
  for (const Timed& t : all_timed) {
    if (beam_finalists >= options.finalists) break;
    if (!picked.insert(t.program_hash).second) continue;
    beam_finalists += 1;
    finalists.push_back(Finalist{.opts = t.sched.applied_opts(), .kind = "beam", .search_s = t.time_s});
  }
  std::vector<std::vector<Opt>> final_cands;
  for (const Finalist& f : finalists) final_cands.push_back(f.opts);
  report(BeamProgress::Phase::kFinalists, res.rounds, static_cast<int>(final_cands.size()), 0);
  MeasureOptions fo = mopts;
  fo.runs = options.finalist_runs;
  fo.interleaved = true;
  absl::StatusOr<MeasureBatch> fb = measure(final_cands, fo, /*search=*/false);
  if (!fb.ok()) return fb.status();
  int winner = -1;
  for (size_t i = 0; i < finalists.size(); ++i) {
    // the same program twice (the heuristic's opts may change nothing): it has the first's time
    const CandidateResult& r = fb->results[i].outcome == Outcome::kDuplicate && fb->results[i].duplicate_of >= 0
                                   ? fb->results[fb->results[i].duplicate_of]
                                   : fb->results[i];
    finalists[i].outcome = r.outcome;
    finalists[i].program_hash = r.program_hash;
    finalists[i].final_s = r.timed() ? r.min_s : kInf;
    // ties go to the earlier finalist: noopt, then the heuristic, then the search's best
    if (finalists[i].final_s < kInf && (winner < 0 || finalists[i].final_s < finalists[winner].final_s))
      winner = static_cast<int>(i);
  }
  res.noopt_s = finalists[0].final_s;
  if (options.heuristic_opts) res.heuristic_s = finalists[1].final_s;
  if (winner >= 0) {
    res.opts = finalists[winner].opts;
    res.time_s = finalists[winner].final_s;
    res.program_hash = finalists[winner].program_hash;
  }
  best_s = res.time_s;
  best_opts = res.opts;
  res.finalists = std::move(finalists);
  res.search_wall_s = Since(start);
  if (GetConfig().beam_debug >= 1) {
    for (const Finalist& f : res.finalists)
      std::printf("BEAM_SEARCH: finalist %-9s search %s final %s %s\n", f.kind.c_str(), TimeStr(f.search_s).c_str(),
                  TimeStr(f.final_s).c_str(), OptsRepr(f.opts).c_str());
    std::printf("BEAM_SEARCH: final tm=%s, applied_opts=%s\n", TimeStr(res.time_s, 0).c_str(), OptsRepr(res.opts).c_str());
  }
  report(BeamProgress::Phase::kDone, res.rounds, static_cast<int>(final_cands.size()), static_cast<int>(fb->results.size()));
  return res;
}

}  // namespace tg::autotune
