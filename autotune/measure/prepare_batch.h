// File: autotune/measure/prepare_batch.h
// Phase 1 of measuring a batch: lower and render every candidate, drop the ones not worth
// compiling (duplicates, too many uops, too much compute, over the device's limits), compile
// the rest. What comes out is loaded and timed on the device (LocalMeasurer's phase 2).
//
// It needs only a renderer and a compiler (CandidateCompiler), not the device itself, so the
// same code runs in LocalMeasurer on the device's machine and in a compile server for a GPU
// it does not have (autotune/compile): a batch prepared either way is the same programs with
// the same outcomes. A CandidatePreparer is where a measurer has its batches prepared when not
// in its own process.
//
// Example:
//   DeviceCompiler compiler(*device);
//   std::vector<CandidateResult> results(candidates.size());
//   ASSIGN_OR_RETURN(std::vector<PreparedCandidate> p,
//                    PrepareBatch(compiler, task, candidates, options, {.threads = 8}, results));
//   if (p[0].pending) device->LoadProgram(p[0].spec, p[0].binary);
#ifndef AUTOTUNE_MEASURE_PREPARE_BATCH_H_
#define AUTOTUNE_MEASURE_PREPARE_BATCH_H_

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "autotune/lock/device_lock.h"
#include "autotune/measure/measurer.h"
#include "tinygrad/base/clock.h"
#include "tinygrad/codegen/renderer.h"
#include "tinygrad/engine/device.h"

namespace tg::autotune {

// A renderer and the compiler of its sources. Compile is called from several threads at once.
class CandidateCompiler {
 public:
  virtual ~CandidateCompiler() = default;
  virtual const Renderer& renderer() const = 0;
  // What Compile produces (the compiler and its version): a compile server's must be its
  // client device's.
  virtual std::string compiler_id() const = 0;
  virtual absl::StatusOr<std::string> Compile(const ProgramSpec& spec) = 0;
};

// A device's own renderer and compiler.
class DeviceCompiler : public CandidateCompiler {
 public:
  explicit DeviceCompiler(Device& device) : device_(device) {}
  const Renderer& renderer() const override { return device_.renderer(); }
  std::string compiler_id() const override { return device_.compiler_id(); }
  absl::StatusOr<std::string> Compile(const ProgramSpec& spec) override { return device_.Compile(spec); }

 private:
  Device& device_;
};

// One candidate after phase 1. pending: lowered and compiled, `binary` ready to load; else its
// CandidateResult says what stopped it.
struct PreparedCandidate {
  ProgramSpec spec;
  std::string binary;
  bool pending = false;
};

struct PrepareSettings {
  int threads = 1;  // lowering and compiling threads
  // Runs first on each of those threads; then the calling thread does none of the work
  // (ParallelFor's setup).
  std::function<void()> thread_setup;
  Clock* clock = nullptr;  // null: the machine's steady clock
  // Held around each candidate's lowering and compiling (the machine's device lock, shared); a
  // failure to take it fails the batch. Null: nothing to hold.
  std::function<absl::StatusOr<DeviceLock::Hold>()> hold;
  // Why a lowered program cannot launch on the device ("" when it can); null: no such limits.
  std::function<std::string(const ProgramSpec&)> over_limits;
};

// Prepares `candidates` of `task`, filling results[i]'s outcome, error, program_hash, uops,
// duplicate_of and cost (lower_s, lower_cpu_s, compile_s) for each. `results` must have one
// entry per candidate. Errors: only a failed hold (the batch as a whole).
absl::StatusOr<std::vector<PreparedCandidate>> PrepareBatch(CandidateCompiler& compiler, const KernelTask& task,
                                                            std::span<const std::vector<Opt>> candidates,
                                                            const MeasureOptions& options,
                                                            const PrepareSettings& settings,
                                                            std::vector<CandidateResult>& results);

// Phase 1's batch-wide rules, in candidate order over the candidates still pending (lowered):
// a program measured before (options.known_programs) or earlier in the batch is a duplicate
// (duplicate_of: the first), then too many uops, over the device's limits (`over_limits`; null:
// none), and more than options.max_compute_ratio times the least compute of the batch.
// PrepareBatch applies them before compiling. Applying them again changes nothing, so a batch
// prepared in parts (a compile server's client) gets them across its parts afterwards.
void ApplyBatchRules(const KernelTask& task, const MeasureOptions& options,
                     const std::function<std::string(const ProgramSpec&)>& over_limits,
                     std::vector<PreparedCandidate>& prep, std::span<CandidateResult> results);

// What a candidate of `task` is lowered with: the task's codegen options, and lowering stopped
// (ResourceExhausted, the candidate kRejected) where the program is far past options.uops_max,
// 1.25x, after devectorize (CodegenOptions::max_devectorized_nodes): BEAM would reject it for
// its size after lowering it all.
CodegenOptions CandidateCodegen(const KernelTask& task, const MeasureOptions& options);

// `r` renders to the program of the batch's candidate `first`: kDuplicate, saying which.
void MarkDuplicate(int first, CandidateResult& r);

// After a candidate's compile (or the load of its binary) returned `s`, `compile_s` into it:
// true when it compiled within options.timeout_s; else its result says why not (kCompileError
// with the compiler's message, or kTimeout).
bool CompiledInTime(const absl::Status& s, double compile_s, const MeasureOptions& options, CandidateResult& r);

// Somewhere else that prepares a measurer's batches (a compile server). Errors: the batch as
// a whole could not be prepared there (unreachable, another target); the measurer then
// prepares it itself, so nothing is lost, and warns once per reason, except for Cancelled:
// not asked this time, nothing to warn of (a worker child's warm-up, which has no job).
class CandidatePreparer {
 public:
  virtual ~CandidatePreparer() = default;
  virtual absl::StatusOr<std::vector<PreparedCandidate>> Prepare(const KernelTask& task,
                                                                 std::span<const std::vector<Opt>> candidates,
                                                                 const MeasureOptions& options,
                                                                 std::vector<CandidateResult>& results) = 0;
};

}  // namespace tg::autotune

#endif  // AUTOTUNE_MEASURE_PREPARE_BATCH_H_
