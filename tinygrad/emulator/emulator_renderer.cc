// File: tinygrad/emulator/emulator_renderer.cc
#include "tinygrad/emulator/emulator_renderer.h"

#include <array>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tinygrad/codegen/tensor_core.h"
#include "tinygrad/uop/linear_text.h"

namespace tg {
namespace {

struct TargetInfo {
  EmulateTarget target;
  std::string_view name;    // EMULATE's value
  std::string_view device;  // the renderer's device: what WMMA args name
  const std::vector<TensorCore>& (*tensor_cores)();
};

const std::vector<TensorCore>& NoTensorCores() {
  static const auto* const kNone = new std::vector<TensorCore>();
  return *kNone;
}

// The reference's PythonRenderer.__init__ table; AMD_MFMA emulates CDNA4's matrix cores.
constexpr std::array<TargetInfo, 10> kTargets = {{
    {EmulateTarget::kNone, "", "PYTHON", NoTensorCores},
    {EmulateTarget::kCuda, "CUDA", "CUDA", tensor_cores::CudaSm80},
    {EmulateTarget::kCudaSm75, "CUDA_SM75", "CUDA", tensor_cores::CudaSm75},
    {EmulateTarget::kCudaSm89, "CUDA_SM89", "CUDA", tensor_cores::CudaSm89},
    {EmulateTarget::kAmd, "AMD", "AMD", tensor_cores::AmdRdna3},
    {EmulateTarget::kAmdMfma, "AMD_MFMA", "AMD", tensor_cores::AmdCdna4},
    {EmulateTarget::kAmdRdna4, "AMD_RDNA4", "AMD", tensor_cores::AmdRdna4},
    {EmulateTarget::kMetal, "METAL", "METAL", tensor_cores::Metal},
    {EmulateTarget::kIntel, "INTEL", "INTEL", tensor_cores::Intel},
    {EmulateTarget::kAmx, "AMX", "CPU", tensor_cores::Amx},
}};

const TargetInfo& Info(EmulateTarget t) {
  for (const TargetInfo& i : kTargets)
    if (i.target == t) return i;
  return kTargets[0];
}

}  // namespace

absl::StatusOr<EmulateTarget> ParseEmulateTarget(std::string_view emulate) {
  std::vector<std::string> known;
  for (const TargetInfo& i : kTargets) {
    if (i.name == emulate) return i.target;
    if (!i.name.empty()) known.emplace_back(i.name);
  }
  return absl::InvalidArgumentError(absl::StrCat("can't EMULATE device '", std::string(emulate),
                                                 "' (known: ", absl::StrJoin(known, ", "), ")"));
}

std::string_view EmulateTargetName(EmulateTarget t) { return Info(t).name; }

EmulatorRenderer::EmulatorRenderer(EmulateTarget target) : target_(target) {
  const TargetInfo& info = Info(target);
  device = std::string(info.device);
  if (target == EmulateTarget::kIntel) suffix = "INTEL";
  tensor_cores = info.tensor_cores();
  // python_alu's keys: every op the emulator evaluates itself
  code_for_op = {Ops::LOG2,  Ops::EXP2,  Ops::SQRT, Ops::RECIPROCAL, Ops::SIN,    Ops::POW,
                 Ops::TRUNC, Ops::NEG,   Ops::ADD,  Ops::SUB,        Ops::MUL,    Ops::CMPNE,
                 Ops::CMPLT, Ops::XOR,   Ops::OR,   Ops::AND,        Ops::SHR,    Ops::SHL,
                 Ops::MAX,   Ops::MOD,   Ops::IDIV, Ops::MULACC,     Ops::WHERE,  Ops::CMPEQ};
}

std::string EmulatorRenderer::Render(std::span<const UOp> uops) const {
  return FormatLinearProgram(uops);
}

}  // namespace tg
