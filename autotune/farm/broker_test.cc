// File: autotune/farm/broker_test.cc
// The broker against scripted in-test workers: dispatch, device classes, task resends,
// duplicates, silent and killed workers, restarts, poison, protocol version, Bye, status.
//
// Broker and workers share a scripted clock (clock_) that moves only when a test advances it:
// no worker is declared dead, and nobody re-Hellos, because a loaded machine was slow. The
// liveness tests advance it heartbeat by heartbeat and assert the exact one where a silent
// worker dies; one test keeps the machine's clock and checks only what holds on any machine.
#include "autotune/farm/broker.h"

#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
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
  void Beat(milliseconds hb, const std::string& live) {
    clock_.Advance(hb);
    ASSERT_TRUE(WaitUntil([&] {
      for (const WorkerStatus& w : broker_->Status().workers)
        if (w.id == live) return w.last_seen_s == 0;
      return false;
    })) << "the broker never heard " << live << " after the clock moved on";
  }
  int64_t DeadWorkers() { return broker_->Status().dead_workers; }

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
  req->Close();

  auto pending = broker_->Submit(Job(1, 0, DeviceClass{.device = "nobody"}));
  broker_->Shutdown();
  absl::StatusOr<JobResult> r = pending.get();
  EXPECT_EQ(r.status().code(), absl::StatusCode::kCancelled);
  ASSERT_TRUE(WaitUntil([&] { return w.byes_received() > 0; })) << "no Bye on shutdown";
  EXPECT_EQ(w.byes_received(), 1);
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

}  // namespace
}  // namespace tg::autotune::farm
