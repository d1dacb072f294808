// File: tinygrad/emulator/decoded_program.h
// Internal to the uop interpreter: a linear program checked and decoded once by Load
// (decode_program.cc), in the form Run (uop_interpreter.cc) walks without looking anything up.
//
// Values live in rows: a row holds one number per thread of the workgroup. A value uop of n
// vector elements owns n consecutive value rows; a pointer uop owns one pointer row.
#ifndef TINYGRAD_EMULATOR_DECODED_PROGRAM_H_
#define TINYGRAD_EMULATOR_DECODED_PROGRAM_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/dtype/const_value.h"
#include "tinygrad/dtype/dtype.h"
#include "tinygrad/uop/arg.h"
#include "tinygrad/uop/ops.h"
#include "tinygrad/uop/uop.h"

namespace tg::emulator_internal {

// What Run does for a uop.
enum class Exec : uint8_t {
  kNop,           // SINK, GROUP, NOOP, BARRIER (threads are in lockstep)
  kDefineGlobal,  // pointer to the caller's buffer `aux`
  kDefineLocal,   // pointer to the workgroup's local buffer `aux`
  kDefineReg,     // pointer to each thread's own register buffer `aux`
  kDefineVar,     // the variable value `aux`
  kSpecial,       // a launch index: aux = dim, plus 3 for a local (thread) index
  kConst,         // CONST / VCONST: elements from consts[aux...]
  kIndex,         // pointer + index, with an optional gate
  kPtrCopy,       // CAST of a pointer, AFTER of a pointer: the pointer itself
  kValueCopy,     // AFTER of a value: the value itself
  kLoad,
  kStore,
  kRange,         // aux: the index of its END
  kEnd,           // aux: the index of its RANGE
  kIf,
  kEndIf,
  kCast,
  kBitcast,
  kGep,           // elements lanes[aux...]
  kVectorize,
  kAlu,
  kWmma,          // aux: the index into wmma_args
};

struct Inst {
  Exec exec = Exec::kNop;
  Ops op = Ops::NOOP;
  DType dtype;        // the uop's dtype
  DType scalar;       // values: dtype.scalar(); pointers: the element dtype of their memory
  int32_t count = 0;  // values: vector elements; 0 for pointers and void
  int32_t row = -1;   // values: first value row; pointers: the pointer row; -1 for void
  int32_t srcs_begin = 0;  // the value sources (void ones dropped, as the reference does) ...
  int32_t num_srcs = 0;    // ... are srcs[srcs_begin, srcs_begin + num_srcs)
  int64_t aux = 0;         // per Exec, see above
  int32_t memory = -1;     // pointers: the index of the DEFINE_* they point into
};

// A DEFINE_LOCAL or DEFINE_REG: memory Run allocates.
struct MemoryDecl {
  int32_t uop;     // its index in the program
  DType scalar;    // element dtype
  int64_t elements;
};

struct DecodedProgram {
  std::vector<Inst> insts;
  std::vector<int32_t> srcs;        // uop indices
  std::vector<ConstValue> consts;   // CONST/VCONST elements, already of their dtype
  std::vector<int32_t> lanes;       // GEP lanes
  std::vector<Arg> wmma_args;
  std::vector<DType> buffer_scalars;  // the element dtype of each buffer argument, in order
  std::vector<int32_t> buffer_uops;   // the DEFINE_GLOBAL of each buffer argument
  std::vector<int64_t> buffer_slots;  // its slot
  std::vector<DType> var_dtypes;      // each variable's dtype, in the values' order
  std::vector<MemoryDecl> locals, regs;
  int32_t value_rows = 0;
  int32_t pointer_rows = 0;
  int32_t max_if_depth = 0;
};

// Checks and decodes a linear program (see UopInterpreter::Load).
absl::StatusOr<DecodedProgram> DecodeProgram(std::span<const UOp> uops);

// "uop 12 (Ops.LOAD)": how errors name a uop.
std::string UopName(int32_t index, Ops op);

}  // namespace tg::emulator_internal

#endif  // TINYGRAD_EMULATOR_DECODED_PROGRAM_H_
