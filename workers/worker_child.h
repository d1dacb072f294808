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
// Arguments: --fake-timing (LocalMeasurerOptions::fake_timing), --compile-threads N,
// --device-lock PATH (the machine's device lock, autotune/lock/device_lock.h: compiles shared, the
// device phase exclusive, taken before the pool's gate), and for
// tests only --inject-fault crash:OPTS | hang:OPTS | lose:OPTS (OPTS as
// autotune/db/opts_text.h): holding the device, a job with a candidate of exactly those opts
// dies of SIGSEGV or spins forever, as a candidate whose kernel crashes or cannot be stopped
// would; `lose` answers as a GPU kernel fault does (below).
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

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/codegen/opt/opt.h"

namespace tg::workers {

inline constexpr std::string_view kFakeTimingFlag = "--fake-timing";
inline constexpr std::string_view kCompileThreadsFlag = "--compile-threads";
inline constexpr std::string_view kInjectFaultFlag = "--inject-fault";
inline constexpr std::string_view kDeviceLockFlag = "--device-lock";
inline constexpr std::string_view kDeviceFlag = "--device";

// A test-only fault: the child misbehaves on a job that has a candidate with these opts.
struct InjectedFault {
  enum class Kind { kCrash, kHang, kLoseDevice } kind;
  std::vector<Opt> opts;
};
// "crash:OPTS", "hang:OPTS" or "lose:OPTS".
absl::StatusOr<InjectedFault> ParseInjectedFault(std::string_view spec);

struct WorkerChildOptions {
  bool fake_timing = false;
  int compile_threads = 1;  // threads lowering and compiling one job (0: Config.cpu_count)
  std::string device = "CPU";  // the engine device candidates run on ("CPU", "CUDA", "CUDA:1")
  std::string device_lock;  // the machine's device lock file; empty: none
  std::vector<InjectedFault> faults;
};

// Parses the child's arguments (after the program name / `worker --child`).
absl::StatusOr<WorkerChildOptions> ParseWorkerChildArgs(std::span<const std::string_view> args);

// Parses `args`, then serves jobs until the daemon closes the connection (RunChildLoop).
// Returns the process exit code (2: bad arguments).
int WorkerChildMain(std::span<const std::string_view> args);

}  // namespace tg::workers

#endif  // WORKERS_WORKER_CHILD_H_
