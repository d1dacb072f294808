// File: workers/worker_test.cc
// The worker daemon against a coordinator played by the test (a ROUTER socket speaking the
// farm protocol): announce, jobs with and without their task, crash and hang isolation,
// heartbeats, reconnection after coordinator silence, Bye, fake timing, simulated device.
//
// Deadlines are generous and nothing asserts on speed: only on kinds, counts and order.
#include "workers/worker.h"

#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "absl/cleanup/cleanup.h"
#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "autotune/codec/codec_test_kernels.h"
#include "autotune/codec/farm_codec.h"
#include "autotune/codec/farm_messages.h"
#include "autotune/key/device_class.h"
#include "autotune/measure/local_measurer.h"
#include "autotune/measure/measurer.h"
#include "autotune/measure/test_kernels.h"
#include "autotune/net/secure_endpoint.h"
#include "autotune/net/zmq_socket.h"
#include "gtest/gtest.h"
#include "tinygrad/base/clock.h"
#include "tinygrad/base/wait_until.h"
#include "tinygrad/base/stable_hash.h"
#include "tinygrad/codegen/opt/opt.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/runtime/cpu/cpu_target.h"
#include "workers/resource_limits.h"
#include "workers/sandbox.h"
#include "workers/thread_priority.h"
#include "workers/worker_child.h"

namespace tg::workers {
namespace {

namespace codec = autotune::codec;
namespace net = autotune::net;
using autotune::KernelTask;
using autotune::Outcome;
using std::chrono::milliseconds;
using std::chrono::seconds;

std::string g_child;  // worker_test_child

// The children of RealOptions crash on a candidate of exactly {kCrashMarker} and hang on
// {kHangMarker} (--inject-fault); UPCAST by a prime that divides no test kernel's axis, so no
// other candidate matches.
const Opt kCrashMarker{OptOps::UPCAST, 0, int64_t{13}};
const Opt kHangMarker{OptOps::UPCAST, 0, int64_t{17}};

// A private directory for ipc:// sockets (the net package's rule: owned by us, mode 0700).
// Under /tmp, not TEST_TMPDIR: a Unix socket path must fit in 108 bytes.
std::string PrivateDir() {
  std::string t = "/tmp/tg-worker-test-XXXXXX";
  char* d = mkdtemp(t.data());
  EXPECT_NE(d, nullptr);
  chmod(t.c_str(), 0700);
  return t;
}

// The coordinator side: a ROUTER that sends and receives decoded farm messages.
class TestCoordinator {
 public:
  TestCoordinator() : dir_(PrivateDir()), endpoint_("ipc://" + dir_ + "/coord") {
    absl::StatusOr<net::ZmqSocket> s = net::ZmqSocket::Create(ctx_, net::SocketType::kRouter);
    EXPECT_TRUE(s.ok()) << s.status();
    router_ = *std::move(s);
    // As the broker: a worker reconnecting under its id takes it over at once.
    EXPECT_TRUE(router_.SetRouterHandover(true).ok());
    absl::Status b = net::ConfigureServer(router_, endpoint_, net::SecurityOptions::FilePermissions());
    EXPECT_TRUE(b.ok()) << b;
  }
  ~TestCoordinator() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);  // the socket file goes; the bound socket does not care
  }
  const std::string& endpoint() const { return endpoint_; }

  // The next message (any kind), or nullopt after `timeout`.
  std::optional<codec::FarmMessage> Next(milliseconds timeout = kTestWaitLimit) {
    absl::StatusOr<net::Frames> f = router_.ReceiveFor(timeout);
    if (!f.ok()) return std::nullopt;
    EXPECT_EQ(f->size(), 2u);
    if (f->size() != 2) return std::nullopt;
    last_from_ = (*f)[0];
    absl::StatusOr<codec::FarmMessage> m = codec::DecodeFarmMessage((*f)[1]);
    EXPECT_TRUE(m.ok()) << m.status();
    if (!m.ok()) return std::nullopt;
    return *std::move(m);
  }
  // The next message of type T, skipping heartbeats (and anything else not T).
  template <typename T>
  std::optional<T> Expect(milliseconds timeout = kTestWaitLimit) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
      auto left = std::chrono::duration_cast<milliseconds>(deadline - std::chrono::steady_clock::now());
      std::optional<codec::FarmMessage> m = Next(std::max(left, milliseconds(1)));
      if (!m.has_value()) return std::nullopt;
      if (T* t = std::get_if<T>(&*m)) return std::move(*t);
    }
    return std::nullopt;
  }
  void Send(const std::string& to, const codec::FarmMessage& m) {
    absl::Status s = router_.Send({to, codec::EncodeFarmMessage(m)});
    EXPECT_TRUE(s.ok()) << s;
  }
  void SendRaw(const std::string& to, std::string bytes) {
    absl::Status s = router_.Send({to, std::move(bytes)});
    EXPECT_TRUE(s.ok()) << s;
  }
  const std::string& last_from() const { return last_from_; }

 private:
  net::ZmqContext ctx_;
  net::ZmqSocket router_;
  std::string dir_;
  std::string endpoint_;
  std::string last_from_;
};

// A Worker serving on its own thread; stopped and joined on destruction.
class RunningWorker {
 public:
  explicit RunningWorker(WorkerOptions o) {
    o.log = [](std::string_view line) { std::fprintf(stderr, "worker: %.*s\n", static_cast<int>(line.size()), line.data()); };
    absl::StatusOr<std::unique_ptr<Worker>> w = Worker::Create(std::move(o));
    EXPECT_TRUE(w.ok()) << w.status();
    if (!w.ok()) return;
    worker_ = *std::move(w);
    thread_ = std::thread([this] { status_ = worker_->Run(); });
  }
  ~RunningWorker() { (void)Join(); }
  Worker& operator*() { return *worker_; }
  Worker* operator->() { return worker_.get(); }
  bool ok() const { return worker_ != nullptr; }
  absl::Status Join() {
    if (thread_.joinable()) {
      worker_->Stop();
      thread_.join();
    }
    return status_;
  }
  // Waits for Run to return by itself (e.g. exit_on_bye).
  absl::Status WaitExit() {
    if (thread_.joinable()) thread_.join();
    return status_;
  }

 private:
  std::unique_ptr<Worker> worker_;
  std::thread thread_;
  absl::Status status_;
};

WorkerOptions RealOptions(const TestCoordinator& c, std::string id) {
  return WorkerOptions{.endpoint = c.endpoint(),
                       .worker_id = std::move(id),
                       .security = net::SecurityOptions::FilePermissions(),
                       .children = 2,
                       .child_argv = {g_child, std::string(kInjectFaultFlag), R"(crash:[["UPCAST",0,13]])",
                                      std::string(kInjectFaultFlag), R"(hang:[["UPCAST",0,17]])"}};
}

WorkerOptions SimOptions(const TestCoordinator& c, std::string id, double device_s) {
  return WorkerOptions{.endpoint = c.endpoint(),
                       .worker_id = std::move(id),
                       .security = net::SecurityOptions::FilePermissions(),
                       .mode = TimingMode::kSimulate,
                       .simulate_device_s = device_s,
                       .children = 1};
}

// A simulated worker whose heartbeats and liveness run on `clock`.
WorkerOptions ScriptedOptions(const TestCoordinator& c, std::string id, FakeClock& clock, milliseconds heartbeat,
                              int dead_after) {
  WorkerOptions o = SimOptions(c, std::move(id), 0);
  o.heartbeat = heartbeat;
  o.dead_after = dead_after;
  o.clock = &clock;
  return o;
}

KernelTask Matmul16() {
  absl::StatusOr<KernelTask> t = KernelTask::FromAst(autotune::MatmulKernel(16));
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *t : KernelTask{};
}

// Waits for Hello and Ready from a fresh worker.
void Greet(TestCoordinator& c) {
  ASSERT_TRUE(c.Expect<codec::Hello>().has_value());
  ASSERT_TRUE(c.Expect<codec::Ready>().has_value());
}

codec::MeasureRequest Job(uint64_t id, const KernelTask& task, std::vector<std::vector<Opt>> cands,
                          bool with_task = true) {
  codec::MeasureRequest r{.job_id = id, .search_id = 7, .task_digest = codec::KernelTaskDigest(task)};
  if (with_task) r.task = task;
  r.candidates = std::move(cands);
  r.options.runs = 2;
  return r;
}

TEST(WorkerTest, HelloAndReadyAnnounceTheDeviceClass) {
  TestCoordinator c;
  RunningWorker w(SimOptions(c, "w-hello", 0));
  ASSERT_TRUE(w.ok());
  std::optional<codec::Hello> h = c.Expect<codec::Hello>();
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(c.last_from(), "w-hello");  // the routing id is the worker id
  EXPECT_EQ(h->protocol_version, codec::kProtocolVersion);
  EXPECT_EQ(h->worker_id, "w-hello");
  EXPECT_EQ(h->build_id, DefaultBuildId());
  EXPECT_EQ(h->capacity, 1u);
  EXPECT_EQ(h->host, autotune::HostName());
  absl::StatusOr<Device*> dev = GetDevice("CPU");
  ASSERT_TRUE(dev.ok());
  absl::StatusOr<autotune::DeviceClass> dc = autotune::DeviceClassFor(**dev);
  ASSERT_TRUE(dc.ok());
  EXPECT_EQ(h->device, *dc);
  EXPECT_FALSE(h->device.cpu_model.empty());
  std::optional<codec::Ready> r = c.Expect<codec::Ready>();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->credits, 1u);
}

// The cpuinfo flags of an AVX2 machine without AVX-512 (a Zen 3), trimmed to what the levels
// check: injected, so that the refusal below does not depend on this machine's CPU.
const std::vector<std::string> kAvx2CpuFlags = {"avx", "avx2", "bmi2", "fma", "popcnt", "sse4_2", "ssse3"};

// tg worker --cpu-target: the class announced is the target's (its ISA flags), which is what a
// coordinator tuning for that target routes by.
TEST(WorkerTest, ACpuTargetIsTheDeviceClassAnnounced) {
  if (absl::Status s = CheckCpuTarget("x86-64-v3"); !s.ok()) GTEST_SKIP() << s;
  TestCoordinator c;
  WorkerOptions o = SimOptions(c, "w-v3", 0);
  o.cpu_target = "x86-64-v3";
  RunningWorker w(std::move(o));
  ASSERT_TRUE(w.ok());
  std::optional<codec::Hello> h = c.Expect<codec::Hello>();
  ASSERT_TRUE(h.has_value());
  DeviceOptions v3 = DeviceOptions::FromConfig(GetConfig());
  v3.cpu.cpu_target = "x86-64-v3";
  absl::StatusOr<Device*> dev = GetDevice("CPU", v3);
  ASSERT_TRUE(dev.ok()) << dev.status();
  absl::StatusOr<autotune::DeviceClass> dc = autotune::DeviceClassFor(**dev);
  ASSERT_TRUE(dc.ok());
  EXPECT_EQ(h->device, *dc);
  EXPECT_TRUE(std::ranges::count(h->device.isa_flags, "avx2") == 1) << h->device.Describe();
  EXPECT_TRUE(std::ranges::count(h->device.isa_flags, "avx512f") == 0) << h->device.Describe();
}

// A target this CPU cannot run is refused when the worker starts, naming what is missing.
TEST(WorkerTest, ACpuTargetTheCpuLacksIsRefusedNamingTheMissingFeatures) {
  TestCoordinator c;
  WorkerOptions o = SimOptions(c, "w-v4", 0);
  o.cpu_target = "x86-64-v4";
  o.cpu_flags = kAvx2CpuFlags;
  absl::StatusOr<std::unique_ptr<Worker>> w = Worker::Create(o);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(w.status().message().find("CPU target x86-64-v4 needs avx512bw, avx512cd, avx512dq, avx512f, avx512vl"),
            std::string::npos)
      << w.status();
  o.cpu_target = "x86-64-v3";  // what that CPU has is accepted by the same check
  o.device_class = autotune::DeviceClass{.device = "CPU"};  // (not this machine's device)
  EXPECT_TRUE(Worker::Create(o).ok());
  o.cpu_target = "x86-64-v9";
  EXPECT_NE(Worker::Create(o).status().message().find("unknown CPU target 'x86-64-v9'"), std::string::npos);
}

TEST(WorkerTest, JobWithItsTaskIsMeasuredInChildren) {
  TestCoordinator c;
  RunningWorker w(RealOptions(c, "w-real"));
  ASSERT_TRUE(w.ok());
  Greet(c);
  KernelTask task = Matmul16();
  std::vector<std::vector<Opt>> cands = {{}, {Opt{OptOps::UPCAST, 0, int64_t{4}}}, {Opt{OptOps::UPCAST, 0, int64_t{3}}}};
  c.Send("w-real", Job(1, task, cands));
  std::optional<codec::MeasureResult> r = c.Expect<codec::MeasureResult>();
  ASSERT_TRUE(r.has_value());
  ASSERT_TRUE(r->status.ok()) << r->status;
  EXPECT_EQ(r->job_id, 1u);
  EXPECT_EQ(r->search_id, 7u);
  ASSERT_EQ(r->batch.results.size(), 3u);
  EXPECT_EQ(r->batch.results[0].outcome, Outcome::kOk) << r->batch.results[0].error;
  EXPECT_EQ(r->batch.results[0].samples_s.size(), 2u);
  EXPECT_GT(r->batch.results[0].min_s, 0);
  EXPECT_EQ(r->batch.results[1].outcome, Outcome::kOk) << r->batch.results[1].error;
  EXPECT_NE(r->batch.results[0].program_hash, r->batch.results[1].program_hash);
  EXPECT_EQ(r->batch.results[2].outcome, Outcome::kInvalidOpts);  // 3 does not divide 16
  // unset, each child's memory limit is the machine's RAM shared by the pool's 2 + 1 spare
  EXPECT_EQ(w->child_memory_limit(), DefaultChildMemoryLimit(3));
}

// The worker's children run with another environment (DEVECTORIZE=0, DISABLE_FAST_IDIV=1,
// TRANSCENDENTAL=2), yet each candidate is lowered with the codegen options of the request's
// task: the same programs as an in-process measurer with those options, not the environment's.
TEST(WorkerTest, CandidatesLowerWithTheRequestsOptionsNotTheWorkersEnvironment) {
  const std::vector<std::vector<Opt>> cands = {{Opt{OptOps::UPCAST, 0, int64_t{4}}},
                                               {Opt{OptOps::UPCAST, 1, int64_t{4}}, Opt{OptOps::UNROLL, 0, int64_t{4}}}};
  auto local_hashes = [&](const KernelTask& task) {
    absl::StatusOr<std::unique_ptr<autotune::LocalMeasurer>> m = autotune::LocalMeasurer::Create();
    EXPECT_TRUE(m.ok()) << m.status();
    std::vector<uint64_t> out;
    if (!m.ok()) return out;
    absl::StatusOr<autotune::MeasureBatch> b = (*m)->Measure(task, cands, autotune::MeasureOptions{.runs = 1});
    EXPECT_TRUE(b.ok()) << b.status();
    if (b.ok())
      for (const autotune::CandidateResult& r : b->results) out.push_back(r.program_hash);
    return out;
  };
  KernelTask defaults = Matmul16();
  KernelTask vectors = defaults;
  vectors.codegen.devectorize = 0;
  const std::vector<uint64_t> want_defaults = local_hashes(defaults), want_vectors = local_hashes(vectors);
  ASSERT_EQ(want_defaults.size(), 2u);
  ASSERT_NE(want_defaults, want_vectors) << "the premise: DEVECTORIZE changes these programs";

  // children inherit the environment of the worker's process
  ASSERT_EQ(setenv("DEVECTORIZE", "0", 1), 0);
  ASSERT_EQ(setenv("DISABLE_FAST_IDIV", "1", 1), 0);
  ASSERT_EQ(setenv("TRANSCENDENTAL", "2", 1), 0);
  TestCoordinator c;
  RunningWorker w(RealOptions(c, "w-env"));
  unsetenv("DEVECTORIZE");
  unsetenv("DISABLE_FAST_IDIV");
  unsetenv("TRANSCENDENTAL");
  ASSERT_TRUE(w.ok());
  Greet(c);
  uint64_t job = 1;
  for (const KernelTask* task : {&defaults, &vectors}) {
    c.Send("w-env", Job(job, *task, cands));
    std::optional<codec::MeasureResult> r = c.Expect<codec::MeasureResult>();
    ASSERT_TRUE(r.has_value());
    ASSERT_TRUE(r->status.ok()) << r->status;
    ASSERT_EQ(r->batch.results.size(), 2u);
    const std::vector<uint64_t>& want = task == &defaults ? want_defaults : want_vectors;
    for (size_t i = 0; i < 2; ++i) {
      EXPECT_EQ(r->batch.results[i].outcome, Outcome::kOk) << r->batch.results[i].error;
      EXPECT_EQ(r->batch.results[i].program_hash, want[i]) << "job " << job << " candidate " << i;
    }
    ++job;
  }
}

TEST(WorkerTest, UnknownTaskIsRefusedUntilSentWithTheJob) {
  TestCoordinator c;
  RunningWorker w(RealOptions(c, "w-unknown"));
  ASSERT_TRUE(w.ok());
  Greet(c);
  KernelTask task = Matmul16();
  std::vector<std::vector<Opt>> cands = {{}};
  c.Send("w-unknown", Job(1, task, cands, /*with_task=*/false));
  std::optional<codec::MeasureResult> r = c.Expect<codec::MeasureResult>();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->job_id, 1u);
  EXPECT_EQ(r->status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(r->status.message(), absl::StrFormat("unknown task %016x", codec::KernelTaskDigest(task)));
  EXPECT_TRUE(r->batch.results.empty());

  c.Send("w-unknown", Job(2, task, cands, /*with_task=*/true));
  r = c.Expect<codec::MeasureResult>();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->job_id, 2u);
  ASSERT_TRUE(r->status.ok()) << r->status;
  ASSERT_EQ(r->batch.results.size(), 1u);
  EXPECT_EQ(r->batch.results[0].outcome, Outcome::kOk);

  // Now the digest is enough.
  c.Send("w-unknown", Job(3, task, cands, /*with_task=*/false));
  r = c.Expect<codec::MeasureResult>();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->job_id, 3u);
  ASSERT_TRUE(r->status.ok()) << r->status;
  EXPECT_EQ(r->batch.results.size(), 1u);

  // A digest that does not match the task is refused.
  codec::MeasureRequest bad = Job(4, task, cands);
  bad.task_digest ^= 1;
  c.Send("w-unknown", bad);
  r = c.Expect<codec::MeasureResult>();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(w->stats().unknown_task, 1);
}

TEST(WorkerTest, CrashingCandidateIsIsolatedAndTheOthersAreMeasured) {
  TestCoordinator c;
  RunningWorker w(RealOptions(c, "w-crash"));
  ASSERT_TRUE(w.ok());
  Greet(c);
  KernelTask task = Matmul16();
  std::vector<std::vector<Opt>> cands = {{}, {kCrashMarker}, {Opt{OptOps::UPCAST, 0, int64_t{4}}}};
  c.Send("w-crash", Job(1, task, cands));
  std::optional<codec::MeasureResult> r = c.Expect<codec::MeasureResult>();
  ASSERT_TRUE(r.has_value());
  ASSERT_TRUE(r->status.ok()) << r->status;
  ASSERT_EQ(r->batch.results.size(), 3u);
  EXPECT_EQ(r->batch.results[0].outcome, Outcome::kOk) << r->batch.results[0].error;
  EXPECT_EQ(r->batch.results[1].outcome, Outcome::kRuntimeError);
  EXPECT_EQ(r->batch.results[1].error, "crashed: killed by SIGSEGV while running");
  EXPECT_EQ(r->batch.results[2].outcome, Outcome::kOk) << r->batch.results[2].error;
  EXPECT_EQ(w->stats().isolations, 1);
  EXPECT_EQ(w->stats().candidates_crashed, 1);

  // A job of the crashing candidate alone needs no isolation; the worker keeps serving.
  c.Send("w-crash", Job(2, task, {{kCrashMarker}}, /*with_task=*/false));
  r = c.Expect<codec::MeasureResult>();
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->batch.results.size(), 1u);
  EXPECT_EQ(r->batch.results[0].outcome, Outcome::kRuntimeError);
  c.Send("w-crash", Job(3, task, {{}}, /*with_task=*/false));
  r = c.Expect<codec::MeasureResult>();
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->batch.results.size(), 1u);
  EXPECT_EQ(r->batch.results[0].outcome, Outcome::kOk);
  EXPECT_EQ(w->stats().isolations, 1);
}

// A GPU kernel fault (injected: the child answers as LocalMeasurer does when a candidate's
// kernel poisons the context) retires the child; the candidates it could not measure are
// measured again, each in a fresh child, and the faulting one keeps its error.
TEST(WorkerTest, ACandidateThatLosesTheDeviceRetiresTheChildAndTheRestAreMeasuredAgain) {
  TestCoordinator c;
  WorkerOptions o = RealOptions(c, "w-lose");
  const Opt lose_marker{OptOps::UPCAST, 0, int64_t{19}};
  o.child_argv.emplace_back(kInjectFaultFlag);
  o.child_argv.emplace_back(R"(lose:[["UPCAST",0,19]])");
  RunningWorker w(std::move(o));
  ASSERT_TRUE(w.ok());
  Greet(c);
  KernelTask task = Matmul16();
  std::vector<std::vector<Opt>> cands = {
      {}, {lose_marker}, {Opt{OptOps::UPCAST, 0, int64_t{4}}}, {Opt{OptOps::UPCAST, 1, int64_t{4}}}};
  c.Send("w-lose", Job(1, task, cands));
  std::optional<codec::MeasureResult> r = c.Expect<codec::MeasureResult>();
  ASSERT_TRUE(r.has_value());
  ASSERT_TRUE(r->status.ok()) << r->status;
  ASSERT_EQ(r->batch.results.size(), 4u);
  EXPECT_EQ(r->batch.results[0].outcome, Outcome::kOk) << r->batch.results[0].error;
  EXPECT_EQ(r->batch.results[1].outcome, Outcome::kRuntimeError);
  EXPECT_NE(r->batch.results[1].error.find("CUDA is lost"), std::string::npos) << r->batch.results[1].error;
  for (size_t i : {2u, 3u}) {
    EXPECT_EQ(r->batch.results[i].outcome, Outcome::kOk) << i << ": " << r->batch.results[i].error;
    EXPECT_EQ(r->batch.results[i].samples_s.size(), 2u) << i;
  }
  EXPECT_EQ(w->stats().isolations, 1);
  // the worker keeps serving (its retired child was replaced)
  c.Send("w-lose", Job(2, task, {{}}, /*with_task=*/false));
  r = c.Expect<codec::MeasureResult>();
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->batch.results.size(), 1u);
  EXPECT_EQ(r->batch.results[0].outcome, Outcome::kOk) << r->batch.results[0].error;
}

// Sandboxed children (workers/sandbox.h) measure as before, under the machine's device lock; a
// candidate that runs a shell, as a kernel that escaped its bounds could, is killed by the
// sandbox before the shell starts, reported like a crash, and the worker keeps serving.
// Unsandboxed, the same shell runs.
TEST(WorkerTest, SandboxedChildrenMeasureAndACandidateThatExecsIsKilled) {
  if (absl::Status s = SandboxSupported(); !s.ok()) GTEST_SKIP() << s;
  const Opt exec_marker{OptOps::UPCAST, 0, int64_t{23}};
  auto options = [&](TestCoordinator& c, std::string id, bool sandbox) {
    WorkerOptions o = RealOptions(c, std::move(id));
    o.child_argv.insert(o.child_argv.end(), {std::string(kInjectFaultFlag), R"(exec:[["UPCAST",0,23]])"});
    if (sandbox) o.child_argv.emplace_back(kSandboxFlag);
    // the machine's device lock, which a sandboxed child holds without opening its files
    o.child_argv.insert(o.child_argv.end(), {std::string(kDeviceLockFlag), ::testing::TempDir() + "/sandbox/device-CPU.lock"});
    return o;
  };
  KernelTask task = Matmul16();
  const std::vector<std::vector<Opt>> cands = {
      {}, {exec_marker}, {Opt{OptOps::UPCAST, 0, int64_t{4}}}, {kCrashMarker}};
  {
    TestCoordinator c;
    RunningWorker w(options(c, "w-sandbox", true));
    ASSERT_TRUE(w.ok());
    Greet(c);
    c.Send("w-sandbox", Job(1, task, cands));
    std::optional<codec::MeasureResult> r = c.Expect<codec::MeasureResult>();
    ASSERT_TRUE(r.has_value());
    ASSERT_TRUE(r->status.ok()) << r->status;
    ASSERT_EQ(r->batch.results.size(), 4u);
    for (size_t i : {0u, 2u}) {
      EXPECT_EQ(r->batch.results[i].outcome, Outcome::kOk) << i << ": " << r->batch.results[i].error;
      EXPECT_EQ(r->batch.results[i].samples_s.size(), 2u) << i;
    }
    EXPECT_EQ(r->batch.results[1].outcome, Outcome::kRuntimeError);
    EXPECT_EQ(r->batch.results[1].error, "crashed: killed by SIGSYS (sandbox: a forbidden syscall) while running");
    EXPECT_EQ(r->batch.results[3].error, "crashed: killed by SIGSEGV while running");
    EXPECT_EQ(w->stats().candidates_crashed, 2);
    c.Send("w-sandbox", Job(2, task, {{Opt{OptOps::UPCAST, 1, int64_t{4}}}}, /*with_task=*/false));
    r = c.Expect<codec::MeasureResult>();
    ASSERT_TRUE(r.has_value());
    ASSERT_EQ(r->batch.results.size(), 1u);
    EXPECT_EQ(r->batch.results[0].outcome, Outcome::kOk) << r->batch.results[0].error;
  }
  // The control: without the sandbox the candidate's process becomes the shell.
  TestCoordinator c;
  RunningWorker w(options(c, "w-open", false));
  ASSERT_TRUE(w.ok());
  Greet(c);
  c.Send("w-open", Job(1, task, {{exec_marker}}));
  std::optional<codec::MeasureResult> r = c.Expect<codec::MeasureResult>();
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->batch.results.size(), 1u);
  EXPECT_EQ(r->batch.results[0].error, "crashed: exited with status 0 while running");
}

// A candidate that burns CPU is stopped by its child's CPU time limit for the job (here 2 s,
// against wall-clock deadlines of thousands), reported as a timeout that says so, and the
// worker keeps serving from a fresh child.
TEST(WorkerTest, ACandidateThatBurnsCpuIsStoppedByTheCpuLimitAndTheWorkerKeepsServing) {
  TestCoordinator c;
  WorkerOptions o = RealOptions(c, "w-spin");
  const Opt spin_marker{OptOps::UPCAST, 0, int64_t{29}};
  o.child_argv.insert(o.child_argv.end(), {std::string(kInjectFaultFlag), R"(spin:[["UPCAST",0,29]])"});
  o.job_cpu_s = 2;
  RunningWorker w(std::move(o));
  ASSERT_TRUE(w.ok());
  Greet(c);
  KernelTask task = Matmul16();
  codec::MeasureRequest job = Job(1, task, {{spin_marker}});
  job.options.timeout_s = 1000;  // the run deadline: 2000 s
  c.Send("w-spin", job);
  std::optional<codec::MeasureResult> r = c.Expect<codec::MeasureResult>();
  ASSERT_TRUE(r.has_value());
  ASSERT_TRUE(r->status.ok()) << r->status;
  ASSERT_EQ(r->batch.results.size(), 1u);
  EXPECT_EQ(r->batch.results[0].outcome, Outcome::kTimeout);
  EXPECT_EQ(r->batch.results[0].error, "cpu limit: killed by SIGXCPU (over its CPU time limit) while running");
  EXPECT_EQ(w->stats().candidates_timed_out, 1);

  c.Send("w-spin", Job(2, task, {{}, {Opt{OptOps::UPCAST, 0, int64_t{4}}}}, /*with_task=*/false));
  r = c.Expect<codec::MeasureResult>();
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->batch.results.size(), 2u);
  for (const autotune::CandidateResult& cr : r->batch.results) EXPECT_EQ(cr.outcome, Outcome::kOk) << cr.error;
  EXPECT_EQ(w->stats().isolations, 0);
}

// A candidate that allocates past its child's memory limit (RLIMIT_DATA: only mapped, never
// touched, so the test costs no memory) ends that child, is reported as a memory-limit
// error, and the worker keeps serving; the other candidates of its job are measured.
TEST(WorkerTest, ACandidateThatAllocatesPastTheMemoryLimitIsStoppedAndTheWorkerKeepsServing) {
  TestCoordinator c;
  WorkerOptions o = RealOptions(c, "w-hog");
  const Opt hog_marker{OptOps::UPCAST, 0, int64_t{31}};
  o.child_argv.insert(o.child_argv.end(), {std::string(kInjectFaultFlag), R"(hog:[["UPCAST",0,31]])"});
  o.child_memory_limit = uint64_t{1} << 30;
  RunningWorker w(std::move(o));
  ASSERT_TRUE(w.ok());
  Greet(c);
  EXPECT_EQ(w->child_memory_limit(), uint64_t{1} << 30);
  KernelTask task = Matmul16();
  c.Send("w-hog", Job(1, task, {{}, {hog_marker}}));
  std::optional<codec::MeasureResult> r = c.Expect<codec::MeasureResult>();
  ASSERT_TRUE(r.has_value());
  ASSERT_TRUE(r->status.ok()) << r->status;
  ASSERT_EQ(r->batch.results.size(), 2u);
  EXPECT_EQ(r->batch.results[0].outcome, Outcome::kOk) << r->batch.results[0].error;
  EXPECT_EQ(r->batch.results[1].outcome, Outcome::kRuntimeError);
  EXPECT_EQ(r->batch.results[1].error,
            "memory limit: exited with status 73 (out of memory: over its memory limit) while running");
  EXPECT_EQ(w->stats().isolations, 1);

  c.Send("w-hog", Job(2, task, {{Opt{OptOps::UPCAST, 0, int64_t{4}}}}, /*with_task=*/false));
  r = c.Expect<codec::MeasureResult>();
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->batch.results.size(), 1u);
  EXPECT_EQ(r->batch.results[0].outcome, Outcome::kOk) << r->batch.results[0].error;
}

// A job whose task carries C text is refused at decode, answered with the error (the
// coordinator is not left waiting), and nothing of it runs.
TEST(WorkerTest, AJobWhoseTaskCarriesSourceTextIsAnsweredWithTheError) {
  TestCoordinator c;
  RunningWorker w(SimOptions(c, "w-code", 0));
  ASSERT_TRUE(w.ok());
  Greet(c);
  absl::StatusOr<KernelTask> code = KernelTask::FromAst(codec::CustomCodeKernel("system(\"id\")"));
  ASSERT_TRUE(code.ok()) << code.status();
  c.Send("w-code", Job(9, *code, {{}}));
  std::optional<codec::MeasureResult> r = c.Expect<codec::MeasureResult>();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->job_id, 9u);
  EXPECT_EQ(r->search_id, 7u);
  EXPECT_EQ(r->status.code(), absl::StatusCode::kInvalidArgument) << r->status;
  EXPECT_NE(r->status.message().find("(CUSTOMI): source text \"system(\\\"id\\\")\""), std::string::npos) << r->status;
  EXPECT_TRUE(r->batch.results.empty());
  EXPECT_EQ(w->stats().bad_messages, 1);
  EXPECT_EQ(w->stats().jobs_received, 0);
  // the worker keeps serving
  c.Send("w-code", Job(10, Matmul16(), {{}}));
  r = c.Expect<codec::MeasureResult>();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->job_id, 10u);
  EXPECT_TRUE(r->status.ok()) << r->status;
}

TEST(WorkerTest, HangingCandidateTimesOutAndTheWorkerKeepsServing) {
  TestCoordinator c;
  WorkerOptions o = RealOptions(c, "w-hang");
  o.run_deadline_floor = std::chrono::duration<double>(0.2);
  RunningWorker w(std::move(o));
  ASSERT_TRUE(w.ok());
  Greet(c);
  KernelTask task = Matmul16();
  codec::MeasureRequest job = Job(1, task, {{}, {kHangMarker}});
  job.run_deadline_s = 0.2;
  c.Send("w-hang", job);
  std::optional<codec::MeasureResult> r = c.Expect<codec::MeasureResult>();
  ASSERT_TRUE(r.has_value());
  ASSERT_TRUE(r->status.ok()) << r->status;
  ASSERT_EQ(r->batch.results.size(), 2u);
  EXPECT_EQ(r->batch.results[0].outcome, Outcome::kOk) << r->batch.results[0].error;
  EXPECT_EQ(r->batch.results[1].outcome, Outcome::kTimeout);
  EXPECT_TRUE(r->batch.results[1].error.starts_with("timeout: ")) << r->batch.results[1].error;
  EXPECT_EQ(w->stats().candidates_timed_out, 1);

  c.Send("w-hang", Job(2, task, {{Opt{OptOps::UPCAST, 0, int64_t{4}}}}, /*with_task=*/false));
  r = c.Expect<codec::MeasureResult>();
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->batch.results.size(), 1u);
  EXPECT_EQ(r->batch.results[0].outcome, Outcome::kOk);
}

// The run deadline bounds each run (the child reports the start of every one), not the
// job: a batch whose device phase lasts several deadlines is measured, not killed.
TEST(WorkerTest, ABatchLongerThanTheRunDeadlineIsMeasured) {
  TestCoordinator c;
  WorkerOptions o = RealOptions(c, "w-long");
  o.run_deadline_floor = std::chrono::duration<double>(0.2);  // the deadline per run: max(2 x 0.1 s, 0.2 s)
  o.dead_after = 1000;           // this coordinator sends no heartbeats: no reconnects mid-job
  RunningWorker w(std::move(o));
  ASSERT_TRUE(w.ok());
  Greet(c);
  absl::StatusOr<KernelTask> task = KernelTask::FromAst(autotune::MatmulKernel(256));
  ASSERT_TRUE(task.ok()) << task.status();
  // each run of these takes milliseconds (far inside the deadline, even on a loaded machine);
  // 40 runs of each add up to over 0.2 s
  std::vector<std::vector<Opt>> cands;
  for (int64_t a : {2, 4})
    for (int64_t b : {2, 4, 8})
      cands.push_back({Opt{OptOps::UPCAST, 1, a}, Opt{OptOps::UNROLL, 0, b}});
  codec::MeasureRequest job = Job(1, *task, cands);
  job.options.runs = 40;
  job.run_deadline_s = 0.1;
  c.Send("w-long", job);
  std::optional<codec::MeasureResult> r = c.Expect<codec::MeasureResult>();
  ASSERT_TRUE(r.has_value());
  ASSERT_TRUE(r->status.ok()) << r->status;
  double device_s = 0;
  for (const autotune::CandidateResult& cr : r->batch.results) {
    EXPECT_EQ(cr.outcome, Outcome::kOk) << cr.error;
    device_s += cr.cost.run_s;
  }
  EXPECT_GT(device_s, 0.2) << "the premise: the batch held the device longer than the deadline";
  EXPECT_EQ(w->stats().candidates_timed_out, 0);
}

TEST(WorkerTest, FakeTimingSamplesAreTheProgramHashTimes) {
  TestCoordinator c;
  WorkerOptions o = RealOptions(c, "w-fake");
  o.mode = TimingMode::kFakeTiming;
  RunningWorker w(std::move(o));
  ASSERT_TRUE(w.ok());
  Greet(c);
  c.Send("w-fake", Job(1, Matmul16(), {{}, {Opt{OptOps::UPCAST, 0, int64_t{4}}}}));
  std::optional<codec::MeasureResult> r = c.Expect<codec::MeasureResult>();
  ASSERT_TRUE(r.has_value());
  ASSERT_TRUE(r->status.ok()) << r->status;
  ASSERT_EQ(r->batch.results.size(), 2u);
  for (const autotune::CandidateResult& cr : r->batch.results) {
    ASSERT_EQ(cr.outcome, Outcome::kOk) << cr.error;
    ASSERT_EQ(cr.samples_s.size(), 2u);
    for (double s : cr.samples_s) EXPECT_EQ(s, autotune::FakeTimeS(cr.program_hash));
  }
}

TEST(WorkerTest, SimulatedDeviceTakesItsTimePerCandidateOneAtATime) {
  TestCoordinator c;
  RunningWorker w(SimOptions(c, "w-sim", 0.02));
  ASSERT_TRUE(w.ok());
  Greet(c);
  KernelTask task = Matmul16();
  std::vector<std::vector<Opt>> cands = {{}, {Opt{OptOps::UPCAST, 0, int64_t{4}}}, {Opt{OptOps::UNROLL, 0, int64_t{4}}}};
  const auto t0 = std::chrono::steady_clock::now();
  c.Send("w-sim", Job(1, task, cands));
  c.Send("w-sim", Job(2, task, cands, /*with_task=*/false));
  std::optional<codec::MeasureResult> r1 = c.Expect<codec::MeasureResult>();
  std::optional<codec::MeasureResult> r2 = c.Expect<codec::MeasureResult>();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(r1.has_value() && r2.has_value());
  EXPECT_GE(wall, 6 * 0.02);  // six candidates, one device
  EXPECT_EQ(r1->job_id, 1u);
  EXPECT_EQ(r2->job_id, 2u);
  ASSERT_EQ(r1->batch.results.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    const autotune::CandidateResult& cr = r1->batch.results[i];
    EXPECT_EQ(cr.outcome, Outcome::kOk);
    EXPECT_EQ(cr.samples_s, std::vector<double>(2, 0.02));
    EXPECT_EQ(cr.min_s, 0.02);
    EXPECT_EQ(cr.program_hash, StableHasher().AddBytes(codec::EncodeOpts(cands[i])).Finish());
    EXPECT_EQ(cr.program_hash, r2->batch.results[i].program_hash);
  }
  EXPECT_NE(r1->batch.results[0].program_hash, r1->batch.results[1].program_hash);
}

// Scripted time: one heartbeat per interval of the worker's clock, numbered in order.
TEST(WorkerTest, HeartbeatsFlow) {
  TestCoordinator c;
  FakeClock clock;
  WorkerOptions o = ScriptedOptions(c, "w-hb", clock, milliseconds(30), 1000);
  RunningWorker w(std::move(o));
  ASSERT_TRUE(w.ok());
  Greet(c);
  for (uint64_t i = 1; i <= 4; ++i) {
    clock.Advance(milliseconds(30));
    std::optional<codec::Heartbeat> hb = c.Expect<codec::Heartbeat>();
    ASSERT_TRUE(hb.has_value()) << "no heartbeat " << i;
    EXPECT_EQ(hb->seq, i);
    EXPECT_EQ(hb->in_flight, 0u);
  }
  ASSERT_TRUE(WaitUntil([&] { return w->stats().heartbeats_sent >= 4; }));
  EXPECT_EQ(w->stats().heartbeats_sent, 4);
  EXPECT_EQ(w->stats().connects, 1);
}

// Scripted time: a coordinator silent for 3 of the worker's heartbeat ticks is still trusted;
// at the 4th silent tick the worker reconnects.
TEST(WorkerTest, SilentCoordinatorForMoreThanDeadAfterIntervalsMeansReconnect) {
  TestCoordinator c;
  FakeClock clock;
  WorkerOptions o = ScriptedOptions(c, "w-scripted", clock, milliseconds(40), 3);
  RunningWorker w(std::move(o));
  ASSERT_TRUE(w.ok());
  Greet(c);
  for (uint64_t i = 1; i <= 3; ++i) {
    clock.Advance(milliseconds(40));
    std::optional<codec::FarmMessage> m = c.Next();
    ASSERT_TRUE(m.has_value());
    ASSERT_TRUE(std::holds_alternative<codec::Heartbeat>(*m)) << "after " << i << " silent intervals";
  }
  // Nothing more at exactly 3 ticks (a correct worker cannot send anything: its clock stands).
  EXPECT_FALSE(c.Next(milliseconds(50)).has_value()) << "reconnected at, not after, 3 silent ticks";
  EXPECT_EQ(w->stats().connects, 1);
  clock.Advance(milliseconds(1));
  EXPECT_FALSE(c.Next(milliseconds(50)).has_value()) << "reconnected between two ticks";
  clock.Advance(milliseconds(39));
  ASSERT_TRUE(WaitUntil([&] { return w->stats().connects >= 2; })) << "no reconnect at the 4th silent tick";
  EXPECT_EQ(w->stats().connects, 2);
}

// Scripted time: the worker's own delay is not the coordinator's silence. Ten intervals pass at
// once (as when the socket thread was starved or the process stopped): that is one tick of
// silence, not ten, and the worker keeps its connection.
TEST(WorkerTest, ASocketThreadThatWasNotScheduledDoesNotGiveUpOnTheCoordinator) {
  TestCoordinator c;
  FakeClock clock;
  WorkerOptions o = ScriptedOptions(c, "w-starved", clock, milliseconds(40), 3);
  RunningWorker w(std::move(o));
  ASSERT_TRUE(w.ok());
  Greet(c);
  clock.Advance(milliseconds(400));
  ASSERT_TRUE(c.Expect<codec::Heartbeat>().has_value());
  clock.Advance(milliseconds(40));
  // Sent after the first tick's liveness check: a reconnect there would have come first.
  ASSERT_TRUE(c.Expect<codec::Heartbeat>().has_value());
  EXPECT_EQ(w->stats().connects, 1) << "the worker took its own 10 missed ticks for coordinator silence";
}

// A step of job handling that blocks until opened: what a slow decode or a blocked pool does
// to the thread that handles jobs.
class StuckStep {
 public:
  std::function<void(uint64_t)> Hook() {
    return [s = state_](uint64_t) {
      std::unique_lock<std::mutex> l(s->mu);
      s->entered = true;
      s->cv.notify_all();
      s->cv.wait(l, [&] { return s->open; });
    };
  }
  bool WaitEntered() {
    std::unique_lock<std::mutex> l(state_->mu);
    return state_->cv.wait_for(l, kTestWaitLimit, [&] { return state_->entered; });
  }
  void Open() {
    std::lock_guard<std::mutex> l(state_->mu);
    state_->open = true;
    state_->cv.notify_all();
  }

 private:
  struct State {
    std::mutex mu;
    std::condition_variable cv;
    bool entered = false, open = false;
  };
  std::shared_ptr<State> state_ = std::make_shared<State>();
};

// A slow step of job handling (decoding a huge task, a blocked pool) runs on the job thread:
// the socket thread heartbeats on, tick after tick, while it is stuck, and the job is answered
// once it is done.
TEST(WorkerTest, HeartbeatsGoOnWhileAJobIsStuckInHandling) {
  TestCoordinator c;
  FakeClock clock;
  StuckStep step;
  WorkerOptions o = ScriptedOptions(c, "w-stuck", clock, milliseconds(30), 2);
  o.before_job = step.Hook();
  RunningWorker w(std::move(o));
  auto open_at_the_end = absl::MakeCleanup([&] { step.Open(); });  // before w stops
  ASSERT_TRUE(w.ok());
  Greet(c);
  c.Send("w-stuck", Job(5, Matmul16(), {{}}));
  ASSERT_TRUE(step.WaitEntered());
  for (uint64_t i = 1; i <= 6; ++i) {
    c.Send("w-stuck", codec::Heartbeat{.seq = i});  // the coordinator is alive: no reconnect
    ASSERT_TRUE(WaitUntil([&] { return w->stats().messages_received >= static_cast<int64_t>(1 + i); }));
    clock.Advance(milliseconds(30));
    std::optional<codec::Heartbeat> hb = c.Expect<codec::Heartbeat>();
    ASSERT_TRUE(hb.has_value()) << "no heartbeat " << i << " while the job thread is stuck";
    EXPECT_EQ(hb->seq, i);
  }
  step.Open();
  std::optional<codec::MeasureResult> r = c.Expect<codec::MeasureResult>();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->job_id, 5u);
  EXPECT_EQ(w->stats().connects, 1);
}

// A reconnect names the jobs the worker still holds and its incarnation (the same as in its
// first Hello): the coordinator keeps them with it, and their results come on the new
// connection. A job received while the job thread is busy with another (waiting in the socket
// thread's inbox) is held from the moment it arrives and named too; else the coordinator would
// requeue it and drop its answer.
TEST(WorkerTest, AReconnectNamesTheJobsStillHeld) {
  TestCoordinator c;
  FakeClock clock;
  StuckStep step;
  WorkerOptions o = ScriptedOptions(c, "w-holding", clock, milliseconds(30), 1);
  o.before_job = step.Hook();
  RunningWorker w(std::move(o));
  auto open_at_the_end = absl::MakeCleanup([&] { step.Open(); });  // before w stops
  ASSERT_TRUE(w.ok());
  std::optional<codec::Hello> first = c.Expect<codec::Hello>();
  ASSERT_TRUE(first.has_value());
  EXPECT_NE(first->incarnation, 0u);
  EXPECT_TRUE(first->holding.empty());
  c.Send("w-holding", Job(8, Matmul16(), {{}}));
  ASSERT_TRUE(step.WaitEntered());
  c.Send("w-holding", Job(9, Matmul16(), {{}}));
  ASSERT_TRUE(WaitUntil([&] { return w->stats().messages_received >= 2; }));
  EXPECT_EQ(w->stats().jobs_received, 0) << "the job thread was not stuck";
  // Silent: the first tick counts 1 (the jobs were heard), the second 2 > dead_after.
  clock.Advance(milliseconds(30));
  ASSERT_TRUE(c.Expect<codec::Heartbeat>().has_value());
  clock.Advance(milliseconds(30));
  ASSERT_TRUE(WaitUntil([&] { return w->stats().connects >= 2; }));
  std::optional<codec::Hello> again = c.Expect<codec::Hello>();
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->incarnation, first->incarnation);
  EXPECT_EQ(again->holding, (std::vector<uint64_t>{8, 9}));
  step.Open();
  std::vector<uint64_t> answered;
  for (int i = 0; i < 2; ++i) {
    std::optional<codec::MeasureResult> r = c.Expect<codec::MeasureResult>();
    ASSERT_TRUE(r.has_value());
    answered.push_back(r->job_id);
  }
  std::sort(answered.begin(), answered.end());
  EXPECT_EQ(answered, (std::vector<uint64_t>{8, 9}));
}

// The machine's clock: whatever its speed, a silent coordinator gets a second Hello.
TEST(WorkerTest, SilentCoordinatorMeansReconnectAndHelloAgain) {
  TestCoordinator c;
  WorkerOptions o = SimOptions(c, "w-silent", 0);
  o.heartbeat = milliseconds(40);
  o.dead_after = 3;
  RunningWorker w(std::move(o));
  ASSERT_TRUE(w.ok());
  Greet(c);
  // Say nothing: after 3 intervals the worker gives up on this connection.
  std::optional<codec::Hello> again = c.Expect<codec::Hello>(seconds(30));
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->worker_id, "w-silent");
  EXPECT_EQ(c.last_from(), "w-silent");
  std::optional<codec::Ready> ready = c.Expect<codec::Ready>(seconds(30));
  ASSERT_TRUE(ready.has_value());
  EXPECT_EQ(ready->credits, 1u);
  ASSERT_TRUE(WaitUntil([&] { return w->stats().connects >= 2; }));

  // A coordinator that answers keeps the connection: jobs are served on the new one.
  c.Send("w-silent", Job(9, Matmul16(), {{}}));
  std::optional<codec::MeasureResult> r = c.Expect<codec::MeasureResult>(seconds(30));
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->job_id, 9u);
}

TEST(WorkerTest, StopSaysByeNamingTheSignal) {
  TestCoordinator c;
  RunningWorker w(SimOptions(c, "w-bye", 0));
  ASSERT_TRUE(w.ok());
  Greet(c);
  w->Stop(SIGTERM);
  std::optional<codec::Bye> bye = c.Expect<codec::Bye>(seconds(30));
  ASSERT_TRUE(bye.has_value());
  EXPECT_EQ(bye->reason, "worker stopping on SIGTERM");
  EXPECT_TRUE(w.WaitExit().ok());
}

TEST(WorkerTest, ExitOnByeEndsRunWithoutAByeBack) {
  TestCoordinator c;
  WorkerOptions o = SimOptions(c, "w-exit", 0);
  o.exit_on_bye = true;
  RunningWorker w(std::move(o));
  ASSERT_TRUE(w.ok());
  Greet(c);
  c.Send("w-exit", codec::Bye{.reason = "coordinator done"});
  EXPECT_TRUE(w.WaitExit().ok());
  // No Bye back: the coordinator is gone.
  std::optional<codec::Bye> bye = c.Expect<codec::Bye>(milliseconds(300));
  EXPECT_FALSE(bye.has_value());
}

// A coordinator's Bye that refuses the worker (it evicted it) ends Run even without
// exit_on_bye, with the coordinator's reason and no Bye back; a plain Bye (a coordinator
// shutting down, which may come back) does not.
TEST(WorkerTest, ARefusingByeEndsRunWithTheCoordinatorsReason) {
  TestCoordinator c;
  RunningWorker w(SimOptions(c, "w-evicted", 0));
  ASSERT_TRUE(w.ok());
  Greet(c);
  c.Send("w-evicted", codec::Bye{.reason = "coordinator shutting down"});
  c.Send("w-evicted", Job(3, Matmul16(), {{}}));
  std::optional<codec::MeasureResult> r = c.Expect<codec::MeasureResult>();
  ASSERT_TRUE(r.has_value()) << "a plain Bye ended the worker";
  EXPECT_EQ(r->job_id, 3u);
  const std::string reason = "evicted: held 3 jobs past their deadline; this coordinator takes no more work from this key";
  c.Send("w-evicted", codec::Bye{.reason = reason, .refused = true});
  absl::Status s = w.WaitExit();
  EXPECT_EQ(s.code(), absl::StatusCode::kPermissionDenied) << s;
  EXPECT_EQ(s.message(), "the coordinator refuses this worker: " + reason);
  EXPECT_EQ(w->stats().connects, 1);
  EXPECT_FALSE(c.Expect<codec::Bye>(milliseconds(300)).has_value()) << "a Bye back to a coordinator that refused us";
}

TEST(WorkerTest, GarbageAndUnexpectedMessagesAreIgnored) {
  TestCoordinator c;
  RunningWorker w(SimOptions(c, "w-garbage", 0));
  ASSERT_TRUE(w.ok());
  Greet(c);
  c.SendRaw("w-garbage", "not a capnp message");
  c.Send("w-garbage", codec::Ready{.credits = 3});
  c.Send("w-garbage", Job(5, Matmul16(), {{}}));
  std::optional<codec::MeasureResult> r = c.Expect<codec::MeasureResult>();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->job_id, 5u);
  EXPECT_EQ(w->stats().bad_messages, 2);
}

// Prints the round trip of a job through a simulated worker with a 0 ms device: the worker's
// own overhead (decode, queue, thread hand-off, encode) plus two ipc hops. No assertion on speed.
TEST(WorkerTest, SimulatedRoundTripOverhead) {
  TestCoordinator c;
  RunningWorker w(SimOptions(c, "w-rtt", 0));
  ASSERT_TRUE(w.ok());
  Greet(c);
  KernelTask task = Matmul16();
  c.Send("w-rtt", Job(0, task, {{}}));
  ASSERT_TRUE(c.Expect<codec::MeasureResult>().has_value());
  constexpr int kJobs = 500;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 1; i <= kJobs; ++i) {
    c.Send("w-rtt", Job(static_cast<uint64_t>(i), task, {{}}, /*with_task=*/false));
    std::optional<codec::MeasureResult> r = c.Expect<codec::MeasureResult>();
    ASSERT_TRUE(r.has_value());
    ASSERT_EQ(r->job_id, static_cast<uint64_t>(i));
  }
  const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / kJobs;
  std::printf("simulated 0 ms job round trip (1 candidate, digest only): %.1f us\n", us);
}

TEST(WorkerTest, BadOptionsAreRefused) {
  EXPECT_FALSE(Worker::Create({}).ok());  // no endpoint
  EXPECT_FALSE(Worker::Create({.endpoint = "ipc:///x", .mode = TimingMode::kReal, .children = 1}).ok());  // no child
  EXPECT_FALSE(Worker::Create({.endpoint = "ipc:///x", .heartbeat = milliseconds(0)}).ok());
  EXPECT_FALSE(Worker::Create({.endpoint = "ipc:///x", .children = 1, .child_argv = {"/nonexistent/child"}}).ok());
  // tcp:// without CURVE or --insecure fails at Run.
  absl::StatusOr<std::unique_ptr<Worker>> w =
      Worker::Create({.endpoint = "tcp://127.0.0.1:1", .mode = TimingMode::kSimulate, .children = 1});
  ASSERT_TRUE(w.ok()) << w.status();
  EXPECT_FALSE((*w)->Run().ok());
}

TEST(WorkerChildArgsTest, InjectedFaultsParseOrSayWhatIsWrong) {
  const std::vector<std::string_view> ok = {kInjectFaultFlag, R"(crash:[["UPCAST",0,4]])", kInjectFaultFlag,
                                            "hang:[]",        kInjectFaultFlag,           "lose:[]",
                                            kInjectFaultFlag, "exec:[]",                  kInjectFaultFlag,
                                            "spin:[]",        kInjectFaultFlag,           "hog:[]"};
  absl::StatusOr<WorkerChildOptions> o = ParseWorkerChildArgs(ok);
  ASSERT_TRUE(o.ok()) << o.status();
  ASSERT_EQ(o->faults.size(), 6u);
  EXPECT_EQ(o->faults[4].kind, InjectedFault::Kind::kSpin);
  EXPECT_EQ(o->faults[5].kind, InjectedFault::Kind::kHog);
  EXPECT_EQ(o->faults[3].kind, InjectedFault::Kind::kExec);
  EXPECT_FALSE(o->sandbox);
  EXPECT_EQ(o->faults[2].kind, InjectedFault::Kind::kLoseDevice);
  EXPECT_EQ(o->faults[0].kind, InjectedFault::Kind::kCrash);
  EXPECT_EQ(o->faults[0].opts, (std::vector<Opt>{Opt{OptOps::UPCAST, 0, int64_t{4}}}));
  EXPECT_EQ(o->faults[1].kind, InjectedFault::Kind::kHang);
  EXPECT_TRUE(o->faults[1].opts.empty());
  for (std::string_view bad : {"explode:[]", "crash", R"(hang:[["UPCAST",0])"}) {
    const std::vector<std::string_view> args = {kInjectFaultFlag, bad};
    absl::StatusOr<WorkerChildOptions> r = ParseWorkerChildArgs(args);
    EXPECT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.status().message().find(std::string(bad)), std::string::npos) << r.status();
  }
  const std::vector<std::string_view> missing = {kInjectFaultFlag};
  EXPECT_FALSE(ParseWorkerChildArgs(missing).ok());
}

TEST(WorkerChildArgsTest, ResourceLimits) {
  absl::StatusOr<WorkerChildOptions> none = ParseWorkerChildArgs({});
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->memory_limit, 0u);
  EXPECT_EQ(none->job_cpu_s, 0);
  const std::vector<std::string_view> args = {kMemoryLimitFlag, "1073741824", kJobCpuFlag, "1.5"};
  absl::StatusOr<WorkerChildOptions> o = ParseWorkerChildArgs(args);
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->memory_limit, uint64_t{1} << 30);
  EXPECT_EQ(o->job_cpu_s, 1.5);
  for (std::vector<std::string_view> bad : std::vector<std::vector<std::string_view>>{
           {kMemoryLimitFlag}, {kMemoryLimitFlag, "-1"}, {kMemoryLimitFlag, "1G"}, {kJobCpuFlag},
           {kJobCpuFlag, "-2"}, {kJobCpuFlag, "nan"}, {kJobCpuFlag, "inf"}}) {
    EXPECT_FALSE(ParseWorkerChildArgs(bad).ok()) << bad.back();
  }
}

// A job's CPU budget covers what the pool's wall-clock limits let its child do, on all the
// threads the child computes on: never below the wall time of the try, growing with the job.
TEST(WorkerChildArgsTest, TheCpuBudgetOfAJobGrowsWithItsLimitsAndThreads) {
  autotune::MeasureOptions o;  // timeout_s 10, runs 3
  const double one = JobCpuBudgetS(o, 1, 1);
  EXPECT_NEAR(one, 2 * 279, 1e-6);  // autotune/farm/job_deadline_test: one try of one candidate, 279 s
  EXPECT_GT(JobCpuBudgetS(o, 4, 1), one);
  EXPECT_NEAR(JobCpuBudgetS(o, 1, 3), 4 * 279, 1e-6);
  o.timeout_s = 20;
  EXPECT_GT(JobCpuBudgetS(o, 1, 1), one);
  o.timeout_s = std::numeric_limits<double>::infinity();
  EXPECT_GE(JobCpuBudgetS(o, 1, 1), 1e6);  // no limit in effect
}

// The worker names its target to every child, which then compiles for it whatever CPU_TARGET says.
TEST(WorkerChildArgsTest, CpuTarget) {
  absl::StatusOr<WorkerChildOptions> none = ParseWorkerChildArgs({});
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->cpu_target.has_value());
  const std::vector<std::string_view> args = {kCpuTargetFlag, "x86-64-v3"};
  absl::StatusOr<WorkerChildOptions> o = ParseWorkerChildArgs(args);
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->cpu_target, "x86-64-v3");
  for (std::vector<std::string_view> bad : std::vector<std::vector<std::string_view>>{{kCpuTargetFlag}, {kCpuTargetFlag, ""}})
    EXPECT_FALSE(ParseWorkerChildArgs(bad).ok());
}

TEST(WorkerChildArgsTest, SandboxIsAFlag) {
  const std::vector<std::string_view> args = {kSandboxFlag};
  absl::StatusOr<WorkerChildOptions> o = ParseWorkerChildArgs(args);
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_TRUE(o->sandbox);
}

// A compiler that runs as a process cannot compile in the sandbox: said at once, naming it.
TEST(WorkerChildArgsTest, ACompilerProcessIsNotSandboxable) {
  if (absl::Status s = SandboxSupported(); !s.ok()) GTEST_SKIP() << s;
  DeviceOptions o;
  EXPECT_TRUE(CheckSandboxable("CPU", o).ok());
  o.cpu.cc = "clang";
  EXPECT_TRUE(CheckSandboxable("CPU", o).ok());
  o.cpu.cc = "gcc";
  absl::Status s = CheckSandboxable("cpu", o);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("(CPU_CC=gcc): unset CPU_CC, or turn the sandbox off"), std::string::npos) << s;
  o.cpu.llvm = true;  // CPU_LLVM: libLLVM in this process
  EXPECT_TRUE(CheckSandboxable("CPU", o).ok());
  EXPECT_TRUE(CheckSandboxable("CUDA:1", DeviceOptions{}).ok());  // NVRTC is a library
}

TEST(WorkerChildArgsTest, DeviceNamesWhatTheChildMeasuresOn) {
  absl::StatusOr<WorkerChildOptions> none = ParseWorkerChildArgs({});
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->device, "CPU");
  const std::vector<std::string_view> cuda = {kDeviceFlag, "CUDA:1"};
  absl::StatusOr<WorkerChildOptions> o = ParseWorkerChildArgs(cuda);
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->device, "CUDA:1");
  const std::vector<std::string_view> missing = {kDeviceFlag};
  EXPECT_FALSE(ParseWorkerChildArgs(missing).ok());
  const std::vector<std::string_view> empty = {kDeviceFlag, ""};
  EXPECT_FALSE(ParseWorkerChildArgs(empty).ok());
}

// The daemon passes its prepare_nice to the children; the setup made of it lowers the thread
// it runs on (SCHED_BATCH, that much nicer) and only that one, which is what the child's
// measurer runs on each lowering and compiling thread.
TEST(WorkerChildArgsTest, PrepareNiceLowersThePreparingThreadsOnly) {
  absl::StatusOr<WorkerChildOptions> none = ParseWorkerChildArgs({});
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->prepare_nice, -1);
  EXPECT_EQ(PrepareThreadSetup(-1), nullptr);
  const std::vector<std::string_view> three = {kPrepareNiceFlag, "3"};
  absl::StatusOr<WorkerChildOptions> o = ParseWorkerChildArgs(three);
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->prepare_nice, 3);
  for (std::string_view bad : {"20", "-1", "x"}) {
    const std::vector<std::string_view> args = {kPrepareNiceFlag, bad};
    EXPECT_FALSE(ParseWorkerChildArgs(args).ok()) << bad;
  }
  std::function<void()> setup = PrepareThreadSetup(o->prepare_nice);
  ASSERT_NE(setup, nullptr);
  absl::StatusOr<ThreadPriority> timing = CurrentThreadPriority(), preparing;
  ASSERT_TRUE(timing.ok());
  std::thread([&] {
    setup();
    preparing = CurrentThreadPriority();
  }).join();
  ASSERT_TRUE(preparing.ok());
  EXPECT_EQ(preparing->policy, SCHED_BATCH);
  EXPECT_EQ(preparing->nice, std::min(timing->nice + 3, 19));
  absl::StatusOr<ThreadPriority> still = CurrentThreadPriority();
  ASSERT_TRUE(still.ok());
  EXPECT_EQ(still->policy, timing->policy);
  EXPECT_EQ(still->nice, timing->nice);
}

TEST(WorkerTest, AnUnknownDeviceIsAnErrorNamingIt) {
  WorkerOptions o;
  o.endpoint = "ipc:///nonexistent/worker";
  o.device = "NOPE";
  o.child_argv = {"/bin/false"};
  absl::StatusOr<std::unique_ptr<Worker>> w = Worker::Create(std::move(o));
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.status().message().find("NOPE"), std::string::npos) << w.status();
}

}  // namespace
}  // namespace tg::workers

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s WORKER_TEST_CHILD\n", argv[0]);
    return 2;
  }
  tg::workers::g_child = argv[1];
  return RUN_ALL_TESTS();
}
