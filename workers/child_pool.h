// File: workers/child_pool.h
// The worker daemon's process isolation: a pool of child processes (each a RunChildLoop
// program) that run jobs of opaque bytes, with the device shared one child at a time.
//
// Every candidate kernel runs in a child. A child that segfaults, aborts, divides by zero,
// exits, breaks the protocol or overruns a deadline is killed (its whole process group, so
// the compilers it started go too), its job is reported as a typed JobOutcome, and a new
// child is spawned at once (the respawn time is in stats()); a ready spare process takes the
// next job meanwhile. Jobs queue while `children` jobs run. Children prepare (lower, compile) in parallel; a child's device phase starts when the
// pool grants it the device (FIFO, one holder at a time), and its run deadline counts from
// the grant, so waiting for the device never counts against a candidate.
//
// Children are started with posix_spawn (no code runs in a forked copy of this multithreaded
// process), in their own process group, stdin from /dev/null, only the protocol socket
// (fd kChildFd) beyond stdout/stderr. They set PR_SET_PDEATHSIG and RLIMIT_CORE=0 themselves
// (RunChildLoop). The death signal follows the *thread* that spawned a child, so every child
// is spawned by the pool's one spawner thread, which lives until every child is reaped (and
// keeps the supervisor thread free while a spawn blocks). Deaths are seen through pidfds
// (Linux >= 5.3).
//
// Example:
//   ASSIGN_OR_RETURN(std::unique_ptr<ChildPool> pool,
//                    ChildPool::Create({.argv = {"/path/to/child"}, .children = 4}));
//   JobOutcome r = pool->Run(request_bytes, {.prepare_timeout = 60s, .run_deadline = 2s});
//   if (r.kind == JobOutcomeKind::kCrashed) ... r.detail == "killed by SIGSEGV while running"
#ifndef WORKERS_CHILD_POOL_H_
#define WORKERS_CHILD_POOL_H_

#include <sys/types.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/base/clock.h"
#include "workers/frame.h"

namespace tg::workers {

// Seconds as a double: the time limits' unit (fractions of a second, "forever" as 1e6 s).
using FloatSeconds = std::chrono::duration<double>;

// Time limits of one job.
struct JobLimits {
  // From the job's start to its first device request (or its response), and again from each
  // device release to the next request or the response.
  FloatSeconds prepare_timeout{60};
  // Each device hold, from the grant (and again from each progress report of the child,
  // DeviceGate::Progress) to the next report, the release or the response.
  FloatSeconds run_deadline{10};
  // A progress report that gives its run's limit L (the child stops the run there itself)
  // tightens the deadline until the next report to run_deadline_floor + 2 L, never past
  // run_deadline: a child can shorten its deadline, not extend it.
  FloatSeconds run_deadline_floor{1};

  // The deadline after a progress report with this limit (nullopt: none given).
  FloatSeconds RunDeadline(std::optional<FloatSeconds> limit) const {
    return limit ? std::min(run_deadline, run_deadline_floor + 2 * *limit) : run_deadline;
  }
};

enum class JobOutcomeKind : uint8_t {
  kOk,             // the child answered; `response` holds its bytes
  kCrashed,        // the child died on its own: a signal (SIGSEGV, SIGABRT, ...) or an exit
  kTimeout,        // the pool killed the child: a prepare timeout or run deadline passed
  kLost,           // no verdict on the job: the pool shut down, or no child could start
  kProtocolError,  // the child sent garbage, an oversized or unexpected frame; killed
  // The child died of its own resource limits (resource_limits.h): SIGXCPU (its CPU time for
  // the job), or exit kChildExitOutOfMemory (an allocation past its memory limit).
  kCpuLimit,
  kMemoryLimit,
};
std::string_view JobOutcomeKindName(JobOutcomeKind k);  // "ok", "crashed", ...

// Where a job was when it ended.
enum class JobPhase : uint8_t {
  kQueued,     // waiting for a child
  kPreparing,  // sent to a child, before its first device request
  kWaiting,    // waiting for the device
  kRunning,    // holding the device
  kFinishing,  // after a device release, before the response
};
std::string_view JobPhaseName(JobPhase p);  // "queued", "preparing", ...

struct JobOutcome {
  JobOutcomeKind kind = JobOutcomeKind::kLost;
  JobPhase phase = JobPhase::kQueued;
  int signal = 0;       // the signal that ended the child (kTimeout: SIGKILL), else 0
  int exit_code = -1;   // the child's exit status when it exited, else -1
  pid_t pid = 0;        // the child that ran the job (0: never started)
  std::string detail;   // failures: "killed by SIGSEGV while running", "ran longer than 2 s"
  std::string response; // kOk: the child's response bytes
  double queue_s = 0;    // submit -> sent to a child
  double prepare_s = 0;  // outside the device, not waiting (prepare + finish phases)
  double wait_s = 0;     // waiting for the device
  double run_s = 0;      // holding the device
  bool ok() const { return kind == JobOutcomeKind::kOk; }
};

struct ChildPoolOptions {
  std::vector<std::string> argv;  // the child program (argv[0]: its path) and arguments
  int children = 2;  // jobs at once
  // Ready processes beyond `children`: when a child dies, a spare takes the next job at once
  // while the replacement starts (process start is 10-30 ms; a job's round trip ~50 us).
  int spares = 1;
  // Largest frame either side may send: a bigger request fails at Submit (kProtocolError);
  // a child sending a bigger response is killed. Children must accept at least this much
  // (ChildLoopOptions::max_frame_bytes, same default).
  size_t max_frame_bytes = kDefaultMaxFrameBytes;
  // Where a child's relay requests go (DeviceGate::AskRelay: a worker's compile server, which
  // the sandboxed children cannot reach). `answer` must be called once, from any thread (""
  // for none), soon enough: the job's prepare timeout keeps running. It is called on the
  // supervisor thread; an answer for a job that ended meanwhile is dropped. Null: every relay
  // request is answered "" at once.
  std::function<void(std::string request, std::function<void(std::string answer)> answer)> relay;
  FloatSeconds startup_timeout{30};  // spawn -> the child's ready frame
  FloatSeconds exit_grace{2};        // Shutdown: EOF -> exit, before SIGKILL (real time)
  // The clock of deadlines, start-failure backoff and the outcomes' phase times; null: the
  // machine's. A test's FakeClock decides when a job overruns: call CheckDeadlines after
  // moving it.
  Clock* clock = nullptr;
};

struct PoolStats {
  int children = 0;  // configured (jobs at once)
  int spares = 0;
  int64_t jobs_submitted = 0;
  int64_t jobs_done = 0;  // outcomes delivered, any kind
  int64_t jobs_started = 0;  // sent to a child (their prepare deadline starts)
  // Device holds asked for, granted and released (DeviceGate::Release), and progress reports
  // (a new run deadline each): what a test waits for before it moves a scripted clock.
  int64_t device_requests = 0, device_grants = 0, device_releases = 0, progress_reports = 0;
  int64_t relayed = 0;  // relay requests answered to their child
  int64_t ok = 0, crashed = 0, timeouts = 0, lost = 0, protocol_errors = 0, cpu_limits = 0, memory_limits = 0;
  int64_t spawns = 0;           // children started, the first ones included
  int64_t start_failures = 0;   // children that never became ready
  int64_t respawns = 0;         // replacements that became ready
  double last_respawn_s = 0;    // previous child reaped -> replacement ready
  double max_respawn_s = 0;
  double total_respawn_s = 0;
};

class ChildPool {
 public:
  using Callback = std::function<void(JobOutcome)>;

  // Starts the children and waits until each is ready. Errors: bad options, a child that
  // cannot be spawned or exits/hangs before it is ready.
  static absl::StatusOr<std::unique_ptr<ChildPool>> Create(const ChildPoolOptions& options);
  ~ChildPool();  // Shutdown()
  ChildPool(const ChildPool&) = delete;
  ChildPool& operator=(const ChildPool&) = delete;

  // Queues a job. `done` runs exactly once, on the pool's supervisor thread (keep it short; it
  // may Submit, but must not Run, wait on a future of this pool, or Shutdown). After Shutdown
  // began, `done` gets kLost at once (in the caller's thread), as does a request over
  // max_frame_bytes (kProtocolError).
  void Submit(std::string request, const JobLimits& limits, Callback done);
  std::future<JobOutcome> Submit(std::string request, const JobLimits& limits);
  // Submit and wait.
  JobOutcome Run(std::string request, const JobLimits& limits);

  // Fails queued jobs and kills running ones (kLost), closes idle children's connections
  // (they exit), SIGKILLs any child still alive after exit_grace, reaps every child, and
  // joins the supervisor thread. Idempotent. Must not be called from a callback.
  void Shutdown();

  // Makes the supervisor look at the clock now: needed only for a clock that moves without real
  // time passing (ChildPoolOptions::clock, a test's FakeClock), after moving it.
  void CheckDeadlines();

  PoolStats stats() const;
  // The processes alive now (children + spares, ready or busy), by slot; 0 for a slot being
  // replaced.
  std::vector<pid_t> ChildPids() const;

 private:
  struct Impl;
  explicit ChildPool(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace tg::workers

#endif  // WORKERS_CHILD_POOL_H_
