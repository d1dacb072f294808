// File: autotune/measure/local_measurer.h
// The in-process Measurer: lowers and compiles a batch of candidates on several threads
// (prepare_batch.h; or has a compile server do it), then times them one at a time on the
// device while nothing else runs.
//
// Port of tinygrad/codegen/opt/search.py's _try_compile / _time_program as used by
// beam_search, with these deliberate differences:
// - Two phases per batch. tinygrad times each candidate while its compile workers keep both
//   cores busy, so its timings carry compile load; here every compile of a batch has finished
//   before the first timed run.
// - The first run is also the result check: the candidate's outputs must match the unoptimized
//   kernel's on the same deterministic random inputs (floats with a per-dtype tolerance, NaN
//   equal to NaN; ints and bools exact). Outputs are reset to their initial contents before the
//   check run, and before every run when the kernel reads its own output (an accumulation).
// - Duplicates are found by the rendered source (before compiling), not the compiled bytes.
// - Threads, not processes: a candidate that crashes takes the process with it (the worker
//   farm isolates candidates). A run is stopped at its limit (StoppableLaunch).
// - Slow first runs are stopped and ranked by an estimate from their progress; the near-best
//   of those get a second run, so that one disturbed run does not decide a candidate's fate.
// - No reduced "test global size" (the reference times GPU kernels on at most 65536 global
//   threads and scales the time up): every run computes the whole output, which the result
//   check needs. On the CPU launch dims are thread counts (at most 64) and it never applied.
//   TODO(parity): on GPUs a big kernel's runs cost more here than in the reference.
//
// On a GPU (a device with a GpuDescription, such as CUDA):
// - Times are the GPU's (events around the launch), and before every timed run the device's
//   caches are invalidated (Device::InvalidateCaches: an L2-sized write), as the reference does
//   before each run on devices with invalidate_caches, so a candidate is not timed on data the
//   previous run left in L2 (clear_l2).
// - Runs cannot be stopped: a run goes to its end, then counts as too slow or timed out, and
//   before_run reports no limit of its own (the worker's run deadline is the backstop).
// - A candidate whose local size exceeds the GPU's threads per block is kRejected before it
//   runs (the renderer's limits, from the device, already bound each dimension and the shared
//   memory while lowering).
// - A kernel fault (illegal address, ...) poisons the GPU context for the rest of the process:
//   that candidate is kRuntimeError with the driver's error, every candidate of the batch not
//   measured yet is kWorkerLost (one already checked and timed keeps its runs), on_device_lost
//   is called, and every later Measure fails with the DeviceLostError (device.h). A worker's
//   child then exits so that a fresh one replaces it.
//
// Example:
//   ASSIGN_OR_RETURN(std::unique_ptr<LocalMeasurer> m, LocalMeasurer::Create());
//   ASSIGN_OR_RETURN(MeasureBatch b, m->Measure(task, candidates, MeasureOptions{}));
#ifndef AUTOTUNE_MEASURE_LOCAL_MEASURER_H_
#define AUTOTUNE_MEASURE_LOCAL_MEASURER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "autotune/lock/device_lock.h"
#include "autotune/measure/measurer.h"
#include "autotune/measure/prepare_batch.h"
#include "tinygrad/base/clock.h"
#include "tinygrad/engine/device.h"

namespace tg::autotune {

struct LocalMeasurerOptions {
  std::string device = "CPU";
  // Threads lowering and compiling a batch; 0: the machine's CPUs. The device readies its
  // compiler for them when the measurer is made (Device::PrepareCompileThreads).
  int compile_threads = 0;
  // For tests of the worker farm only: every timed run's sample is FakeTimeS(program hash)
  // instead of a measurement (the check run still runs the kernel and compares its outputs),
  // so that any two measurers agree on every time and pick the same winners.
  bool fake_timing = false;
  // The machine's device lock, shared by every process that tunes on this device: lowering and
  // compiling hold it shared, the reference run and phase 2 exclusively, so nothing else on
  // the machine loads the cores while a kernel is timed. Null: this process alone is quiet.
  std::shared_ptr<DeviceLock> device_lock;
  // Called around phase 2 (checking and timing on the device) of every batch, inside the
  // device lock: a worker's child process holds its pool's device gate in between
  // (workers/child_pool.h), which is what the pool's run deadline counts from.
  std::function<void()> acquire_device;
  std::function<void()> release_device;
  // Called before every run of phase 2 with the time at which the run will be stopped: a
  // worker's child reports it to its pool, whose run deadline then bounds each run (by its
  // limit) instead of the whole batch.
  std::function<void(double limit_s)> before_run;
  // Runs first on every thread that lowers and compiles candidates (phase 1); when set, that
  // work runs on such threads only and never on the calling thread, which times them (phase
  // 2). A worker's child lowers these threads' priority here (workers/thread_priority.h), so
  // compiling yields to its daemon while timing keeps the daemon's priority.
  std::function<void()> prepare_thread_setup;
  // Where elapsed times come from (a stopped run's time, the cost figures); null: the machine's
  // steady clock. Tests of the timing policy pass a FakeClock with a ScriptedDevice.
  Clock* clock = nullptr;
  // Invalidate the device's caches before every timed run (Device::InvalidateCaches: a GPU's
  // L2; nothing on a CPU). The reference's _time_program(clear_l2).
  bool clear_l2 = true;
  // Called once, at the end of the Measure in which a kernel fault lost the device, with the
  // DeviceLostError: a worker's child retires (workers/worker_child.h).
  std::function<void(const absl::Status& lost)> on_device_lost;
  // Where batches are lowered, rendered and compiled (phase 1) when not here: a compile server
  // (autotune/compile). Its programs are loaded and timed here as this machine's own; a batch
  // it cannot prepare (unreachable, another target) is prepared here after a warning. Null:
  // here, on compile_threads threads.
  std::shared_ptr<CandidatePreparer> preparer;
};

// The fake_timing sample of a program: a deterministic 0.1-1.1 ms from its hash.
double FakeTimeS(uint64_t program_hash);

class LocalMeasurer : public Measurer {
 public:
  // Errors: the device does not exist.
  static absl::StatusOr<std::unique_ptr<LocalMeasurer>> Create(const LocalMeasurerOptions& o = {});
  LocalMeasurer(Device* device, LocalMeasurerOptions options);
  ~LocalMeasurer() override;

  absl::StatusOr<MeasureBatch> Measure(const KernelTask& task,
                                       std::span<const std::vector<Opt>> candidates,
                                       const MeasureOptions& options) override;

  // Whether a kernel fault lost the device (every Measure from then on fails).
  bool device_lost() const { return !device_lost_.ok(); }

 protected:
  // Called after a candidate's check run, before its outputs are compared. Tests override it
  // to corrupt an output and check that the candidate is rejected.
  virtual void AfterCheckRun(size_t candidate, std::span<const std::shared_ptr<RawBuffer>> buffers);

 private:
  struct TaskState;
  struct Prepared;
  absl::StatusOr<TaskState*> StateFor(const KernelTask& task);
  // A hold of the device lock (an empty one without a lock).
  absl::StatusOr<DeviceLock::Hold> HoldDevice(bool exclusive) const;
  // How long a candidate's first run may take before the device stops it.
  double FirstRunLimit(const MeasureOptions& options) const;
  // Records a run the device stopped at limit_s: too slow, or timed out.
  static void Stopped(const MeasureOptions& options, double limit_s, double elapsed_s, double progress,
                      Prepared& p, CandidateResult& r);
  // Times the batch, not interleaved: first runs, more for the slow ones when too few are
  // ranked, then the rest of the runs for those near the best.
  void TimeInRounds(std::vector<Prepared>& prep, const MeasureOptions& options, std::vector<CandidateResult>& results);
  // The warm-up run, which is also the result check; may end the candidate (pending = false).
  void CheckCandidate(size_t index, Prepared& p, const MeasureOptions& options, CandidateResult& r);
  // `runs` timed runs, stopping early as the options say.
  void TimeRuns(Prepared& p, const MeasureOptions& options, int runs, CandidateResult& r);
  // A run (or the copies around it) failed: kRuntimeError, and a lost device is remembered.
  void RunFailed(const absl::Status& s, Prepared& p, CandidateResult& r);
  // False once the device is lost: the candidate is kWorkerLost unless it has timed runs.
  bool DeviceUsable(Prepared& p, CandidateResult& r) const;
  // Records the loss, drops the tasks' buffers and calls on_device_lost (once).
  void LoseDevice(const absl::Status& s);
  // Before a timed run: the device's caches invalidated (clear_l2).
  absl::Status ClearCaches();
  // What before_run reports for a run stopped at limit_s: none where runs cannot be stopped.
  double ReportedLimit(double limit_s) const;
  // The block of a candidate that leaves it to the runtime (launch.h), chosen once by timing.
  absl::Status ChooseLocalSize(Prepared& p, double limit_s, CandidateResult& r);
  // Why a lowered candidate cannot launch on this device ("" when it can).
  std::string OverDeviceLimits(const ProgramSpec& spec,
                               const absl::flat_hash_map<std::string, ConstValue>& vars) const;

  Device* device_;
  Clock& clock_;
  int compile_threads_;
  LocalMeasurerOptions options_;
  std::vector<std::unique_ptr<TaskState>> states_;  // of the tasks measured last, most recent first
  absl::Status device_lost_;    // the DeviceLostError of the fault that lost the device
  bool lost_reported_ = false;  // on_device_lost was called
  std::string last_preparer_error_;  // the last reason options_.preparer gave, as warned
};

}  // namespace tg::autotune

#endif  // AUTOTUNE_MEASURE_LOCAL_MEASURER_H_
