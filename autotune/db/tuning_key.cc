// File: autotune/db/tuning_key.cc
// The tuning key: AST hash and digest.
#include "autotune/db/tuning_key.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/stable_hash.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/uop/ops.h"

namespace tg::autotune {
namespace {

// 16 lowercase hex digits.
std::string Hex64(uint64_t v) { return absl::StrCat(absl::Hex(v, absl::kZeroPad16)); }

}  // namespace

uint64_t AstTuningHash(const UOp& ast) {
  if (ast.op() != Ops::SINK || !KernelInfo::IsKernelInfo(ast.arg())) return ast.key();
  KernelInfo info = KernelInfo::FromArg(ast.arg());
  info.name.clear();
  // The same mix as UOp::key() over (op, dtype, arg, children), with the unnamed KernelInfo;
  // the seed keeps it apart from any real node's key.
  StableHasher h(0x7475'6e69'6e67'0001ULL);
  h.AddBytes(OpName(ast.op())).Add(ast.dtype().StableHash()).Add(info.ToArg().StableHash());
  h.Add(ast.src().size());
  for (const UOp& s : ast.src()) h.Add(s.key());
  return h.Finish();
}

TuningKey TuningKey::Make(const UOp& ast, const DeviceClass& device, const SearchSettings& settings,
                          const CodegenOptions& codegen) {
  TuningKey k;
  k.ast_hash = AstTuningHash(ast);
  k.device = device.Digest();
  k.renderer = device.renderer;
  k.compiler = device.compiler_id;
  k.settings = settings;
  k.codegen_options = codegen;
  return k;
}

std::string TuningKey::AstHex() const { return Hex64(ast_hash); }

std::string TuningKey::Digest() const {
  auto hash = [this](uint64_t seed) {
    StableHasher h(seed);
    h.AddBytes("tinygrad-cc tuning key v1").Add(ast_hash).AddBytes(device).AddBytes(renderer);
    h.AddBytes(compiler).AddBytes(codegen_version).Add(static_cast<uint64_t>(opt_version));
    h.AddBytes(settings.ToString());
    if (codegen_options) h.AddBytes("codegen options").AddBytes(codegen_options->KeyText());
    return h.Finish();
  };
  return Hex64(hash(1)) + Hex64(hash(2));
}

std::string TuningKey::ToString() const {
  return absl::StrCat("ast=", AstHex(), " device=", device, " renderer=", renderer,
                      " compiler=", compiler.substr(0, compiler.find('\n')),
                      " codegen=", codegen_version, " opt_version=", opt_version, " settings=(",
                      settings.ToString(), ")",
                      codegen_options ? absl::StrCat(" codegen_options=(", codegen_options->KeyText(), ")") : "");
}

}  // namespace tg::autotune
