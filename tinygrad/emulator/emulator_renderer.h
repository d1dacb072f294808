// File: tinygrad/emulator/emulator_renderer.h
// Port of tinygrad/runtime/ops_python.py's PythonRenderer: what the UOp emulator (the PYTHON
// device) tells the code generator it can do, and its "source": the linear program as text
// (uop/linear_text.h), which the emulator's device parses back and runs (uop_interpreter.h).
//
// The emulated target (tinygrad's EMULATE) names a GPU whose tensor cores the kernels may use:
// the renderer takes that device's name, so WMMA uops carry it and the emulator models its lane
// layout. Every other capability is the Renderer's default (locals, shared memory, float4), and
// every ALU op is rendered as itself (the reference's code_for_op is python_alu), so no late
// decomposition changes what runs.
//
// Example:
//   ASSIGN_OR_RETURN(EmulateTarget t, ParseEmulateTarget("CUDA"));   // EMULATE=CUDA
//   EmulatorRenderer ren(t);                                         // ren.device == "CUDA"
//   ASSIGN_OR_RETURN(ProgramSpec p, GetProgram(ast, ren, options));  // p.src: the program text
#ifndef TINYGRAD_EMULATOR_EMULATOR_RENDERER_H_
#define TINYGRAD_EMULATOR_EMULATOR_RENDERER_H_

#include <span>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "tinygrad/codegen/renderer.h"

namespace tg {

// The values of EMULATE the reference knows ("" emulates no tensor cores).
enum class EmulateTarget { kNone, kCuda, kCudaSm75, kCudaSm89, kAmd, kAmdMfma, kAmdRdna4, kMetal, kIntel, kAmx };

// "CUDA" -> kCuda, ...; InvalidArgument naming the value and the known ones otherwise.
absl::StatusOr<EmulateTarget> ParseEmulateTarget(std::string_view emulate);
// The EMULATE string of a target ("" for kNone).
std::string_view EmulateTargetName(EmulateTarget t);

class EmulatorRenderer : public Renderer {
 public:
  explicit EmulatorRenderer(EmulateTarget target);
  EmulateTarget target() const { return target_; }
  // The program as FormatLinearProgram writes it.
  std::string Render(std::span<const UOp> uops) const override;

 private:
  EmulateTarget target_;
};

}  // namespace tg

#endif  // TINYGRAD_EMULATOR_EMULATOR_RENDERER_H_
