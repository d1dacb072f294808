// File: autotune/farm/broker_test.cc
// The broker against scripted in-test workers: dispatch, device classes, task resends,
// duplicates, silent and killed workers, restarts, poison, protocol version, Bye, status, job
// deadlines and eviction, backup copies.
//
// Broker and workers share a scripted clock (clock_) that moves only when a test advances it:
// no worker is declared dead, and nobody re-Hellos, because a loaded machine was slow. The
// liveness tests advance it heartbeat by heartbeat and assert the exact one where a silent
// worker dies; one test keeps the machine's clock and checks only what holds on any machine.
#include "autotune/farm/broker.h"
#include "autotune/farm/farm_status_json.h"

#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "absl/strings/str_cat.h"
#include "autotune/codec/farm_codec.h"
#include "autotune/codec/farm_messages.h"
#include "autotune/farm/test_worker.h"
#include "autotune/measure/test_kernels.h"
#include "autotune/net/curve_keys.h"
#include "autotune/net/zap_handler.h"
#include "autotune/net/zmq_socket.h"
#include "gtest/gtest.h"
#include "tinygrad/base/clock.h"
#include "tinygrad/base/wait_until.h"

namespace tg::autotune::farm {
namespace {

using std::chrono::milliseconds;

DeviceClass ClassA() { return DeviceClass{.device = "CPU", .cpu_model = "test A", .cores = 1}; }
DeviceClass ClassB() { return DeviceClass{.device = "CPU", .cpu_model = "test B", .cores = 1}; }

std::vector<std::vector<Opt>> Candidates(int n, int base = 0) {
  std::vector<std::vector<Opt>> c;
  for (int i = 0; i < n; ++i) c.push_back({Opt{OptOps::UPCAST, 0, base + i + 1}});
  return c;
}

// A worker speaking through a raw DEALER, to script a reconnect of the same process.
class RawWorker {
 public:
  RawWorker(net::ZmqContext& ctx, const std::string& endpoint, const std::string& id) {
    auto s = net::ZmqSocket::Create(ctx, net::SocketType::kDealer);
    EXPECT_TRUE(s.ok()) << s.status();
    sock_ = *std::move(s);
    EXPECT_TRUE(sock_.SetRoutingId(id).ok());
    EXPECT_TRUE(net::ConfigureClient(sock_, endpoint, net::SecurityOptions::FilePermissions()).ok());
  }
  void Send(const codec::FarmMessage& m) { EXPECT_TRUE(sock_.Send({codec::EncodeFarmMessage(m)}).ok()); }
  void Hello(uint64_t incarnation, std::vector<uint64_t> holding = {}, uint32_t capacity = 2) {
    Send(codec::Hello{.device = ClassA(), .worker_id = "raw", .capacity = capacity, .incarnation = incarnation,
                      .holding = std::move(holding)});
    Send(codec::Ready{.credits = capacity});
  }
  // The next message of type T sent to it (others skipped).
  template <typename T>
  std::optional<T> Next() {
    const auto deadline = std::chrono::steady_clock::now() + kTestWaitLimit;
    while (std::chrono::steady_clock::now() < deadline) {
      absl::StatusOr<net::Frames> f = sock_.ReceiveFor(milliseconds(100));
      if (!f.ok() || f->size() != 1) continue;
      absl::StatusOr<codec::FarmMessage> m = codec::DecodeFarmMessage((*f)[0]);
      if (m.ok())
        if (auto* r = std::get_if<T>(&*m)) return std::move(*r);
    }
    return std::nullopt;
  }
  std::optional<codec::MeasureRequest> NextJob() { return Next<codec::MeasureRequest>(); }
  void Answer(const codec::MeasureRequest& r) {
    codec::MeasureResult res{.job_id = r.job_id, .search_id = r.search_id};
    for (const std::vector<Opt>& c : r.candidates) res.batch.results.push_back(FakeCandidate(c));
    Send(res);
  }

 private:
  net::ZmqSocket sock_;
};

class BrokerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/farm_broker_testXXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    auto task = KernelTask::FromAst(AddKernel(16));
    ASSERT_TRUE(task.ok()) << task.status();
    task_ = std::make_shared<const KernelTask>(*std::move(task));
  }
  void TearDown() override {
    workers_.clear();
    if (broker_) broker_->Shutdown();
    broker_.reset();
    std::filesystem::remove_all(dir_);
  }
  // On the scripted clock unless `clock` says otherwise (&Clock::Real()).
  void StartBroker(milliseconds hb = milliseconds(100), Clock* clock = nullptr) {
    clock_in_use_ = clock != nullptr ? clock : &clock_;
    auto b = Broker::Start({.endpoint = absl::StrCat("ipc://", dir_, "/farm"),
                            .status_endpoint = absl::StrCat("ipc://", dir_, "/status"),
                            .heartbeat = hb,
                            .clock = clock_in_use_,
                            .context = &ctx_});
    ASSERT_TRUE(b.ok()) << b.status();
    broker_ = *std::move(b);
  }
  TestWorker& AddWorker(TestWorkerOptions o) {
    o.endpoint = broker_->endpoint();
    if (o.clock == nullptr) o.clock = clock_in_use_;
    if (o.device.device.empty()) o.device = ClassA();
    workers_.push_back(std::make_unique<TestWorker>(ctx_, std::move(o)));
    return *workers_.back();
  }
  FarmJob Job(int n, int base = 0, const DeviceClass& dc = ClassA()) {
    return FarmJob{.device_class = dc.Digest(), .task = task_, .candidates = Candidates(n, base)};
  }
  // Every result is the fake measurement of its own candidate, in order.
  static void ExpectFake(const FarmJob& job, const JobResult& r) {
    ASSERT_EQ(r.batch.results.size(), job.candidates.size());
    for (size_t i = 0; i < job.candidates.size(); ++i) {
      EXPECT_EQ(r.batch.results[i].outcome, Outcome::kOk);
      EXPECT_EQ(r.batch.results[i].program_hash, FakeCandidate(job.candidates[i]).program_hash) << i;
    }
  }
  // Every job of `jobs` finishes (waiting up to the test limit) with its fake measurement.
  static void ExpectAllFake(const std::vector<FarmJob>& jobs, std::vector<std::future<absl::StatusOr<JobResult>>>& fs) {
    for (size_t j = 0; j < jobs.size(); ++j) {
      ASSERT_EQ(fs[j].wait_for(kTestWaitLimit), std::future_status::ready) << "job " << j << " never finished";
      absl::StatusOr<JobResult> r = fs[j].get();
      ASSERT_TRUE(r.ok()) << r.status();
      ExpectFake(jobs[j], *r);
    }
  }
  absl::StatusOr<JobResult> Run(FarmJob job) {
    auto f = broker_->Submit(std::move(job));
    if (f.wait_for(kTestWaitLimit) != std::future_status::ready) return absl::DeadlineExceededError("job");
    return f.get();
  }
  // Submits n one-candidate jobs at once (different seeds), keeping each job and its future.
  void SubmitJobs(int n, std::vector<FarmJob>& jobs, std::vector<std::future<absl::StatusOr<JobResult>>>& fs) {
    for (int j = 0; j < n; ++j) {
      jobs.push_back(Job(1, 10 * j));
      fs.push_back(broker_->Submit(jobs.back()));
    }
  }

  // Moves the scripted clock one heartbeat `hb` on, and waits until the broker has heard worker
  // `live` (which heartbeats on the same clock) at the new time: the broker's liveness check
  // at that time has then run too (it runs in the pass that reads the message, or an earlier
  // one at the same time, under the lock Status takes).
  void Beat(Clock::Duration hb, const std::string& live) { ASSERT_NO_FATAL_FAILURE(BeatAll(hb, {live})); }
  // The same, hearing each of `live` (so that none lags behind enough to be declared dead).
  void BeatAll(Clock::Duration hb, const std::vector<std::string>& live) {
    clock_.Advance(hb);
    for (const std::string& id : live) {
      ASSERT_TRUE(WaitUntil([&] {
        for (const WorkerStatus& w : broker_->Status().workers)
          if (w.id == id) return w.last_seen_s == 0;
        return false;
      })) << "the broker never heard " << id << " after the clock moved on\n" << FormatFarmStatus(broker_->Status());
    }
  }
  int64_t DeadWorkers() { return broker_->Status().dead_workers; }
  // Beat for a RawWorker `raw` (routing id `id`), which heartbeats only when told: the clock
  // moves `d` on, `raw` says Heartbeat, and the broker has heard it at the new time.
  void BeatRaw(Clock::Duration d, RawWorker& raw, const std::string& id = "raw") {
    clock_.Advance(d);
    raw.Send(codec::Heartbeat{});
    ASSERT_TRUE(WaitUntil([&] {
      std::optional<WorkerStatus> w = FindWorker(broker_->Status(), id);
      return w.has_value() && w->last_seen_s == 0;
    })) << "the broker never heard " << id << " after the clock moved on";
  }
  // After the connection of worker `id` closed: submits one-candidate jobs one at a time until
  // a send to it finds no connection. The broker's socket learns of the close in its own time:
  // the jobs sent before are lost on the way, and each such job is followed by a short pause
  // for it (a poll, as WaitUntil's). Returns how many went out before, or -1 (a failure added).
  // The worker must have the slots (capacity kManySlots).
  static constexpr uint32_t kManySlots = 1000;
  int SubmitUntilUnroutable(const std::string& id, std::vector<FarmJob>& jobs,
                            std::vector<std::future<absl::StatusOr<JobResult>>>& fs) {
    const auto give_up = std::chrono::steady_clock::now() + kTestWaitLimit;
    for (int j = 0; j + 1 < static_cast<int>(kManySlots) && std::chrono::steady_clock::now() < give_up; ++j) {
      const int64_t sent = broker_->Status().jobs_sent;
      jobs.push_back(Job(1, 100 + 10 * j));
      fs.push_back(broker_->Submit(jobs.back()));
      bool unroutable = false;
      if (!WaitUntil([&] {
            FarmStatus s = broker_->Status();
            std::optional<WorkerStatus> w = FindWorker(s, id);
            unroutable = w.has_value() && w->unroutable;
            return unroutable || s.jobs_sent > sent;
          })) {
        ADD_FAILURE() << "job " << j << " was neither sent to " << id << " nor found it unroutable";
        return -1;
      }
      if (unroutable) return j;
      std::this_thread::sleep_for(milliseconds(10));
    }
    ADD_FAILURE() << "no send found " << id << " unroutable after its connection closed";
    return -1;
  }
  // BeatRaw in steps of one heartbeat up to `target` (the last step up to two).
  void AdvanceRawTo(Clock::TimePoint target, RawWorker& raw) {
    while (target - clock_.Now() >= 2 * kHb) ASSERT_NO_FATAL_FAILURE(BeatRaw(kHb, raw));
    ASSERT_NO_FATAL_FAILURE(BeatRaw(target - clock_.Now(), raw));
  }

  // ** job deadlines: jobs whose budget is a couple of seconds of scripted time **
  static constexpr milliseconds kHb{100};
  static constexpr milliseconds kSlack{500};
  static WorkerTimeLimits FastLimits() {
    return {.prepare_floor = std::chrono::duration<double>(0.2),
            .run_floor = std::chrono::duration<double>(0.05),
            .child_start = std::chrono::duration<double>(0.1)};
  }
  // Backups off unless `backup_after` says otherwise: the deadline tests look at deadlines alone.
  void StartDeadlineBroker(int evict_after_misses, double backup_after = 0) {
    clock_in_use_ = &clock_;
    auto b = Broker::Start({.endpoint = absl::StrCat("ipc://", dir_, "/farm"),
                            .status_endpoint = absl::StrCat("ipc://", dir_, "/status"),
                            .heartbeat = kHb,
                            .clock = &clock_,
                            .context = &ctx_,
                            .worker_limits = FastLimits(),
                            .job_slack = kSlack,
                            .evict_after_misses = evict_after_misses,
                            .backup_after = backup_after});
    ASSERT_TRUE(b.ok()) << b.status();
    broker_ = *std::move(b);
  }
  // On a deadline broker: RawWorker "raw" (incarnation 77, capacity 2) holding one SmallJob,
  // and when that job is due.
  struct RawHolder {
    std::unique_ptr<RawWorker> worker;
    codec::MeasureRequest job;
    Clock::TimePoint due;
    std::future<absl::StatusOr<JobResult>> done;
  };
  void StartRawHolder(int evict_after_misses, RawHolder& h) {
    ASSERT_NO_FATAL_FAILURE(StartDeadlineBroker(evict_after_misses));
    h.worker = std::make_unique<RawWorker>(ctx_, broker_->endpoint(), "raw");
    h.worker->Hello(77);
    ASSERT_TRUE(broker_->WaitForWorkers("", 1, kTestWaitLimit));
    const Clock::TimePoint sent = clock_.Now();
    FarmJob a = SmallJob(1);
    h.done = broker_->Submit(a);
    std::optional<codec::MeasureRequest> job = h.worker->NextJob();
    ASSERT_TRUE(job.has_value());
    h.job = *std::move(job);
    h.due = sent + kSlack + Budget(a, 2);
  }
  // A job of n candidates with a 0.1 s timeout and one run: JobTimeBudget 1.85 s for one.
  FarmJob SmallJob(int n, int base = 0) {
    FarmJob j = Job(n, base);
    j.options.timeout_s = 0.1;
    j.options.runs = 1;
    return j;
  }
  static Clock::Duration Budget(const FarmJob& job, int capacity) {
    return JobTimeBudget(job.options, job.candidates.size(), capacity, FastLimits());
  }
  // Moves the scripted clock on to `target` (a heartbeat `hb` or more ahead) in steps of one to
  // two heartbeats, each heard from every worker in `live`: the broker has checked its
  // deadlines and backups at `target`.
  void AdvanceTo(Clock::TimePoint target, const std::vector<std::string>& live, Clock::Duration hb = kHb) {
    ASSERT_GE(target - clock_.Now(), hb);
    while (target - clock_.Now() >= 2 * hb) ASSERT_NO_FATAL_FAILURE(BeatAll(hb, live));
    ASSERT_NO_FATAL_FAILURE(BeatAll(target - clock_.Now(), live));
  }
  int Queued() {
    int queued = 0;
    for (const auto& c : broker_->Status().classes) queued += c.queued;
    return queued;
  }
  // `f` finishes with the fake measurement of `job`, each candidate measured by `worker`.
  static void ExpectDoneBy(std::future<absl::StatusOr<JobResult>>& f, const FarmJob& job, const std::string& worker) {
    ASSERT_EQ(f.wait_for(kTestWaitLimit), std::future_status::ready) << "the job never finished";
    absl::StatusOr<JobResult> r = f.get();
    ASSERT_TRUE(r.ok()) << r.status();
    ExpectFake(job, *r);
    for (const MeasuredBy& m : r->measured_by) EXPECT_EQ(m.worker, worker);
  }
  static std::optional<WorkerStatus> FindWorker(const FarmStatus& s, const std::string& id) {
    for (const WorkerStatus& w : s.workers)
      if (w.id == id) return w;
    return std::nullopt;
  }

  // ** backups **
  // A worker of one slot that holds its answers back (heartbeating) until SetHolding(false).
  TestWorker& AddHolder(const std::string& id, net::SecurityOptions security = {}) {
    return AddWorker({.id = id, .capacity = 1, .heartbeat = kHb, .hold_answers = true, .security = std::move(security)});
  }
  // A SmallJob(1) sent at `sent` to `holder`, which joined the broker alone (HoldAJob).
  struct HeldJob {
    TestWorker* holder = nullptr;
    FarmJob job;
    Clock::TimePoint sent;
    std::future<absl::StatusOr<JobResult>> done;
  };
  void HoldAJob(const std::string& id, HeldJob& h, net::SecurityOptions security = {}) {
    h.holder = &AddHolder(id, std::move(security));
    ASSERT_TRUE(broker_->WaitForWorkers("", 1, kTestWaitLimit));
    h.sent = clock_.Now();
    h.job = SmallJob(1);
    h.done = broker_->Submit(h.job);
    ASSERT_TRUE(WaitUntil([&] { return h.holder->received() == 1; })) << id << " never got the job";
  }

  // Waits until the broker counts `n` free slots on worker `id` (its Ready may come in a later
  // pass than its Hello, which is what WaitForWorkers waits for).
  void WaitForCredits(const std::string& id, int n) {
    ASSERT_TRUE(WaitUntil([&] {
      std::optional<WorkerStatus> w = FindWorker(broker_->Status(), id);
      return w.has_value() && w->credits == n;
    })) << id << " never had " << n << " free slots";
  }

  FakeClock clock_;
  Clock* clock_in_use_ = &clock_;
  std::string dir_;
  net::ZmqContext ctx_;
  std::shared_ptr<const KernelTask> task_;
  std::unique_ptr<Broker> broker_;
  std::vector<std::unique_ptr<TestWorker>> workers_;
};

TEST_F(BrokerTest, SpreadsJobsOverWorkersAndAnswersInOrder) {
  StartBroker();
  for (int i = 0; i < 3; ++i) AddWorker({.id = absl::StrCat("w", i), .capacity = 2, .delay_s = 0.002});
  ASSERT_TRUE(broker_->WaitForWorkers(ClassA().Digest(), 3, kTestWaitLimit));
  std::vector<FarmJob> jobs;
  std::vector<std::future<absl::StatusOr<JobResult>>> fs;
  for (int j = 0; j < 30; ++j) {
    jobs.push_back(Job(3, 10 * j));
    fs.push_back(broker_->Submit(jobs.back()));
  }
  for (int j = 0; j < 30; ++j) {
    absl::StatusOr<JobResult> r = fs[j].get();
    ASSERT_TRUE(r.ok()) << r.status();
    ExpectFake(jobs[j], *r);
  }
  for (const auto& w : workers_) EXPECT_GT(w->jobs(), 0) << w->id();
  FarmStatus s = broker_->Status();
  EXPECT_EQ(s.workers.size(), 3u);
  EXPECT_EQ(s.submitted, 30);
  EXPECT_EQ(s.completed, 30);
  EXPECT_EQ(s.results, 30);
  EXPECT_EQ(s.dropped_results, 0);
  EXPECT_EQ(broker_->Slots(ClassA().Digest()), 6);
}

TEST_F(BrokerTest, RoutesOnlyToWorkersOfTheJobsClass) {
  StartBroker();
  AddWorker({.id = "a", .device = ClassA()});
  AddWorker({.id = "b", .device = ClassB()});
  ASSERT_TRUE(broker_->WaitForWorkers("", 2, kTestWaitLimit));
  for (int j = 0; j < 10; ++j) {
    const bool b = j % 2 == 1;
    absl::StatusOr<JobResult> r = Run(Job(2, 10 * j, b ? ClassB() : ClassA()));
    ASSERT_TRUE(r.ok()) << r.status();
    for (const MeasuredBy& m : r->measured_by) {
      EXPECT_EQ(m.worker, b ? "b" : "a");
      EXPECT_EQ(m.host, b ? "host-of-b" : "host-of-a");  // as its Hello announced
    }
  }
  // A class nobody serves waits in the queue, visible in the status.
  auto f = broker_->Submit(Job(1, 0, DeviceClass{.device = "GPU"}));
  EXPECT_EQ(f.wait_for(milliseconds(300)), std::future_status::timeout);
  FarmStatus s = broker_->Status();
  int queued = 0;
  for (const auto& c : s.classes) queued += c.queued;
  EXPECT_EQ(queued, 1);
  EXPECT_EQ(s.classes.size(), 3u);
}

TEST_F(BrokerTest, ResendsTheTaskToAWorkerThatForgotIt) {
  StartBroker();
  TestWorker& w = AddWorker({.id = "w"});
  ASSERT_TRUE(broker_->WaitForWorkers("", 1, kTestWaitLimit));
  FarmJob j1 = Job(2);
  ASSERT_TRUE(Run(j1).ok());
  w.ForgetTasks();
  FarmJob j2 = Job(2, 50);
  absl::StatusOr<JobResult> r = Run(j2);
  ASSERT_TRUE(r.ok()) << r.status();
  ExpectFake(j2, *r);
  EXPECT_EQ(w.unknown_task_answers(), 1);
  EXPECT_EQ(broker_->Status().task_resends, 1);
}

TEST_F(BrokerTest, DropsDuplicateResults) {
  StartBroker();
  AddWorker({.id = "dup", .capacity = 3, .duplicate_results = true});
  ASSERT_TRUE(broker_->WaitForWorkers("", 1, kTestWaitLimit));
  for (int j = 0; j < 8; ++j) {
    FarmJob job = Job(2, 10 * j);
    absl::StatusOr<JobResult> r = Run(job);
    ASSERT_TRUE(r.ok());
    ExpectFake(job, *r);
  }
  // The duplicates of the last answers may still be on their way.
  ASSERT_TRUE(WaitUntil([&] { return broker_->Status().dropped_results >= 8; })) << "duplicates never arrived";
  FarmStatus s = broker_->Status();
  EXPECT_EQ(s.results, 8);
  EXPECT_EQ(s.dropped_results, 8);
  EXPECT_EQ(s.completed, 8);
}

// On the machine's clock: what holds however slow the machine is (a loaded one may also declare
// the good worker dead for a while; every job still completes exactly once).
TEST_F(BrokerTest, RequeuesJobsOfASilentWorkerAndTakesItBackLater) {
  StartBroker(milliseconds(50), &Clock::Real());
  TestWorker& slow = AddWorker({.id = "a_frozen", .capacity = 4, .heartbeat = milliseconds(50), .delay_s = 0.05});
  ASSERT_TRUE(broker_->WaitForWorkers("", 1, kTestWaitLimit));
  std::vector<FarmJob> jobs;
  std::vector<std::future<absl::StatusOr<JobResult>>> fs;
  SubmitJobs(6, jobs, fs);
  // It holds jobs when it stops.
  ASSERT_TRUE(WaitUntil([&] { return broker_->Status().jobs_sent >= 4; })) << "the jobs were never sent";
  slow.Freeze();
  TestWorker& good = AddWorker({.id = "b_good", .capacity = 2, .heartbeat = milliseconds(50)});
  for (int j = 0; j < 6; ++j) {
    absl::StatusOr<JobResult> r = fs[j].get();
    ASSERT_TRUE(r.ok()) << r.status();
    ExpectFake(jobs[j], *r);
  }
  FarmStatus s = broker_->Status();
  EXPECT_GE(s.dead_workers, 1);
  EXPECT_GE(s.requeued, 1);
  EXPECT_EQ(s.completed, 6);
  EXPECT_GT(good.jobs(), 0);
  // Resumed: its late answers are dropped, and it joins again with a new Hello.
  slow.Thaw();
  ASSERT_TRUE(WaitUntil([&] { return slow.hellos() >= 2; })) << "the thawed worker never said Hello again";
  ASSERT_TRUE(broker_->WaitForWorkers("", 2, kTestWaitLimit));
  ASSERT_TRUE(WaitUntil([&] { return broker_->Status().dropped_results >= 1; })) << "no late answer was dropped";
  EXPECT_EQ(broker_->Status().results, 6);
}

// Scripted time: a worker silent for more than dead_after (5) heartbeats is dead at the 6th
// beat of its silence, not before; its jobs go to the worker that keeps beating. The silent
// one's device "hangs" (it answers after an hour), so it sends nothing once it holds its jobs.
TEST_F(BrokerTest, ASilentWorkerIsDeadAfterExactlyDeadAfterHeartbeats) {
  const milliseconds hb(50);
  StartBroker(hb);
  TestWorker& slow = AddWorker({.id = "a_silent", .capacity = 4, .heartbeat = hb, .delay_s = 3600});
  ASSERT_TRUE(broker_->WaitForWorkers("", 1, kTestWaitLimit));
  std::vector<FarmJob> jobs;
  std::vector<std::future<absl::StatusOr<JobResult>>> fs;
  SubmitJobs(6, jobs, fs);
  ASSERT_TRUE(WaitUntil([&] { return broker_->Status().jobs_sent == 4; })) << "the silent worker never got 4 jobs";
  slow.Freeze();
  AddWorker({.id = "b_good", .capacity = 2, .heartbeat = hb});
  ASSERT_TRUE(broker_->WaitForWorkers("", 2, kTestWaitLimit));
  for (int beat = 1; beat <= 5; ++beat) {
    ASSERT_NO_FATAL_FAILURE(Beat(hb, "b_good"));
    EXPECT_EQ(DeadWorkers(), 0) << "declared dead after " << beat << " silent heartbeats";
  }
  ASSERT_NO_FATAL_FAILURE(Beat(hb, "b_good"));
  EXPECT_EQ(DeadWorkers(), 1) << "still alive after 6 silent heartbeats";
  for (int j = 0; j < 6; ++j) {
    ASSERT_EQ(fs[j].wait_for(kTestWaitLimit), std::future_status::ready) << "job " << j << " never finished";
    absl::StatusOr<JobResult> r = fs[j].get();
    ASSERT_TRUE(r.ok()) << r.status();
    ExpectFake(jobs[j], *r);
    for (const MeasuredBy& m : r->measured_by) EXPECT_EQ(m.worker, "b_good");
  }
  FarmStatus s = broker_->Status();
  EXPECT_EQ(s.requeued, 4);
  EXPECT_EQ(s.completed, 6);
  ASSERT_EQ(s.workers.size(), 1u);
  EXPECT_EQ(s.workers[0].id, "b_good");
}

// Scripted time: the broker's own delay is not a worker's silence. Ten intervals pass at once
// (as when the broker thread was starved or the process stopped): that is one tick of silence,
// and the silent worker dies only at the 6th tick of its silence, as if the ticks had been
// regular.
TEST_F(BrokerTest, AStarvedBrokerDoesNotTakeItsOwnDelayForAWorkersSilence) {
  const milliseconds hb(50);
  StartBroker(hb);
  TestWorker& slow = AddWorker({.id = "a_silent", .capacity = 1, .heartbeat = hb});
  AddWorker({.id = "b_good", .capacity = 1, .heartbeat = hb, .dead_after = 1000});
  ASSERT_TRUE(broker_->WaitForWorkers("", 2, kTestWaitLimit));
  slow.Freeze();
  ASSERT_NO_FATAL_FAILURE(Beat(10 * hb, "b_good"));
  EXPECT_EQ(DeadWorkers(), 0) << "a starved broker declared a worker dead";
  for (int beat = 2; beat <= 5; ++beat) {
    ASSERT_NO_FATAL_FAILURE(Beat(hb, "b_good"));
    EXPECT_EQ(DeadWorkers(), 0) << "declared dead at tick " << beat;
  }
  ASSERT_NO_FATAL_FAILURE(Beat(hb, "b_good"));
  EXPECT_EQ(DeadWorkers(), 1) << "still alive after 6 silent ticks";
}

// A worker that reconnects (the same incarnation on a new connection) keeps the job it says it
// holds, whose result is accepted on the new connection; the job it does not hold was lost on
// the way and goes again. No worker is declared dead.
TEST_F(BrokerTest, AReconnectingWorkerKeepsTheJobsItHolds) {
  StartBroker(milliseconds(50));
  auto first = std::make_unique<RawWorker>(ctx_, broker_->endpoint(), "raw");
  first->Hello(77);
  ASSERT_TRUE(broker_->WaitForWorkers("", 1, kTestWaitLimit));
  std::vector<FarmJob> jobs;
  std::vector<std::future<absl::StatusOr<JobResult>>> fs;
  SubmitJobs(2, jobs, fs);
  std::optional<codec::MeasureRequest> a = first->NextJob(), b = first->NextJob();
  ASSERT_TRUE(a.has_value() && b.has_value());
  first.reset();  // the old connection is gone with b unread, say
  RawWorker again(ctx_, broker_->endpoint(), "raw");
  again.Hello(77, {a->job_id});
  std::optional<codec::MeasureRequest> b2 = again.NextJob();
  ASSERT_TRUE(b2.has_value()) << "the job it did not hold was not sent again";
  EXPECT_EQ(b2->candidates, b->candidates);
  again.Answer(*a);
  again.Answer(*b2);
  ASSERT_NO_FATAL_FAILURE(ExpectAllFake(jobs, fs));
  FarmStatus s = broker_->Status();
  EXPECT_EQ(s.reconnects, 1);
  EXPECT_EQ(s.requeued, 1);
  EXPECT_EQ(s.results, 2);
  EXPECT_EQ(s.dropped_results, 0);
  EXPECT_EQ(s.dead_workers, 0);
}

// The old connection closed before the new one's Hello was read (as when the broker resumes
// after a stall the worker gave up on): a send that finds no connection waits for the worker's
// reconnect instead of declaring it dead. The job it holds stays with it and its answer on
// the new connection is taken; only the jobs lost on the way go again.
TEST_F(BrokerTest, ASendThatFindsNoConnectionWaitsForTheReconnect) {
  StartBroker(milliseconds(50));
  auto first = std::make_unique<RawWorker>(ctx_, broker_->endpoint(), "raw");
  first->Hello(77, {}, kManySlots);
  ASSERT_TRUE(broker_->WaitForWorkers("", 1, kTestWaitLimit));
  std::vector<FarmJob> jobs;
  std::vector<std::future<absl::StatusOr<JobResult>>> fs;
  SubmitJobs(1, jobs, fs);
  std::optional<codec::MeasureRequest> a = first->NextJob();
  ASSERT_TRUE(a.has_value());
  first.reset();
  const int lost_on_the_way = SubmitUntilUnroutable("raw", jobs, fs);
  ASSERT_GE(lost_on_the_way, 0);
  FarmStatus s = broker_->Status();
  EXPECT_EQ(s.dead_workers, 0) << "declared dead at the first send that found no connection";
  EXPECT_EQ(s.requeued, 0);
  ASSERT_TRUE(FindWorker(s, "raw").has_value());
  EXPECT_NE(FormatFarmStatus(s).find("(connection lost: waiting for it to reconnect)"), std::string::npos);

  RawWorker again(ctx_, broker_->endpoint(), "raw");
  again.Hello(77, {a->job_id}, kManySlots);
  again.Answer(*a);
  // The rest: the one that found no connection and those lost on the way, sent again.
  for (size_t j = 1; j < jobs.size(); ++j) {
    std::optional<codec::MeasureRequest> r = again.NextJob();
    ASSERT_TRUE(r.has_value()) << "only " << j - 1 << " of the other jobs came on the new connection";
    again.Answer(*r);
  }
  ASSERT_NO_FATAL_FAILURE(ExpectAllFake(jobs, fs));
  s = broker_->Status();
  EXPECT_EQ(s.reconnects, 1);
  EXPECT_EQ(s.dead_workers, 0);
  EXPECT_EQ(s.requeued, lost_on_the_way);
  EXPECT_EQ(s.dropped_results, 0) << "the answer of the job it kept was dropped";
  EXPECT_EQ(s.results, static_cast<int64_t>(jobs.size()));
  ASSERT_TRUE(FindWorker(s, "raw").has_value());
  EXPECT_FALSE(FindWorker(s, "raw")->unroutable);
}

// Scripted time: a worker whose connection a send found gone and that does not come back is
// dead at the 2nd heartbeat tick after (sooner than by silence), and its job goes elsewhere.
TEST_F(BrokerTest, AWorkerWhoseConnectionIsGoneIsDeadAtTheSecondTickAfter) {
  const milliseconds hb(50);
  StartBroker(hb);
  auto first = std::make_unique<RawWorker>(ctx_, broker_->endpoint(), "raw");
  first->Hello(77, {}, kManySlots);
  ASSERT_TRUE(broker_->WaitForWorkers("", 1, kTestWaitLimit));
  std::vector<FarmJob> jobs;
  std::vector<std::future<absl::StatusOr<JobResult>>> fs;
  SubmitJobs(1, jobs, fs);
  ASSERT_TRUE(first->NextJob().has_value());
  first.reset();
  const int lost_on_the_way = SubmitUntilUnroutable("raw", jobs, fs);
  ASSERT_GE(lost_on_the_way, 0);
  AddWorker({.id = "b_good", .capacity = 1, .heartbeat = hb, .dead_after = 1000});
  ASSERT_TRUE(broker_->WaitForWorkers("", 2, kTestWaitLimit));
  ASSERT_NO_FATAL_FAILURE(Beat(hb, "b_good"));
  EXPECT_EQ(DeadWorkers(), 0) << "dead at the first tick";
  ASSERT_NO_FATAL_FAILURE(Beat(hb, "b_good"));
  EXPECT_EQ(DeadWorkers(), 1) << "still alive at the second tick";
  ASSERT_NO_FATAL_FAILURE(ExpectAllFake(jobs, fs));
  FarmStatus s = broker_->Status();
  EXPECT_EQ(s.requeued, 1 + lost_on_the_way);
  ASSERT_EQ(s.workers.size(), 1u);
  EXPECT_EQ(s.workers[0].id, "b_good");
}

TEST_F(BrokerTest, RequeuesJobsOfAKilledWorkerAndOfARestartedOne) {
  StartBroker(milliseconds(50));
  TestWorker& victim = AddWorker({.id = "victim", .capacity = 2, .heartbeat = milliseconds(50), .delay_s = 0.05});
  ASSERT_TRUE(broker_->WaitForWorkers("", 1, kTestWaitLimit));
  std::vector<FarmJob> jobs;
  std::vector<std::future<absl::StatusOr<JobResult>>> fs;
  for (int j = 0; j < 4; ++j) {
    jobs.push_back(Job(1, 10 * j));
    fs.push_back(broker_->Submit(jobs.back()));
  }
  ASSERT_TRUE(WaitUntil([&] { return broker_->Status().jobs_sent >= 2; })) << "the jobs were never sent";
  victim.Kill();
  AddWorker({.id = "other", .capacity = 2, .heartbeat = milliseconds(50)});
  victim.Restart();  // comes back under its old id: what it held is requeued
  for (int j = 0; j < 4; ++j) {
    absl::StatusOr<JobResult> r = fs[j].get();
    ASSERT_TRUE(r.ok()) << r.status();
    ExpectFake(jobs[j], *r);
  }
  FarmStatus s = broker_->Status();
  EXPECT_EQ(s.results, 4);
  EXPECT_EQ(s.completed, 4);
}

TEST_F(BrokerTest, QuarantinesACandidateThatKillsWorkers) {
  StartBroker(milliseconds(50));
  const std::vector<Opt> poison = {Opt{OptOps::UPCAST, 0, 3}};
  for (int i = 0; i < 3; ++i)
    AddWorker({.id = absl::StrCat("w", i), .capacity = 1, .heartbeat = milliseconds(50),
               .poison = [poison](const std::vector<Opt>& c) { return c == poison; }});
  ASSERT_TRUE(broker_->WaitForWorkers("", 3, kTestWaitLimit));
  FarmJob job = Job(5);  // candidates UPCAST 1..5: the third is the poison
  absl::StatusOr<JobResult> r = Run(job);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->batch.results.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    if (i == 2) {
      EXPECT_EQ(r->batch.results[i].outcome, Outcome::kWorkerLost);
      EXPECT_EQ(r->batch.results[i].error, "poison: killed 2 workers");
    } else {
      EXPECT_EQ(r->batch.results[i].outcome, Outcome::kOk) << i;
      EXPECT_EQ(r->batch.results[i].program_hash, FakeCandidate(job.candidates[i]).program_hash);
    }
  }
  FarmStatus s = broker_->Status();
  EXPECT_EQ(s.poisoned, 1);
  // Never retried: the whole job killed 2 workers, then the candidate alone 2 more.
  int64_t hellos = 0;
  for (const auto& w : workers_) hellos += w->hellos();
  EXPECT_EQ(hellos, 3 + 4);
}

TEST_F(BrokerTest, SaysByeToAWorkerOfAnotherProtocolVersion) {
  StartBroker();
  TestWorker& old = AddWorker({.id = "old", .protocol_version = 99});
  ASSERT_TRUE(WaitUntil([&] { return old.byes_received() > 0; })) << "no Bye for the old protocol";
  EXPECT_EQ(old.byes_received(), 1);
  EXPECT_EQ(old.refused_byes(), 1) << "a worker of another protocol would only be refused again";
  FarmStatus s = broker_->Status();
  EXPECT_TRUE(s.workers.empty());
  EXPECT_EQ(s.rejected_hellos, 1);
}

TEST_F(BrokerTest, StatusSocketAndByeOnShutdown) {
  StartBroker();
  TestWorker& w = AddWorker({.id = "status-worker"});
  ASSERT_TRUE(broker_->WaitForWorkers("", 1, kTestWaitLimit));
  ASSERT_TRUE(Run(Job(2)).ok());
  auto req = net::ZmqSocket::Create(ctx_, net::SocketType::kReq);
  ASSERT_TRUE(req.ok());
  ASSERT_TRUE(req->Connect(broker_->status_endpoint()).ok());
  ASSERT_TRUE(req->Send({"status"}).ok());
  absl::StatusOr<net::Frames> text = req->ReceiveFor(kTestWaitLimit);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_NE((*text)[0].find("status-worker"), std::string::npos) << (*text)[0];
  EXPECT_NE((*text)[0].find("completed=1"), std::string::npos) << (*text)[0];
  // The same status as JSON (what `tg farm status --web` asks for).
  ASSERT_TRUE(req->Send({std::string(kStatusJsonRequest)}).ok());
  absl::StatusOr<net::Frames> json = req->ReceiveFor(kTestWaitLimit);
  ASSERT_TRUE(json.ok()) << json.status();
  absl::StatusOr<FarmStatus> parsed = FarmStatusFromJson((*json)[0]);
  ASSERT_TRUE(parsed.ok()) << parsed.status() << ": " << (*json)[0];
  ASSERT_EQ(parsed->workers.size(), 1u);
  EXPECT_EQ(parsed->workers[0].id, "status-worker");
  EXPECT_EQ(parsed->completed, 1);
  req->Close();

  auto pending = broker_->Submit(Job(1, 0, DeviceClass{.device = "nobody"}));
  broker_->Shutdown();
  absl::StatusOr<JobResult> r = pending.get();
  EXPECT_EQ(r.status().code(), absl::StatusCode::kCancelled);
  ASSERT_TRUE(WaitUntil([&] { return w.byes_received() > 0; })) << "no Bye on shutdown";
  EXPECT_EQ(w.byes_received(), 1);
  EXPECT_EQ(w.refused_byes(), 0) << "a coordinator shutting down may be back: its Bye refuses nobody";
  auto late = broker_->Submit(Job(1));
  EXPECT_EQ(late.get().status().code(), absl::StatusCode::kCancelled);
}

// ZAP admits a key at the handshake only: once revoked, the worker's next message is dropped
// unread and the worker is cut off (no more jobs), as if it had died.
TEST_F(BrokerTest, CutsOffAWorkerWhoseKeyIsRevoked) {
  absl::StatusOr<net::CurveKeyPair> server = net::GenerateCurveKeyPair(), client = net::GenerateCurveKeyPair();
  ASSERT_TRUE(server.ok() && client.ok());
  net::ZapOptions zo;
  zo.allowlist.Add(client->public_z85, "test");
  zo.log_denials = false;
  absl::StatusOr<std::unique_ptr<net::ZapHandler>> zap = net::ZapHandler::Start(ctx_, zo);
  ASSERT_TRUE(zap.ok()) << zap.status();
  auto b = Broker::Start({.endpoint = "tcp://127.0.0.1:*",
                          .security = net::SecurityOptions::CurveServer(*server, zap->get()),
                          .heartbeat = milliseconds(100),
                          .clock = &clock_,
                          .context = &ctx_});
  ASSERT_TRUE(b.ok()) << b.status();
  broker_ = *std::move(b);
  AddWorker({.id = "w0", .security = net::SecurityOptions::CurveClient(*client, server->public_z85)});
  ASSERT_TRUE(broker_->WaitForWorkers(ClassA().Digest(), 1, kTestWaitLimit));
  FarmJob job = Job(2);
  absl::StatusOr<JobResult> r = Run(job);
  ASSERT_TRUE(r.ok()) << r.status();
  ExpectFake(job, *r);

  ASSERT_TRUE((*zap)->Revoke(client->public_z85).ok());
  auto late = broker_->Submit(Job(2, 100));
  // the worker's answer to it now cuts it off; the job waits for another worker
  ASSERT_TRUE(WaitUntil([&] {
    FarmStatus s = broker_->Status();
    return s.revoked_messages > 0 && s.workers.empty();
  })) << "the revoked worker was never cut off";
  EXPECT_EQ(late.wait_for(milliseconds(0)), std::future_status::timeout) << "a revoked worker's answer was taken";
  broker_->Shutdown();
  broker_.reset();
  workers_.clear();
  (*zap)->Stop();
}

// ** job deadlines **

// A worker that heartbeats but never answers (issue 16): its job is due JobTimeBudget + slack
// after it was sent, not a moment earlier; then it goes to the honest worker, and the silent
// one's answer, when it comes at last, is dropped and frees its slot.
TEST_F(BrokerTest, ASilentWorkersJobGoesToAnHonestOneAtItsDeadline) {
  StartDeadlineBroker(/*evict_after_misses=*/3);
  TestWorker& silent = AddWorker({.id = "a_silent", .capacity = 1, .heartbeat = kHb, .hold_answers = true});
  ASSERT_TRUE(broker_->WaitForWorkers("", 1, kTestWaitLimit));
  const Clock::TimePoint sent = clock_.Now();
  FarmJob job = SmallJob(1);
  auto f = broker_->Submit(job);
  ASSERT_TRUE(WaitUntil([&] { return silent.received() == 1; })) << "the silent worker never got the job";
  AddWorker({.id = "b_honest", .capacity = 1, .heartbeat = kHb});
  ASSERT_TRUE(broker_->WaitForWorkers("", 2, kTestWaitLimit));

  ASSERT_NO_FATAL_FAILURE(AdvanceTo(sent + kSlack + Budget(job, 1), {"a_silent", "b_honest"}));
  FarmStatus s = broker_->Status();
  EXPECT_EQ(s.deadline_misses, 0) << "requeued at its deadline, not after it";
  EXPECT_EQ(s.jobs_sent, 1);
  EXPECT_EQ(f.wait_for(milliseconds(0)), std::future_status::timeout);

  ASSERT_NO_FATAL_FAILURE(BeatAll(kHb, {"a_silent", "b_honest"}));
  ASSERT_NO_FATAL_FAILURE(ExpectDoneBy(f, job, "b_honest"));
  s = broker_->Status();
  EXPECT_EQ(s.deadline_misses, 1);
  EXPECT_EQ(s.requeued, 1);
  EXPECT_EQ(s.dead_workers, 0);
  EXPECT_EQ(s.evicted_workers, 0);
  EXPECT_EQ(s.poisoned, 0);
  std::optional<WorkerStatus> w = FindWorker(s, "a_silent");
  ASSERT_TRUE(w.has_value()) << "one miss does not evict";
  EXPECT_EQ(w->deadline_misses, 1);
  EXPECT_EQ(w->overdue, 1);
  EXPECT_EQ(w->in_flight, 0);
  EXPECT_EQ(w->credits, 0) << "its slot stays taken until it answers";
  const std::string text = FormatFarmStatus(s);
  EXPECT_NE(text.find("deadline_misses=1 overdue=1"), std::string::npos) << text;
  EXPECT_NE(text.find("deadlines: deadline_misses=1 evicted_workers=0"), std::string::npos) << text;

  // At last it answers: dropped as a duplicate would be, and its slot is free again.
  silent.SetHolding(false);
  ASSERT_TRUE(WaitUntil([&] { return broker_->Status().dropped_results == 1; })) << "the late answer never came";
  s = broker_->Status();
  EXPECT_EQ(s.results, 1);
  EXPECT_EQ(s.completed, 1);
  w = FindWorker(s, "a_silent");
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->overdue, 0);
  EXPECT_EQ(w->credits, 1);
}

// An honest worker as slow as its limits allow is never penalised. It holds two jobs sent at
// once: the first alone would be due at its own budget, but the second may take the device
// first, so both are due after both budgets; answered there, both count.
TEST_F(BrokerTest, AnHonestSlowWorkerWithinItsDeadlinesIsNotPenalised) {
  StartDeadlineBroker(/*evict_after_misses=*/1);  // one miss would evict it
  TestWorker& slow = AddWorker({.id = "slow", .capacity = 2, .heartbeat = kHb, .hold_answers = true});
  ASSERT_TRUE(broker_->WaitForWorkers("", 1, kTestWaitLimit));
  const Clock::TimePoint sent = clock_.Now();
  FarmJob one = SmallJob(1), two = SmallJob(2, 10);
  auto f1 = broker_->Submit(one);
  auto f2 = broker_->Submit(two);
  ASSERT_TRUE(WaitUntil([&] { return slow.received() == 2; })) << "the worker never got both jobs";
  ASSERT_NO_FATAL_FAILURE(AdvanceTo(sent + kSlack + Budget(one, 2) + Budget(two, 2), {"slow"}));
  slow.SetHolding(false);
  ASSERT_NO_FATAL_FAILURE(ExpectDoneBy(f1, one, "slow"));
  ASSERT_NO_FATAL_FAILURE(ExpectDoneBy(f2, two, "slow"));
  FarmStatus s = broker_->Status();
  EXPECT_EQ(s.deadline_misses, 0);
  EXPECT_EQ(s.dropped_results, 0);
  EXPECT_EQ(s.requeued, 0);
  EXPECT_EQ(s.evicted_workers, 0);
  EXPECT_EQ(s.results, 2);
  ASSERT_TRUE(FindWorker(s, "slow").has_value());
  EXPECT_EQ(FindWorker(s, "slow")->deadline_misses, 0);
}

// A worker that misses deadlines again is evicted: Bye with the reason, no more jobs, in the
// status; saying Hello again under its id gets Bye at once. Between its two misses it gets a
// job only because the honest worker has no free slot.
TEST_F(BrokerTest, AWorkerThatMissesDeadlinesAgainIsEvicted) {
  StartDeadlineBroker(/*evict_after_misses=*/2);
  TestWorker& silent = AddWorker({.id = "a_silent", .capacity = 2, .heartbeat = kHb, .hold_answers = true});
  ASSERT_TRUE(broker_->WaitForWorkers("", 1, kTestWaitLimit));
  const Clock::TimePoint sent_a = clock_.Now();
  FarmJob a = SmallJob(1), b = SmallJob(1, 10);
  auto fa = broker_->Submit(a);
  ASSERT_TRUE(WaitUntil([&] { return silent.received() == 1; }));
  TestWorker& honest = AddWorker({.id = "b_honest", .capacity = 1, .heartbeat = kHb, .hold_answers = true});
  ASSERT_TRUE(broker_->WaitForWorkers("", 2, kTestWaitLimit));
  ASSERT_NO_FATAL_FAILURE(AdvanceTo(sent_a + kSlack + Budget(a, 2) + kHb, {"a_silent", "b_honest"}));
  ASSERT_TRUE(WaitUntil([&] { return honest.received() == 1; })) << "job a never went to the honest worker";
  EXPECT_EQ(broker_->Status().deadline_misses, 1);

  // The honest worker is busy: b goes to the one that missed (it still has a free slot).
  const Clock::TimePoint sent_b = clock_.Now();
  auto fb = broker_->Submit(b);
  ASSERT_TRUE(WaitUntil([&] { return silent.received() == 2; })) << "job b never went to the silent worker";
  honest.SetHolding(false);
  ASSERT_NO_FATAL_FAILURE(ExpectDoneBy(fa, a, "b_honest"));

  ASSERT_NO_FATAL_FAILURE(AdvanceTo(sent_b + kSlack + Budget(b, 2), {"a_silent", "b_honest"}));
  EXPECT_EQ(broker_->Status().evicted_workers, 0);
  ASSERT_NO_FATAL_FAILURE(Beat(kHb, "b_honest"));
  ASSERT_NO_FATAL_FAILURE(ExpectDoneBy(fb, b, "b_honest"));
  ASSERT_TRUE(WaitUntil([&] { return silent.byes_received() == 1; })) << "the evicted worker got no Bye";
  FarmStatus s = broker_->Status();
  EXPECT_EQ(s.deadline_misses, 2);
  EXPECT_EQ(s.evicted_workers, 1);
  ASSERT_EQ(s.workers.size(), 1u);
  EXPECT_EQ(s.workers[0].id, "b_honest");
  ASSERT_EQ(s.evicted.size(), 1u);
  EXPECT_EQ(s.evicted[0].id, "a_silent");
  EXPECT_EQ(s.evicted[0].host, "host-of-a_silent");
  EXPECT_EQ(s.evicted[0].deadline_misses, 2);
  EXPECT_EQ(s.evicted[0].key, "");
  const std::string text = FormatFarmStatus(s);
  EXPECT_NE(text.find("evicted (missed deadlines): 1\n  a_silent"), std::string::npos) << text;
  EXPECT_NE(text.find("evicted_workers=1"), std::string::npos) << text;

  // A new connection under the same id is refused.
  silent.Restart();
  ASSERT_TRUE(WaitUntil([&] { return silent.byes_received() == 2; })) << "an evicted worker's Hello got no Bye";
  EXPECT_EQ(silent.refused_byes(), 2);
  s = broker_->Status();
  EXPECT_EQ(s.evicted_hellos, 1);
  EXPECT_EQ(s.workers.size(), 1u);
  EXPECT_EQ(s.results, 2);
}

// A reconnect keeps the jobs the worker holds on their deadlines of before: reconnecting (or
// pretending to) buys a worker no time.
TEST_F(BrokerTest, AReconnectKeepsTheDeadlinesOfTheJobsItHolds) {
  RawHolder first;
  ASSERT_NO_FATAL_FAILURE(StartRawHolder(/*evict_after_misses=*/3, first));
  ASSERT_NO_FATAL_FAILURE(AdvanceRawTo(first.due - kHb, *first.worker));
  first.worker.reset();
  RawWorker again(ctx_, broker_->endpoint(), "raw");
  again.Hello(77, {first.job.job_id});
  ASSERT_TRUE(WaitUntil([&] { return broker_->Status().reconnects == 1; })) << "the reconnect was not taken as one";
  EXPECT_EQ(broker_->Status().deadline_misses, 0);
  EXPECT_EQ(broker_->Status().requeued, 0);
  ASSERT_NO_FATAL_FAILURE(BeatRaw(2 * kHb, again));
  FarmStatus s = broker_->Status();
  EXPECT_EQ(s.deadline_misses, 1) << "the reconnect reset the deadline of the job it holds";
  EXPECT_EQ(s.requeued, 1);
  EXPECT_EQ(s.dead_workers, 0);
}

// An evicted worker stays evicted when it comes back as a reconnect of the same process (its
// incarnation and the jobs it held): refused with Bye, nothing kept.
TEST_F(BrokerTest, AnEvictedWorkerIsRefusedAlsoAsAReconnect) {
  RawHolder first;
  ASSERT_NO_FATAL_FAILURE(StartRawHolder(/*evict_after_misses=*/1, first));
  ASSERT_NO_FATAL_FAILURE(AdvanceRawTo(first.due - kHb, *first.worker));
  clock_.Advance(2 * kHb);
  std::optional<codec::Bye> bye = first.worker->Next<codec::Bye>();
  ASSERT_TRUE(bye.has_value()) << "never evicted";
  EXPECT_TRUE(bye->reason.starts_with("evicted: held 1 jobs past their deadline")) << bye->reason;
  EXPECT_TRUE(bye->refused);
  first.worker.reset();
  RawWorker again(ctx_, broker_->endpoint(), "raw");
  again.Hello(77, {first.job.job_id});
  std::optional<codec::Bye> refused = again.Next<codec::Bye>();
  ASSERT_TRUE(refused.has_value()) << "the evicted worker's reconnect got no Bye";
  EXPECT_EQ(refused->reason, bye->reason);
  EXPECT_TRUE(refused->refused);
  FarmStatus s = broker_->Status();
  EXPECT_EQ(s.evicted_hellos, 1);
  EXPECT_EQ(s.reconnects, 0);
  EXPECT_TRUE(s.workers.empty());
}

// One hostile worker cannot get an honest candidate quarantined: a job that missed its
// deadline on it does not go back to it while another worker of the class is alive, even when
// only the hostile one has a free slot.
TEST_F(BrokerTest, AJobLateOnOneWorkerWaitsForAnotherRatherThanGoBack) {
  StartDeadlineBroker(/*evict_after_misses=*/3);
  TestWorker& honest = AddWorker({.id = "b_honest", .capacity = 1, .heartbeat = kHb, .hold_answers = true});
  ASSERT_TRUE(broker_->WaitForWorkers("", 1, kTestWaitLimit));
  FarmJob busy = Job(1, 50);  // default limits: due in minutes
  auto f_busy = broker_->Submit(busy);
  ASSERT_TRUE(WaitUntil([&] { return honest.received() == 1; }));
  TestWorker& hostile = AddWorker({.id = "a_hostile", .capacity = 2, .heartbeat = kHb, .hold_answers = true});
  ASSERT_TRUE(broker_->WaitForWorkers("", 2, kTestWaitLimit));
  const Clock::TimePoint sent = clock_.Now();
  FarmJob x = SmallJob(1);
  auto fx = broker_->Submit(x);
  ASSERT_TRUE(WaitUntil([&] { return hostile.received() == 1; }));
  ASSERT_NO_FATAL_FAILURE(AdvanceTo(sent + kSlack + Budget(x, 2) + kHb, {"a_hostile", "b_honest"}));
  for (int beat = 0; beat < 5; ++beat) ASSERT_NO_FATAL_FAILURE(BeatAll(kHb, {"a_hostile", "b_honest"}));
  FarmStatus s = broker_->Status();
  EXPECT_EQ(s.deadline_misses, 1);
  EXPECT_EQ(s.jobs_sent, 2) << "the late job went back to the worker that held it";
  EXPECT_EQ(hostile.received(), 1);
  ASSERT_TRUE(FindWorker(s, "a_hostile").has_value());
  EXPECT_EQ(FindWorker(s, "a_hostile")->credits, 1);
  int queued = 0;
  for (const auto& c : s.classes) queued += c.queued;
  EXPECT_EQ(queued, 1);

  honest.SetHolding(false);
  ASSERT_NO_FATAL_FAILURE(ExpectDoneBy(f_busy, busy, "b_honest"));
  ASSERT_NO_FATAL_FAILURE(ExpectDoneBy(fx, x, "b_honest"));
  EXPECT_EQ(broker_->Status().poisoned, 0);
  EXPECT_EQ(hostile.received(), 1);
}

// A job late on two workers is treated as one lost with two: split into single candidates,
// which go to a worker neither of them (here a third, honest one) and are measured, not
// quarantined.
TEST_F(BrokerTest, AJobLateOnTwoWorkersIsSplitAndItsCandidatesMeasuredElsewhere) {
  StartDeadlineBroker(/*evict_after_misses=*/3);
  TestWorker& s1 = AddWorker({.id = "s1", .capacity = 1, .heartbeat = kHb, .hold_answers = true});
  TestWorker& s2 = AddWorker({.id = "s2", .capacity = 1, .heartbeat = kHb, .hold_answers = true});
  ASSERT_TRUE(broker_->WaitForWorkers("", 2, kTestWaitLimit));
  const Clock::TimePoint sent = clock_.Now();
  FarmJob job = SmallJob(2);
  auto f = broker_->Submit(job);
  ASSERT_TRUE(WaitUntil([&] { return s1.received() + s2.received() == 1; }));
  ASSERT_NO_FATAL_FAILURE(AdvanceTo(sent + kSlack + Budget(job, 1) + kHb, {"s1", "s2"}));
  ASSERT_TRUE(WaitUntil([&] { return s1.received() == 1 && s2.received() == 1; }))
      << "the late job did not go to the other worker";
  const Clock::TimePoint resent = clock_.Now();
  ASSERT_NO_FATAL_FAILURE(AdvanceTo(resent + kSlack + Budget(job, 1) + kHb, {"s1", "s2"}));
  FarmStatus s = broker_->Status();
  EXPECT_EQ(s.deadline_misses, 2);
  int queued = 0;
  for (const auto& c : s.classes) queued += c.queued;
  EXPECT_EQ(queued, 2) << "not split into its two candidates";

  AddWorker({.id = "t_honest", .capacity = 1, .heartbeat = kHb});
  ASSERT_NO_FATAL_FAILURE(ExpectDoneBy(f, job, "t_honest"));
  s = broker_->Status();
  EXPECT_EQ(s.poisoned, 0);
  EXPECT_EQ(s.requeued, 2);
  EXPECT_EQ(s1.received() + s2.received(), 2);
}

// ** backups **
// The scripted jobs (SmallJob: timeout 0.1 s, one run) get a backup after 0.3 s: before any
// history (k x (runs + 2) x timeout) as at the floor (3 heartbeats of 100 ms).
constexpr Clock::Duration kBackupAfter = std::chrono::milliseconds(300);

// Issue 16's scenario at the default settings (heartbeat 1 s, backup after 3 x p90, floor 3
// heartbeats, job slack 30 s; jobs of BEAM_TIMEOUT_SEC=10 and 3 runs): a worker that announced
// 64 slots heartbeats but never answers and holds 3 jobs; an honest worker idles. Its 8 earlier
// jobs took 2 s of scripted time each, so the threshold is 3 x 2 s = 6 s: the jobs are measured
// by the honest worker at the first check past 6 s (7 s after they were sent), not after their
// deadlines (about 16 minutes, each may wait behind the others). The silent worker's answers,
// when they come, are dropped as speculative losses and not held against it.
TEST_F(BrokerTest, IssueScenarioASilentWorkersJobsAreBackedUpAfterWhatTheClassTakes) {
  const milliseconds hb(1000);
  StartBroker(hb);
  TestWorker& honest = AddWorker({.id = "b_honest", .capacity = 8, .heartbeat = hb, .hold_answers = true});
  ASSERT_TRUE(broker_->WaitForWorkers("", 1, kTestWaitLimit));
  std::vector<FarmJob> warm;
  std::vector<std::future<absl::StatusOr<JobResult>>> fw;
  SubmitJobs(8, warm, fw);
  ASSERT_TRUE(WaitUntil([&] { return honest.received() == 8; }));
  ASSERT_NO_FATAL_FAILURE(AdvanceTo(clock_.Now() + std::chrono::seconds(2), {"b_honest"}, hb));
  honest.SetHolding(false);
  for (int j = 0; j < 8; ++j) ASSERT_NO_FATAL_FAILURE(ExpectDoneBy(fw[j], warm[j], "b_honest"));

  TestWorker& silent = AddWorker({.id = "a_silent", .capacity = 64, .heartbeat = hb, .hold_answers = true});
  ASSERT_TRUE(broker_->WaitForWorkers("", 2, kTestWaitLimit));
  ASSERT_NO_FATAL_FAILURE(WaitForCredits("a_silent", 64));
  const Clock::TimePoint sent = clock_.Now();
  std::vector<FarmJob> jobs;
  std::vector<std::future<absl::StatusOr<JobResult>>> fs;
  for (int j = 0; j < 3; ++j) {
    jobs.push_back(Job(1, 100 + 10 * j));
    fs.push_back(broker_->Submit(jobs.back()));
  }
  ASSERT_TRUE(WaitUntil([&] { return silent.received() == 3; })) << "the silent worker did not get the 3 jobs";
  ASSERT_NO_FATAL_FAILURE(AdvanceTo(sent + std::chrono::seconds(6), {"a_silent", "b_honest"}, hb));
  FarmStatus s = broker_->Status();
  EXPECT_EQ(s.backups_sent, 0) << "backed up at the threshold, not after it";
  EXPECT_EQ(fs[0].wait_for(milliseconds(0)), std::future_status::timeout);

  ASSERT_NO_FATAL_FAILURE(BeatAll(hb, {"a_silent", "b_honest"}));  // 7 s
  for (int j = 0; j < 3; ++j) ASSERT_NO_FATAL_FAILURE(ExpectDoneBy(fs[j], jobs[j], "b_honest"));
  s = broker_->Status();
  EXPECT_EQ(s.backups_sent, 3);
  EXPECT_EQ(s.backups_won, 3);
  EXPECT_EQ(s.jobs_sent, 8 + 3 + 3);
  EXPECT_EQ(s.results, 11);
  EXPECT_EQ(s.deadline_misses, 0);
  EXPECT_EQ(s.requeued, 0);
  const std::string text = FormatFarmStatus(s);
  EXPECT_NE(text.find("backups: backups_sent=3 backups_won=3 speculative_losses=0"), std::string::npos) << text;

  silent.SetHolding(false);
  ASSERT_TRUE(WaitUntil([&] { return broker_->Status().speculative_losses == 3; })) << "the late answers never came";
  s = broker_->Status();
  EXPECT_EQ(s.dropped_results, 0);
  EXPECT_EQ(s.results, 11);
  EXPECT_EQ(s.completed, 11);
  EXPECT_EQ(s.deadline_misses, 0);
  std::optional<WorkerStatus> w = FindWorker(s, "a_silent");
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->deadline_misses, 0);
  EXPECT_EQ(w->lost, 0);
  EXPECT_EQ(w->jobs, 0);
  EXPECT_EQ(w->in_flight, 0);
  EXPECT_EQ(w->credits, 64);
}

// Before its class has answered 8 jobs, a job's backup waits for its own limits: (3 runs + 2) x
// 10 s = 50 s for one candidate at the defaults, against a deadline of 339 s.
TEST_F(BrokerTest, BeforeAnyHistoryABackupWaitsForTheJobsOwnLimits) {
  const milliseconds hb(1000);
  StartBroker(hb);
  TestWorker& silent = AddWorker({.id = "a_silent", .capacity = 1, .heartbeat = hb, .hold_answers = true});
  ASSERT_TRUE(broker_->WaitForWorkers("", 1, kTestWaitLimit));
  const Clock::TimePoint sent = clock_.Now();
  FarmJob job = Job(1);
  auto f = broker_->Submit(job);
  ASSERT_TRUE(WaitUntil([&] { return silent.received() == 1; }));
  AddWorker({.id = "b_honest", .capacity = 1, .heartbeat = hb});
  ASSERT_TRUE(broker_->WaitForWorkers("", 2, kTestWaitLimit));
  ASSERT_NO_FATAL_FAILURE(AdvanceTo(sent + std::chrono::seconds(50), {"a_silent", "b_honest"}, hb));
  EXPECT_EQ(broker_->Status().backups_sent, 0);
  ASSERT_NO_FATAL_FAILURE(BeatAll(hb, {"a_silent", "b_honest"}));
  ASSERT_NO_FATAL_FAILURE(ExpectDoneBy(f, job, "b_honest"));
  EXPECT_EQ(broker_->Status().backups_won, 1);
  EXPECT_EQ(JobTimeBudget(job.options, 1, 1, WorkerTimeLimits{}) + BrokerOptions{}.job_slack, std::chrono::seconds(339));
}

// An honest slow worker outrun by a backup is not penalised: its answer, well within its
// deadline, is dropped as a speculative loss (one result delivered), with no miss and no loss
// counted (one miss would evict it here), and its slot is free again.
TEST_F(BrokerTest, AnHonestSlowWorkerOutrunByABackupIsNotPenalised) {
  StartDeadlineBroker(/*evict_after_misses=*/1, /*backup_after=*/3);
  HeldJob h;
  ASSERT_NO_FATAL_FAILURE(HoldAJob("a_slow", h));
  TestWorker& fast = AddHolder("b_fast");
  ASSERT_TRUE(broker_->WaitForWorkers("", 2, kTestWaitLimit));
  ASSERT_NO_FATAL_FAILURE(AdvanceTo(h.sent + kBackupAfter, {"a_slow", "b_fast"}));
  EXPECT_EQ(broker_->Status().backups_sent, 0);
  ASSERT_NO_FATAL_FAILURE(BeatAll(kHb, {"a_slow", "b_fast"}));
  ASSERT_TRUE(WaitUntil([&] { return fast.received() == 1; })) << "no backup";
  fast.SetHolding(false);
  ASSERT_NO_FATAL_FAILURE(ExpectDoneBy(h.done, h.job, "b_fast"));
  h.holder->SetHolding(false);
  ASSERT_TRUE(WaitUntil([&] { return broker_->Status().speculative_losses == 1; })) << "the slow answer never came";
  FarmStatus s = broker_->Status();
  EXPECT_EQ(s.backups_sent, 1);
  EXPECT_EQ(s.backups_won, 1);
  EXPECT_EQ(s.results, 1);
  EXPECT_EQ(s.completed, 1);
  EXPECT_EQ(s.dropped_results, 0);
  EXPECT_EQ(s.deadline_misses, 0);
  EXPECT_EQ(s.requeued, 0);
  EXPECT_EQ(s.evicted_workers, 0);
  std::optional<WorkerStatus> w = FindWorker(s, "a_slow");
  ASSERT_TRUE(w.has_value()) << "the slow worker was dropped";
  EXPECT_EQ(w->deadline_misses, 0);
  EXPECT_EQ(w->lost, 0);
  EXPECT_EQ(w->in_flight, 0);
  EXPECT_EQ(w->credits, 1);
}

// The original answering before its backup wins; the backup's answer is the speculative loss.
TEST_F(BrokerTest, AnOriginalThatAnswersBeforeItsBackupWins) {
  StartDeadlineBroker(/*evict_after_misses=*/1, /*backup_after=*/3);
  HeldJob h;
  ASSERT_NO_FATAL_FAILURE(HoldAJob("a_slow", h));
  TestWorker& backup = AddHolder("b_backup");
  ASSERT_TRUE(broker_->WaitForWorkers("", 2, kTestWaitLimit));
  ASSERT_NO_FATAL_FAILURE(AdvanceTo(h.sent + kBackupAfter + kHb, {"a_slow", "b_backup"}));
  ASSERT_TRUE(WaitUntil([&] { return backup.received() == 1; })) << "no backup";
  h.holder->SetHolding(false);
  ASSERT_NO_FATAL_FAILURE(ExpectDoneBy(h.done, h.job, "a_slow"));
  backup.SetHolding(false);
  ASSERT_TRUE(WaitUntil([&] { return broker_->Status().speculative_losses == 1; })) << "the backup never answered";
  FarmStatus s = broker_->Status();
  EXPECT_EQ(s.backups_sent, 1);
  EXPECT_EQ(s.backups_won, 0);
  EXPECT_EQ(s.results, 1);
  EXPECT_EQ(s.dropped_results, 0);
  EXPECT_EQ(s.deadline_misses, 0);
  ASSERT_TRUE(FindWorker(s, "b_backup").has_value());
  EXPECT_EQ(FindWorker(s, "b_backup")->credits, 1);
}

// Backups use idle slots only. A job lost with worker P (killed and restarted) waits in the
// queue for the honest worker's slot, not P's; P's free slot is then not idle, and the honest
// worker's job, far past its threshold, gets no backup there.
TEST_F(BrokerTest, NoBackupWhileItsClassHasQueuedWork) {
  StartDeadlineBroker(/*evict_after_misses=*/3, /*backup_after=*/3);
  HeldJob busy;
  ASSERT_NO_FATAL_FAILURE(HoldAJob("a_honest", busy));
  TestWorker& p = AddHolder("b_restarted");
  ASSERT_TRUE(broker_->WaitForWorkers("", 2, kTestWaitLimit));
  FarmJob x = SmallJob(1, 50);
  auto fx = broker_->Submit(x);
  ASSERT_TRUE(WaitUntil([&] { return p.received() == 1; }));
  p.Kill();
  p.Restart();
  ASSERT_TRUE(WaitUntil([&] { return Queued() == 1 && broker_->WaitForWorkers("", 2, milliseconds(0)); }))
      << "the restarted worker's job was not requeued";
  ASSERT_NO_FATAL_FAILURE(AdvanceTo(busy.sent + kBackupAfter + 5 * kHb, {"a_honest", "b_restarted"}));
  FarmStatus s = broker_->Status();
  EXPECT_EQ(s.backups_sent, 0) << "a backup took a slot while the class had queued work";
  EXPECT_EQ(p.received(), 1);
  std::optional<WorkerStatus> pw = FindWorker(s, "b_restarted");
  ASSERT_TRUE(pw.has_value());
  EXPECT_EQ(pw->credits, 1);
  EXPECT_EQ(Queued(), 1);

  busy.holder->SetHolding(false);
  ASSERT_NO_FATAL_FAILURE(ExpectDoneBy(busy.done, busy.job, "a_honest"));
  ASSERT_NO_FATAL_FAILURE(ExpectDoneBy(fx, x, "a_honest"));
  EXPECT_EQ(broker_->Status().backups_sent, 0);
}

// A backup never goes to the key that holds the job (another id under it is the same machine
// or the same owner): with only such a worker idle none is sent; a worker of another key gets it.
TEST_F(BrokerTest, NoBackupToAnotherWorkerOfTheSameKey) {
  absl::StatusOr<net::CurveKeyPair> server = net::GenerateCurveKeyPair(), k1 = net::GenerateCurveKeyPair(),
                                    k2 = net::GenerateCurveKeyPair();
  ASSERT_TRUE(server.ok() && k1.ok() && k2.ok());
  net::ZapOptions zo;
  zo.allowlist.Add(k1->public_z85, "one");
  zo.allowlist.Add(k2->public_z85, "two");
  zo.log_denials = false;
  absl::StatusOr<std::unique_ptr<net::ZapHandler>> zap = net::ZapHandler::Start(ctx_, zo);
  ASSERT_TRUE(zap.ok()) << zap.status();
  auto b = Broker::Start({.endpoint = "tcp://127.0.0.1:*",
                          .security = net::SecurityOptions::CurveServer(*server, zap->get()),
                          .heartbeat = kHb,
                          .clock = &clock_,
                          .context = &ctx_,
                          .worker_limits = FastLimits(),
                          .job_slack = kSlack});
  ASSERT_TRUE(b.ok()) << b.status();
  broker_ = *std::move(b);
  const auto key1 = net::SecurityOptions::CurveClient(*k1, server->public_z85);
  HeldJob h;
  ASSERT_NO_FATAL_FAILURE(HoldAJob("a_slow", h, key1));
  TestWorker& same = AddWorker({.id = "b_same_key", .capacity = 1, .heartbeat = kHb, .security = key1});
  ASSERT_TRUE(broker_->WaitForWorkers("", 2, kTestWaitLimit));
  ASSERT_NO_FATAL_FAILURE(AdvanceTo(h.sent + kBackupAfter + 3 * kHb, {"a_slow", "b_same_key"}));
  EXPECT_EQ(broker_->Status().backups_sent, 0);
  EXPECT_EQ(same.received(), 0);

  AddWorker({.id = "c_other_key", .capacity = 1, .heartbeat = kHb,
             .security = net::SecurityOptions::CurveClient(*k2, server->public_z85)});
  ASSERT_TRUE(broker_->WaitForWorkers("", 3, kTestWaitLimit));
  ASSERT_NO_FATAL_FAILURE(BeatAll(kHb, {"a_slow", "b_same_key", "c_other_key"}));
  ASSERT_NO_FATAL_FAILURE(ExpectDoneBy(h.done, h.job, "c_other_key"));
  EXPECT_EQ(broker_->Status().backups_won, 1);
  EXPECT_EQ(same.received(), 0);
  broker_->Shutdown();
  broker_.reset();
  workers_.clear();
  (*zap)->Stop();
}

// At most one backup at a time, and the deadline still rules: the original past its deadline
// while its backup runs is a miss, not requeued (no third copy beside the backup); the backup,
// now the job's only copy and past its own threshold, gets a backup in turn; the first answer
// is the job's.
TEST_F(BrokerTest, AnOriginalPastItsDeadlineWhileItsBackupRunsIsAMissNotARequeue) {
  StartDeadlineBroker(/*evict_after_misses=*/3, /*backup_after=*/3);
  HeldJob h;
  ASSERT_NO_FATAL_FAILURE(HoldAJob("a_silent", h));
  TestWorker& b = AddHolder("b_slow");
  TestWorker& c = AddHolder("c_slow");
  ASSERT_TRUE(broker_->WaitForWorkers("", 3, kTestWaitLimit));
  const std::vector<std::string> all = {"a_silent", "b_slow", "c_slow"};
  ASSERT_NO_FATAL_FAILURE(AdvanceTo(h.sent + kSlack + Budget(h.job, 1), all));
  FarmStatus s = broker_->Status();
  EXPECT_EQ(s.backups_sent, 1) << "more than one backup at a time";
  EXPECT_EQ(b.received(), 1);
  EXPECT_EQ(c.received(), 0);
  EXPECT_EQ(s.deadline_misses, 0);

  ASSERT_NO_FATAL_FAILURE(BeatAll(kHb, all));
  ASSERT_TRUE(WaitUntil([&] { return c.received() == 1; })) << "the lone backup got no backup";
  s = broker_->Status();
  EXPECT_EQ(s.deadline_misses, 1);
  EXPECT_EQ(s.requeued, 0);
  EXPECT_EQ(s.backups_sent, 2);
  EXPECT_EQ(s.jobs_sent, 3);
  EXPECT_EQ(Queued(), 0);
  ASSERT_TRUE(FindWorker(s, "a_silent").has_value());
  EXPECT_EQ(FindWorker(s, "a_silent")->overdue, 1);

  c.SetHolding(false);
  ASSERT_NO_FATAL_FAILURE(ExpectDoneBy(h.done, h.job, "c_slow"));
  b.SetHolding(false);
  ASSERT_TRUE(WaitUntil([&] { return broker_->Status().speculative_losses == 1; })) << "b never answered";
  s = broker_->Status();
  EXPECT_EQ(s.backups_won, 1);
  EXPECT_EQ(s.results, 1);
  EXPECT_EQ(s.poisoned, 0);
  EXPECT_EQ(s.dropped_results, 0);
}

// A copy whose job its backup answered still has its deadline: a worker that never answers
// misses it (here one miss evicts), so it is evicted in the end as without backups; the job is
// not requeued, and the late answer of an evicted worker is dropped.
TEST_F(BrokerTest, ACopyOutrunByItsBackupStillMissesItsDeadline) {
  StartDeadlineBroker(/*evict_after_misses=*/1, /*backup_after=*/3);
  HeldJob h;
  ASSERT_NO_FATAL_FAILURE(HoldAJob("a_silent", h));
  AddWorker({.id = "b_honest", .capacity = 1, .heartbeat = kHb});
  ASSERT_TRUE(broker_->WaitForWorkers("", 2, kTestWaitLimit));
  ASSERT_NO_FATAL_FAILURE(AdvanceTo(h.sent + kBackupAfter + kHb, {"a_silent", "b_honest"}));
  ASSERT_NO_FATAL_FAILURE(ExpectDoneBy(h.done, h.job, "b_honest"));
  EXPECT_EQ(broker_->Status().evicted_workers, 0);

  ASSERT_NO_FATAL_FAILURE(AdvanceTo(h.sent + kSlack + Budget(h.job, 1), {"a_silent", "b_honest"}));
  EXPECT_EQ(broker_->Status().deadline_misses, 0);
  ASSERT_NO_FATAL_FAILURE(Beat(kHb, "b_honest"));
  ASSERT_TRUE(WaitUntil([&] { return h.holder->byes_received() == 1; })) << "no eviction";
  FarmStatus s = broker_->Status();
  EXPECT_EQ(s.deadline_misses, 1);
  EXPECT_EQ(s.evicted_workers, 1);
  EXPECT_EQ(s.requeued, 0);
  EXPECT_EQ(s.jobs_sent, 2);
  EXPECT_EQ(s.results, 1);
  EXPECT_EQ(s.completed, 1);
}

// A worker that has missed a deadline gets no backups (optional work; a copy it held late would
// count against the job for the poison rule), even when only its slots are free.
TEST_F(BrokerTest, NoBackupToAWorkerThatMissedADeadline) {
  StartDeadlineBroker(/*evict_after_misses=*/3, /*backup_after=*/3);
  TestWorker& late = AddWorker({.id = "a_late", .capacity = 2, .heartbeat = kHb, .hold_answers = true});
  ASSERT_TRUE(broker_->WaitForWorkers("", 1, kTestWaitLimit));
  const Clock::TimePoint sent = clock_.Now();
  FarmJob first = SmallJob(1), second = SmallJob(1, 10);
  auto f1 = broker_->Submit(first);
  ASSERT_TRUE(WaitUntil([&] { return late.received() == 1; }));
  // Alone in its class, it misses the deadline and gets the job again.
  ASSERT_NO_FATAL_FAILURE(AdvanceTo(sent + kSlack + Budget(first, 2) + kHb, {"a_late"}));
  ASSERT_TRUE(WaitUntil([&] { return late.received() == 2; })) << FormatFarmStatus(broker_->Status());
  late.SetHolding(false);
  ASSERT_NO_FATAL_FAILURE(ExpectDoneBy(f1, first, "a_late"));
  ASSERT_TRUE(WaitUntil([&] { return broker_->Status().dropped_results == 1; }));

  TestWorker& honest = AddHolder("b_honest");
  ASSERT_TRUE(broker_->WaitForWorkers("", 2, kTestWaitLimit));
  ASSERT_NO_FATAL_FAILURE(WaitForCredits("b_honest", 1));
  const Clock::TimePoint sent2 = clock_.Now();
  auto f2 = broker_->Submit(second);
  ASSERT_TRUE(WaitUntil([&] { return honest.received() == 1; }));
  ASSERT_NO_FATAL_FAILURE(AdvanceTo(sent2 + kBackupAfter + 3 * kHb, {"a_late", "b_honest"}));
  FarmStatus s = broker_->Status();
  EXPECT_EQ(s.backups_sent, 0) << "a backup went to a worker that missed a deadline";
  EXPECT_EQ(late.received(), 2);
  ASSERT_TRUE(FindWorker(s, "a_late").has_value());
  EXPECT_EQ(FindWorker(s, "a_late")->credits, 2);
  honest.SetHolding(false);
  ASSERT_NO_FATAL_FAILURE(ExpectDoneBy(f2, second, "b_honest"));
}

// A copy lost while the other runs is not requeued (no third copy): the backup's worker dies on
// the job (it kills that worker) and comes back; the loss counts for the poison rule, so the
// job gets no second backup there; the original's answer is the job's.
TEST_F(BrokerTest, ABackupLostWithItsWorkerLeavesTheOriginalRunning) {
  StartDeadlineBroker(/*evict_after_misses=*/3, /*backup_after=*/3);
  HeldJob h;
  ASSERT_NO_FATAL_FAILURE(HoldAJob("a_slow", h));
  TestWorker& victim = AddWorker(
      {.id = "b_victim", .capacity = 1, .heartbeat = kHb, .poison = [](const std::vector<Opt>&) { return true; }});
  ASSERT_TRUE(broker_->WaitForWorkers("", 2, kTestWaitLimit));
  ASSERT_NO_FATAL_FAILURE(AdvanceTo(h.sent + kBackupAfter + kHb, {"a_slow", "b_victim"}));
  ASSERT_TRUE(WaitUntil([&] { return victim.hellos() == 2; })) << "the backup did not kill its worker";
  for (int beat = 0; beat < 5; ++beat) ASSERT_NO_FATAL_FAILURE(BeatAll(kHb, {"a_slow", "b_victim"}));
  FarmStatus s = broker_->Status();
  EXPECT_EQ(s.backups_sent, 1);
  EXPECT_EQ(s.requeued, 0);
  EXPECT_EQ(s.jobs_sent, 2);
  EXPECT_EQ(s.poisoned, 0);
  EXPECT_EQ(victim.received(), 1);
  ASSERT_TRUE(FindWorker(s, "b_victim").has_value());
  EXPECT_EQ(FindWorker(s, "b_victim")->credits, 1);

  h.holder->SetHolding(false);
  ASSERT_NO_FATAL_FAILURE(ExpectDoneBy(h.done, h.job, "a_slow"));
  s = broker_->Status();
  EXPECT_EQ(s.backups_won, 0);
  EXPECT_EQ(s.speculative_losses, 0);
  EXPECT_EQ(s.results, 1);
}

// A reconnect without the job (lost on the way) while its backup runs elsewhere: nothing is
// requeued (no third copy) and nothing held against the worker; the backup's answer is the
// job's.
TEST_F(BrokerTest, AReconnectWithoutTheJobLeavesItToItsBackup) {
  ASSERT_NO_FATAL_FAILURE(StartDeadlineBroker(/*evict_after_misses=*/3, /*backup_after=*/3));
  auto raw = std::make_unique<RawWorker>(ctx_, broker_->endpoint(), "raw");
  raw->Hello(77);
  ASSERT_TRUE(broker_->WaitForWorkers("", 1, kTestWaitLimit));
  FarmJob job = SmallJob(1);
  auto f = broker_->Submit(job);
  ASSERT_TRUE(raw->NextJob().has_value());
  TestWorker& backup = AddHolder("b_backup");
  ASSERT_TRUE(broker_->WaitForWorkers("", 2, kTestWaitLimit));
  for (int beat = 0; beat < 4; ++beat) ASSERT_NO_FATAL_FAILURE(BeatRaw(kHb, *raw));
  ASSERT_TRUE(WaitUntil([&] { return backup.received() == 1; })) << "no backup";
  raw.reset();
  RawWorker again(ctx_, broker_->endpoint(), "raw");
  again.Hello(77, /*holding=*/{});
  ASSERT_TRUE(WaitUntil([&] { return broker_->Status().reconnects == 1; })) << "the reconnect was not taken as one";
  FarmStatus s = broker_->Status();
  EXPECT_EQ(s.requeued, 0);
  EXPECT_EQ(Queued(), 0);
  backup.SetHolding(false);
  ASSERT_NO_FATAL_FAILURE(ExpectDoneBy(f, job, "b_backup"));
  s = broker_->Status();
  EXPECT_EQ(s.backups_won, 1);
  EXPECT_EQ(s.jobs_sent, 2);
  EXPECT_EQ(s.dead_workers, 0);
  EXPECT_EQ(s.poisoned, 0);
}

TEST_F(BrokerTest, RefusesBadBackupOptions) {
  for (double after : {-1.0, std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    auto b = Broker::Start({.endpoint = absl::StrCat("ipc://", dir_, "/farm"), .backup_after = after});
    EXPECT_EQ(b.status().code(), absl::StatusCode::kInvalidArgument) << after;
  }
  auto b = Broker::Start({.endpoint = absl::StrCat("ipc://", dir_, "/farm"), .backup_floor_beats = -1});
  EXPECT_EQ(b.status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tg::autotune::farm
