// File: tinygrad/engine/scripted_device.h
// A Device for tests of timing policy: it compiles, loads and runs kernels on a real device
// (so outputs are real and result checks mean something), but each run's time comes from a
// script and passes on a FakeClock instead of the wall clock. A test of the measurer's stops,
// second runs and refinement then asserts exact outcomes on a CPU of any speed.
//
// A run whose scripted time is past its stop_after_s is "stopped there": the clock moves by
// the limit, the run returns DeadlineExceeded, and every buffer keeps the first
// limit/time share of what the kernel wrote, the rest back at its contents before the run (as
// a kernel stopped part way through its output, which is what the measurer's progress
// estimate reads). Shares are counted in 4-byte elements: scripts are for float32/int32 kernels
// on a device whose buffers are host memory (CPU).
//
// Example:
//   FakeClock clock;
//   ScriptedDevice dev(*GetDevice("CPU"), clock, [](const ScriptedRun& r) {
//     return r.opts.empty() ? 10e-3 : 1e-3;   // the unoptimized kernel takes 10 ms
//   });
//   LocalMeasurer m(&dev, {.clock = &clock});
#ifndef TINYGRAD_ENGINE_SCRIPTED_DEVICE_H_
#define TINYGRAD_ENGINE_SCRIPTED_DEVICE_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "tinygrad/base/clock.h"
#include "tinygrad/codegen/opt/opt.h"
#include "tinygrad/engine/device.h"

namespace tg {

// What a script is asked about: one run of a program.
struct ScriptedRun {
  std::vector<Opt> opts;  // the program's applied opts (empty: the unoptimized kernel)
  int run = 0;            // how many runs of this program came before (0: its first)
  double stop_after_s;    // the limit the caller set (Program::kNoStop: none)
};

class ScriptedDevice : public Device {
 public:
  // Seconds the run takes.
  using Script = std::function<double(const ScriptedRun&)>;
  ScriptedDevice(Device* real, FakeClock& clock, Script script);

  const std::string& name() const override { return real_->name(); }
  const Renderer& renderer() const override { return real_->renderer(); }
  std::string compiler_id() const override { return real_->compiler_id(); }
  absl::StatusOr<std::string> Compile(const ProgramSpec& spec) override;
  absl::StatusOr<std::unique_ptr<Program>> Load(const std::string& function_name, const std::string& lib) override;
  absl::StatusOr<std::shared_ptr<RawBuffer>> Allocate(size_t nbytes) override;

  // Runs so far, of all programs (the reference runs included).
  int runs() const;

 private:
  class ScriptedProgram;
  struct Compiled {
    std::vector<Opt> opts;
    int runs = 0;
  };
  Device* real_;
  FakeClock& clock_;
  Script script_;
  mutable std::mutex mu_;
  std::vector<std::unique_ptr<Compiled>> compiled_;         // by the index tagged onto the library
  absl::flat_hash_map<const void*, size_t> buffer_bytes_;  // allocated here: address -> size
  int total_runs_ = 0;
};

}  // namespace tg

#endif  // TINYGRAD_ENGINE_SCRIPTED_DEVICE_H_
