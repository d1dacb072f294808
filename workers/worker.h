// File: workers/worker.h
// The worker daemon of the tuning farm (`tg worker`): connects to a coordinator, announces its
// device class, and measures the jobs it receives, each candidate isolated in a child process.
//
// Protocol (workers/README.md "Protocol"): a DEALER socket whose routing id is the worker id;
// Hello{device class, build id, capacity, incarnation, jobs held} + Ready{capacity} on
// connect; Heartbeat every interval both ways; a coordinator silent for more than `dead_after`
// of the worker's own heartbeat ticks is presumed dead: the worker reconnects (a fresh socket)
// and says Hello again, naming the jobs it still holds (the coordinator keeps them with it).
// Jobs carry their task the first time; later only its digest (a job whose task the worker
// lacks gets FailedPrecondition "unknown task <digest hex>"). Bye on Stop(); a Bye from the
// coordinator ends Run() with exit_on_bye, and always when it says `refused` (the coordinator
// evicted this worker, or speaks another protocol version: a Hello again would only be refused
// again), then with PermissionDenied naming the coordinator's reason.
//
// Timing modes:
//   kReal        each job runs in a ChildPool child (worker_child.h): several jobs lower and
//                compile at once, their device phases one at a time. A job whose child crashes,
//                overruns or passes its resource limits is re-run one candidate per child job:
//                the culprit gets kRuntimeError "crashed: killed by SIGSEGV while running" (or
//                kTimeout "timeout: ...", kTimeout "cpu limit: ...", kRuntimeError "memory
//                limit: ..."), the others are measured normally.
//   kFakeTiming  kReal with FakeTimeS(program hash) samples (farm tests only).
//   kSimulate    no children, nothing compiled: each candidate holds the worker's one device
//                for simulate_device_s (a sleep), result kOk (scaling benchmarks only).
//
// Threads: Run's thread owns the socket (heartbeats, liveness) and never does job work; a job
// thread decodes, submits to the child pool and encodes results (see worker.cc).
//
// Several Workers can share one process (each on its own thread, e.g. 64 simulated workers
// for a coordinator benchmark).
//
// Example:
//   ASSIGN_OR_RETURN(std::unique_ptr<Worker> w, Worker::Create({
//       .endpoint = "ipc:///run/farm/coord", .worker_id = "w1",
//       .child_argv = {"/proc/self/exe", "worker", "--child"}}));
//   std::thread t([&] { absl::Status s = w->Run(); });
//   ...
//   w->Stop();  // also from a signal handler
//   t.join();
#ifndef WORKERS_WORKER_H_
#define WORKERS_WORKER_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "autotune/compile/remote_preparer.h"
#include "autotune/key/device_class.h"
#include "autotune/net/secure_endpoint.h"
#include "autotune/net/zmq_socket.h"
#include "tinygrad/base/clock.h"
#include "tinygrad/codegen/opt/opt.h"

namespace tg::workers {

enum class TimingMode { kReal, kFakeTiming, kSimulate };

struct WorkerOptions {
  std::string endpoint;    // the coordinator: tcp://HOST:PORT or ipc://PATH
  std::string worker_id;   // the DEALER routing id; empty: DefaultWorkerId()
  autotune::net::SecurityOptions security;  // CURVE client keys, or insecure / ipc permissions
  // Another context to open the socket on (several in-process workers); null: the worker's own.
  autotune::net::ZmqContext* context = nullptr;

  TimingMode mode = TimingMode::kReal;
  double simulate_device_s = 0;  // kSimulate: device time per candidate
  // The cores the children share (each compiles on cores / children threads); 0: the machine's.
  int cores = 0;
  // Jobs at once (child processes, and the capacity announced); 0: one per core.
  int children = 0;
  // The child program (WorkerChildMain) and its arguments; kFakeTiming appends --fake-timing.
  // Not used by kSimulate.
  std::vector<std::string> child_argv;

  std::chrono::milliseconds heartbeat{1000};
  int dead_after = 5;         // heartbeat intervals of coordinator silence
  // The clock of heartbeats and of the coordinator's silence; null: the machine's. (Jobs'
  // deadlines run on the machine's clock in the child pool.)
  Clock* clock = nullptr;
  bool exit_on_bye = false;   // Run() returns when the coordinator says Bye (a refusing Bye: always)
  size_t task_cache = 64;     // tasks kept by digest (at least 64)
  // The children lower and compile on SCHED_BATCH threads (a compile waking preempts nobody)
  // this much nicer than the thread that times kernels, which keeps the daemon's priority
  // (workers/README.md "Priorities"). Mild by default: a nicer compile also loses more CPU to
  // other work of the same session.
  int prepare_nice = 2;
  // A run's deadline is the job's run_deadline_s (else options.timeout_s), never below this.
  std::chrono::duration<double> run_deadline_floor{1};
  std::chrono::duration<double> prepare_timeout_floor{60};  // lowering + compiling a job, plus per-candidate time

  // Private writable memory each child may map (RLIMIT_DATA, counted from its start: see
  // workers/resource_limits.h, also for why not RLIMIT_AS); a candidate that allocates past it
  // fails as "memory limit: ...". Unset: DefaultChildMemoryLimit(children + the pool's spare);
  // 0: none.
  std::optional<uint64_t> child_memory_limit;
  // CPU seconds a child may use on one job, on all its threads, before SIGXCPU ends it (the
  // candidate: kTimeout "cpu limit: ..."); 0: JobCpuBudgetS of each job's own options
  // (workers/worker_child.h), a backstop no honest job reaches.
  double job_cpu_s = 0;

  // The engine device the children measure on ("CPU", "CUDA", "CUDA:1").
  std::string device = "CPU";
  // A compile server (tg compile-server; autotune/compile) that lowers, renders and compiles
  // the children's candidates, so that this machine's cores are free while its GPU times them:
  // the children, who have no sockets, ask through the pool's relay (CompileRelay). A batch it
  // cannot prepare (down, another target) is prepared by the child. A GPU device only; its
  // reply_timeout_s must stay under the jobs' prepare timeout (prepare_timeout_floor).
  std::optional<autotune::RemotePreparerOptions> compile_server;
  // The ISA the children compile CPU kernels for: "" or "native" the host's, or an x86-64 level
  // (tinygrad/runtime/cpu/cpu_target.h). The device class announced is then the target's (its
  // ISA flags), so a coordinator tuning for that target routes here and nowhere else. Create()
  // refuses a target this CPU cannot run, naming the missing features.
  std::string cpu_target;
  // (tests only) The CPU's cpuinfo flags cpu_target is checked against, as on an x86_64 with
  // these; unset: this CPU's.
  std::optional<std::vector<std::string>> cpu_flags;
  // Announced in Hello. Unset: DeviceClassFor(the device) / DefaultBuildId().
  std::optional<autotune::DeviceClass> device_class;
  std::string build_id;
  // One line per event worth a person's attention; unset: stderr ("tg worker <id>: ...").
  // Called from the worker's threads (the refused-key line comes from the handshake watch's).
  std::function<void(std::string_view)> log;
  // Tests: runs on the job thread before each job is handled (a slow step, such as decoding a
  // huge task); the socket thread keeps heartbeating meanwhile.
  std::function<void(uint64_t job_id)> before_job;
};

struct WorkerStats {
  int64_t connects = 0;        // Hellos sent (the first one and every reconnect)
  int64_t jobs_received = 0;
  int64_t results_sent = 0;
  int64_t unknown_task = 0;    // jobs answered FailedPrecondition "unknown task"
  int64_t isolations = 0;      // jobs whose child died (or lost its GPU), re-run one candidate per child job
  int64_t candidates_crashed = 0;
  int64_t candidates_timed_out = 0;
  int64_t heartbeats_sent = 0;
  int64_t messages_received = 0;
  int64_t bad_messages = 0;    // undecodable or unexpected messages from the coordinator
  int64_t in_flight = 0;       // jobs held now
};

// "tinygrad-cc <version> <compiler>".
std::string DefaultBuildId();
// "<hostname>-<pid>".
std::string DefaultWorkerId();

class Worker {
 public:
  // Checks the options, starts the child processes (kReal, kFakeTiming) and reads the device
  // class. Does not connect yet.
  static absl::StatusOr<std::unique_ptr<Worker>> Create(WorkerOptions options);
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Connects and serves until Stop() (sends Bye, returns OK), with exit_on_bye the
  // coordinator's Bye (returns OK), or a Bye that refuses this worker (returns
  // PermissionDenied "the coordinator refuses this worker: <its reason>"). Other errors: the
  // endpoint or security options are unusable. Call once.
  absl::Status Run();

  // Makes Run() say Bye and return. Thread-safe and async-signal-safe (an atomic store and a
  // write(2)): call it from a SIGTERM handler. `signal` (if not 0) is named in the Bye.
  void Stop(int signal = 0);

  WorkerStats stats() const;
  const std::string& worker_id() const;
  int capacity() const;
  uint64_t child_memory_limit() const;  // bytes (0: none)

 private:
  struct Impl;
  explicit Worker(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace tg::workers

#endif  // WORKERS_WORKER_H_
