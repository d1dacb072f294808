// File: autotune/search/beam_search_test.cc
// BEAM search on a fake, deterministic Measurer (timing = a function of the opts) and, once,
// on the real in-process measurer.
#include "autotune/search/beam_search.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "autotune/measure/local_measurer.h"
#include "autotune/measure/test_kernels.h"
#include "gtest/gtest.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/stable_hash.h"
#include "tinygrad/codegen/opt/scheduler.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/renderer/cuda/cuda.h"
#include "tinygrad/runtime/cuda/arch.h"
#include "tinygrad/schedule/schedule.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/workloads/workloads.h"

namespace tg::autotune {
namespace {

std::string Str(const std::vector<Opt>& opts) {
  std::string s;
  for (const Opt& o : opts) s += o.ToString() + " ";
  return s;
}

// Time = 1 ms times a factor per opt (UPCASTs speed up, everything else slows down), tripled
// from the third opt on, so the best program has exactly two UPCASTs. UNROLLs fail to compile
// and THREADs give wrong results: the search must go on without them.
class FakeMeasurer : public Measurer {
 public:
  absl::StatusOr<MeasureBatch> Measure(const KernelTask&, std::span<const std::vector<Opt>> cands,
                                       const MeasureOptions& o) override {
    batches.emplace_back(cands.begin(), cands.end());
    options.push_back(o);
    // a busy machine in the final phase: the k-th interleaved batch runs final_slowdowns[k]x slower
    double slowdown = 1;
    if (o.interleaved && final_batches < final_slowdowns.size()) slowdown = final_slowdowns[final_batches];
    if (o.interleaved) final_batches += 1;
    if (auto it = batch_slowdowns.find(batches.size() - 1); it != batch_slowdowns.end()) slowdown *= it->second;
    MeasureBatch b;
    b.prepare_wall_s = 0.01;
    b.run_wall_s = 0.03;
    for (const std::vector<Opt>& opts : cands) {
      CandidateResult r;
      r.program_hash = StableHasher().AddBytes(Str(opts)).Finish() | 1;
      if (o.known_programs.contains(r.program_hash)) {
        r.outcome = Outcome::kDuplicate;
      } else if (heuristic && opts == *heuristic) {
        r.min_s = heuristic_time;
        r.samples_s = {r.min_s};
      } else if (std::any_of(opts.begin(), opts.end(), [](const Opt& x) { return x.op == OptOps::UNROLL; })) {
        r.outcome = Outcome::kCompileError;
      } else if (std::any_of(opts.begin(), opts.end(), [](const Opt& x) { return x.op == OptOps::THREAD; })) {
        r.outcome = Outcome::kWrongResult;
      } else {
        r.min_s = Time(opts);
        r.samples_s = {r.min_s};
      }
      r.min_s *= slowdown;
      for (double& x : r.samples_s) x *= slowdown;
      b.results.push_back(r);
    }
    return b;
  }

  double Time(const std::vector<Opt>& opts) const {
    double t = 1e-3;
    for (const Opt& o : opts) {
      const int64_t* amt = std::get_if<int64_t>(&o.arg);
      double f = (o.op == OptOps::UPCAST ? 0.5 : 0.9) + 0.01 * o.axis.value_or(0) + 0.001 * (amt ? *amt : 0);
      t *= f;
    }
    return opts.size() >= 3 ? 3 * t : t;
  }

  std::vector<std::vector<std::vector<Opt>>> batches;
  std::vector<MeasureOptions> options;  // of each batch
  std::optional<std::vector<Opt>> heuristic;
  double heuristic_time = 0;
  std::vector<double> final_slowdowns;  // of the interleaved batches, in order
  size_t final_batches = 0;
  std::map<size_t, double> batch_slowdowns;  // by batch index
};

const Renderer& Cpu() {
  absl::StatusOr<Device*> d = GetDevice("CPU");
  TG_CHECK(d.ok());
  return (*d)->renderer();
}

KernelTask Task(const UOp& ast) {
  absl::StatusOr<KernelTask> t = KernelTask::FromAst(ast);
  TG_CHECK(t.ok()) << t.status();
  return *t;
}

// Every SINK kernel of a built-in workload at its default sizes (inputs included).
std::vector<UOp> WorkloadKernels(std::string_view name) {
  const Workload* w = FindWorkload(name);
  TG_CHECK(w != nullptr) << name;
  WorkloadGraph g = w->build(w->Defaults());
  std::vector<UOp> roots;
  for (const Tensor& t : g.outputs) roots.push_back(t.uop());
  absl::StatusOr<Schedule> s = CreateScheduleWithVars(UOp::Sink(roots));
  TG_CHECK(s.ok()) << s.status();
  std::vector<UOp> asts;
  for (const ScheduleItem& item : s->items)
    if (item.ast.op() == Ops::SINK) asts.push_back(item.ast);
  return asts;
}

SearchSettings Width(int w) {
  SearchSettings s;
  s.width = w;
  return s;
}

TEST(BeamActionsTest, ReferenceList) {
  SearchSettings s;
  std::vector<Opt> a = BeamActions(s);
  // 48 UPCAST + 15 UNROLL + 42 LOCAL + 24 GROUPTOP + 12 GROUP + 2 LOCAL + 1 + 9 TC + 10 SWAP + 30 THREAD
  EXPECT_EQ(a.size(), 193u);
  EXPECT_EQ(a[0], (Opt{OptOps::UPCAST, 0, int64_t{0}}));
  s.padto = true;
  s.nolocals = true;
  std::vector<Opt> b = BeamActions(s);
  EXPECT_EQ(b.size(), 193u + 7 + 1);
  EXPECT_EQ(b.back().op, OptOps::NOLOCALS);
}

// BEAM_SIMD (ours) adds UPCAST by 8 and 16 on 8 axes and the two SIMD widths, after the
// reference's list, which stays as it was.
TEST(BeamActionsTest, SimdExtendsTheList) {
  SearchSettings s;
  s.simd = true;
  std::vector<Opt> a = BeamActions(s);
  ASSERT_EQ(a.size(), 193u + 16 + 2);
  EXPECT_EQ(std::vector<Opt>(a.begin(), a.begin() + 193), BeamActions(SearchSettings{}));
  EXPECT_EQ(a[193], (Opt{OptOps::UPCAST, 0, int64_t{8}}));
  EXPECT_EQ(a.back(), (Opt{OptOps::SIMD, std::nullopt, int64_t{16}}));
}

// An extension of ours (`tg tune --blocking`, `--pack`) appends `extra` actions of `op`, from
// `first` to `last`, after the reference's 193 and stays last when `also` is on too; without
// it the list has none.
void ExpectExtension(bool SearchSettings::*flag, bool SearchSettings::*also, size_t extra, const Opt& first,
                     const Opt& last) {
  SearchSettings s;
  s.*flag = true;
  std::vector<Opt> a = BeamActions(s);
  ASSERT_EQ(a.size(), 193u + extra);
  EXPECT_EQ(std::vector<Opt>(a.begin(), a.begin() + 193), BeamActions(SearchSettings{}));
  EXPECT_EQ(a[193], first);
  EXPECT_EQ(a.back(), last);
  s.*also = true;
  EXPECT_EQ(BeamActions(s).back(), last);
  for (const Opt& o : BeamActions(SearchSettings{})) EXPECT_NE(o.op, first.op);
}

// BLOCK by 1..64 on 3 axes, then K blocks of 128 and 256 on axes 2..5, after everything else
// (SIMD included).
TEST(BeamActionsTest, BlockingExtendsTheList) {
  ExpectExtension(&SearchSettings::block, &SearchSettings::simd, 21 + 8, Opt{OptOps::BLOCK, 0, int64_t{1}},
                  Opt{OptOps::BLOCK, 5, int64_t{256}});
}

// PACK of buffers 1..3, after BLOCK.
TEST(BeamActionsTest, PackExtendsTheList) {
  ExpectExtension(&SearchSettings::pack, &SearchSettings::block, 3, Opt{OptOps::PACK, std::nullopt, int64_t{1}},
                  Opt{OptOps::PACK, std::nullopt, int64_t{3}});
}

// The actions of `op` GetKernelActions offers on a 64 x 64 x 64 CPU matmul with `flag` on.
std::vector<Opt> OfferedOnMatmul64(bool SearchSettings::*flag, OptOps op) {
  Scheduler k(MatmulKernel(64), Cpu());
  k.ConvertLoopToGlobal();
  SearchSettings s;
  s.*flag = true;
  std::vector<Opt> actions = BeamActions(s), offered;
  for (const auto& [i, sched] : GetKernelActions(k, actions, s, false))
    if (actions[i - 1].op == op) offered.push_back(actions[i - 1]);
  return offered;
}

// On a CPU matmul, PACK is offered for its two inputs (64 x 64: small enough to copy whole),
// not for its output or a buffer it lacks.
TEST(GetKernelActionsTest, PackActionsOnACpuMatmul) {
  std::vector<int64_t> packed;
  for (const Opt& a : OfferedOnMatmul64(&SearchSettings::pack, OptOps::PACK)) packed.push_back(std::get<int64_t>(a.arg));
  EXPECT_EQ(packed, (std::vector<int64_t>{1, 2}));
}

// On a CPU matmul the BLOCK actions that divide an output loop or the reduce (K blocks) are
// offered: 1..32 on each axis of 64 (64 is a single block; 128 and 256 do not divide).
TEST(GetKernelActionsTest, BlockActionsOnCpuLoopsAndTheReduce) {
  const std::vector<Opt> blocks = OfferedOnMatmul64(&SearchSettings::block, OptOps::BLOCK);
  for (const Opt& a : blocks) EXPECT_LE(*a.axis, 2) << "axis 2 is the reduce";
  EXPECT_EQ(blocks.size(), 3u * 6);
}

// The GEMM opt (ours): BEAM tries the renderer's generated matmuls on a plain half matmul where
// the renderer has them (CUDA sm_90), as first opts only, and nowhere else.
std::vector<Opt> FirstRoundGemms(const UOp& ast, const char* arch) {
  const CudaRenderer ren(*ParseCudaArch(arch));
  FakeMeasurer m;
  SearchSettings s = Width(2);
  absl::StatusOr<BeamResult> r = BeamSearch(Task(ast), ren, m, s);
  EXPECT_TRUE(r.ok()) << r.status();
  std::vector<Opt> gemms;
  for (const auto& batch : m.batches)
    for (const std::vector<Opt>& opts : batch)
      for (size_t i = 0; i < opts.size(); ++i)
        if (opts[i].op == OptOps::GEMM) {
          EXPECT_EQ(opts.size(), 1u) << "GEMM is the only opt: " << Str(opts);
          gemms.push_back(opts[i]);
        }
  return gemms;
}

TEST(BeamSearchTest, GemmActionsOnlyOnHopperHalfMatmuls) {
  const std::vector<Opt> sm90 = FirstRoundGemms(MatmulKernel(256, dtypes::float16), "sm_90");
  EXPECT_GE(sm90.size(), 20u);
  for (const Opt& o : sm90) {
    const auto& [bm, bn, stages] = std::get<std::array<int64_t, 3>>(o.arg);
    EXPECT_EQ(256 % bm, 0) << o.ToString();
    EXPECT_EQ(256 % bn, 0) << o.ToString();
    EXPECT_GE(stages, 3) << o.ToString();
  }
  EXPECT_TRUE(FirstRoundGemms(MatmulKernel(256, dtypes::float16), "sm_89").empty());
  EXPECT_TRUE(FirstRoundGemms(MatmulKernel(256, dtypes::float32), "sm_90").empty());
}

TEST(GetKernelActionsTest, ValidActionsOnly) {
  Scheduler k(MatmulKernel(64), Cpu());
  k.ConvertLoopToGlobal();
  SearchSettings s;
  std::vector<Opt> actions = BeamActions(s);
  auto acted = GetKernelActions(k, actions, s);
  ASSERT_FALSE(acted.empty());
  EXPECT_EQ(acted[0].first, 0);
  for (size_t i = 1; i < acted.size(); ++i) {
    const Opt& a = actions[acted[i].first - 1];
    EXPECT_NE(a.op, OptOps::LOCAL) << "CPU has no locals";
    EXPECT_NE(a.op, OptOps::TC) << "CPU has no tensor cores";
    ASSERT_EQ(acted[i].second.applied_opts().size(), 1u);
    EXPECT_EQ(acted[i].second.applied_opts()[0], a);
  }
  // UPCAST by the whole axis is the arg-0 action: only one of the two
  auto has = [&](const Opt& o) {
    return std::any_of(acted.begin(), acted.end(), [&](const auto& p) { return p.first > 0 && actions[p.first - 1] == o; });
  };
  EXPECT_TRUE(has(Opt{OptOps::UPCAST, 0, int64_t{4}}));
  // BEAM_UPCAST_MAX: a max of 2 allows only 2-way upcasts
  s.upcast_max = 2;
  for (const auto& [i, sched] : GetKernelActions(k, actions, s, false)) {
    const Opt& a = actions[i - 1];
    if (a.op == OptOps::UPCAST || a.op == OptOps::UNROLL) {
      EXPECT_EQ(std::get<int64_t>(a.arg), 2) << a.ToString();
    }
  }
}

TEST(BeamSearchTest, FindsTheBestOnAFakeMeasurer) {
  FakeMeasurer m;
  absl::StatusOr<BeamResult> r = BeamSearch(Task(MatmulKernel(64)), Cpu(), m, Width(2));
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->opts.size(), 2u) << Str(r->opts);
  EXPECT_EQ(r->opts[0].op, OptOps::UPCAST);
  EXPECT_EQ(r->opts[1].op, OptOps::UPCAST);
  EXPECT_DOUBLE_EQ(r->time_s, m.Time(r->opts));
  EXPECT_DOUBLE_EQ(r->noopt_s, 1e-3);
  // round 3 (three opts) is slower than round 2: the search stops there
  EXPECT_EQ(r->rounds, 3);
  // failures were counted, and did not stop the search
  EXPECT_GT(r->outcomes[static_cast<int>(Outcome::kCompileError)], 0);
  EXPECT_GT(r->outcomes[static_cast<int>(Outcome::kWrongResult)], 0);
  EXPECT_GT(r->failed(), 0);
  EXPECT_EQ(r->candidates, r->timed + r->failed() + r->outcomes[static_cast<int>(Outcome::kDuplicate)]);
  EXPECT_GT(r->run_fraction(), 0);
}

// The name the engine's program gets when `ast` is lowered with `opts`, without colors (counts
// reset first, so no "n1" suffix).
std::string ProgramName(const UOp& ast, const std::vector<Opt>& opts) {
  KernelInfo ki;
  std::vector<Arg> args;
  for (const Opt& o : opts) args.push_back(OptToArg(o));
  ki.opts_to_apply = std::move(args);
  ResetKernelNameCounts();
  absl::StatusOr<ProgramSpec> p = GetProgram(ast.replace_arg(ki.ToArg()), Cpu());
  TG_CHECK(p.ok()) << p.status();
  return StripAnsi(p->name);
}

// The winner is named as its program will be (tinygrad's r_<sizes>), for the tuning record.
TEST(BeamSearchTest, NamesTheWinnerAsItsProgram) {
  FakeMeasurer m;
  const KernelTask task = Task(MatmulKernel(64));
  absl::StatusOr<BeamResult> r = BeamSearch(task, Cpu(), m, Width(2));
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->opts.size(), 2u) << Str(r->opts);
  EXPECT_EQ(r->kernel_name, ProgramName(task.ast, r->opts));
  EXPECT_TRUE(r->kernel_name.starts_with("r_")) << r->kernel_name;
  EXPECT_EQ(r->kernel_name.find('\x1b'), std::string::npos) << "no colors";
  EXPECT_NE(r->kernel_name, ProgramName(task.ast, {})) << "the winner's opts change the name";
  // A kernel that brings its own name keeps it.
  KernelInfo named{.name = "my_matmul"};
  absl::StatusOr<BeamResult> own =
      BeamSearch(Task(MatmulKernel(64).replace_arg(named.ToArg())), Cpu(), m, Width(2));
  ASSERT_TRUE(own.ok()) << own.status();
  EXPECT_EQ(own->kernel_name, "my_matmul");
}

// A final phase in which every finalist ran far slower than in the search was disturbed: it is
// measured again (once, by default), and each finalist keeps its best final time.
TEST(BeamSearchTest, ADisturbedFinalPhaseIsMeasuredAgain) {
  // the number of final phases, and the winner's and the unoptimized kernel's final times
  struct Final {
    size_t phases = 0;
    double time_s = 0, noopt_s = 0;
  };
  auto search = [](std::vector<double> slowdowns, int max_phases) {
    FakeMeasurer m;
    m.final_slowdowns = std::move(slowdowns);
    BeamOptions o;
    o.max_final_phases = max_phases;
    o.confirm_exit = false;  // its batches are interleaved too
    absl::StatusOr<BeamResult> r = BeamSearch(Task(MatmulKernel(64)), Cpu(), m, Width(2), o);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? Final{m.final_batches, r->time_s, r->noopt_s} : Final{};
  };
  const Final quiet = search({}, 2);
  ASSERT_EQ(quiet.phases, 1u);
  Final f = search({2.0, 1.0}, 2);  // disturbed, then quiet: the quiet times
  EXPECT_EQ(f.phases, 2u);
  EXPECT_DOUBLE_EQ(f.time_s, quiet.time_s);
  EXPECT_DOUBLE_EQ(f.noopt_s, quiet.noopt_s);
  f = search({1.2, 1.0}, 2);  // within the noise: not measured again
  EXPECT_EQ(f.phases, 1u);
  EXPECT_DOUBLE_EQ(f.time_s, 1.2 * quiet.time_s);
  f = search({2.0, 3.0, 1.0}, 2);  // at most max_final_phases, each finalist's best kept
  EXPECT_EQ(f.phases, 2u);
  EXPECT_DOUBLE_EQ(f.time_s, 2.0 * quiet.time_s);
  f = search({2.0, 1.0}, 1);
  EXPECT_EQ(f.phases, 1u);
  EXPECT_DOUBLE_EQ(f.time_s, 2.0 * quiet.time_s);
}

// A round measured while the machine was busy (3x slower) shows no progress. Re-timed with the
// beam's best, its best wins, and the search goes on to the best program (two UPCASTs); without
// the re-timing it ends at round 2 with one UPCAST.
TEST(BeamSearchTest, ARoundWithoutProgressIsReTimedBeforeTheSearchEnds) {
  FakeMeasurer quiet;
  absl::StatusOr<BeamResult> best = BeamSearch(Task(MatmulKernel(64)), Cpu(), quiet, Width(2));
  ASSERT_TRUE(best.ok()) << best.status();
  ASSERT_EQ(best->opts.size(), 2u);
  for (bool confirm : {true, false}) {
    FakeMeasurer m;
    m.batch_slowdowns[2] = 3;  // batch 0: the baselines, 1: round 1, 2: round 2
    BeamOptions o;
    o.confirm_exit = confirm;
    absl::StatusOr<BeamResult> r = BeamSearch(Task(MatmulKernel(64)), Cpu(), m, Width(2), o);
    ASSERT_TRUE(r.ok()) << r.status();
    if (confirm) {
      EXPECT_EQ(r->opts, best->opts) << Str(r->opts);
      EXPECT_DOUBLE_EQ(r->time_s, best->time_s);
      EXPECT_EQ(r->rounds, 3);
      // round 2's re-timing (the beam's best and round 2's best two) came right after it
      ASSERT_GE(m.batches.size(), 4u);
      EXPECT_TRUE(m.options[3].interleaved);
      EXPECT_EQ(m.batches[3].size(), 3u);
      EXPECT_EQ(m.batches[3][0].size(), 1u);  // the beam's best: round 1's
      EXPECT_EQ(r->candidates, best->candidates);  // re-timed programs are not counted again
    } else {
      EXPECT_EQ(r->opts.size(), 1u) << Str(r->opts);
      EXPECT_EQ(r->rounds, 2);
    }
  }
}

TEST(BeamSearchTest, WidthKeepsTheBestN) {
  for (int width : {1, 2, 4}) {
    SCOPED_TRACE(width);
    FakeMeasurer m;
    absl::StatusOr<BeamResult> r = BeamSearch(Task(MatmulKernel(64)), Cpu(), m, Width(width));
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_GE(m.batches.size(), 3u);  // baselines, round 1, round 2, ...
    // the round-1 candidates ranked by time: the round-2 parents are the best `width`
    std::vector<std::pair<double, std::vector<Opt>>> ranked;
    for (const std::vector<Opt>& c : m.batches[1])
      if (c[0].op != OptOps::UNROLL && c[0].op != OptOps::THREAD) ranked.emplace_back(m.Time(c), c);
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::set<std::string> parents;
    for (const std::vector<Opt>& c : m.batches[2]) parents.insert(Str({c[0]}));
    std::set<std::string> best;
    for (int i = 0; i < width; ++i) best.insert(Str(ranked[i].second));
    EXPECT_EQ(parents, best);
  }
}

TEST(BeamSearchTest, MinProgressStopsEarly) {
  FakeMeasurer m;
  SearchSettings s = Width(2);
  s.min_progress_us = 300;  // round 2 gains ~250 us: not enough
  absl::StatusOr<BeamResult> r = BeamSearch(Task(MatmulKernel(64)), Cpu(), m, s);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->rounds, 2);
  // the round that ended the search still improved the best
  EXPECT_EQ(r->opts.size(), 2u) << Str(r->opts);
}

TEST(BeamSearchTest, HeuristicIsAlwaysACandidate) {
  FakeMeasurer m;
  m.heuristic = std::vector<Opt>{Opt{OptOps::UNROLL, 0, int64_t{0}}, Opt{OptOps::UPCAST, 1, int64_t{2}}};
  m.heuristic_time = 1e-6;  // better than anything the search can reach... and never generated by it
  std::vector<BeamProgress> progress;
  BeamOptions o;
  o.heuristic_opts = m.heuristic;
  o.progress = [&](const BeamProgress& p) { progress.push_back(p); };
  absl::StatusOr<BeamResult> r = BeamSearch(Task(MatmulKernel(64)), Cpu(), m, Width(2), o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->opts, *m.heuristic);
  EXPECT_DOUBLE_EQ(r->time_s, 1e-6);
  EXPECT_DOUBLE_EQ(r->heuristic_s, 1e-6);
  ASSERT_GE(r->finalists.size(), 3u);
  EXPECT_EQ(r->finalists[0].kind, "noopt");
  EXPECT_EQ(r->finalists[1].kind, "heuristic");
  EXPECT_EQ(r->finalists[2].kind, "beam");
  // the last batch re-measured the finalists within 3x of the best (here only the heuristic);
  // the others keep their search times
  size_t close = 0;
  for (const Finalist& f : r->finalists) {
    if (f.search_s <= 3e-6) ++close;
    else EXPECT_DOUBLE_EQ(f.final_s, f.search_s) << f.kind;
  }
  EXPECT_EQ(close, 1u);
  EXPECT_EQ(m.batches.back().size(), close);
  ASSERT_GE(progress.size(), 4u);
  EXPECT_EQ(progress.front().phase, BeamProgress::Phase::kBaseline);
  EXPECT_EQ(progress.back().phase, BeamProgress::Phase::kDone);
  EXPECT_DOUBLE_EQ(progress.back().best_s, 1e-6);
  for (size_t i = 1; i < progress.size(); ++i) EXPECT_LE(progress[i].best_s, progress[i - 1].best_s);
}

// Both tuners start a search here: the task lowers with the given options, the heuristic's
// opts (for those options) are a candidate, the caller's other options are kept.
TEST(BeamSearchTest, StartSearchTakesTheHeuristicsOpts) {
  UOp ast = MatmulKernel(32);
  CodegenOptions codegen;
  codegen.devectorize = 0;
  absl::StatusOr<SearchStart> start = StartSearch(ast, Cpu(), codegen, BeamOptions{.debug = 2});
  ASSERT_TRUE(start.ok()) << start.status();
  EXPECT_EQ(start->task.codegen, codegen);
  EXPECT_EQ(start->options.debug, 2);
  absl::StatusOr<std::vector<Opt>> h = HeuristicOpts(ast, Cpu(), codegen);
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_FALSE(h->empty());
  EXPECT_EQ(start->options.heuristic_opts, *h);
}

// The baselines are one batch, the heuristic first: with keep 1 and refine_ratio 3, the
// measurer stops the unoptimized kernel's first run at 3x the heuristic's time (a slow
// unoptimized kernel stops early instead of running all its timed runs).
TEST(BeamSearchTest, HeuristicBoundsTheUnoptimizedBaseline) {
  FakeMeasurer m;
  m.heuristic = std::vector<Opt>{Opt{OptOps::UPCAST, 0, int64_t{4}}};
  m.heuristic_time = 2e-4;
  BeamOptions o;
  o.heuristic_opts = m.heuristic;
  absl::StatusOr<BeamResult> r = BeamSearch(Task(MatmulKernel(64)), Cpu(), m, Width(2), o);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_GE(m.batches.size(), 3u);
  EXPECT_EQ(m.batches[0], (std::vector<std::vector<Opt>>{*m.heuristic, {}}));
  EXPECT_EQ(m.options[0].keep, 1);
  EXPECT_DOUBLE_EQ(m.options[0].refine_ratio, 3);
  EXPECT_EQ(m.options[0].early_stop_s, kInf);
  ASSERT_GE(r->finalists.size(), 2u);
  EXPECT_EQ(r->finalists[0].kind, "noopt");
  EXPECT_DOUBLE_EQ(r->finalists[0].search_s, 1e-3);
  EXPECT_EQ(r->finalists[1].kind, "heuristic");
  EXPECT_DOUBLE_EQ(r->finalists[1].search_s, 2e-4);
}

// The baselines do not hide their programs from the search: the heuristic's program, found
// again in round 1, is timed there and becomes a beam parent.
TEST(BeamSearchTest, HeuristicProgramStaysInTheSearch) {
  // round 1's best, from a search without a heuristic
  FakeMeasurer plain;
  ASSERT_TRUE(BeamSearch(Task(MatmulKernel(64)), Cpu(), plain, Width(2)).ok());
  std::vector<Opt> best_first;
  for (const std::vector<Opt>& c : plain.batches[1])
    if (c[0].op == OptOps::UPCAST && (best_first.empty() || plain.Time(c) < plain.Time(best_first))) best_first = c;
  ASSERT_EQ(best_first.size(), 1u);
  FakeMeasurer m;
  m.heuristic = best_first;
  m.heuristic_time = m.Time(best_first);
  BeamOptions o;
  o.heuristic_opts = m.heuristic;
  absl::StatusOr<BeamResult> r = BeamSearch(Task(MatmulKernel(64)), Cpu(), m, Width(2), o);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_GE(m.batches.size(), 3u);
  EXPECT_TRUE(std::any_of(m.batches[2].begin(), m.batches[2].end(),
                          [&](const std::vector<Opt>& c) { return c[0] == best_first[0]; }));
  EXPECT_EQ(r->opts.size(), 2u) << Str(r->opts);
}

// Two searches stepped alternately (as a coordinator would) end as each alone.
TEST(BeamSearcherTest, InterleavedSearchesMatchSolo) {
  KernelTask a = Task(MatmulKernel(64)), b = Task(SumKernel(64, 256));
  FakeMeasurer solo;
  absl::StatusOr<BeamResult> ra = BeamSearch(a, Cpu(), solo, Width(2));
  absl::StatusOr<BeamResult> rb = BeamSearch(b, Cpu(), solo, Width(2));
  ASSERT_TRUE(ra.ok() && rb.ok());
  FakeMeasurer m;
  absl::StatusOr<std::unique_ptr<BeamSearcher>> pa = BeamSearcher::Create(a, Cpu(), Width(2));
  absl::StatusOr<std::unique_ptr<BeamSearcher>> pb = BeamSearcher::Create(b, Cpu(), Width(2));
  ASSERT_TRUE(pa.ok() && pb.ok());
  BeamSearcher& sa = **pa;
  BeamSearcher& sb = **pb;
  while (!sa.done() || !sb.done()) {
    for (BeamSearcher* s : {&sa, &sb}) {
      std::optional<BeamRequest> req = s->Next();
      if (!req) continue;
      absl::StatusOr<MeasureBatch> batch = m.Measure(s->task(), req->candidates, req->options);
      ASSERT_TRUE(batch.ok());
      s->Feed(*batch);
    }
  }
  EXPECT_EQ(sa.result().opts, ra->opts);
  EXPECT_EQ(sa.result().rounds, ra->rounds);
  EXPECT_EQ(sb.result().opts, rb->opts);
  EXPECT_EQ(sb.result().candidates, rb->candidates);
  EXPECT_FALSE(sa.Next().has_value());
}

// The search's Scheduler starts from the AST apply_opts sees inside GetProgram, so every action
// it finds valid also applies when the measurer lowers it (attention has kernels where the range
// passes before apply_opts change the shape).
TEST(BeamSearchTest, ValidActionsLowerOnTheRealMeasurer) {
  absl::StatusOr<std::unique_ptr<LocalMeasurer>> m = LocalMeasurer::Create();
  ASSERT_TRUE(m.ok()) << m.status();
  SearchSettings s;
  std::vector<Opt> actions = BeamActions(s);
  int checked = 0;
  for (const UOp& ast : WorkloadKernels("attention")) {
    absl::StatusOr<UOp> input = OptimizerInput(ast, Cpu(), CodegenOptions{});
    ASSERT_TRUE(input.ok()) << input.status();
    Scheduler k(*input, Cpu());
    k.ConvertLoopToGlobal();
    std::vector<std::vector<Opt>> cands;
    for (const auto& [i, child] : GetKernelActions(k, actions, s, /*include_0=*/false))
      if (cands.size() < 8) cands.push_back(child.applied_opts());  // the UPCASTs: where shapes differed
    MeasureOptions o;
    o.uops_max = 1;  // lowering is the check: reject everything before compiling
    absl::StatusOr<MeasureBatch> b = (*m)->Measure(Task(ast), cands, o);
    ASSERT_TRUE(b.ok()) << b.status();
    for (size_t i = 0; i < cands.size(); ++i) {
      EXPECT_NE(b->results[i].outcome, Outcome::kInvalidOpts) << Str(cands[i]) << ": " << b->results[i].error;
      checked += 1;
    }
  }
  EXPECT_GT(checked, 20);
}

// A kernel written by hand (a custom kernel's AST: placeholders, AFTERs of its stores) is
// searched like a scheduled one, every candidate checked against it unoptimized.
TEST(BeamSearchTest, RealSearchOnAHandWrittenGemm) {
  absl::StatusOr<std::unique_ptr<LocalMeasurer>> m = LocalMeasurer::Create();
  ASSERT_TRUE(m.ok()) << m.status();
  const int64_t n = 32;
  UOp c = Placeholder({n, n}, dtypes::float32, 0);
  UOp a = Placeholder({n, n}, dtypes::float32, 1), b = Placeholder({n, n}, dtypes::float32, 2);
  UOp i = UOp::Range(n, 0), j = UOp::Range(n, 1), k = UOp::Range(n, 2, AxisType::REDUCE);
  c = Set(At(c, {i, j}), 0.0);
  c = Set(At(c, {i, j}), At(c.after({k}), {i, j}) + At(a, {i, k}) * At(b, {k, j}), {k});
  UOp ast = KernelSink({c.end({i, j})}, {.name = "custom_gemm"});
  absl::StatusOr<BeamResult> r = BeamSearch(Task(ast), Cpu(), **m, Width(2));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_GT(r->timed, 2);
  EXPECT_LT(r->time_s, kInf);
  EXPECT_LE(r->time_s, r->noopt_s);
  EXPECT_EQ(r->outcomes[static_cast<int>(Outcome::kWrongResult)], 0);
}

// The real thing, small: never slower than the heuristic's opts or the unoptimized kernel.
TEST(BeamSearchTest, RealSearchOnASmallMatmul) {
  absl::StatusOr<std::unique_ptr<LocalMeasurer>> m = LocalMeasurer::Create();
  ASSERT_TRUE(m.ok()) << m.status();
  KernelTask task = Task(MatmulKernel(32));
  BeamOptions o;
  absl::StatusOr<std::vector<Opt>> h = HeuristicOpts(task.ast, Cpu(), task.codegen);
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_FALSE(h->empty());
  // the same opts GetProgram applies by default
  absl::StatusOr<ProgramSpec> by_default = GetProgram(task.ast, Cpu());
  ASSERT_TRUE(by_default.ok()) << by_default.status();
  std::vector<Arg> want;
  for (const Opt& x : *h) want.push_back(OptToArg(x));
  EXPECT_EQ(by_default->applied_opts, want);
  o.heuristic_opts = *h;
  absl::StatusOr<BeamResult> r = BeamSearch(task, Cpu(), **m, Width(2), o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_GT(r->timed, 10);
  EXPECT_LT(r->time_s, kInf);
  EXPECT_LE(r->time_s, r->heuristic_s);
  EXPECT_LE(r->time_s, r->noopt_s);
  EXPECT_EQ(r->outcomes[static_cast<int>(Outcome::kWrongResult)], 0);
  EXPECT_GT(r->prepare_wall_s, 0);
  EXPECT_GT(r->run_wall_s, 0);
}

}  // namespace
}  // namespace tg::autotune
