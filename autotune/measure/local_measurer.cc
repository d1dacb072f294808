// File: autotune/measure/local_measurer.cc
// Port of tinygrad/codegen/opt/search.py: _try_compile and _time_program (see the header for
// what differs and why).
#include "autotune/measure/local_measurer.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <thread>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "autotune/measure/candidate_ast.h"
#include "autotune/measure/output_check.h"
#include "autotune/measure/parallel_for.h"
#include "autotune/measure/prepare_batch.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/engine/launch.h"
#include "tinygrad/uop/render.h"

namespace tg::autotune {
// Buffers and reference outputs of one task, kept for when the same task is measured again
// (a farm worker's child interleaves the jobs of several searches).
struct LocalMeasurer::TaskState {
  UOp ast;
  uint64_t seed = 0;
  std::vector<std::pair<std::string, int64_t>> var_vals;
  CodegenOptions codegen;
  std::vector<BufferSpec> specs;
  std::vector<std::shared_ptr<RawBuffer>> bufs;  // parallel to specs
  std::vector<std::string> initial;              // each buffer's random contents
  absl::flat_hash_map<std::string, ConstValue> vars;
  std::vector<size_t> outs;                      // indices of the buffers the kernel stores to
  bool reads_output = false;                     // it also loads one of them: reset every run
  std::vector<std::string> expected;             // the unoptimized kernel's outputs, per outs
  std::string scratch;                           // Read's copy

  bool Matches(const KernelTask& t) const {
    return ast == t.ast && seed == t.seed && var_vals == t.var_vals && specs == t.buffers && codegen == t.codegen;
  }
  size_t Bytes() const {
    size_t n = 0;
    for (const std::string& s : initial) n += 2 * s.size();  // the buffer and its initial copy
    for (const std::string& s : expected) n += s.size();
    return n + scratch.size();
  }
  size_t IndexOfSlot(int64_t slot) const {
    for (size_t i = 0; i < specs.size(); ++i)
      if (specs[i].slot == slot) return i;
    TG_CHECK(false) << "kernel uses buffer slot " << slot << " that its AST does not define";
    return 0;
  }
  absl::Status ResetOutputs() {
    for (size_t i : outs)
      RETURN_IF_ERROR(bufs[i]->CopyIn(std::as_bytes(std::span<const char>(initial[i].data(), initial[i].size()))));
    return absl::OkStatus();
  }
  // Buffer i's contents, valid until the next Read. The copy lands in memory kept from the
  // last Read: a fresh string per check pays the page faults of every page again (tens of ms
  // for a 16 MB output on this kind of VM).
  absl::StatusOr<std::string_view> Read(size_t i) {
    scratch.resize(bufs[i]->nbytes());
    RETURN_IF_ERROR(bufs[i]->CopyOut(std::as_writable_bytes(std::span<char>(scratch.data(), scratch.size()))));
    return std::string_view(scratch);
  }
  // After ResetOutputs and a run that was cut short: the share of output elements that no
  // longer hold their random reset contents, i.e. how far the run got.
  absl::StatusOr<double> WrittenFraction() {
    size_t written = 0, total = 0;
    for (size_t i : outs) {
      ASSIGN_OR_RETURN(const std::string_view now, Read(i));
      const size_t item = std::max<size_t>(1, static_cast<size_t>(specs[i].dtype.itemsize()));
      total += now.size() / item;
      written += CountDifferingItems(item, now, initial[i]);
    }
    return total == 0 ? 0.0 : static_cast<double>(written) / static_cast<double>(total);
  }
};

// Tasks whose buffers and reference outputs are kept, and the bytes they may hold (the
// current task is kept whatever its size).
constexpr size_t kKeptTasks = 8;
constexpr size_t kKeptTaskBytes = size_t{1} << 30;

// A candidate whose first run is this short gets all its runs: they cost nothing worth saving.
constexpr double kAlwaysRefineBelowS = 1e-3;
// A stopped first run whose estimate is within this factor of the batch's best gets a second
// run (TimeInRounds, step 3): between the refine ratio and the reference's 3x early stop.
constexpr double kSecondOpinionRatio = 2;
// A run cut short after writing at least this share of its outputs gets an estimated time
// (elapsed / share); with less, the estimate is mostly noise.
constexpr double kMinProgressToEstimate = 0.02;

struct LocalMeasurer::Prepared {
  ProgramSpec spec;
  std::unique_ptr<Program> prog;
  std::optional<LaunchShape> launch;  // the block optimize_local_size chose (NOLOCALS on a GPU)
  bool pending = false;  // lowered (and later compiled) without failure so far
  bool stopped = false;  // kTooSlow from a run cut short: its time is only a lower bound
  double stop_limit_s = 0;  // the limit its first run was stopped at (0: it was not)
};

absl::StatusOr<std::unique_ptr<LocalMeasurer>> LocalMeasurer::Create(const LocalMeasurerOptions& o) {
  ASSIGN_OR_RETURN(Device * dev, GetDevice(o.device));
  return std::make_unique<LocalMeasurer>(dev, o);
}

double FakeTimeS(uint64_t program_hash) {
  // splitmix64's finalizer: nearby hashes land far apart
  uint64_t z = program_hash + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return 1e-4 * (1 + static_cast<double>(z % 10000) / 1000);
}

LocalMeasurer::LocalMeasurer(Device* device, LocalMeasurerOptions options)
    : device_(device),
      clock_(options.clock != nullptr ? *options.clock : Clock::Real()),
      compile_threads_(options.compile_threads > 0 ? options.compile_threads
                                                   : std::max(1, static_cast<int>(std::thread::hardware_concurrency()))),
      options_(std::move(options)) {
  TG_CHECK(device_ != nullptr);
  // The compile threads' compiler instances, made now: a worker's child makes its measurer before
  // its sandbox closes. Without them compiles still run, only sharing a lock.
  if (absl::Status s = device_->PrepareCompileThreads(compile_threads_); !s.ok())
    std::fprintf(stderr, "warning: %s\n", std::string(s.message()).c_str());
}

LocalMeasurer::~LocalMeasurer() = default;

void LocalMeasurer::AfterCheckRun(size_t, std::span<const std::shared_ptr<RawBuffer>>) {}

absl::StatusOr<DeviceLock::Hold> LocalMeasurer::HoldDevice(bool exclusive) const {
  if (options_.device_lock == nullptr) return DeviceLock::Hold();
  return exclusive ? options_.device_lock->Exclusive() : options_.device_lock->Shared();
}

namespace {

// A loaded program's arguments on the task's buffers, and its launch.
struct KernelArgs {
  std::vector<void*> bufs;
  std::vector<int64_t> vals;
  LaunchShape shape;
};

template <typename State>  // LocalMeasurer::TaskState, private
absl::StatusOr<KernelArgs> ArgsFor(State& st, const ProgramSpec& spec) {
  KernelArgs a;
  for (int64_t slot : spec.globals) a.bufs.push_back(st.bufs[st.IndexOfSlot(slot)]->data());
  for (const UOp& v : spec.vars) {
    auto it = st.vars.find(v.arg()[0].str());
    if (it == st.vars.end()) return absl::InternalError("kernel variable " + v.arg()[0].str() + " has no value");
    a.vals.push_back(it->second.to_int64());
  }
  ASSIGN_OR_RETURN(a.shape, LaunchShapeOf(spec, st.vars));
  return a;
}

// One run of a loaded program on the task's buffers (tinygrad's CompiledRunner call), with the
// block optimize_local_size chose where it chose one.
template <typename State>  // LocalMeasurer::TaskState, private
absl::StatusOr<double> RunOnce(State& st, const ProgramSpec& spec, Program& prog, double stop_after_s,
                               const std::optional<LaunchShape>& chosen = std::nullopt) {
  ASSIGN_OR_RETURN(KernelArgs a, ArgsFor(st, spec));
  const LaunchShape& shape = chosen ? *chosen : a.shape;
  return prog.Run(a.bufs, a.vals, shape.global, shape.local, /*wait=*/true, stop_after_s);
}

}  // namespace

absl::StatusOr<LocalMeasurer::TaskState*> LocalMeasurer::StateFor(const KernelTask& task) {
  for (auto it = states_.begin(); it != states_.end(); ++it) {
    if ((*it)->Matches(task)) {
      std::rotate(states_.begin(), it, it + 1);  // most recent first
      return states_.front().get();
    }
  }
  auto st = std::make_unique<TaskState>();
  st->ast = task.ast;
  st->seed = task.seed;
  st->var_vals = task.var_vals;
  st->codegen = task.codegen;
  st->specs = task.buffers;
  for (const auto& [name, v] : task.var_vals) st->vars[name] = ConstValue(v);
  for (const BufferSpec& b : task.buffers) {
    ASSIGN_OR_RETURN(std::shared_ptr<RawBuffer> raw,
                     device_->Allocate(static_cast<size_t>(b.size) * b.dtype.itemsize()));
    std::string init = RandomContents(b.dtype, b.size, task.seed * 1000003 + static_cast<uint64_t>(b.slot));
    RETURN_IF_ERROR(raw->CopyIn(std::as_bytes(std::span<const char>(init.data(), init.size()))));
    st->bufs.push_back(std::move(raw));
    st->initial.push_back(std::move(init));
  }
  // The reference: the unoptimized kernel (no opts at all), run once on the initial contents.
  // Where the device has threads it runs split over them (THREAD on the first axis): every
  // output element is computed by the same code in the same order, so the outputs are the
  // same bits, in a fraction of the time (the unoptimized 1024 matmul takes 5 s on one core).
  // On a GPU the unoptimized kernel is a block of one thread per output element; LOCAL on the
  // first axis makes blocks of up to 256 threads, each output still computed by one thread in
  // the same order (ReferenceSplits).
  auto noopt_error = [](const absl::Status& s) {
    absl::Status with(s.code(), absl::StrCat("the unoptimized kernel: ", s.message()));
    s.ForEachPayload([&](absl::string_view url, const absl::Cord& p) { with.SetPayload(url, p); });
    return with;  // a lost device stays IsDeviceLost
  };
  const Renderer& ren = device_->renderer();
  ASSIGN_OR_RETURN(DeviceLock::Hold compiling, HoldDevice(/*exclusive=*/false));
  absl::StatusOr<ProgramSpec> spec = absl::UnknownError("no reference kernel tried");
  for (const std::vector<Opt>& split : ReferenceSplits(ren)) {
    spec = GetProgram(CandidateAst(task.ast, split), ren, task.codegen);
    if (spec.ok()) break;
  }
  if (!spec.ok()) spec = GetProgram(CandidateAst(task.ast, {}), ren, task.codegen);
  if (!spec.ok()) return noopt_error(spec.status());
  absl::StatusOr<std::string> lib = device_->Compile(*spec);
  compiling = DeviceLock::Hold();
  if (!lib.ok()) return noopt_error(lib.status());
  absl::StatusOr<std::unique_ptr<Program>> prog = device_->LoadProgram(*spec, *lib);
  if (!prog.ok()) return noopt_error(prog.status());
  for (int64_t slot : spec->outs) {
    st->outs.push_back(st->IndexOfSlot(slot));
    if (std::find(spec->ins.begin(), spec->ins.end(), slot) != spec->ins.end()) st->reads_output = true;
  }
  // The reference run holds the machine's device lock but not a worker pool's gate: its time
  // is no candidate's, so it must not count against a run deadline.
  ASSIGN_OR_RETURN(DeviceLock::Hold running, HoldDevice(/*exclusive=*/true));
  if (absl::StatusOr<double> t = RunOnce(*st, *spec, **prog, Program::kNoStop); !t.ok())
    return noopt_error(t.status());
  running = DeviceLock::Hold();
  for (size_t i : st->outs) {
    absl::StatusOr<std::string_view> out = st->Read(i);
    if (!out.ok()) return noopt_error(out.status());
    st->expected.emplace_back(*out);
  }
  states_.insert(states_.begin(), std::move(st));
  size_t bytes = 0, keep = 0;
  while (keep < states_.size() && keep < kKeptTasks &&
         (keep == 0 || bytes + states_[keep]->Bytes() <= kKeptTaskBytes))
    bytes += states_[keep++]->Bytes();
  states_.resize(keep);
  return states_.front().get();
}

// How long a first run may go on: the timeout, and the early stop (a run stopped there is
// slower than the early stop, so nothing is lost). Later runs only have the timeout: the
// first already decided the early exit. Fake timing replaces the run's time afterwards, so
// only the timeout applies to its real run.
double LocalMeasurer::FirstRunLimit(const MeasureOptions& options) const {
  if (options_.fake_timing) return options.timeout_s;
  return std::min({options.timeout_s, options.early_stop_s, std::max(options.first_run_stop_s, kMinFirstRunStopS)});
}

// A run the device stopped at limit_s, after elapsed_s, having written `progress` of its
// outputs: timed out (the limit was the timeout), or too slow (with a time estimated from its
// progress, or only a lower bound).
void LocalMeasurer::Stopped(const MeasureOptions& options, double limit_s, double elapsed_s, double progress,
                            Prepared& p, CandidateResult& r) {
  p.pending = false;
  p.stop_limit_s = limit_s;
  if (limit_s >= options.timeout_s) {
    r.outcome = Outcome::kTimeout;
    r.error = absl::StrCat("run stopped after ", elapsed_s, " s (timeout ", options.timeout_s, " s)");
    return;
  }
  r.outcome = Outcome::kTooSlow;
  double time_s = elapsed_s;
  if (progress >= kMinProgressToEstimate) {
    time_s = elapsed_s / progress;
    r.error = absl::StrCat("run stopped after ", elapsed_s, " s at its limit ", limit_s, " s, ",
                           static_cast<int>(progress * 100), "% done: about ", time_s, " s");
  } else {
    p.stopped = true;  // the time is only a lower bound: not ranked
    r.error = absl::StrCat("run stopped after ", elapsed_s, " s at its limit ", limit_s, " s");
  }
  r.samples_s.push_back(time_s);
  r.min_s = std::min(r.min_s, time_s);
}

void LocalMeasurer::LoseDevice(const absl::Status& s) {
  if (device_lost_.ok()) device_lost_ = s;
  if (lost_reported_) return;
  lost_reported_ = true;
  states_.clear();  // their buffers were on the lost device
  if (options_.on_device_lost) options_.on_device_lost(device_lost_);
}

std::string LocalMeasurer::OverDeviceLimits(const ProgramSpec& spec,
                                            const absl::flat_hash_map<std::string, ConstValue>& vars) const {
  const GpuDescription* gpu = device_->gpu();
  if (gpu == nullptr || !spec.local_size || gpu->max_threads_per_block <= 0) return "";
  int64_t threads = 1;
  for (const UOp& l : *spec.local_size) {
    absl::StatusOr<ConstValue> v = SymInfer(l, vars);
    if (v.ok()) threads *= v->to_int64();
  }
  if (threads <= gpu->max_threads_per_block) return "";
  return absl::StrCat("local size ", threads, " > the device's ", gpu->max_threads_per_block, " threads per block");
}

void LocalMeasurer::RunFailed(const absl::Status& s, Prepared& p, CandidateResult& r) {
  r.outcome = Outcome::kRuntimeError;
  r.error = std::string(s.message());
  p.pending = false;
  if (IsDeviceLost(s) && device_lost_.ok()) device_lost_ = s;
}

bool LocalMeasurer::DeviceUsable(Prepared& p, CandidateResult& r) const {
  if (device_lost_.ok()) return true;
  p.pending = false;
  // checked and timed before the loss: the runs it has stand (fewer of them)
  if (r.outcome == Outcome::kOk && !r.samples_s.empty()) return false;
  r.outcome = Outcome::kWorkerLost;
  r.error = absl::StrCat("not measured: ", device_lost_.message());
  p.pending = false;
  return false;
}

absl::Status LocalMeasurer::ClearCaches() {
  if (!options_.clear_l2 || options_.fake_timing) return absl::OkStatus();
  return device_->InvalidateCaches();
}

absl::Status LocalMeasurer::ChooseLocalSize(Prepared& p, double limit_s, CandidateResult& r) {
  if (p.launch || !NeedsLocalSize(device_->renderer(), p.spec)) return absl::OkStatus();
  ASSIGN_OR_RETURN(KernelArgs a, ArgsFor(*states_.front(), p.spec));
  if (options_.before_run) options_.before_run(ReportedLimit(limit_s));
  const Clock::TimePoint s = clock_.Now();
  absl::StatusOr<LaunchShape> chosen = OptimizeLocalSize(*p.prog, a.bufs, a.vals, a.shape.global, limit_s);
  r.cost.run_s += clock_.SecondsSince(s);
  if (!chosen.ok()) return chosen.status();
  p.launch = *chosen;
  return absl::OkStatus();
}

double LocalMeasurer::ReportedLimit(double limit_s) const { return device_->can_stop_runs() ? limit_s : kInf; }

void LocalMeasurer::CheckCandidate(size_t index, Prepared& p, const MeasureOptions& options,
                                   CandidateResult& r) {
  if (!DeviceUsable(p, r)) return;
  TaskState& st = *states_.front();
  const double limit = FirstRunLimit(options);
  // Before the outputs are reset: its runs may read an output they wrote.
  if (absl::Status chosen = ChooseLocalSize(p, limit, r); !chosen.ok()) return RunFailed(chosen, p, r);
  // a wrong kernel may leave outputs unwritten: never let a previous candidate's answer stand
  if (absl::Status reset = st.ResetOutputs(); !reset.ok()) return RunFailed(reset, p, r);
  if (absl::Status clear = ClearCaches(); !clear.ok()) return RunFailed(clear, p, r);
  if (options_.before_run) options_.before_run(ReportedLimit(limit));
  const Clock::TimePoint s = clock_.Now();
  absl::StatusOr<double> t = RunOnce(st, p.spec, *p.prog, limit, p.launch);
  const double elapsed = clock_.SecondsSince(s);
  r.cost.run_s += elapsed;
  auto fail = [&](Outcome o, std::string why) {
    r.outcome = o;
    r.error = std::move(why);
    p.pending = false;
  };
  if (absl::IsDeadlineExceeded(t.status())) {
    absl::StatusOr<double> progress = st.WrittenFraction();
    if (!progress.ok()) return RunFailed(progress.status(), p, r);
    return Stopped(options, limit, elapsed, *progress, p, r);
  }
  if (!t.ok()) return RunFailed(t.status(), p, r);
  if (options_.fake_timing) t = FakeTimeS(r.program_hash);  // the early exit below must agree too
  if (*t > options.timeout_s) return fail(Outcome::kTimeout, absl::StrCat("one run took ", *t, " s"));
  if (options.check_results) {
    AfterCheckRun(index, st.bufs);
    for (size_t k = 0; k < st.outs.size(); ++k) {
      const BufferSpec& b = st.specs[st.outs[k]];
      absl::StatusOr<std::string_view> out = st.Read(st.outs[k]);
      if (!out.ok()) return RunFailed(out.status(), p, r);
      std::string why = CompareOutput(b.dtype, *out, st.expected[k], compile_threads_);
      if (!why.empty())
        return fail(Outcome::kWrongResult, absl::StrCat("buffer ", b.slot, ": ", why));
    }
  }
  // the first of the reference's runs, with its early exit
  r.samples_s.push_back(*t);
  r.min_s = std::min(r.min_s, *t);
  if (*t > options.early_stop_s)
    fail(Outcome::kTooSlow, absl::StrCat("first run ", *t, " s > early stop ", options.early_stop_s, " s"));
}

void LocalMeasurer::TimeRuns(Prepared& p, const MeasureOptions& options, int runs, CandidateResult& r) {
  TaskState& st = *states_.front();
  for (int k = 0; k < runs; ++k) {
    if (!DeviceUsable(p, r)) return;
    if (st.reads_output) {
      if (absl::Status reset = st.ResetOutputs(); !reset.ok()) return RunFailed(reset, p, r);
    }
    if (absl::Status clear = ClearCaches(); !clear.ok()) return RunFailed(clear, p, r);
    if (options_.before_run) options_.before_run(ReportedLimit(options.timeout_s));
    const Clock::TimePoint s = clock_.Now();
    absl::StatusOr<double> t = options_.fake_timing ? absl::StatusOr<double>(FakeTimeS(r.program_hash))
                                                    : RunOnce(st, p.spec, *p.prog, options.timeout_s, p.launch);
    const double elapsed = clock_.SecondsSince(s);
    r.cost.run_s += elapsed;
    if (absl::IsDeadlineExceeded(t.status())) return Stopped(options, options.timeout_s, elapsed, 0, p, r);
    if (!t.ok()) return RunFailed(t.status(), p, r);
    r.samples_s.push_back(*t);
    r.min_s = std::min(r.min_s, *t);
    if (*t > options.timeout_s) {
      r.outcome = Outcome::kTimeout;
      r.error = absl::StrCat("one run took ", *t, " s");
      p.pending = false;
      return;
    }
    if (r.min_s > options.early_stop_s) {
      r.outcome = Outcome::kTooSlow;
      r.error = absl::StrCat("best run ", r.min_s, " s > early stop ", options.early_stop_s, " s");
      p.pending = false;
      return;
    }
  }
}

void LocalMeasurer::TimeInRounds(std::vector<Prepared>& prep, const MeasureOptions& options,
                                 std::vector<CandidateResult>& results) {
  const size_t n = prep.size();
  // 1. One run each, which is also the result check, stopped at the early stop. Once `keep`
  // candidates have an exact first run, a later one is also stopped at refine_ratio x the
  // keep-th best of them: it cannot be among the caller's best `keep`, and would not get more
  // runs (step 3), so the rest of its run would only buy a more exact losing time.
  std::vector<double> firsts;  // exact first runs so far, sorted
  for (size_t i = 0; i < n; ++i) {
    if (!prep[i].pending) continue;
    MeasureOptions o = options;
    if (options.keep > 0 && firsts.size() >= static_cast<size_t>(options.keep))
      o.first_run_stop_s = std::min(o.first_run_stop_s, firsts[options.keep - 1] * options.refine_ratio);
    CheckCandidate(i, prep[i], o, results[i]);
    if (prep[i].pending) firsts.insert(std::upper_bound(firsts.begin(), firsts.end(), results[i].min_s), results[i].min_s);
  }

  // 2. The caller keeps the best `keep`. A run that was stopped with too little progress for
  // an estimate only says "slower than the limit" (and, having written less than any estimated
  // run, slower than those): while fewer than `keep` candidates have a time to rank (measured,
  // or estimated from a stopped run's progress), those runs go again with a 3x longer limit.
  // (The reference lets every run finish, which on a big kernel costs seconds per bad candidate.)
  double limit = FirstRunLimit(options);
  // a time the caller can rank: measured, or estimated from a stopped run's progress
  auto has_rank = [&](size_t i) {
    return prep[i].pending || (results[i].outcome == Outcome::kTooSlow && !prep[i].stopped);
  };
  auto ranked = [&] {
    int k = 0;
    for (size_t i = 0; i < n; ++i) k += has_rank(i);
    return k;
  };
  // candidate i runs its first run again, from scratch
  auto reset = [&](size_t i) {
    prep[i].stopped = false;
    prep[i].stop_limit_s = 0;
    prep[i].pending = true;
    results[i].outcome = Outcome::kOk;
    results[i].error.clear();
    results[i].samples_s.clear();
    results[i].min_s = kInf;
  };
  while (ranked() < options.keep && limit < options.timeout_s &&
         std::any_of(prep.begin(), prep.end(), [](const Prepared& p) { return p.stopped; })) {
    limit = std::min(limit * 3, options.timeout_s);
    MeasureOptions longer = options;
    longer.early_stop_s = limit;
    longer.first_run_stop_s = kInf;
    for (size_t i = 0; i < n; ++i) {
      if (!prep[i].stopped) continue;
      CandidateResult& r = results[i];
      reset(i);
      CheckCandidate(i, prep[i], longer, r);
      if (prep[i].pending) {  // an exact time, but slower than the early stop
        prep[i].pending = false;
        r.outcome = Outcome::kTooSlow;
        r.error = absl::StrCat("first run ", r.min_s, " s > early stop ", options.early_stop_s, " s");
      }
    }
  }

  // 3. A second opinion for the near-best stopped runs. On a shared machine about one run in
  // thirty is 1.25-3x slower than the candidate's best, and a candidate whose only run was
  // stopped is ranked by that run: an unlucky one drops out of the beam (or ends the search
  // early) for good. So a stopped run whose estimate is within kSecondOpinionRatio of the
  // batch's best ranked time, and within the early stop, runs once more under the same limit:
  // finished, it has an exact time; stopped again, it keeps the lower estimate.
  double best_ranked = kInf;
  for (size_t i = 0; i < n; ++i)
    if (has_rank(i)) best_ranked = std::min(best_ranked, results[i].min_s);
  for (size_t i = 0; i < n; ++i) {
    CandidateResult& r = results[i];
    // (an estimate past the early stop is out, as in the reference: its rank among the other
    // too-slow candidates is a coarse guess either way)
    if (prep[i].stop_limit_s <= 0 || prep[i].stopped || r.outcome != Outcome::kTooSlow ||
        r.min_s > std::min(best_ranked * kSecondOpinionRatio, options.early_stop_s))
      continue;
    MeasureOptions again = options;
    again.first_run_stop_s = prep[i].stop_limit_s;
    const std::vector<double> first = std::move(r.samples_s);
    const std::string first_error = std::move(r.error);
    reset(i);
    CheckCandidate(i, prep[i], again, r);
    if (r.outcome != Outcome::kTooSlow || prep[i].stop_limit_s <= 0) continue;  // it finished
    if (prep[i].stopped) {  // no progress to estimate from this time: a lower bound only
      prep[i].stopped = false;
      r.samples_s.clear();
    }
    r.samples_s.insert(r.samples_s.begin(), first.begin(), first.end());
    r.min_s = *std::min_element(r.samples_s.begin(), r.samples_s.end());
    r.error = absl::StrCat(first_error, "; again: ", r.error);
  }

  // 4. The rest of the runs, for the candidates that can still rank near the best: a
  // candidate far behind on its first run keeps that one sample. Runs under a millisecond cost
  // nothing worth saving (and a first run there is the noisiest), so they always get them.
  double best_first = kInf;
  for (size_t i = 0; i < n; ++i)
    if (prep[i].pending) best_first = std::min(best_first, results[i].min_s);
  for (size_t i = 0; i < n; ++i) {
    if (!prep[i].pending) continue;
    const double first = results[i].min_s;
    if (first <= best_first * options.refine_ratio || first < kAlwaysRefineBelowS)
      TimeRuns(prep[i], options, options.runs - 1, results[i]);
  }
}

absl::StatusOr<MeasureBatch> LocalMeasurer::Measure(const KernelTask& task,
                                                    std::span<const std::vector<Opt>> candidates,
                                                    const MeasureOptions& options) {
  MeasureBatch batch;
  // A lost device answers nothing any more: the caller (a worker's child) starts over.
  if (!device_lost_.ok()) return device_lost_;
  const Clock::TimePoint t0 = clock_.Now();
  absl::StatusOr<TaskState*> state = StateFor(task);
  if (!state.ok()) {
    if (IsDeviceLost(state.status())) LoseDevice(state.status());
    return state.status();
  }
  TaskState* st = *state;
  const size_t n = candidates.size();
  batch.results.resize(n);
  std::vector<Prepared> prep(n);

  // ** phase 1: lower, render and compile (here, or where options_.preparer says) **
  absl::StatusOr<std::vector<PreparedCandidate>> ready = absl::UnavailableError("not prepared");
  if (options_.preparer != nullptr) {
    ready = options_.preparer->Prepare(task, candidates, options, batch.results);
    if (ready.ok()) {
      for (size_t i = 0; i < n; ++i) {
        if (!(*ready)[i].pending) continue;
        if (std::string why = OverDeviceLimits((*ready)[i].spec, st->vars); !why.empty()) {
          batch.results[i].outcome = Outcome::kRejected;
          batch.results[i].error = std::move(why);
          (*ready)[i].pending = false;
        }
      }
    } else {
      // nothing is lost: this machine prepares the batch itself (said once per reason)
      if (std::string why(ready.status().message()); !absl::IsCancelled(ready.status()) && why != last_preparer_error_) {
        std::fprintf(stderr, "warning: preparing batches here: %s\n", why.c_str());
        last_preparer_error_ = std::move(why);
      }
      std::fill(batch.results.begin(), batch.results.end(), CandidateResult{});
    }
  }
  if (!ready.ok()) {
    DeviceCompiler compiler(*device_);
    ready = PrepareBatch(compiler, task, candidates, options,
                         PrepareSettings{.threads = compile_threads_,
                                         .thread_setup = options_.prepare_thread_setup,
                                         .clock = &clock_,
                                         .hold = [this] { return HoldDevice(/*exclusive=*/false); },
                                         .over_limits = [&](const ProgramSpec& spec) { return OverDeviceLimits(spec, st->vars); }},
                         batch.results);
    RETURN_IF_ERROR(ready.status());
  }
  for (size_t i = 0; i < n; ++i) {
    prep[i].spec = std::move((*ready)[i].spec);
    prep[i].pending = (*ready)[i].pending;
  }

  // ** load what compiled, in parallel **
  FirstError lock_error;
  ParallelFor(n, compile_threads_, [&](size_t i) {
    if (!prep[i].pending) return;
    absl::StatusOr<DeviceLock::Hold> hold = HoldDevice(/*exclusive=*/false);
    if (!hold.ok()) return lock_error.Note(hold.status());
    CandidateResult& r = batch.results[i];
    const Clock::TimePoint s = clock_.Now();
    absl::StatusOr<std::unique_ptr<Program>> prog = device_->LoadProgram(prep[i].spec, (*ready)[i].binary);
    r.cost.compile_s += clock_.SecondsSince(s);
    prep[i].pending = CompiledInTime(prog.status(), r.cost.compile_s, options, r);
    if (prep[i].pending) prep[i].prog = *std::move(prog);
  }, options_.prepare_thread_setup);
  batch.prepare_wall_s = clock_.SecondsSince(t0);
  RETURN_IF_ERROR(lock_error.Take());

  // ** phase 2: time on the device, one candidate at a time, nothing compiling **
  ASSIGN_OR_RETURN(DeviceLock::Hold device, HoldDevice(/*exclusive=*/true));
  if (options_.acquire_device) options_.acquire_device();
  const Clock::TimePoint t1 = clock_.Now();
  if (!options.interleaved) {
    TimeInRounds(prep, options, batch.results);
  } else {
    MeasureOptions no_exit = options;
    no_exit.early_stop_s = kInf;
    for (size_t i = 0; i < n; ++i)
      if (prep[i].pending) CheckCandidate(i, prep[i], no_exit, batch.results[i]);
    for (int run = 1; run < options.runs; ++run)
      for (size_t i = 0; i < n; ++i)
        if (prep[i].pending) TimeRuns(prep[i], no_exit, 1, batch.results[i]);
  }
  batch.run_wall_s = clock_.SecondsSince(t1);
  if (options_.release_device) options_.release_device();
  if (!device_lost_.ok()) LoseDevice(device_lost_);
  return batch;
}

}  // namespace tg::autotune
