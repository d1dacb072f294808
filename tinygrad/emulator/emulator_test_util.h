// File: tinygrad/emulator/emulator_test_util.h
// Test helpers (testonly) that run the kernels of Tensor programs on the UOp emulator: a
// ProgramSpec's text parsed back and interpreted as the PYTHON device does, over host memory
// that holds the schedule's buffers, and the deterministic inputs the emulator's tests share.
//
// Example:
//   ASSIGN_OR_RETURN(EmulatedResult r, RunOnEmulator(In({16, 16}, 1).sum(1), {.target = EmulateTarget::kCuda}));
//   std::vector<float> out = As<float>(r.bytes);
#ifndef TINYGRAD_EMULATOR_EMULATOR_TEST_UTIL_H_
#define TINYGRAD_EMULATOR_EMULATOR_TEST_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tinygrad/codegen/codegen_options.h"
#include "tinygrad/codegen/opt/opt.h"
#include "tinygrad/codegen/renderer.h"
#include "tinygrad/dtype/dtype.h"
#include "tinygrad/emulator/emulator_renderer.h"
#include "tinygrad/schedule/schedule.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/uop/uop.h"

namespace tg::emulator_testing {

// ** inputs **
// Deterministic values: multiples of 1/64 in [-1, 1) (exact in every float dtype we use),
// scrambled by a multiplicative hash so that neighbours differ.
std::vector<float> Inputs(int64_t n, uint32_t seed);
int64_t Numel(const std::vector<int64_t>& shape);
// A CPU float tensor of Inputs.
Tensor In(const std::vector<int64_t>& shape, uint32_t seed);
// A CPU int32 tensor of values in [lo, hi] (never 0 with `nonzero`).
Tensor IntIn(const std::vector<int64_t>& shape, uint32_t seed, int lo, int hi, bool nonzero = false);

template <typename T>
std::vector<T> As(std::span<const std::byte> b) {
  std::vector<T> v(b.size() / sizeof(T));
  std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
  return v;
}

// One element of a scalar dtype in memory, as a double (bools 0/1).
double ElementAsDouble(const std::byte* in, DType scalar);

// ** running kernels **
// Host memory for a schedule's buffers: a BUFFER that holds data (a realized input) starts
// with a copy of it, any other (a buffer kernels make) zeroed.
class HostBuffers {
 public:
  absl::StatusOr<std::vector<std::byte>*> Get(const UOp& buffer);

 private:
  absl::flat_hash_map<UOp, std::vector<std::byte>> memory_;
};

// The values of a program's variables (ProgramSpec::vars order) for a schedule item: its
// fixedvars, else the schedule's bound values.
absl::StatusOr<std::vector<int64_t>> ProgramVarValues(const ProgramSpec& p, const ScheduleItem& item,
                                                      const Schedule& s);

// Which form of a ProgramSpec the interpreter runs: its text parsed back (what the emulator's
// renderer makes and the device's Load parses), or its linear uops as they are (a program
// another GPU renderer lowered: its late rewrites and launch limits, run with GPU semantics).
enum class ProgramForm { kText, kUops };

// Runs p once over `bufs` (p.globals order) with `vals` (p.vars order); the launch dims are
// p's, symbolic ones evaluated with `vals`. Adds the interpreter's time to *seconds when
// given. Errors: the parser's, the interpreter's (with the program text appended to a run
// error).
absl::Status RunProgram(const ProgramSpec& p, std::span<const std::span<std::byte>> bufs, std::span<const int64_t> vals,
                        double* seconds = nullptr, ProgramForm form = ProgramForm::kText);

struct EmulatorOptions {
  EmulateTarget target = EmulateTarget::kNone;
  CodegenOptions codegen;
  std::optional<std::vector<Opt>> last_kernel_opts;  // opts_to_apply of the output's kernel
};

struct EmulatedResult {
  std::vector<std::byte> bytes;
  std::vector<ProgramSpec> programs;
  double run_seconds = 0;
};

// Schedules t (contiguous), lowers each kernel with GetProgram for the emulator's renderer and
// runs the kernels in order on the interpreter over host memory. The output's bytes.
absl::StatusOr<EmulatedResult> RunOnEmulator(const Tensor& t, const EmulatorOptions& o = {});

}  // namespace tg::emulator_testing

#endif  // TINYGRAD_EMULATOR_EMULATOR_TEST_UTIL_H_
