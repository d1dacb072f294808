// File: autotune/search/beam_search.h
// BEAM search over kernel optimizations, against a Measurer.
//
// Port of tinygrad/codegen/opt/search.py: the action list, get_kernel_actions and
// beam_search. The search knows the Scheduler (to tell which actions apply) and the Measurer
// interface; it never compiles, runs or sends anything itself, so the same search drives the
// in-process measurer and the distributed one.
//
// Same as the reference: children of every beam member by every valid action, programs seen
// before are not timed again, keep the best `width`, stop when the best improves by less than
// BEAM_MIN_PROGRESS, early exit of candidates 3x slower than the best.
// Beyond the reference:
// - The unoptimized kernel and the heuristic's opts (when given) are always measured (the
//   heuristic first: 3x its time stops the unoptimized kernel's runs early), and the
//   finalists (the best few distinct programs of the search plus those two baselines, except
//   those already 3x slower than the best) are re-measured together in a quiet, interleaved
//   phase before a winner is declared, so the
//   result is never slower than the untuned default and does not hinge on one noisy sample.
// - Early exit uses the best known time including the baselines (the reference's first round
//   has no bound at all).
// - Robust to a busy machine: before a round without progress ends the search, the round's
//   best and the beam's best are re-timed together (a round timed while the machine was busy
//   would end the search early); a final phase in which every finalist ran far slower than in
//   the search is measured again. (The measurer adds a second run for near-best candidates
//   whose one run was stopped.)
// - With BEAM_SIMD's register tiles (SearchSettings::tiles, register_tiles.h) the first round
//   also times the ISA's BLAS-style register tiles as whole opt lists ("(seed)" in BEAM_DEBUG=2,
//   listed at BEAM_DEBUG=1), and the register file bounds a tile in place of upcast_max.
// - Everything is counted: candidates by outcome, rounds, wall time preparing vs running.
//
// BeamSearcher is the same search as a state machine (Next() a batch, Feed() its results), so a
// coordinator can step the searches of many kernels at once; BeamSearch() drives one to the end.
//
// Example:
//   SearchSettings s = SearchSettings::FromConfig(GetConfig());
//   ASSIGN_OR_RETURN(BeamResult r, BeamSearch(task, renderer, measurer, s, {.heuristic_opts = h}));
//   r.opts, r.time_s, r.noopt_s, r.heuristic_s
#ifndef AUTOTUNE_SEARCH_BEAM_SEARCH_H_
#define AUTOTUNE_SEARCH_BEAM_SEARCH_H_

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "autotune/key/search_settings.h"
#include "autotune/key/vector_isa.h"
#include "autotune/measure/measurer.h"
#include "autotune/search/register_tiles.h"
#include "tinygrad/codegen/opt/opt.h"
#include "tinygrad/codegen/opt/scheduler.h"
#include "tinygrad/codegen/renderer.h"

namespace tg::autotune {

// search.py's `actions` for these settings (BEAM_PADTO, NOLOCALS, TC and TC_OPT gate it), and
// with BEAM_SIMD ours for the vector unit `isa` (simd_actions.h) after them.
std::vector<Opt> BeamActions(const SearchSettings& settings, const VectorIsa& isa = {});

// get_kernel_actions: each action (its index in `actions` + 1; 0 is `s` itself when include_0)
// that applies to a copy of `s`, skipping actions on axes that do not exist, "split by the
// whole axis" duplicates of the arg-0 action, and results over BEAM_UPCAST_MAX upcast or
// BEAM_LOCAL_MAX local size (WithinLimits: with BEAM_SIMD's register tiles, UNROLL apart);
// with BEAM_SIMD also register tiles that do not fit `isa`'s vector registers
// (FitsVectorRegisters).
std::vector<std::pair<int, Scheduler>> GetKernelActions(const Scheduler& s, const std::vector<Opt>& actions,
                                                        const SearchSettings& settings, bool include_0 = true,
                                                        const VectorIsa& isa = {});

// Whether `s` (an action's or a seed's result) respects the settings' limits for `isa`
// (SearchLimitsFor, register_tiles.h): the upcast product, UNROLL's own bound with register
// tiles, the local size, and with BEAM_SIMD FitsVectorRegisters.
bool WithinLimits(const Scheduler& s, const SearchLimits& limits, const SearchSettings& settings,
                  const VectorIsa& isa);

// The kernel AST as apply_opts sees it inside GetProgram (after the range passes that run
// first: split ranges, simplify ranges, cut store ranges): the Scheduler BEAM and the heuristic
// start from this, as the reference's beam_search gets apply_opts' Scheduler.
absl::StatusOr<UOp> OptimizerInput(const UOp& ast, const Renderer& ren, const CodegenOptions& codegen);

// The opts hand_coded_optimizations gives `ast` (what GetProgram applies when neither BEAM nor
// NOOPT is set): the heuristic baseline of BeamOptions. None for kernels the heuristic skips
// (BUFFERIZE inside). `codegen` holds the heuristic's settings (TC, TC_OPT, NOLOCALS, ...).
// Errors: whatever the heuristic reports.
absl::StatusOr<std::vector<Opt>> HeuristicOpts(const UOp& ast, const Renderer& ren, const CodegenOptions& codegen);

// OK when `opts` apply to `ast` in order, as GetProgram applies them (a tuning record's opts
// checked before they are trusted); otherwise the first one's KernelOptError, naming it.
// Errors also: the kernel does not reach the optimizer.
absl::Status CheckOptsApply(const UOp& ast, const Renderer& ren, const CodegenOptions& codegen,
                            const std::vector<Opt>& opts);

// Where a search stands, for a progress display.
struct BeamProgress {
  enum class Phase { kBaseline, kRound, kFinalists, kDone };
  Phase phase = Phase::kBaseline;
  int round = 0;            // 1-based in kRound
  int candidates = 0;       // of this step
  int timed = 0;            // of this step
  double best_s = kInf;     // best time so far (baselines included)
  std::vector<Opt> best_opts;
  double elapsed_s = 0;
  // The baselines' times once measured (search phase; the final phase's in kDone); kInf
  // before, or when one failed or there is no heuristic.
  double noopt_s = kInf;
  double heuristic_s = kInf;
  // The whole search so far (BeamResult's counters): candidates measured, of them timed, and
  // each outcome's count (failures by kind).
  int64_t total_candidates = 0;
  int64_t total_timed = 0;
  std::array<int64_t, kNumOutcomes> outcomes{};
};

struct BeamOptions {
  // The heuristic's opts (hand_coded_optimizations), always a candidate; nullopt: none.
  std::optional<std::vector<Opt>> heuristic_opts;
  int finalists = 3;       // best distinct programs of the search re-measured at the end
  int finalist_runs = 5;   // interleaved timed runs of each finalist
  // A final phase in which every finalist ran more than kDisturbedRatio x slower than in the
  // search was disturbed (another tenant, throttling): it is measured again, up to this many
  // phases in all, and each finalist keeps its best.
  int max_final_phases = 2;
  // Before a round without progress ends the search, its best `width` and the beam's best are
  // timed again together (interleaved): the round's times and the beam's were taken at
  // different moments, and a round measured while the machine was busy would end the search
  // early. The search goes on when the round's best wins there by BEAM_MIN_PROGRESS.
  bool confirm_exit = true;
  int runs = 3;            // timed runs per candidate during the search (reference cnt=3)
  // Ours: a candidate whose first run is more than this much slower than the round's best
  // first run keeps that one sample (MeasureOptions::refine_ratio); the beam is decided among
  // the near-best, which get all `runs`. A first run past refine_ratio x the best so far is
  // stopped there with a time estimated from its progress (MeasureOptions::first_run_stop_s).
  double refine_ratio = 1.25;
  std::function<void(const BeamProgress&)> progress;
  // The search's trace on stdout: BEAM_DEBUG (1: a line per round and the finalists, 2: a line
  // per candidate, 3: its samples), and DEBUG >= 2 for the round lines.
  int beam_debug = 0;
  int debug = 0;
  // The CPU's vector unit (VectorIsaOf the device class): sizes BEAM_SIMD's actions and
  // register-tile bound; unknown: BEAM_SIMD's fixed list, no bound.
  VectorIsa vector_isa;
};

struct Finalist {
  std::vector<Opt> opts;
  std::string kind;        // "noopt", "heuristic" or "beam"
  double search_s = kInf;  // its time during the search
  double final_s = kInf;   // its best in the quiet interleaved phase
  std::vector<double> final_samples_s;  // every run of that phase (empty: not re-measured)
  Outcome outcome = Outcome::kOk;
  uint64_t program_hash = 0;  // of its rendered program
};

struct BeamResult {
  std::vector<Opt> opts;  // the winner
  double time_s = kInf;   // its time in the final phase
  std::vector<double> samples_s;  // its runs in the final phase (empty: never re-measured)
  uint64_t program_hash = 0;  // the winner's program (different opt lists can make one program)
  // The winner's kernel name as the engine will name its program (tinygrad's "r_16_16_4", or
  // the AST's own KernelInfo name), without colors or the process-wide "n1" suffix; "" when
  // nothing won.
  std::string kernel_name;
  double noopt_s = kInf;  // the unoptimized kernel, final phase
  double heuristic_s = kInf;  // the heuristic's opts, final phase (kInf: none or it failed)
  std::vector<Finalist> finalists;
  int rounds = 0;
  // The baselines and the rounds' candidates. The finalists' re-measurements are not counted
  // again (their time is in search_wall_s), as tinygrad counts its _time_program calls.
  int64_t candidates = 0;  // opt lists measured
  int64_t timed = 0;       // of those, timed
  std::array<int64_t, kNumOutcomes> outcomes{};  // by Outcome
  std::array<std::string, kNumOutcomes> first_error;  // the first message of each failure kind
  double search_wall_s = 0;
  double prepare_wall_s = 0;  // lowering + compiling (measurer phase 1)
  double run_wall_s = 0;      // timing (measurer phase 2)
  double actions_wall_s = 0;  // enumerating valid actions (the Scheduler)
  MeasureCost cost;           // summed over candidates (thread seconds: stages overlap)

  int64_t failed() const { return candidates - timed - outcomes[static_cast<int>(Outcome::kDuplicate)]; }
  // The share of the search spent running kernels.
  double run_fraction() const { return search_wall_s > 0 ? run_wall_s / search_wall_s : 0; }
};

// What a search of `ast` starts from: its KernelTask, lowered with `codegen`, and `options`
// with the heuristic's opts as heuristic_opts (left unset when the heuristic fails: it is then
// simply not a candidate). The tuning driver (autotune/driver.h) starts its searches here. Errors: KernelTask::FromAst's.
struct SearchStart {
  KernelTask task;
  BeamOptions options;
};
absl::StatusOr<SearchStart> StartSearch(const UOp& ast, const Renderer& ren,
                                        const CodegenOptions& codegen, BeamOptions options = {});

// Searches the opts for `task` (an unoptimized kernel AST) on a device rendered by `ren`. Errors:
// only when the measurer cannot run the task at all; candidate failures are counted, never fatal.
absl::StatusOr<BeamResult> BeamSearch(const KernelTask& task, const Renderer& ren, Measurer& measurer,
                                      const SearchSettings& settings, const BeamOptions& options = {});

// One step of a search: the candidates to measure next, and how.
struct BeamRequest {
  std::vector<std::vector<Opt>> candidates;
  MeasureOptions options;
  // Empty for the baselines and a round, whose programs the search measures once each. A batch
  // that re-times programs measured before is named, distinct from the search's other
  // re-timings: "confirm<round>" (before the search would end), "final", then "final2" ... for
  // a final phase measured again. A measurement journal keys its rows by it.
  std::string retime;
  bool final_phase() const { return retime.starts_with("final"); }
};

// BeamSearch as a state machine that never calls a measurer itself: Next() says what to measure,
// Feed() takes the answer. A coordinator can so run the searches of many kernels at once and
// keep a worker farm busy across their round barriers; BeamSearch() is the one-kernel loop:
//   ASSIGN_OR_RETURN(std::unique_ptr<BeamSearcher> s, BeamSearcher::Create(task, ren, settings));
//   while (std::optional<BeamRequest> req = s->Next()) s->Feed(measurer.Measure(s->task(), ...));
//   s->result();
class BeamSearcher {
 public:
  // Errors: the kernel does not lower to the optimizer's input (OptimizerInput).
  static absl::StatusOr<std::unique_ptr<BeamSearcher>> Create(KernelTask task, const Renderer& ren,
                                                              SearchSettings settings, BeamOptions options = {});
  ~BeamSearcher();
  BeamSearcher(const BeamSearcher&) = delete;
  BeamSearcher& operator=(const BeamSearcher&) = delete;

  const KernelTask& task() const { return task_; }
  // The next batch; nullopt once the search is over. Each Next() must be answered by Feed().
  std::optional<BeamRequest> Next();
  // The measurer's results for the last Next(), one per candidate, in order.
  void Feed(const MeasureBatch& batch);
  bool done() const { return phase_ == BeamProgress::Phase::kDone; }
  // Complete once done().
  const BeamResult& result() const { return result_; }

 private:
  BeamSearcher(KernelTask task, const UOp& optimizer_input, const Renderer& ren, SearchSettings settings,
               BeamOptions options);
  struct BeamEntry {
    Scheduler sched;
    double time_s;
    uint64_t program_hash;
  };
  enum class Batch { kBaselines, kRound, kRetime };  // kRetime: programs measured before
  void Account(const MeasureBatch& b, Batch kind);
  // The answer to the re-timing before a search would end (confirm_): go on, or end.
  void FeedConfirmation(const MeasureBatch& b);
  void Report(BeamProgress::Phase phase, int cands, int timed) const;
  double elapsed_s() const;
  // The name of the kernel with `opts` applied (BeamResult::kernel_name).
  std::string KernelNameWith(const std::vector<Opt>& opts) const;

  KernelTask task_;
  const Renderer* ren_;
  SearchSettings settings_;
  BeamOptions options_;
  Scheduler root_;  // the optimizer's input with loops made global: every candidate starts here
  std::vector<Opt> actions_;
  std::chrono::steady_clock::time_point start_;
  MeasureOptions base_;  // every batch's options start from these
  BeamProgress::Phase phase_ = BeamProgress::Phase::kBaseline;
  std::vector<BeamEntry> beam_;
  std::vector<Scheduler> round_;        // the candidates of the round being measured
  size_t seeds_ = 0;                    // of them, the last seeds_ are register tile seeds
  std::vector<BeamEntry> confirm_;      // the beam's best, then the last round's best: to re-time
  std::vector<BeamEntry> all_timed_;    // every timed candidate, for the finalists
  std::vector<Finalist> finalists_;
  std::vector<size_t> remeasured_;      // indices of finalists_ sent to the final phase
  int final_phases_ = 0;                // final phases measured (a disturbed one is repeated)
  absl::flat_hash_set<uint64_t> seen_;  // programs timed (or failed) before: seen_libs
  double best_s_ = kInf;
  std::vector<Opt> best_opts_;
  size_t pending_ = 0;
  bool pending_valid_ = false;
  BeamResult result_;
};

}  // namespace tg::autotune

#endif  // AUTOTUNE_SEARCH_BEAM_SEARCH_H_
