// File: tinygrad/engine/exec_item.h
// Port of tinygrad/engine/realize.py's ExecItem and runners: one scheduled item lowered to
// what runs it (a compiled kernel on a device, a buffer copy, a buffer view) with the buffers
// it runs on. Realize() makes and runs them; a captured TinyJit (jit.h) keeps them and runs
// them again with other input buffers, without scheduling or compiling.
//
// Internal to the engine (not in any public target's hdrs).
#ifndef TINYGRAD_ENGINE_EXEC_ITEM_H_
#define TINYGRAD_ENGINE_EXEC_ITEM_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tinygrad/codegen/renderer.h"
#include "tinygrad/engine/buffer.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/engine/launch.h"

namespace tg {

using VarVals = absl::flat_hash_map<std::string, ConstValue>;

// A compiled kernel (tinygrad's CompiledRunner), owned by the method cache for the process.
struct CompiledRunner {
  ProgramSpec spec;
  std::unique_ptr<Program> program;
  std::optional<LaunchShape> chosen_launch;  // the block optimize_local_size chose, once
};

// What running an item takes from the settings of the realize that made it.
struct ExecOptions {
  int debug = 0;  // DEBUG: 1 waits for kernels (their time is counted), 2 prints a line each
  DeviceOptions device;
};

struct ExecItem {
  enum class Kind { kKernel, kCopy, kView };
  Kind kind = Kind::kKernel;
  // kKernel: the device it runs on and its runner (both live for the process).
  Device* device = nullptr;
  CompiledRunner* runner = nullptr;
  // Kernel arguments in the schedule's slot order (ProgramSpec::globals index into it);
  // (dest, src) for a copy; (view, base) for a view, whose view was made when it was lowered.
  std::vector<std::shared_ptr<Buffer>> bufs;
  // Values of variables this item alone binds (a schedule's fixedvars): they win over the
  // realize's.
  absl::flat_hash_map<std::string, int64_t> fixedvars;
};

// What launching a kernel item takes with the bound variables `var_vals` (its fixedvars added):
// its buffers' addresses in argument order (allocating what still needs memory), its variables'
// values, and its launch shape (the reference's optimize_local_size picks the block on the
// first launch of a runner that needs one). A variable without a value is InvalidArgument.
struct KernelLaunch {
  std::vector<void*> args;
  std::vector<int64_t> vals;
  LaunchShape shape;
};
absl::StatusOr<KernelLaunch> PrepareKernelLaunch(const ExecItem& item, const VarVals& var_vals,
                                                 const ExecOptions& options);

// Counts one run of the kernels `items` that took `et` seconds in the EngineStats (one kernel
// to the count, as the reference counts a graph of them; their ops all) and prints its DEBUG=2
// line under `name` (the kernel's, or a graph's "<batched N>").
void CountKernelRun(std::span<const ExecItem* const> items, std::string_view name, size_t nargs,
                    double et, const VarVals& var_vals, const ExecOptions& options);

// Runs `item` with the bound variables `var_vals` (its fixedvars added), as ExecItem.run does:
// allocates what its buffers still need, launches, counts it in the EngineStats, prints the
// DEBUG=2 line. A kernel variable without a value is InvalidArgument; device errors pass
// through.
absl::Status RunExecItem(const ExecItem& item, const VarVals& var_vals, const ExecOptions& options);

// While one is alive on a thread, Realize() on that thread hands it every item it runs, after
// running it (tinygrad's `capturing` list, which TinyJit's capture call fills). One at a time
// per thread: a TinyJit capturing inside another is an error, as in the reference.
class ExecItemCapture {
 public:
  // FailedPrecondition when a capture is already active on this thread.
  static absl::StatusOr<std::unique_ptr<ExecItemCapture>> Start();
  ~ExecItemCapture();
  ExecItemCapture(const ExecItemCapture&) = delete;
  ExecItemCapture& operator=(const ExecItemCapture&) = delete;

  // The capture active on this thread, or null.
  static ExecItemCapture* Active();
  void Add(ExecItem item, const ExecOptions& options);

  // What was captured, in the order it ran.
  std::vector<ExecItem>& items() { return items_; }
  // The options of the first realize captured (a replay runs with them).
  const ExecOptions& options() const { return options_; }

 private:
  ExecItemCapture() = default;
  std::vector<ExecItem> items_;
  ExecOptions options_;
};

}  // namespace tg

#endif  // TINYGRAD_ENGINE_EXEC_ITEM_H_
