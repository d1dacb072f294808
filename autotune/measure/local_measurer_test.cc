// File: autotune/measure/local_measurer_test.cc
// The in-process measurer on real small kernels: timings, and each failure kind it reports.
#include "autotune/measure/local_measurer.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "autotune/measure/output_check.h"
#include "autotune/measure/test_kernels.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/clock.h"
#include "tinygrad/engine/scripted_device.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tg::autotune {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const Opt kUpcast0By4{OptOps::UPCAST, 0, int64_t{4}};
const Opt kUnroll0By4{OptOps::UNROLL, 0, int64_t{4}};

std::unique_ptr<LocalMeasurer> MakeMeasurer() {
  absl::StatusOr<std::unique_ptr<LocalMeasurer>> m = LocalMeasurer::Create();
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? *std::move(m) : nullptr;
}

KernelTask Task(const UOp& ast) {
  absl::StatusOr<KernelTask> t = KernelTask::FromAst(ast);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *t : KernelTask{};
}

std::string Describe(const CandidateResult& r) {
  return std::string(OutcomeName(r.outcome)) + ": " + r.error;
}

TEST(KernelTaskTest, BuffersFromTheAst) {
  KernelTask t = Task(MatmulKernel(16));
  ASSERT_EQ(t.buffers.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(t.buffers[i].slot, static_cast<int64_t>(i));
    EXPECT_EQ(t.buffers[i].dtype, dtypes::float32);
    EXPECT_EQ(t.buffers[i].size, 256);
  }
  EXPECT_TRUE(t.var_vals.empty());
  EXPECT_FALSE(KernelTask::FromAst(UOp()).ok());
}

// A decoded AST may hold what no scheduler writes: a DEFINE_GLOBAL whose arg is no slot number
// (lowering_fuzz_test's mutants made one None), a variable past int64. Errors, not a CHECK.
TEST(KernelTaskTest, SlotsAndBoundsPastInt64AreErrors) {
  auto kernel = [](const Arg& slot, const UOp& n) {
    DType p = dtypes::float32.ptr(16);
    UOp g = UOp::Make(Ops::DEFINE_GLOBAL, p, {}, slot);
    UOp r = UOp::Make(Ops::RANGE, dtypes::index, {n}, Arg::Tuple({0, AxisType::LOOP}));
    UOp st = UOp::Make(Ops::STORE, dtypes::void_, {UOp::Make(Ops::INDEX, p, {g, r}), UOp::Const(dtypes::float32, 1.0)});
    return UOp::Make(Ops::SINK, dtypes::void_, {UOp::Make(Ops::END, dtypes::void_, {st, r})});
  };
  const UOp sixteen = UOp::Const(dtypes::index, 16);
  EXPECT_TRUE(KernelTask::FromAst(kernel(0, sixteen)).ok());
  absl::StatusOr<KernelTask> none = KernelTask::FromAst(kernel(Arg(), sixteen));
  EXPECT_EQ(none.status().message(), "DEFINE_GLOBAL None is not a slot number");
  EXPECT_FALSE(KernelTask::FromAst(kernel(Arg(ConstValue(i128{1} << 100)), sixteen)).ok());
  UOp huge = UOp::Make(Ops::DEFINE_VAR, dtypes::index, {}, Arg::Tuple({"n", 1, ConstValue(i128{1} << 100)}));
  absl::StatusOr<KernelTask> var = KernelTask::FromAst(kernel(0, huge));
  EXPECT_EQ(var.status().message(), "DEFINE_VAR ('n', 1, 1267650600228229401496703205376) has bounds past int64");
}

// A kernel over a symbolic size runs with the variable at (vmin+vmax)/2, as beam_search.
TEST(LocalMeasurerTest, SymbolicKernelRunsAtTheMidValue) {
  Variable n("n", 1, 63);
  Tensor x = Tensor::Empty(std::vector<int64_t>{64, 16}).shrink({{0, n.bind(10)}, {0, 16}}).sum(1);
  KernelTask task = Task(LastKernelAst(x));
  ASSERT_EQ(task.var_vals.size(), 1u);
  EXPECT_EQ(task.var_vals[0], (std::pair<std::string, int64_t>{"n", 32}));
  std::unique_ptr<LocalMeasurer> m = MakeMeasurer();
  ASSERT_NE(m, nullptr);
  std::vector<std::vector<Opt>> cands = {{}, {Opt{OptOps::UNROLL, 0, int64_t{4}}}};
  absl::StatusOr<MeasureBatch> b = m->Measure(task, cands, MeasureOptions{});
  ASSERT_TRUE(b.ok()) << b.status();
  for (const CandidateResult& r : b->results) EXPECT_EQ(r.outcome, Outcome::kOk) << Describe(r);
}

// Each kernel times the unoptimized form and a few opt lists.
struct KernelCase {
  const char* name;
  UOp (*make)();
  std::vector<std::vector<Opt>> opts;
};

TEST(LocalMeasurerTest, TimesRealKernels) {
  std::vector<KernelCase> cases = {
      {"add", [] { return AddKernel(4096); }, {{}, {kUpcast0By4}}},
      {"sum", [] { return SumKernel(64, 256); }, {{}, {kUpcast0By4}, {kUnroll0By4}}},
      {"matmul", [] { return MatmulKernel(64); }, {{}, {kUpcast0By4}, {kUnroll0By4}, {kUpcast0By4, kUnroll0By4}}},
  };
  std::unique_ptr<LocalMeasurer> m = MakeMeasurer();
  ASSERT_NE(m, nullptr);
  for (const KernelCase& c : cases) {
    SCOPED_TRACE(c.name);
    absl::StatusOr<MeasureBatch> b = m->Measure(Task(c.make()), c.opts, MeasureOptions{});
    ASSERT_TRUE(b.ok()) << b.status();
    ASSERT_EQ(b->results.size(), c.opts.size());
    for (const CandidateResult& r : b->results) {
      EXPECT_EQ(r.outcome, Outcome::kOk) << Describe(r);
      EXPECT_EQ(r.samples_s.size(), 3u);
      EXPECT_GT(r.min_s, 0);
      EXPECT_LT(r.min_s, 1);
      EXPECT_NE(r.program_hash, 0u);
      EXPECT_GT(r.uops, 0);
      EXPECT_GT(r.cost.lower_s, 0);
      EXPECT_GT(r.cost.lower_cpu_s, 0);
      EXPECT_GT(r.cost.compile_s, 0);
      EXPECT_GT(r.cost.run_s, 0);
    }
    EXPECT_GT(b->prepare_wall_s, 0);
    EXPECT_GT(b->run_wall_s, 0);
  }
}

// Lowering and compiling on 8 threads gives the same programs as on one (the pipeline, the
// interning tables and the compiler are shared between the threads).
TEST(LocalMeasurerTest, ParallelPreparationMatchesSerial) {
  absl::StatusOr<Device*> dev = GetDevice("CPU");
  ASSERT_TRUE(dev.ok());
  std::vector<std::vector<Opt>> cands;
  for (int64_t a : {2, 4, 8})
    for (int64_t b : {2, 4})
      cands.push_back({Opt{OptOps::UPCAST, 0, a}, Opt{OptOps::UNROLL, 0, b}});
  cands.push_back({Opt{OptOps::UPCAST, 1, int64_t{4}}});
  cands.push_back({});
  KernelTask task = Task(MatmulKernel(32));
  LocalMeasurer serial(*dev, {.compile_threads = 1}), parallel(*dev, {.compile_threads = 8});
  MeasureOptions o;
  o.runs = 1;
  absl::StatusOr<MeasureBatch> a = serial.Measure(task, cands, o);
  absl::StatusOr<MeasureBatch> b = parallel.Measure(task, cands, o);
  ASSERT_TRUE(a.ok() && b.ok());
  for (size_t i = 0; i < cands.size(); ++i) {
    EXPECT_EQ(a->results[i].outcome, Outcome::kOk) << Describe(a->results[i]);
    EXPECT_EQ(b->results[i].outcome, Outcome::kOk) << Describe(b->results[i]);
    EXPECT_EQ(a->results[i].program_hash, b->results[i].program_hash) << i;
    EXPECT_EQ(a->results[i].uops, b->results[i].uops) << i;
  }
}

// Counts the clock readings of threads that ran prepare_thread_setup and of the others: the
// measurer reads the clock around each lowering and each compile, and around the device phase.
class ThreadRecordingClock : public Clock {
 public:
  static thread_local bool prepared;
  TimePoint Now() override {
    (prepared ? on_prepared_ : on_others_).fetch_add(1);
    return Clock::Real().Now();
  }
  void SleepFor(Duration d) override { Clock::Real().SleepFor(d); }
  int64_t on_prepared() const { return on_prepared_.load(); }
  int64_t on_others() const { return on_others_.load(); }

 private:
  std::atomic<int64_t> on_prepared_{0}, on_others_{0};
};
thread_local bool ThreadRecordingClock::prepared = false;

// With prepare_thread_setup, every candidate is lowered and compiled on a thread that ran it
// (a worker's child lowers their priority there) and timed on the calling thread, which never
// runs it: the same programs as without it.
TEST(LocalMeasurerTest, PreparationRunsOnSetUpThreadsAndTimingOnTheCaller) {
  absl::StatusOr<Device*> dev = GetDevice("CPU");
  ASSERT_TRUE(dev.ok());
  std::vector<std::vector<Opt>> cands = {{}, {Opt{OptOps::UPCAST, 0, int64_t{4}}}, {Opt{OptOps::UNROLL, 0, int64_t{4}}}};
  KernelTask task = Task(MatmulKernel(32));
  ThreadRecordingClock clock;
  std::atomic<int> setups{0};
  std::atomic<bool> timed_on_a_prepared_thread{false};
  for (int threads : {1, 3}) {
    LocalMeasurer plain(*dev, {.compile_threads = threads});
    LocalMeasurer split(*dev, {.compile_threads = threads,
                               .acquire_device = [&] { timed_on_a_prepared_thread = ThreadRecordingClock::prepared; },
                               .prepare_thread_setup =
                                   [&] {
                                     ThreadRecordingClock::prepared = true;
                                     ++setups;
                                   },
                               .clock = &clock});
    MeasureOptions o;
    o.runs = 1;
    absl::StatusOr<MeasureBatch> a = plain.Measure(task, cands, o);
    const int64_t prepared_before = clock.on_prepared();
    absl::StatusOr<MeasureBatch> b = split.Measure(task, cands, o);
    ASSERT_TRUE(a.ok() && b.ok());
    for (size_t i = 0; i < cands.size(); ++i) {
      EXPECT_EQ(b->results[i].outcome, Outcome::kOk) << Describe(b->results[i]);
      EXPECT_EQ(a->results[i].program_hash, b->results[i].program_hash) << i;
    }
    // Each candidate's lowering and compile are timed where they ran: on set-up threads.
    EXPECT_GE(clock.on_prepared() - prepared_before, static_cast<int64_t>(4 * cands.size())) << threads;
    EXPECT_FALSE(timed_on_a_prepared_thread) << threads;
    EXPECT_FALSE(ThreadRecordingClock::prepared) << "the calling thread ran the setup";
  }
  EXPECT_GE(setups.load(), 2 * 2);  // both phases, both widths: a thread each at least
}

// With the machine's device lock, nothing runs while another process (here: a thread with
// its own hold) compiles, and the measurer's own compiles share the device with it.
TEST(LocalMeasurerTest, RunsWaitForTheDeviceLock) {
  absl::StatusOr<Device*> dev = GetDevice("CPU");
  ASSERT_TRUE(dev.ok());
  const char* tmp = std::getenv("TEST_TMPDIR");
  absl::StatusOr<std::shared_ptr<DeviceLock>> lock =
      DeviceLock::Open(std::string(tmp != nullptr ? tmp : "/tmp") + "/measurer-device.lock");
  ASSERT_TRUE(lock.ok()) << lock.status();
  std::atomic<int> acquired{0}, released{0};
  LocalMeasurer m(*dev, {.device_lock = *lock,
                         .acquire_device = [&] { ++acquired; },
                         .release_device = [&] { ++released; }});
  absl::StatusOr<DeviceLock::Hold> other_compile = (*lock)->Shared();
  ASSERT_TRUE(other_compile.ok());
  std::vector<std::vector<Opt>> cands = {{}, {kUpcast0By4}};
  auto measured = std::async(std::launch::async, [&] { return m.Measure(Task(MatmulKernel(32)), cands, {}); });
  EXPECT_EQ(measured.wait_for(std::chrono::milliseconds(300)), std::future_status::timeout)
      << "measured while another holder compiled";
  EXPECT_EQ(acquired.load(), 0);
  *other_compile = DeviceLock::Hold();
  absl::StatusOr<MeasureBatch> b = measured.get();
  ASSERT_TRUE(b.ok()) << b.status();
  for (const CandidateResult& r : b->results) EXPECT_EQ(r.outcome, Outcome::kOk) << Describe(r);
  EXPECT_EQ(acquired.load(), 1);
  EXPECT_EQ(released.load(), 1);
  // and the lock is free again
  absl::StatusOr<DeviceLock::Hold> after = (*lock)->Exclusive();
  EXPECT_TRUE(after.ok());
}

TEST(LocalMeasurerTest, InvalidOptsAreAFailureNotAnError) {
  std::unique_ptr<LocalMeasurer> m = MakeMeasurer();
  ASSERT_NE(m, nullptr);
  std::vector<std::vector<Opt>> cands = {{Opt{OptOps::UPCAST, 9, int64_t{4}}},  // no axis 9
                                         {Opt{OptOps::UPCAST, 0, int64_t{7}}},  // 7 does not divide 64
                                         {Opt{OptOps::LOCAL, 0, int64_t{4}}},   // CPU has no locals
                                         {}};
  absl::StatusOr<MeasureBatch> b = m->Measure(Task(MatmulKernel(64)), cands, MeasureOptions{});
  ASSERT_TRUE(b.ok()) << b.status();
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(b->results[i].outcome, Outcome::kInvalidOpts) << i << " " << Describe(b->results[i]);
    EXPECT_TRUE(b->results[i].samples_s.empty());
  }
  EXPECT_EQ(b->results[3].outcome, Outcome::kOk) << Describe(b->results[3]);
}

TEST(LocalMeasurerTest, DuplicatesAreTimedOnce) {
  std::unique_ptr<LocalMeasurer> m = MakeMeasurer();
  ASSERT_NE(m, nullptr);
  KernelTask task = Task(SumKernel(64, 256));
  std::vector<std::vector<Opt>> cands = {{}, {kUpcast0By4}, {}};
  absl::StatusOr<MeasureBatch> b = m->Measure(task, cands, MeasureOptions{});
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b->results[0].outcome, Outcome::kOk);
  EXPECT_EQ(b->results[2].outcome, Outcome::kDuplicate);
  EXPECT_EQ(b->results[2].duplicate_of, 0);
  EXPECT_EQ(b->results[2].program_hash, b->results[0].program_hash);
  EXPECT_NE(b->results[1].program_hash, b->results[0].program_hash);

  MeasureOptions known;
  known.known_programs.insert(b->results[1].program_hash);
  absl::StatusOr<MeasureBatch> again = m->Measure(task, std::vector<std::vector<Opt>>{{kUpcast0By4}}, known);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->results[0].outcome, Outcome::kDuplicate);
  EXPECT_EQ(again->results[0].duplicate_of, -1);
}

TEST(LocalMeasurerTest, EarlyExitKeepsTheFirstSample) {
  std::unique_ptr<LocalMeasurer> m = MakeMeasurer();
  ASSERT_NE(m, nullptr);
  MeasureOptions o;
  o.early_stop_s = 1e-12;  // everything is slower than this
  absl::StatusOr<MeasureBatch> b = m->Measure(Task(MatmulKernel(64)), std::vector<std::vector<Opt>>{{}}, o);
  ASSERT_TRUE(b.ok()) << b.status();
  const CandidateResult& r = b->results[0];
  EXPECT_EQ(r.outcome, Outcome::kTooSlow) << Describe(r);
  EXPECT_TRUE(r.timed());
  EXPECT_EQ(r.samples_s.size(), 1u);
  EXPECT_EQ(r.min_s, r.samples_s[0]);
}

// On the real device and clock, what holds on any machine: the unoptimized 256 matmul (many
// milliseconds on any CPU) is cut short at a 1 ms limit instead of running to its end.
TEST(LocalMeasurerTest, RunPastTheEarlyStopIsStoppedThere) {
  std::unique_ptr<LocalMeasurer> m = MakeMeasurer();
  ASSERT_NE(m, nullptr);
  MeasureOptions o;
  o.early_stop_s = 1e-3;
  absl::StatusOr<MeasureBatch> b = m->Measure(Task(MatmulKernel(256)), std::vector<std::vector<Opt>>{{}}, o);
  ASSERT_TRUE(b.ok()) << b.status();
  const CandidateResult& r = b->results[0];
  EXPECT_EQ(r.outcome, Outcome::kTooSlow) << Describe(r);
  EXPECT_THAT(r.error, HasSubstr("run stopped after"));
  ASSERT_EQ(r.samples_s.size(), 1u);
  EXPECT_GE(r.min_s, o.early_stop_s);
}

// ** The timing policy, on scripted run times (ScriptedDevice on a FakeClock) **
// Each candidate's runs take the times the script says, whatever the CPU: the outcomes below
// are exact on any machine, loaded or not.

const std::vector<Opt> kTiled = {kUpcast0By4, Opt{OptOps::UPCAST, 1, int64_t{4}}, kUnroll0By4};

// A LocalMeasurer on the CPU whose runs take scripted times.
class ScriptedMeasurer {
 public:
  explicit ScriptedMeasurer(ScriptedDevice::Script script)
      : device_(Cpu(), clock_, std::move(script)), measurer_(&device_, {.clock = &clock_}) {}
  absl::StatusOr<MeasureBatch> Measure(const UOp& ast, const std::vector<std::vector<Opt>>& cands,
                                       const MeasureOptions& o) {
    return measurer_.Measure(Task(ast), cands, o);
  }

 private:
  static Device* Cpu() {
    absl::StatusOr<Device*> dev = GetDevice("CPU");
    TG_CHECK(dev.ok()) << dev.status();
    return *dev;
  }
  FakeClock clock_;
  ScriptedDevice device_;
  LocalMeasurer measurer_;
};

// Seconds by candidate: the unoptimized kernel, the tiled one, anything else (the reference).
ScriptedDevice::Script Times(double noopt_s, double tiled_s, double other_s = 1e-4) {
  return [=](const ScriptedRun& r) { return r.opts.empty() ? noopt_s : r.opts == kTiled ? tiled_s : other_s; };
}

// A stopped run that wrote part of its outputs reports the time its progress implies: a 10 ms
// run stopped at 2.5 ms has written a quarter of its outputs.
TEST(LocalMeasurerPolicyTest, StoppedRunWithProgressGetsAnEstimate) {
  ScriptedMeasurer m(Times(10e-3, 1e-3));
  MeasureOptions o;
  o.early_stop_s = 2.5e-3;
  absl::StatusOr<MeasureBatch> b = m.Measure(MatmulKernel(64), {{}}, o);
  ASSERT_TRUE(b.ok()) << b.status();
  const CandidateResult& r = b->results[0];
  EXPECT_EQ(r.outcome, Outcome::kTooSlow) << Describe(r);
  EXPECT_THAT(r.error, HasSubstr("run stopped after 0.0025 s at its limit 0.0025 s, 25% done: about 0.01"))
      << Describe(r);
  ASSERT_EQ(r.samples_s.size(), 1u);
  EXPECT_NEAR(r.min_s, 10e-3, 1e-4);  // (a few outputs may equal their random reset value)
}

// One output, written at the very end: a stopped run tells nothing but "slower than the
// limit". The caller keeps 2, so both candidates run again with 3x longer limits (1, 3, 9, 27,
// 81 us) until each has a measured time.
TEST(LocalMeasurerPolicyTest, StoppedRunsWithoutProgressRunAgainUntilEnoughAreRanked) {
  const std::vector<std::vector<Opt>> cands = {{}, {kUnroll0By4}};
  ScriptedDevice::Script script = [](const ScriptedRun& r) { return r.opts.empty() ? 50e-6 : 30e-6; };
  MeasureOptions o;
  o.early_stop_s = 1e-6;
  o.keep = 2;
  {
    ScriptedMeasurer m(script);
    absl::StatusOr<MeasureBatch> b = m.Measure(SumKernel(1, 1 << 12), cands, o);
    ASSERT_TRUE(b.ok()) << b.status();
    for (size_t i = 0; i < 2; ++i) {
      const CandidateResult& r = b->results[i];
      EXPECT_EQ(r.outcome, Outcome::kTooSlow) << Describe(r);
      EXPECT_THAT(r.error, HasSubstr("first run")) << Describe(r);  // measured, not stopped
      EXPECT_EQ(r.samples_s, std::vector<double>{i == 0 ? 50e-6 : 30e-6});
    }
  }
  // Keeping none, nobody runs again: the stopped times stay lower bounds.
  o.keep = 0;
  ScriptedMeasurer m(script);
  absl::StatusOr<MeasureBatch> b = m.Measure(SumKernel(1, 1 << 12), cands, o);
  ASSERT_TRUE(b.ok()) << b.status();
  for (const CandidateResult& r : b->results) {
    EXPECT_EQ(r.outcome, Outcome::kTooSlow) << Describe(r);
    EXPECT_THAT(r.error, HasSubstr("run stopped after 1e-06 s at its limit 1e-06 s")) << Describe(r);
    EXPECT_THAT(r.error, Not(HasSubstr("done"))) << Describe(r);
  }
}

// Only candidates near the batch's best first run get the rest of their runs.
TEST(LocalMeasurerPolicyTest, FarBehindOnTheFirstRunKeepsOneSample) {
  ScriptedMeasurer m(Times(20e-3, 2e-3));
  MeasureOptions o;
  o.runs = 3;
  o.refine_ratio = 1.25;
  absl::StatusOr<MeasureBatch> b = m.Measure(MatmulKernel(64), {{}, kTiled}, o);
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b->results[0].outcome, Outcome::kOk) << Describe(b->results[0]);
  EXPECT_EQ(b->results[1].outcome, Outcome::kOk) << Describe(b->results[1]);
  EXPECT_EQ(b->results[0].samples_s, std::vector<double>{20e-3});
  EXPECT_EQ(b->results[1].samples_s, std::vector<double>(3, 2e-3));
}

// Once the caller's `keep` have a first run, a later candidate is stopped at refine_ratio x the
// keep-th best: the unoptimized kernel (40 ms) after a tiled one (2 ms) stops at 2.5 ms.
TEST(LocalMeasurerPolicyTest, BehindTheKeptOnesAFirstRunIsStopped) {
  MeasureOptions o;
  o.refine_ratio = 1.25;
  o.keep = 1;
  ScriptedMeasurer m(Times(40e-3, 2e-3));
  absl::StatusOr<MeasureBatch> b = m.Measure(MatmulKernel(64), {kTiled, {}}, o);
  ASSERT_TRUE(b.ok()) << b.status();
  ASSERT_EQ(b->results[0].outcome, Outcome::kOk) << Describe(b->results[0]);
  EXPECT_EQ(b->results[1].outcome, Outcome::kTooSlow) << Describe(b->results[1]);
  EXPECT_THAT(b->results[1].error, HasSubstr("run stopped after 0.0025 s at its limit 0.0025 s"))
      << Describe(b->results[1]);
  EXPECT_EQ(b->results[1].samples_s.size(), 1u);  // 20x behind the best: no second opinion
  // keeping 2, both are among the kept: the second runs to its end
  o.keep = 2;
  ScriptedMeasurer m2(Times(40e-3, 2e-3));
  b = m2.Measure(MatmulKernel(64), {kTiled, {}}, o);
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b->results[1].outcome, Outcome::kOk) << Describe(b->results[1]);
  EXPECT_EQ(b->results[1].samples_s, std::vector<double>{40e-3});  // far behind: one run
}

// A stopped first run near the batch's best gets a second run under the same limit: one
// disturbed run must not decide.
TEST(LocalMeasurerPolicyTest, NearTheBestAStoppedRunGetsASecondOpinion) {
  MeasureOptions o;
  o.first_run_stop_s = 3e-3;
  o.refine_ratio = 1.25;
  // Alone in its batch, the unoptimized kernel stopped at 3 ms of 10 ms is its batch's best
  // estimate: it runs again. Stopped again at 3 ms of 8 ms, it keeps both estimates.
  {
    ScriptedMeasurer m([](const ScriptedRun& r) { return r.opts.empty() ? (r.run == 0 ? 10e-3 : 8e-3) : 1e-4; });
    absl::StatusOr<MeasureBatch> b = m.Measure(MatmulKernel(64), {{}}, o);
    ASSERT_TRUE(b.ok()) << b.status();
    const CandidateResult& r = b->results[0];
    EXPECT_EQ(r.outcome, Outcome::kTooSlow) << Describe(r);
    EXPECT_THAT(r.error, HasSubstr("% done: about")) << Describe(r);
    EXPECT_THAT(r.error, HasSubstr("; again: run stopped after 0.003 s")) << Describe(r);
    ASSERT_EQ(r.samples_s.size(), 2u) << Describe(r);
    EXPECT_NEAR(r.samples_s[0], 10e-3, 1e-4);
    EXPECT_NEAR(r.samples_s[1], 8e-3, 1e-4);
    EXPECT_EQ(r.min_s, r.samples_s[1]);
  }
  // The first run was disturbed (10 ms), the second finishes (2 ms): an exact time, and the
  // rest of its runs.
  {
    ScriptedMeasurer m([](const ScriptedRun& r) { return r.opts.empty() ? (r.run == 0 ? 10e-3 : 2e-3) : 1e-4; });
    absl::StatusOr<MeasureBatch> b = m.Measure(MatmulKernel(64), {{}}, o);
    ASSERT_TRUE(b.ok()) << b.status();
    const CandidateResult& r = b->results[0];
    EXPECT_EQ(r.outcome, Outcome::kOk) << Describe(r);
    EXPECT_EQ(r.samples_s, std::vector<double>(3, 2e-3));
  }
  // The second run gets too little done for an estimate (1 s: 0.3% at 3 ms): the first stands.
  {
    ScriptedMeasurer m([](const ScriptedRun& r) { return r.opts.empty() ? (r.run == 0 ? 10e-3 : 1.0) : 1e-4; });
    absl::StatusOr<MeasureBatch> b = m.Measure(MatmulKernel(64), {{}}, o);
    ASSERT_TRUE(b.ok()) << b.status();
    const CandidateResult& r = b->results[0];
    EXPECT_EQ(r.outcome, Outcome::kTooSlow) << Describe(r);
    ASSERT_EQ(r.samples_s.size(), 1u) << Describe(r);
    EXPECT_NEAR(r.samples_s[0], 10e-3, 1e-4);
  }
  // Behind a tiled candidate of 1 ms it is more than 2x behind and keeps its one run.
  {
    ScriptedMeasurer m(Times(10e-3, 1e-3));
    absl::StatusOr<MeasureBatch> b = m.Measure(MatmulKernel(64), {kTiled, {}}, o);
    ASSERT_TRUE(b.ok()) << b.status();
    ASSERT_EQ(b->results[0].outcome, Outcome::kOk) << Describe(b->results[0]);
    EXPECT_EQ(b->results[1].outcome, Outcome::kTooSlow) << Describe(b->results[1]);
    EXPECT_THAT(b->results[1].error, Not(HasSubstr("again"))) << Describe(b->results[1]);
    EXPECT_EQ(b->results[1].samples_s.size(), 1u);
  }
  // A run past the early stop (the reference's 3x) is out whatever it would take.
  {
    o.first_run_stop_s = kInf;
    o.early_stop_s = 3e-3;
    ScriptedMeasurer m(Times(10e-3, 1e-3));
    absl::StatusOr<MeasureBatch> b = m.Measure(MatmulKernel(64), {{}}, o);
    ASSERT_TRUE(b.ok()) << b.status();
    EXPECT_EQ(b->results[0].outcome, Outcome::kTooSlow) << Describe(b->results[0]);
    EXPECT_THAT(b->results[0].error, Not(HasSubstr("again"))) << Describe(b->results[0]);
    EXPECT_EQ(b->results[0].samples_s.size(), 1u);
  }
}

TEST(LocalMeasurerPolicyTest, RunPastTheTimeoutIsStoppedAsATimeout) {
  for (bool interleaved : {false, true}) {
    ScriptedMeasurer m(Times(1.0, 1e-3));
    MeasureOptions o;
    o.timeout_s = 0.05;
    o.interleaved = interleaved;
    absl::StatusOr<MeasureBatch> b = m.Measure(MatmulKernel(64), {{}}, o);
    ASSERT_TRUE(b.ok()) << b.status();
    const CandidateResult& r = b->results[0];
    EXPECT_EQ(r.outcome, Outcome::kTimeout) << Describe(r);
    EXPECT_THAT(r.error, HasSubstr("run stopped after 0.05 s (timeout 0.05 s)")) << Describe(r);
    EXPECT_FALSE(r.timed());
  }
}

TEST(LocalMeasurerTest, InterleavedRunsEveryCandidate) {
  std::unique_ptr<LocalMeasurer> m = MakeMeasurer();
  ASSERT_NE(m, nullptr);
  MeasureOptions o;
  o.interleaved = true;
  o.runs = 4;
  o.early_stop_s = 1e-12;  // ignored when interleaved
  absl::StatusOr<MeasureBatch> b =
      m->Measure(Task(MatmulKernel(64)), std::vector<std::vector<Opt>>{{}, {kUpcast0By4}}, o);
  ASSERT_TRUE(b.ok()) << b.status();
  for (const CandidateResult& r : b->results) {
    EXPECT_EQ(r.outcome, Outcome::kOk) << Describe(r);
    EXPECT_EQ(r.samples_s.size(), 4u);
  }
}

TEST(LocalMeasurerTest, TooManyUopsIsRejected) {
  std::unique_ptr<LocalMeasurer> m = MakeMeasurer();
  ASSERT_NE(m, nullptr);
  const KernelTask task = Task(MatmulKernel(32));
  const std::vector<std::vector<Opt>> cands = {{kUpcast0By4}};
  auto measure = [&](int uops_max) {
    MeasureOptions o;
    o.uops_max = uops_max;
    absl::StatusOr<MeasureBatch> b = m->Measure(task, cands, o);
    EXPECT_TRUE(b.ok()) << b.status();
    return b.ok() ? b->results[0] : CandidateResult{};
  };
  const CandidateResult free = measure(0);
  ASSERT_EQ(free.outcome, Outcome::kOk) << Describe(free);
  const int uops = static_cast<int>(free.uops);
  ASSERT_GT(uops, 8);
  // one uop under the limit: timed (the early stop's margin rejects nothing under it)
  EXPECT_EQ(measure(uops + 1).outcome, Outcome::kOk);
  // at the limit: rejected once lowered, as the reference rejects it
  const CandidateResult at = measure(uops);
  EXPECT_EQ(at.outcome, Outcome::kRejected) << Describe(at);
  EXPECT_EQ(at.error, absl::StrCat("too many uops: ", uops, " >= ", uops));
  // far past it: rejected when devectorized, the rest of its lowering saved
  const CandidateResult far = measure(uops / 2);
  EXPECT_EQ(far.outcome, Outcome::kRejected) << Describe(far);
  EXPECT_THAT(far.error, HasSubstr("after devectorize"));
}

// Corrupts the first output element of one candidate after its check run: the measurer must
// call it a wrong result, and the others (same inputs) still pass.
class CorruptingMeasurer : public LocalMeasurer {
 public:
  CorruptingMeasurer(Device* dev, size_t victim) : LocalMeasurer(dev, LocalMeasurerOptions{}), victim_(victim) {}

 protected:
  void AfterCheckRun(size_t candidate, std::span<const std::shared_ptr<RawBuffer>> buffers) override {
    if (candidate != victim_) return;
    float bad = -12345.0f;
    EXPECT_TRUE(buffers[0]->CopyIn(std::as_bytes(std::span<const float>(&bad, 1))).ok());
  }

 private:
  size_t victim_;
};

TEST(LocalMeasurerTest, WrongResultIsCaught) {
  absl::StatusOr<Device*> dev = GetDevice("CPU");
  ASSERT_TRUE(dev.ok());
  CorruptingMeasurer m(*dev, 1);
  std::vector<std::vector<Opt>> cands = {{}, {kUpcast0By4}, {kUnroll0By4}};
  absl::StatusOr<MeasureBatch> b = m.Measure(Task(MatmulKernel(64)), cands, MeasureOptions{});
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b->results[0].outcome, Outcome::kOk) << Describe(b->results[0]);
  EXPECT_EQ(b->results[1].outcome, Outcome::kWrongResult) << Describe(b->results[1]);
  EXPECT_NE(b->results[1].error.find("buffer 0"), std::string::npos) << b->results[1].error;
  EXPECT_FALSE(b->results[1].timed());
  EXPECT_EQ(b->results[2].outcome, Outcome::kOk) << Describe(b->results[2]);
}

// A device whose compiles (after the reference's) or runs fail.
class FaultyDevice : public Device {
 public:
  enum class Fault { kCompile, kRun };
  FaultyDevice(Device* real, Fault fault) : real_(real), fault_(fault) {}
  const std::string& name() const override { return real_->name(); }
  const Renderer& renderer() const override { return real_->renderer(); }
  std::string compiler_id() const override { return real_->compiler_id(); }
  absl::StatusOr<std::string> Compile(const ProgramSpec& spec) override {
    if (fault_ == Fault::kCompile && compiles_++ > 0) return absl::InvalidArgumentError("clang: error: broken");
    return real_->Compile(spec);
  }
  absl::StatusOr<std::unique_ptr<Program>> Load(const std::string& fn, const std::string& lib) override {
    absl::StatusOr<std::unique_ptr<Program>> p = real_->Load(fn, lib);
    if (!p.ok() || fault_ != Fault::kRun || loads_++ == 0) return p;
    return std::unique_ptr<Program>(new FailingProgram());
  }
  absl::StatusOr<std::shared_ptr<RawBuffer>> Allocate(size_t nbytes) override { return real_->Allocate(nbytes); }

 private:
  class FailingProgram : public Program {
    absl::StatusOr<double> Run(std::span<void* const>, std::span<const int64_t>, const LaunchDims&,
                               const std::optional<LaunchDims>&, bool, double) override {
      return absl::InternalError("device fault");
    }
  };
  Device* real_;
  Fault fault_;
  std::atomic<int> compiles_{0}, loads_{0};
};

TEST(LocalMeasurerTest, CompileAndRuntimeErrorsAreFailures) {
  absl::StatusOr<Device*> cpu = GetDevice("CPU");
  ASSERT_TRUE(cpu.ok());
  std::vector<std::vector<Opt>> cands = {{kUpcast0By4}, {kUnroll0By4}};
  {
    FaultyDevice dev(*cpu, FaultyDevice::Fault::kCompile);
    LocalMeasurer m(&dev, {.compile_threads = 2});
    absl::StatusOr<MeasureBatch> b = m.Measure(Task(MatmulKernel(16)), cands, MeasureOptions{});
    ASSERT_TRUE(b.ok()) << b.status();
    for (const CandidateResult& r : b->results) EXPECT_EQ(r.outcome, Outcome::kCompileError) << Describe(r);
  }
  {
    FaultyDevice dev(*cpu, FaultyDevice::Fault::kRun);
    LocalMeasurer m(&dev, {.compile_threads = 2});
    absl::StatusOr<MeasureBatch> b = m.Measure(Task(MatmulKernel(16)), cands, MeasureOptions{});
    ASSERT_TRUE(b.ok()) << b.status();
    for (const CandidateResult& r : b->results) EXPECT_EQ(r.outcome, Outcome::kRuntimeError) << Describe(r);
  }
}

// A device that counts compiles.
class CountingDevice : public Device {
 public:
  explicit CountingDevice(Device* real) : real_(real) {}
  const std::string& name() const override { return real_->name(); }
  const Renderer& renderer() const override { return real_->renderer(); }
  std::string compiler_id() const override { return real_->compiler_id(); }
  absl::StatusOr<std::string> Compile(const ProgramSpec& spec) override {
    ++compiles;
    return real_->Compile(spec);
  }
  absl::StatusOr<std::unique_ptr<Program>> Load(const std::string& fn, const std::string& lib) override {
    return real_->Load(fn, lib);
  }
  absl::StatusOr<std::shared_ptr<RawBuffer>> Allocate(size_t nbytes) override { return real_->Allocate(nbytes); }
  std::atomic<int> compiles{0};

 private:
  Device* real_;
};

// Jobs of several searches interleave on a farm worker's child: each task's reference output
// is computed once, not again whenever another task came in between.
TEST(LocalMeasurerTest, ReferenceOutputsOfRecentTasksAreKept) {
  absl::StatusOr<Device*> cpu = GetDevice("CPU");
  ASSERT_TRUE(cpu.ok());
  CountingDevice dev(*cpu);
  LocalMeasurer m(&dev, {.compile_threads = 1});
  const std::vector<std::vector<Opt>> one = {{kUpcast0By4}};
  const KernelTask a = Task(MatmulKernel(16)), b = Task(MatmulKernel(32));
  ASSERT_TRUE(m.Measure(a, one, {}).ok());
  EXPECT_EQ(dev.compiles.load(), 2);  // the reference, the candidate
  ASSERT_TRUE(m.Measure(b, one, {}).ok());
  EXPECT_EQ(dev.compiles.load(), 4);
  absl::StatusOr<MeasureBatch> again = m.Measure(a, one, {});
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->results[0].outcome, Outcome::kOk) << Describe(again->results[0]);
  EXPECT_EQ(dev.compiles.load(), 5) << "task a's reference was computed again";
  // nine other tasks later, the first has been dropped
  for (int n = 1; n <= 9; ++n) ASSERT_TRUE(m.Measure(Task(MatmulKernel(40 + 8 * n)), one, {}).ok());
  const int before = dev.compiles.load();
  ASSERT_TRUE(m.Measure(a, one, {}).ok());
  EXPECT_EQ(dev.compiles.load(), before + 2);
}

TEST(OutputCheckTest, ToleranceByDtype) {
  std::string a = RandomContents(dtypes::float32, 64, 1), b = a;
  EXPECT_EQ(CompareOutput(dtypes::float32, a, b), "");
  EXPECT_EQ(a, RandomContents(dtypes::float32, 64, 1));  // deterministic
  EXPECT_NE(a, RandomContents(dtypes::float32, 64, 2));
  float* f = reinterpret_cast<float*>(b.data());
  f[3] *= 1.0001f;  // within float32 tolerance
  EXPECT_EQ(CompareOutput(dtypes::float32, a, b), "");
  f[5] += 1.0f;
  EXPECT_NE(CompareOutput(dtypes::float32, a, b), "");
  // NaN matches NaN, not a number
  std::vector<float> x = {NAN, 1.0f}, y = {NAN, 1.0f}, z = {0.0f, 1.0f};
  auto bytes = [](const std::vector<float>& v) { return std::string(reinterpret_cast<const char*>(v.data()), v.size() * 4); };
  EXPECT_EQ(CompareOutput(dtypes::float32, bytes(x), bytes(y)), "");
  EXPECT_NE(CompareOutput(dtypes::float32, bytes(z), bytes(y)), "");
  // ints are exact
  std::string i = RandomContents(dtypes::int32, 16, 3), j = i;
  j[0] = static_cast<char>(j[0] + 1);
  EXPECT_NE(CompareOutput(dtypes::int32, i, j), "");
  // half: k/256 decodes exactly
  std::string h = RandomContents(dtypes::float16, 16, 4);
  EXPECT_EQ(CompareOutput(dtypes::float16, h, h), "");
}

// The SIMD extension opt: wide loads and stores (float16 on the CPU) compute what the
// unoptimized kernel computes, also where the lanes of an upcast are not contiguous in memory.
TEST(LocalMeasurerTest, SimdCandidatesPassTheResultCheck) {
  const Opt simd16{OptOps::SIMD, std::nullopt, int64_t{16}}, simd8{OptOps::SIMD, std::nullopt, int64_t{8}};
  std::vector<std::vector<Opt>> cands = {
      {Opt{OptOps::UPCAST, 0, int64_t{8}}, Opt{OptOps::UPCAST, 1, int64_t{16}}, kUnroll0By4, simd16},
      {kUpcast0By4, Opt{OptOps::UPCAST, 1, int64_t{4}}, Opt{OptOps::UPCAST, 1, int64_t{4}}, simd16},
      {Opt{OptOps::UPCAST, 1, int64_t{8}}, simd8},
      {simd16},
  };
  std::unique_ptr<LocalMeasurer> m = MakeMeasurer();
  ASSERT_NE(m, nullptr);
  absl::StatusOr<MeasureBatch> b = m->Measure(Task(MatmulKernel(64)), cands, MeasureOptions{});
  ASSERT_TRUE(b.ok()) << b.status();
  for (const CandidateResult& r : b->results) EXPECT_EQ(r.outcome, Outcome::kOk) << Describe(r);
}

// fake_timing (farm tests only): samples are FakeTimeS of the program, the same in every
// measurer; hooks bracket the device phase.
TEST(LocalMeasurerTest, FakeTimingIsAFunctionOfTheProgram) {
  absl::StatusOr<Device*> dev = GetDevice("CPU");
  ASSERT_TRUE(dev.ok());
  int acquired = 0, released = 0;
  LocalMeasurerOptions o;
  o.fake_timing = true;
  o.acquire_device = [&] { ++acquired; };
  o.release_device = [&] { ++released; };
  LocalMeasurer m(*dev, o);
  std::vector<std::vector<Opt>> cands = {{}, {kUpcast0By4}};
  absl::StatusOr<MeasureBatch> b = m.Measure(Task(MatmulKernel(32)), cands, MeasureOptions{});
  ASSERT_TRUE(b.ok()) << b.status();
  for (const CandidateResult& r : b->results) {
    ASSERT_EQ(r.outcome, Outcome::kOk) << Describe(r);
    EXPECT_EQ(r.samples_s, std::vector<double>(3, FakeTimeS(r.program_hash)));
    EXPECT_GE(r.min_s, 1e-4);
    EXPECT_LE(r.min_s, 1.1e-3);
  }
  EXPECT_NE(FakeTimeS(1), FakeTimeS(2));
  EXPECT_EQ(acquired, 1);
  EXPECT_EQ(released, 1);
}

}  // namespace
}  // namespace tg::autotune
