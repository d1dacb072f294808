// File: workers/worker_child.h
// The child process of the worker daemon (workers/worker.h): measures one job's candidates
// with a LocalMeasurer, inside a ChildPool child, so that a candidate that crashes or hangs
// only takes this process down.
//
// Request and response are farm protocol values, encoded with autotune/codec/farm_codec.h:
// the request is a MeasureRequest that always carries its task, the response a MeasureResult
// (status = Measure's error, or OK with one CandidateResult per candidate). The child keeps
// one LocalMeasurer for its whole life, so the reference outputs of the tasks it measured
// lately are computed once, not per job. Its device phase (checking and timing) runs between
// DeviceGate::Acquire and Release: the daemon grants the device to one child at a time.
//
// The same code runs as `tg worker --child [...]` (the tg binary re-executes itself: nothing
// else has to be built or found next to it) and in test programs.
//
// Arguments: --fake-timing (LocalMeasurerOptions::fake_timing), --compile-relay (below),
// --compile-threads N,
// --device-lock PATH (the machine's device lock, autotune/lock/device_lock.h: compiles shared, the
// device phase exclusive, taken before the pool's gate), --sandbox (below), --prepare-nice N
// (PrepareThreadSetup), --memory-limit BYTES and --job-cpu-s S (below), and for tests only
// --inject-fault KIND:OPTS (OPTS as autotune/db/opts_text.h): holding the device, a job with a
// candidate of exactly those opts dies of SIGSEGV (crash), blocks forever (hang), burns CPU
// forever (spin), allocates until refused (hog) or runs a shell (exec, execve), as a candidate
// whose kernel crashes, cannot be stopped, loops, leaks or escapes would; `lose` answers as a GPU
// kernel fault does (below).
//
// Resource limits (workers/resource_limits.h says how and why): at its start, before anything
// else is set up, the child limits the private writable memory it may map to BYTES more than it
// holds then (RLIMIT_DATA; 0: no limit); an allocation past it ends the child with
// kChildExitOutOfMemory (the pool: kMemoryLimit). Before each job it limits its CPU time to what
// it used so far plus the job's budget: S seconds, or by default JobCpuBudgetS of the job's own
// options (RLIMIT_CPU); past it, SIGXCPU ends the child (the pool: kCpuLimit).
//
// With --sandbox the child sets up before it says it is ready: it makes its measurer (the
// device, with compile caches in memory only), measures a 4-element warm-up kernel once, so
// that everything a first job does once per process (the in-process clang's driver, LLVM's
// start-up, a GPU driver's modules) opens its files now, and then enters the sandbox
// (workers/sandbox.h): from then on its kernels and compilers can compute but start no
// process, open no socket or file, and reach no other process. A set-up that fails (a
// compiler that runs as a process, a kernel without seccomp) leaves the child unsandboxed and
// answers every job with that error, running nothing.
//
// A GPU kernel fault poisons the device for this process (LocalMeasurer: the faulting
// candidate kRuntimeError, the candidates after it kWorkerLost): the child answers the job,
// then retires (DeviceGate::Retire) and the pool starts a fresh one; the daemon measures the
// kWorkerLost candidates again, each in a child of its own.
//
// Example (a child program's main):
//   int main(int argc, char** argv) {
//     std::vector<std::string_view> args(argv + 1, argv + argc);
//     return tg::workers::WorkerChildMain(args);
//   }
#ifndef WORKERS_WORKER_CHILD_H_
#define WORKERS_WORKER_CHILD_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <functional>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "autotune/measure/measurer.h"
#include "tinygrad/codegen/opt/opt.h"
#include "tinygrad/engine/device.h"

namespace tg::workers {

inline constexpr std::string_view kFakeTimingFlag = "--fake-timing";
inline constexpr std::string_view kCompileThreadsFlag = "--compile-threads";
inline constexpr std::string_view kInjectFaultFlag = "--inject-fault";
inline constexpr std::string_view kDeviceLockFlag = "--device-lock";
inline constexpr std::string_view kDeviceFlag = "--device";
inline constexpr std::string_view kSandboxFlag = "--sandbox";
inline constexpr std::string_view kPrepareNiceFlag = "--prepare-nice";
inline constexpr std::string_view kMemoryLimitFlag = "--memory-limit";
inline constexpr std::string_view kJobCpuFlag = "--job-cpu-s";
inline constexpr std::string_view kCpuTargetFlag = "--cpu-target";
inline constexpr std::string_view kCompileRelayFlag = "--compile-relay";

// A test-only fault: the child misbehaves on a job that has a candidate with these opts.
struct InjectedFault {
  enum class Kind { kCrash, kHang, kLoseDevice, kExec, kSpin, kHog } kind;
  std::vector<Opt> opts;
};
// "crash:OPTS", "hang:OPTS", "lose:OPTS", "exec:OPTS", "spin:OPTS" or "hog:OPTS".
absl::StatusOr<InjectedFault> ParseInjectedFault(std::string_view spec);
// What ParseInjectedFault takes, for messages: "crash:OPTS, hang:OPTS, ... or hog:OPTS".
inline constexpr std::string_view kInjectedFaultKinds =
    "crash:OPTS, hang:OPTS, lose:OPTS, exec:OPTS, spin:OPTS or hog:OPTS";

struct WorkerChildOptions {
  bool fake_timing = false;
  int compile_threads = 1;  // threads lowering and compiling one job (0: Config.cpu_count)
  std::string device = "CPU";  // the engine device candidates run on ("CPU", "CUDA", "CUDA:1")
  std::string device_lock;  // the machine's device lock file; empty: none
  bool sandbox = false;     // warm up, then enter workers/sandbox.h before the first job
  // Lowering and compiling run on SCHED_BATCH threads this much nicer than the thread that
  // times; negative: on the timing thread, unchanged (PrepareThreadSetup).
  int prepare_nice = -1;
  uint64_t memory_limit = 0;  // bytes of private writable memory beyond the child's start; 0: none
  double job_cpu_s = 0;       // CPU seconds per job; 0: JobCpuBudgetS of each job
  // The ISA CPU kernels are compiled for ("native" or an x86-64 level: runtime/cpu/cpu_target.h);
  // unset: CPU_TARGET's. The worker passes its own, so its children compile for the target of
  // the device class it announced.
  std::optional<std::string> cpu_target;
  // Have the daemon's compile server prepare each job's candidates (through the pool's relay,
  // DeviceGate::AskRelay; autotune/compile/relayed_preparer.h); a GPU device only. A batch it
  // cannot prepare is prepared here.
  bool compile_relay = false;
  std::vector<InjectedFault> faults;
};

// A job's CPU time budget: what its child may use, on every thread, from the job's start to
// its answer. The pool's wall-clock limits allow one try of a job (autotune/farm/job_deadline.h
// JobAttemptBudget: preparing, the device phase, finishing, not waiting for the device); the
// child computes on at most `compile_threads` threads (0: the machine's cores) and the timing
// thread at once, so (compile_threads + 1) x that: a backstop that no honest job reaches.
double JobCpuBudgetS(const autotune::MeasureOptions& options, size_t candidates, int compile_threads);

// OK when a child that measures on `device`, compiling as `options` say, can run sandboxed:
// this kernel has what workers/sandbox.h needs, and no compiler runs as a separate process
// (CPU_CC naming another compiler). Otherwise FailedPrecondition saying what to change.
absl::Status CheckSandboxable(std::string_view device, const DeviceOptions& options);

// What the child's measurer runs first on each thread that lowers and compiles: SCHED_BATCH and
// `prepare_nice` more nice (null for a negative value). A failure is logged once, never fatal.
// It runs in the sandbox too (the threads are made per job): workers/sandbox.h allows changing
// the calling thread's own priority.
std::function<void()> PrepareThreadSetup(int prepare_nice);

// Parses the child's arguments (after the program name / `worker --child`).
absl::StatusOr<WorkerChildOptions> ParseWorkerChildArgs(std::span<const std::string_view> args);

// Parses `args`, then serves jobs until the daemon closes the connection (RunChildLoop).
// Returns the process exit code (2: bad arguments).
int WorkerChildMain(std::span<const std::string_view> args);

}  // namespace tg::workers

#endif  // WORKERS_WORKER_CHILD_H_
