// File: tinygrad/codegen/codegen_options.h
// The settings that decide what a kernel AST becomes as a program: the hand-coded optimizer's
// choices and the lowering choices, plus the checks and traces of the pipeline. One value,
// passed into the optimizer and GetProgram (never read from the environment inside a pass),
// so that every cache of programs and tuned kernels can key on it: a farm worker lowers a
// candidate with the options in its request, not with its own environment.
//
// Defaults are tinygrad's at the reference commit. FromConfig fills them at the edge (the
// Tensor API's realize, `tg`'s main) from the environment's settings.
//
// Example:
//   CodegenOptions o = CodegenOptions::FromConfig(GetConfig());
//   ASSIGN_OR_RETURN(ProgramSpec p, GetProgram(ast, renderer, o));
//   key += o.KeyText();      // "devectorize=1 transcendental=1 fast_idiv=1 noopt=0 ..."
#ifndef TINYGRAD_CODEGEN_CODEGEN_OPTIONS_H_
#define TINYGRAD_CODEGEN_CODEGEN_OPTIONS_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "tinygrad/base/config.h"

namespace tg {

struct CodegenOptions {
  // ** the hand-coded optimizer (kernels without opts_to_apply) **
  bool noopt = false;  // NOOPT: no hand-coded opts
  int tc = 1;          // TC: tensor cores, 0 off, 2 emulated
  int tc_select = -1;  // TC_SELECT: which tensor core, -1 any
  int tc_opt = 0;      // TC_OPT as the heuristic reads it (its default 0; BEAM's actions default 2)
  bool nolocals = false;     // NOLOCALS
  bool allow_tf32 = false;   // ALLOW_TF32: float (tf32) tensor cores on CUDA/NV (also for opts)

  // ** lowering **
  int devectorize = 1;             // DEVECTORIZE: 0, 1 or 2
  int transcendental = 1;          // TRANSCENDENTAL: >= 2 forces software exp2/log2/sin
  bool disable_fast_idiv = false;  // DISABLE_FAST_IDIV

  // ** checks and traces: never change the program, so not in KeyText **
  bool spec = true;  // SPEC: verify kernel_spec and program_spec at GetProgram's boundaries
  int debug = 0;     // DEBUG: >= 5 prints the AST, >= 6 the linear program

  // ** a limit: never changes a program, only whether GetProgram gives one; not in KeyText **
  // Ours: lowering stops with ResourceExhausted ("too many uops") once the graph after
  // devectorize has this many nodes; 0: never. BEAM rejects programs of BEAM_UOPS_MAX uops or
  // more, and the reference lowers them completely first: the measurer sets this to 1.25x that
  // limit, so that such a program costs a quarter of its lowering. (The passes after devectorize
  // changed the node count by -2.3% to +2.4% over the 284 lowerings of a BEAM=2 half-matmul
  // search on sm_90, autotune/search:gpu_lower_benchmark --sizes, and by -0.2% to +5.4% for a
  // float matmul on the CPU's C renderer: the margin is several times that.)
  int64_t max_devectorized_nodes = 0;

  static CodegenOptions FromConfig(const Config& c);

  // The settings that change programs, as one canonical line of `name=value` in a fixed
  // order: part of every key of compiled or tuned programs.
  std::string KeyText() const;
  // The inverse of KeyText (every name present, in any order). Errors name the bad field.
  static absl::StatusOr<CodegenOptions> FromKeyText(std::string_view text);

  friend bool operator==(const CodegenOptions&, const CodegenOptions&) = default;
};

}  // namespace tg

#endif  // TINYGRAD_CODEGEN_CODEGEN_OPTIONS_H_
