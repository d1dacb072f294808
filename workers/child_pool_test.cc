// File: workers/child_pool_test.cc
// ChildPool against the test_child program: every failure kind comes back typed and the pool
// keeps serving; the device is exclusive while prepares overlap; jobs queue; shutdown and
// parent death leave no processes behind.
//
// Deadline policy (prepare timeouts, run deadlines, progress reports, the device wait) runs on a
// scripted clock that moves only when a test says, and the outcomes are exact. The other
// tests run on the machine's clock with generous deadlines and assert nothing on speed: only
// order, kinds and counts.
#include "workers/child_pool.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <mutex>
#include <condition_variable>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tinygrad/base/clock.h"
#include "tinygrad/base/wait_until.h"
#include "workers/resource_limits.h"

extern char** environ;

namespace tg::workers {
namespace {

using namespace std::chrono_literals;

std::string g_child;   // test_child
std::string g_parent;  // test_pool_parent

constexpr JobLimits kRelaxed{.prepare_timeout = 60s, .run_deadline = 60s};

// `clock`: null for the machine's.
std::unique_ptr<ChildPool> MakePool(int children, int spares = 1, Clock* clock = nullptr) {
  absl::StatusOr<std::unique_ptr<ChildPool>> p =
      ChildPool::Create({.argv = {g_child}, .children = children, .spares = spares, .clock = clock});
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? std::move(*p) : nullptr;
}

// "t0 t1" in ns.
std::pair<int64_t, int64_t> Interval(const JobOutcome& o) {
  std::vector<std::string> parts = absl::StrSplit(o.response, ' ');
  std::pair<int64_t, int64_t> r{0, 0};
  EXPECT_EQ(parts.size(), 2u) << o.response;
  if (parts.size() == 2) {
    EXPECT_TRUE(absl::SimpleAtoi(parts[0], &r.first));
    EXPECT_TRUE(absl::SimpleAtoi(parts[1], &r.second));
  }
  return r;
}

// Submits `request` n times at once and returns the intervals the children reported, sorted.
std::vector<std::pair<int64_t, int64_t>> SortedIntervals(ChildPool& pool, const std::string& request, int n) {
  std::vector<std::future<JobOutcome>> futures;
  for (int i = 0; i < n; ++i) futures.push_back(pool.Submit(request, kRelaxed));
  std::vector<std::pair<int64_t, int64_t>> intervals;
  for (auto& f : futures) {
    JobOutcome o = f.get();
    EXPECT_TRUE(o.ok()) << o.detail;
    if (o.ok()) intervals.push_back(Interval(o));
  }
  std::sort(intervals.begin(), intervals.end());
  return intervals;
}

// A process is gone when kill() cannot find it or it is a zombie nobody reaped yet.
bool ProcessGone(pid_t pid) {
  if (kill(pid, 0) != 0) return errno == ESRCH;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(stat, line);
  size_t close_paren = line.rfind(')');
  return close_paren != std::string::npos && close_paren + 2 < line.size() &&
         (line[close_paren + 2] == 'Z' || line[close_paren + 2] == 'X');
}

bool Contains(const std::vector<pid_t>& pids, pid_t pid) {
  return std::find(pids.begin(), pids.end(), pid) != pids.end();
}

// Waits until `n` replacements have become ready.
void WaitForRespawns(ChildPool& pool, int64_t n) {
  EXPECT_TRUE(WaitUntil([&] { return pool.stats().respawns >= n; })) << "never " << n << " respawns";
  EXPECT_EQ(pool.stats().respawns, n);
}

// Waits until the pool's counter `field` reaches `n` (a job reached a phase, on any clock).
void WaitForCount(ChildPool& pool, int64_t PoolStats::*field, int64_t n, const char* what) {
  ASSERT_TRUE(WaitUntil([&] { return pool.stats().*field >= n; })) << "never " << n << " " << what;
}

// Moves a scripted clock on and has the pool look at it.
void Advance(FakeClock& clock, ChildPool& pool, double s) {
  clock.AdvanceSeconds(s);
  pool.CheckDeadlines();
}

// A job that must still be running: its outcome does not come in a while. (With a scripted
// clock nothing can end it but the child, so this never fails for a correct pool; a pool
// that wrongly ends it is caught here or by the exact times asserted after.)
void ExpectStillRunning(std::future<JobOutcome>& f) {
  EXPECT_EQ(f.wait_for(std::chrono::milliseconds(50)), std::future_status::timeout) << "ended before its deadline";
}

JobOutcome Get(std::future<JobOutcome>& f) {
  if (f.wait_for(kTestWaitLimit) != std::future_status::ready) {
    ADD_FAILURE() << "no outcome";
    return JobOutcome{.detail = "no outcome"};
  }
  return f.get();
}

void ExpectServing(ChildPool& pool) {
  JobOutcome o = pool.Run("echo:still here", kRelaxed);
  EXPECT_EQ(o.kind, JobOutcomeKind::kOk) << o.detail;
  EXPECT_EQ(o.response, "still here");
}

TEST(ChildPoolTest, EchoRoundTrip) {
  auto pool = MakePool(2);
  ASSERT_NE(pool, nullptr);
  JobOutcome o = pool->Run("echo:hello", kRelaxed);
  EXPECT_TRUE(o.ok()) << o.detail;
  EXPECT_EQ(o.response, "hello");
  EXPECT_EQ(o.phase, JobPhase::kPreparing);  // never asked for the device
  EXPECT_TRUE(Contains(pool->ChildPids(), o.pid));
  EXPECT_EQ(pool->stats().ok, 1);
}

// A child's relay request reaches the pool's relay and the answer reaches the child, which
// may be answered from another thread; without a relay the answer is "" at once.
TEST(ChildPoolTest, RelayRequestsGetTheirAnswers) {
  std::vector<std::thread> answering;
  std::mutex mu;
  absl::StatusOr<std::unique_ptr<ChildPool>> p = ChildPool::Create(
      {.argv = {g_child},
       .children = 2,
       .relay = [&](std::string request, std::function<void(std::string)> answer) {
         std::lock_guard<std::mutex> l(mu);
         answering.emplace_back([request, answer] { answer("answer to " + request); });
       }});
  ASSERT_TRUE(p.ok()) << p.status();
  std::future<JobOutcome> a = (*p)->Submit("relay:one", kRelaxed);
  std::future<JobOutcome> b = (*p)->Submit("relay:two", kRelaxed);
  JobOutcome oa = a.get(), ob = b.get();
  EXPECT_EQ(oa.response, "[answer to one]") << oa.detail;
  EXPECT_EQ(ob.response, "[answer to two]") << ob.detail;
  EXPECT_EQ((*p)->stats().relayed, 2);
  JobOutcome twice = (*p)->Run("relay2:x", kRelaxed);
  EXPECT_EQ(twice.kind, JobOutcomeKind::kProtocolError);
  EXPECT_TRUE(absl::StrContains(twice.detail, "before its previous relay request was answered")) << twice.detail;
  (*p)->Shutdown();
  for (std::thread& t : answering) t.join();

  auto plain = MakePool(1);
  ASSERT_NE(plain, nullptr);
  JobOutcome o = plain->Run("relay:anything", kRelaxed);
  EXPECT_EQ(o.response, "[]") << o.detail;
}

TEST(ChildPoolTest, LargeRequestAndResponse) {
  auto pool = MakePool(1);
  ASSERT_NE(pool, nullptr);
  std::string text(8 << 20, 'q');
  JobOutcome o = pool->Run("echo:" + text, kRelaxed);
  ASSERT_TRUE(o.ok()) << o.detail;
  EXPECT_EQ(o.response, text);
  o = pool->Run("big:5000000", kRelaxed);
  ASSERT_TRUE(o.ok()) << o.detail;
  EXPECT_EQ(o.response.size(), 5000000u);
}

struct CrashCase {
  const char* request;
  int signal;
  int exit_code;
  const char* detail;
  JobPhase phase;
};

TEST(ChildPoolTest, CrashesAreTypedAndTheChildIsReplaced) {
  const CrashCase cases[] = {
      {"segv", SIGSEGV, -1, "killed by SIGSEGV while preparing", JobPhase::kPreparing},
      {"segv@device", SIGSEGV, -1, "killed by SIGSEGV while running", JobPhase::kRunning},
      {"abort", SIGABRT, -1, "killed by SIGABRT while preparing", JobPhase::kPreparing},
      {"fpe@device", SIGFPE, -1, "killed by SIGFPE while running", JobPhase::kRunning},
      {"fpe", SIGFPE, -1, "killed by SIGFPE while preparing", JobPhase::kPreparing},
      {"exit:3", 0, 3, "exited with status 3 while preparing", JobPhase::kPreparing},
  };
  for (int spares : {1, 0}) {
    SCOPED_TRACE(spares);
    auto pool = MakePool(1, spares);
    ASSERT_NE(pool, nullptr);
    int64_t respawns = 0;
    for (const CrashCase& c : cases) {
      SCOPED_TRACE(c.request);
      std::vector<pid_t> before = pool->ChildPids();
      JobOutcome o = pool->Run(c.request, kRelaxed);
      EXPECT_EQ(o.kind, JobOutcomeKind::kCrashed)
          << JobOutcomeKindName(o.kind) << ": " << o.detail;
      EXPECT_EQ(o.signal, c.signal);
      EXPECT_EQ(o.exit_code, c.exit_code);
      EXPECT_EQ(o.detail, c.detail);
      EXPECT_EQ(o.phase, c.phase);
      EXPECT_TRUE(Contains(before, o.pid));
      ExpectServing(*pool);
      EXPECT_TRUE(ProcessGone(o.pid));
      WaitForRespawns(*pool, ++respawns);
      std::vector<pid_t> after = pool->ChildPids();
      EXPECT_FALSE(Contains(after, o.pid));
      EXPECT_FALSE(Contains(after, 0));
      EXPECT_GT(pool->stats().last_respawn_s, 0);
    }
    EXPECT_EQ(pool->stats().crashed, 6);
  }
}

// A child that dies of its own resource limits (resource_limits.h) is reported with a kind
// that says which, and replaced. The CPU limit stops a spin the deadlines would allow for days.
TEST(ChildPoolTest, AChildOverItsOwnLimitsIsReportedSoAndReplaced) {
  auto pool = MakePool(1);
  ASSERT_NE(pool, nullptr);
  JobOutcome o = pool->Run("cpu:1@device", {.prepare_timeout = 1e6s, .run_deadline = 1e6s});
  EXPECT_EQ(o.kind, JobOutcomeKind::kCpuLimit) << JobOutcomeKindName(o.kind) << ": " << o.detail;
  EXPECT_EQ(JobOutcomeKindName(o.kind), "cpu_limit");
  EXPECT_EQ(o.signal, SIGXCPU);
  EXPECT_EQ(o.detail, "killed by SIGXCPU (over its CPU time limit) while running");
  ExpectServing(*pool);
  o = pool->Run("cpu:1", {.prepare_timeout = 1e6s, .run_deadline = 1e6s});
  EXPECT_EQ(o.kind, JobOutcomeKind::kCpuLimit) << o.detail;
  EXPECT_EQ(o.phase, JobPhase::kPreparing);
  // what a child whose allocation failed under its memory limit does
  o = pool->Run(absl::StrCat("exit:", kChildExitOutOfMemory), kRelaxed);
  EXPECT_EQ(o.kind, JobOutcomeKind::kMemoryLimit) << JobOutcomeKindName(o.kind) << ": " << o.detail;
  EXPECT_EQ(JobOutcomeKindName(o.kind), "memory_limit");
  EXPECT_EQ(o.exit_code, kChildExitOutOfMemory);
  EXPECT_EQ(o.detail, "exited with status 73 (out of memory: over its memory limit) while preparing");
  ExpectServing(*pool);
  EXPECT_EQ(pool->stats().cpu_limits, 2);
  EXPECT_EQ(pool->stats().memory_limits, 1);
  EXPECT_EQ(pool->stats().crashed, 0);
}

// Scripted time: a job still preparing when its prepare timeout has passed is killed then.
TEST(ChildPoolTest, PrepareTimeout) {
  FakeClock clock;
  auto pool = MakePool(1, 1, &clock);
  ASSERT_NE(pool, nullptr);
  std::future<JobOutcome> f = pool->Submit("loop", {.prepare_timeout = 0.5s, .run_deadline = 60s});
  ASSERT_NO_FATAL_FAILURE(WaitForCount(*pool, &PoolStats::jobs_started, 1, "jobs started"));
  Advance(clock, *pool, 0.499);
  ExpectStillRunning(f);
  Advance(clock, *pool, 0.001);
  JobOutcome o = Get(f);
  EXPECT_EQ(o.kind, JobOutcomeKind::kTimeout) << o.detail;
  EXPECT_EQ(o.detail, "prepared longer than 0.5 s");
  EXPECT_EQ(o.signal, SIGKILL);
  EXPECT_EQ(o.phase, JobPhase::kPreparing);
  EXPECT_DOUBLE_EQ(o.prepare_s, 0.5);
  ExpectServing(*pool);
}

// Scripted time: a job holding the device past its run deadline is killed then, and the
// device goes to the next job.
TEST(ChildPoolTest, RunDeadline) {
  FakeClock clock;
  auto pool = MakePool(1, 1, &clock);
  ASSERT_NE(pool, nullptr);
  std::future<JobOutcome> f = pool->Submit("loop@device", {.prepare_timeout = 60s, .run_deadline = 0.5s});
  ASSERT_NO_FATAL_FAILURE(WaitForCount(*pool, &PoolStats::device_grants, 1, "device grants"));
  Advance(clock, *pool, 0.499);
  ExpectStillRunning(f);
  Advance(clock, *pool, 0.001);
  JobOutcome o = Get(f);
  EXPECT_EQ(o.kind, JobOutcomeKind::kTimeout) << o.detail;
  EXPECT_EQ(o.detail, "ran longer than 0.5 s");
  EXPECT_EQ(o.signal, SIGKILL);
  EXPECT_EQ(o.phase, JobPhase::kRunning);
  EXPECT_DOUBLE_EQ(o.run_s, 0.5);
  EXPECT_DOUBLE_EQ(o.prepare_s + o.wait_s, 0);
  ExpectServing(*pool);
  // The device was released with the dead child: a new run gets it.
  o = pool->Run("run:10", kRelaxed);
  EXPECT_TRUE(o.ok()) << o.detail;
}

// Scripted time: the run deadline bounds each run of a hold, not the hold: progress reports
// restart it, and a hold whose next report does not come is killed a deadline after the last.
// The "paced" child starts each run only when the test says so, after it moved the clock.
TEST(ChildPoolTest, ProgressRestartsTheRunDeadline) {
  FakeClock clock;
  auto pool = MakePool(1, 1, &clock);
  ASSERT_NE(pool, nullptr);
  const std::string dir = std::string(std::getenv("TEST_TMPDIR")) + "/paced";
  ASSERT_TRUE(std::filesystem::create_directories(dir));
  const JobLimits limits{.prepare_timeout = 60s, .run_deadline = 1.2s};
  std::future<JobOutcome> f = pool->Submit("paced:" + dir, limits);
  for (int k = 1; k <= 4; ++k) {
    ASSERT_NO_FATAL_FAILURE(WaitForCount(*pool, &PoolStats::progress_reports, k, "progress reports"));
    Advance(clock, *pool, 1.0);  // less than the deadline after each report
    std::ofstream(dir + "/" + std::to_string(k)).flush();  // the child goes on
  }
  JobOutcome o = Get(f);
  EXPECT_TRUE(o.ok()) << o.detail;
  EXPECT_EQ(o.response, "paced");
  EXPECT_DOUBLE_EQ(o.run_s, 4.0);  // one hold, 3.3x the deadline
  // A report, then no next one: killed 1.2 s of the clock after the report.
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(std::filesystem::create_directories(dir));
  f = pool->Submit("paced:" + dir, limits);
  ASSERT_NO_FATAL_FAILURE(WaitForCount(*pool, &PoolStats::progress_reports, 5, "progress reports"));
  Advance(clock, *pool, 1.0);
  ExpectStillRunning(f);
  Advance(clock, *pool, 0.2);
  o = Get(f);
  EXPECT_EQ(o.kind, JobOutcomeKind::kTimeout) << o.detail;
  EXPECT_DOUBLE_EQ(o.run_s, 1.2);
  ExpectServing(*pool);
}

// A report that gives its run's limit tightens the deadline to the floor plus twice that limit:
// a run the child fails to stop at 10 ms is killed 0.2 + 2 * 0.01 s (scripted) after the
// report, not waited for until the job's deadline. A malformed limit is a protocol error.
TEST(ChildPoolTest, AReportedRunLimitTightensTheDeadline) {
  FakeClock clock;
  auto pool = MakePool(1, 1, &clock);
  ASSERT_NE(pool, nullptr);
  const JobLimits limits{.prepare_timeout = 60s, .run_deadline = 60s, .run_deadline_floor = 0.2s};
  std::future<JobOutcome> f = pool->Submit("limit:600000", limits);
  ASSERT_NO_FATAL_FAILURE(WaitForCount(*pool, &PoolStats::progress_reports, 1, "progress reports"));
  Advance(clock, *pool, 0.2);
  ExpectStillRunning(f);
  Advance(clock, *pool, 0.02);
  JobOutcome o = Get(f);
  EXPECT_EQ(o.kind, JobOutcomeKind::kTimeout) << o.detail;
  EXPECT_DOUBLE_EQ(o.run_s, 0.22);
  o = pool->Run("limit:1", limits);  // within its limit: answered
  EXPECT_TRUE(o.ok()) << o.detail;
  o = pool->Run("bad_progress", limits);
  EXPECT_EQ(o.kind, JobOutcomeKind::kProtocolError) << o.detail;
  EXPECT_NE(o.detail.find("run limit is 8 bytes"), std::string::npos) << o.detail;
  ExpectServing(*pool);
  EXPECT_DOUBLE_EQ(limits.RunDeadline(std::nullopt).count(), 60);
  EXPECT_DOUBLE_EQ(limits.RunDeadline(1s).count(), 2.2);
  EXPECT_DOUBLE_EQ(limits.RunDeadline(100s).count(), 60);  // never past the job's deadline
}

// A job may hold the device more than once; the time after a release is on the prepare
// clock (scripted: killed exactly the prepare timeout after the last release).
TEST(ChildPoolTest, SecondHoldAndFinishTimeout) {
  FakeClock clock;
  auto pool = MakePool(1, 1, &clock);
  ASSERT_NE(pool, nullptr);
  JobOutcome o = pool->Run("twice:0", kRelaxed);
  EXPECT_TRUE(o.ok()) << o.detail;
  EXPECT_EQ(o.response, "twice");
  std::future<JobOutcome> f = pool->Submit("twice:600000", {.prepare_timeout = 0.5s, .run_deadline = 60s});
  ASSERT_NO_FATAL_FAILURE(WaitForCount(*pool, &PoolStats::device_releases, 4, "device releases"));
  Advance(clock, *pool, 0.5);
  o = Get(f);
  EXPECT_EQ(o.kind, JobOutcomeKind::kTimeout) << o.detail;
  EXPECT_EQ(o.phase, JobPhase::kFinishing);
  EXPECT_EQ(o.detail, "took longer than 0.5 s after its device run");
  EXPECT_DOUBLE_EQ(o.prepare_s, 0.5);
  ExpectServing(*pool);
}

// Many jobs of every kind at once: each gets exactly one outcome of its kind, and the pool
// serves afterwards with all its processes replaced and none left behind at shutdown.
TEST(ChildPoolTest, MixedFailuresUnderLoad) {
  struct Kind {
    const char* request;
    JobOutcomeKind kind;
  } kinds[] = {
      {"echo:a", JobOutcomeKind::kOk},          {"run:5", JobOutcomeKind::kOk},
      {"segv@device", JobOutcomeKind::kCrashed}, {"abort", JobOutcomeKind::kCrashed},
      {"fpe@device", JobOutcomeKind::kCrashed},  {"loop", JobOutcomeKind::kTimeout},
      {"loop@device", JobOutcomeKind::kTimeout}, {"garbage", JobOutcomeKind::kProtocolError},
      {"prep:20", JobOutcomeKind::kOk},
  };
  constexpr int kJobs = 72;
  std::mutex mu;
  std::condition_variable cv;
  std::vector<int> calls(kJobs, 0);
  std::vector<JobOutcomeKind> got(kJobs, JobOutcomeKind::kLost);
  int done = 0;
  auto pool = MakePool(3);  // after what its callbacks touch, so it is destroyed first
  ASSERT_NE(pool, nullptr);
  for (int i = 0; i < kJobs; ++i) {
    const Kind& k = kinds[(i * 5) % std::size(kinds)];
    // Short deadlines only where a timeout is the point: the others must not hit one.
    JobLimits limits = k.kind == JobOutcomeKind::kTimeout ? JobLimits{0.5s, 0.5s} : kRelaxed;
    pool->Submit(k.request, limits, [&, i](JobOutcome o) {
      std::lock_guard<std::mutex> l(mu);
      ++calls[i];
      got[i] = o.kind;
      ++done;
      cv.notify_all();
    });
  }
  {
    std::unique_lock<std::mutex> l(mu);
    ASSERT_TRUE(cv.wait_for(l, 2 * kTestWaitLimit, [&] { return done == kJobs; })) << done << " of " << kJobs << " jobs ended";
  }
  for (int i = 0; i < kJobs; ++i) {
    const Kind& k = kinds[(i * 5) % std::size(kinds)];
    EXPECT_EQ(calls[i], 1) << i;
    EXPECT_EQ(got[i], k.kind) << i << " " << k.request;
  }
  ExpectServing(*pool);
  std::vector<pid_t> pids = pool->ChildPids();
  pool->Shutdown();
  for (pid_t pid : pids) EXPECT_TRUE(pid == 0 || ProcessGone(pid)) << pid;
  EXPECT_EQ(waitpid(-1, nullptr, WNOHANG), -1);
  PoolStats st = pool->stats();
  EXPECT_EQ(st.jobs_done, st.jobs_submitted);
}

// A job waiting for the device is not on the clock: its deadline starts at the grant.
// Scripted: the quick job waits 10 s of the clock (10x its run deadline) for a hold that
// ends at its own deadline, then runs.
TEST(ChildPoolTest, WaitingForTheDeviceDoesNotCount) {
  FakeClock clock;
  auto pool = MakePool(2, 1, &clock);
  ASSERT_NE(pool, nullptr);
  std::future<JobOutcome> slow = pool->Submit("loop@device", {.prepare_timeout = 60s, .run_deadline = 10s});
  ASSERT_NO_FATAL_FAILURE(WaitForCount(*pool, &PoolStats::device_grants, 1, "device grants"));
  std::future<JobOutcome> quick = pool->Submit("run:10", {.prepare_timeout = 60s, .run_deadline = 1.0s});
  ASSERT_NO_FATAL_FAILURE(WaitForCount(*pool, &PoolStats::device_requests, 2, "device requests"));
  Advance(clock, *pool, 10);
  JobOutcome s = Get(slow), q = Get(quick);
  EXPECT_EQ(s.kind, JobOutcomeKind::kTimeout) << s.detail;
  EXPECT_DOUBLE_EQ(s.run_s, 10);
  EXPECT_TRUE(q.ok()) << q.detail;
  EXPECT_DOUBLE_EQ(q.wait_s, 10);
  EXPECT_DOUBLE_EQ(q.run_s, 0);
}

TEST(ChildPoolTest, ProtocolErrors) {
  auto pool = MakePool(1);
  ASSERT_NE(pool, nullptr);
  struct Case {
    const char* request;
    const char* detail_has;
  } cases[] = {
      {"garbage", "bad frame magic"},
      {"huge", "exceeds the cap"},
      {"bad_order", "unexpected device_done frame while preparing"},
      {"close", "closed its connection but kept running"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.request);
    JobOutcome o = pool->Run(c.request, kRelaxed);
    EXPECT_EQ(o.kind, JobOutcomeKind::kProtocolError) << o.detail;
    EXPECT_NE(o.detail.find(c.detail_has), std::string::npos) << o.detail;
    EXPECT_EQ(o.signal, SIGKILL);
    ExpectServing(*pool);
  }
  EXPECT_EQ(pool->stats().protocol_errors, 4);
}

TEST(ChildPoolTest, FrameCapBothWays) {
  absl::StatusOr<std::unique_ptr<ChildPool>> p =
      ChildPool::Create({.argv = {g_child}, .children = 1, .max_frame_bytes = 1024});
  ASSERT_TRUE(p.ok()) << p.status();
  ChildPool& pool = **p;
  // Too big to send: refused before any child sees it.
  JobOutcome o = pool.Run("echo:" + std::string(2000, 'a'), kRelaxed);
  EXPECT_EQ(o.kind, JobOutcomeKind::kProtocolError);
  EXPECT_NE(o.detail.find("exceeds the frame cap"), std::string::npos) << o.detail;
  EXPECT_EQ(o.pid, 0);
  // Too big a response: the child is killed.
  o = pool.Run("big:5000", kRelaxed);
  EXPECT_EQ(o.kind, JobOutcomeKind::kProtocolError);
  EXPECT_NE(o.detail.find("exceeds the cap of 1024"), std::string::npos) << o.detail;
  EXPECT_NE(o.pid, 0);
  ExpectServing(pool);
}

TEST(ChildPoolTest, IdleChildKilledFromOutsideIsReplaced) {
  auto pool = MakePool(1);
  ASSERT_NE(pool, nullptr);
  pid_t victim = pool->ChildPids()[0];
  ASSERT_EQ(kill(victim, SIGKILL), 0);
  WaitForRespawns(*pool, 1);
  ExpectServing(*pool);
  EXPECT_FALSE(Contains(pool->ChildPids(), victim));
}

// A child that retires (a poisoned GPU context) answers its job, then exits; a fresh child
// takes its place.
TEST(ChildPoolTest, ARetiredChildAnswersThenIsReplaced) {
  auto pool = MakePool(1);
  ASSERT_NE(pool, nullptr);
  pid_t first = pool->ChildPids()[0];
  JobOutcome o = pool->Run("retire:last words", kRelaxed);
  EXPECT_EQ(o.kind, JobOutcomeKind::kOk) << o.detail;
  EXPECT_EQ(o.response, "last words");
  EXPECT_EQ(o.pid, first);
  WaitForRespawns(*pool, 1);
  ExpectServing(*pool);
  EXPECT_FALSE(Contains(pool->ChildPids(), first));
}

TEST(ChildPoolTest, DevicePhasesNeverOverlap) {
  auto pool = MakePool(3);
  ASSERT_NE(pool, nullptr);
  std::vector<std::pair<int64_t, int64_t>> holds = SortedIntervals(*pool, "run:50", 9);
  ASSERT_EQ(holds.size(), 9u);
  for (size_t i = 1; i < holds.size(); ++i) {
    EXPECT_LE(holds[i - 1].second, holds[i].first) << "device holds " << i - 1 << " and " << i;
  }
}

TEST(ChildPoolTest, PreparesOverlap) {
  auto pool = MakePool(3);
  ASSERT_NE(pool, nullptr);
  std::vector<std::pair<int64_t, int64_t>> preps = SortedIntervals(*pool, "prep:1000", 3);
  ASSERT_EQ(preps.size(), 3u);
  // Each started before the previous one ended.
  for (size_t i = 1; i < preps.size(); ++i) EXPECT_LT(preps[i].first, preps[i - 1].second);
}

TEST(ChildPoolTest, JobsQueueWhenAllChildrenAreBusy) {
  auto pool = MakePool(2);
  ASSERT_NE(pool, nullptr);
  std::vector<std::future<JobOutcome>> futures;
  for (int i = 0; i < 6; ++i) futures.push_back(pool->Submit("prep:200", kRelaxed));
  std::vector<std::pair<int64_t, int64_t>> preps;
  int waited = 0;
  for (auto& f : futures) {
    JobOutcome o = f.get();
    ASSERT_TRUE(o.ok()) << o.detail;
    preps.push_back(Interval(o));
    // Jobs 3-6 cannot start before a 200 ms prepare ended (a lower bound, not a speed).
    waited += o.queue_s >= 0.15;
  }
  EXPECT_GE(waited, 4);
  // Never more than two prepares at any moment.
  for (const auto& p : preps) {
    int running = 0;
    for (const auto& q : preps) running += q.first <= p.first && p.first < q.second;
    EXPECT_LE(running, 2);
  }
}

TEST(ChildPoolTest, CallbacksFromManyThreads) {
  auto pool = MakePool(2);
  ASSERT_NE(pool, nullptr);
  std::mutex mu;
  std::condition_variable cv;
  int ok = 0, done = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 25; ++i) {
        std::string text = std::to_string(t * 100 + i);
        pool->Submit("echo:" + text, kRelaxed, [&, text](JobOutcome o) {
          std::lock_guard<std::mutex> l(mu);
          ok += o.ok() && o.response == text;
          ++done;
          cv.notify_all();
        });
      }
    });
  }
  for (auto& t : threads) t.join();
  std::unique_lock<std::mutex> l(mu);
  ASSERT_TRUE(cv.wait_for(l, kTestWaitLimit, [&] { return done == 100; })) << done << " of 100 callbacks ran";
  EXPECT_EQ(ok, 100);
}

TEST(ChildPoolTest, ShutdownReapsEveryChild) {
  auto pool = MakePool(2);
  ASSERT_NE(pool, nullptr);
  ExpectServing(*pool);
  std::vector<pid_t> pids = pool->ChildPids();
  std::future<JobOutcome> spinning =
      pool->Submit("loop@device", {.prepare_timeout = 1e6s, .run_deadline = 1e6s});
  std::future<JobOutcome> preparing = pool->Submit("loop", {.prepare_timeout = 1e6s});
  std::future<JobOutcome> queued = pool->Submit("echo:never", kRelaxed);
  // Shut down with one job on the device, one preparing (ExpectServing's job came first), one queued.
  ASSERT_NO_FATAL_FAILURE(WaitForCount(*pool, &PoolStats::device_grants, 1, "device grants"));
  ASSERT_NO_FATAL_FAILURE(WaitForCount(*pool, &PoolStats::jobs_started, 1 + 2, "jobs started"));
  pool->Shutdown();
  for (auto* f : {&spinning, &preparing, &queued}) {
    JobOutcome o = f->get();
    EXPECT_EQ(o.kind, JobOutcomeKind::kLost);
    EXPECT_NE(o.detail.find("the pool shut down"), std::string::npos) << o.detail;
  }
  for (pid_t pid : pids) {
    EXPECT_NE(kill(pid, 0), 0);
    EXPECT_EQ(errno, ESRCH) << "child " << pid << " still exists";
  }
  EXPECT_EQ(waitpid(-1, nullptr, WNOHANG), -1);  // no child of ours left, zombie or not
  EXPECT_EQ(errno, ECHILD);
  // After shutdown a job fails at once.
  JobOutcome late = pool->Run("echo:late", kRelaxed);
  EXPECT_EQ(late.kind, JobOutcomeKind::kLost);
  pool->Shutdown();  // idempotent
}

TEST(ChildPoolTest, CreateFailsForABadProgram) {
  absl::StatusOr<std::unique_ptr<ChildPool>> p =
      ChildPool::Create({.argv = {"/nonexistent/worker-child"}, .children = 1});
  EXPECT_FALSE(p.ok());
  // Runs, but never says ready.
  p = ChildPool::Create({.argv = {"/bin/true"}, .children = 2});
  EXPECT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("before it was ready"), std::string_view::npos)
      << p.status();
  EXPECT_FALSE(ChildPool::Create({.argv = {}}).ok());
}

// A child that starts but never says ready is killed when startup_timeout has passed, and
// Create says why. (Real time, but the outcome holds on any machine: the child never gets ready.)
TEST(ChildPoolTest, ChildThatNeverGetsReadyTimesOut) {
  absl::StatusOr<std::unique_ptr<ChildPool>> p = ChildPool::Create(
      {.argv = {g_child, "--never-ready"}, .children = 1, .startup_timeout = std::chrono::milliseconds(100)});
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("did not become ready within 0.1 s"), std::string_view::npos)
      << p.status();
}

// The pool's parent is SIGKILLed (no destructor, no Shutdown): its children, one of them
// spinning on the device, die with it.
TEST(ChildPoolTest, ChildrenDieWithTheirParent) {
  // Orphans get reparented to us, so we can see them die and reap them.
  ASSERT_EQ(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
  int out[2];
  ASSERT_EQ(pipe2(out, O_CLOEXEC), 0);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  std::vector<char*> argv = {g_parent.data(), g_child.data(), nullptr};
  pid_t parent = 0;
  ASSERT_EQ(posix_spawn(&parent, g_parent.c_str(), &fa, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&fa);
  close(out[1]);
  std::string line;
  char c;
  while (read(out[0], &c, 1) == 1 && c != '\n') line += c;
  close(out[0]);
  std::vector<pid_t> children;
  for (const std::string& s : std::vector<std::string>(absl::StrSplit(line, ' ', absl::SkipEmpty()))) {
    int pid = 0;
    ASSERT_TRUE(absl::SimpleAtoi(s, &pid)) << line;
    children.push_back(pid);
  }
  ASSERT_EQ(children.size(), 3u) << line;  // 2 children + 1 spare; the loop job is on the device
  ASSERT_EQ(kill(parent, SIGKILL), 0);
  ASSERT_EQ(waitpid(parent, nullptr, 0), parent);
  int killed = 0;
  for (pid_t pid : children) {
    int status = 0;
    pid_t r = 0;
    WaitUntil([&] { return (r = waitpid(pid, &status, WNOHANG)) != 0; });
    ASSERT_EQ(r, pid) << "child " << pid << " outlived its parent";
    // An idle child may see EOF on its socket before the death signal and exit cleanly.
    bool sigkill = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
    EXPECT_TRUE(sigkill || (WIFEXITED(status) && WEXITSTATUS(status) == 0)) << status;
    killed += sigkill;
  }
  // The spinning one never reads its socket: only the death signal ends it.
  EXPECT_GE(killed, 1);
}

}  // namespace
}  // namespace tg::workers

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s TEST_CHILD TEST_POOL_PARENT\n", argv[0]);
    return 2;
  }
  tg::workers::g_child = argv[1];
  tg::workers::g_parent = argv[2];
  return RUN_ALL_TESTS();
}
