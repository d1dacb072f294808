// File: tinygrad/emulator/uop_interpreter.h
// Port of tinygrad/runtime/ops_python.py PythonProgram: runs a linear UOp program (what
// GetProgram puts in ProgramSpec::uops) on the host with a GPU's semantics, so that kernels
// made for GPUs (locals, shared-memory reductions, tensor cores) can be run and checked on a
// CPU.
//
// The model, as the reference's: the launch grid's workgroups run one after another (z
// outermost, x innermost); inside a workgroup every thread executes each uop in lockstep, so a
// BARRIER has nothing to wait for. SPECIAL "gidxN" (and "idxN") is the workgroup's index in
// dim N, "lidxN" the thread's. A value is one number per vector element per thread
// (tinygrad's Python numbers: ConstValue, ALU ops through ExecAlu with truncation to the dtype).
// Memory is the caller's buffers (DEFINE_GLOBAL), a zeroed buffer per workgroup for each
// DEFINE_LOCAL, and one per thread for each DEFINE_REG (fresh each time the define runs).
// Loads and stores are bounds-checked: an access outside its buffer is an error naming the
// uop, the buffer and the element, never a write to memory the program does not own. IF/ENDIF mask the stores of the threads whose
// condition is false (the reference relies on the gate the INDEX carries, which our pipeline
// keeps as well). A WMMA gathers its operands across the workgroup's threads and runs the
// model of the device its arg names (wmma_models.h); its float results stay unrounded until a
// store or cast, as the reference's.
//
// Load checks and pre-decodes the program once (it may come from a file or a cache, so
// anything it cannot run is an error, never an abort); Run runs it, as many times as wanted.
//
// Differences from the reference, on purpose: integer division and modulo by zero are errors
// (the reference gives 0 and x; a GPU gives garbage), as are casts of nan or inf to ints
// (the reference raises too); a gated LOAD without an alternative value reads 0 where its gate
// is false (the reference reads the memory anyway); a loop bound that differs between the
// threads of a workgroup is an error (the reference follows thread 0's); a loop ends when its
// counter reaches or passes the bound (the reference tests for equality only).
//
// Example:
//   ASSIGN_OR_RETURN(ProgramSpec p, GetProgram(ast, renderer));
//   ASSIGN_OR_RETURN(UopInterpreter prog, UopInterpreter::Load(p.uops));
//   std::vector<std::span<std::byte>> bufs = {out_bytes, in_bytes};   // p.globals order
//   RETURN_IF_ERROR(prog.Run(bufs, /*vals=*/{}, global_size, local_size));
#ifndef TINYGRAD_EMULATOR_UOP_INTERPRETER_H_
#define TINYGRAD_EMULATOR_UOP_INTERPRETER_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tinygrad/codegen/renderer.h"
#include "tinygrad/uop/uop.h"

namespace tg {

namespace emulator_internal {
struct DecodedProgram;
}  // namespace emulator_internal

class UopInterpreter {
 public:
  // Checks and decodes `uops`, a linear program in order (each uop's sources before it) that
  // ends in its SINK. InvalidArgument for a malformed program (a source that is not earlier in
  // the list, a RANGE without its END, dtypes that do not fit the op, ...), Unimplemented for
  // what the emulator does not run (an op it does not know, vector pointers, ...); the message
  // names the uop's index and op.
  static absl::StatusOr<UopInterpreter> Load(std::span<const UOp> uops);

  // Runs the program once over global_size workgroups of local_size threads. `bufs` are the
  // buffers in ProgramSpec::globals order (the DEFINE_GLOBAL slots sorted), `vals` the
  // variables' values in ProgramSpec::vars order (the DEFINE_VARs sorted by name). Errors
  // (the uop index, op, workgroup and thread in the message): an access outside a buffer,
  // integer division by zero, a negative shift, the wrong number of buffers or values, launch
  // dims < 1 or more threads per workgroup than kMaxThreads. Buffers may be partly written
  // when a run fails. Thread-compatible: runs of one program may go on at once.
  //
  // `stop_at` (the autotuner's early stop) cuts the run short once the steady clock passes it:
  // DeadlineExceeded, checked before each workgroup and each loop iteration, and the buffers
  // hold what was written so far.
  absl::Status Run(std::span<const std::span<std::byte>> bufs, std::span<const int64_t> vals,
                   const LaunchDims& global_size, const LaunchDims& local_size,
                   std::chrono::steady_clock::time_point stop_at = std::chrono::steady_clock::time_point::max()) const;

  // How many buffers and variable values Run takes.
  size_t num_buffers() const;
  size_t num_vars() const;

  // The most threads a workgroup may have (every thread's values are held at once).
  static constexpr int64_t kMaxThreads = 4096;

 private:
  explicit UopInterpreter(std::shared_ptr<const emulator_internal::DecodedProgram> program)
      : program_(std::move(program)) {}
  std::shared_ptr<const emulator_internal::DecodedProgram> program_;
};

}  // namespace tg

#endif  // TINYGRAD_EMULATOR_UOP_INTERPRETER_H_
