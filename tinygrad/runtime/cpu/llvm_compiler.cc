// File: tinygrad/runtime/cpu/llvm_compiler.cc
// Port of tinygrad/runtime/support/compiler_cpu.py: LLVMCompiler/CPULLVMCompiler through the
// LLVM 14 C API, and an ORC LLJIT loader in place of tinygrad's elf.py jit_loader.
#include "tinygrad/runtime/cpu/llvm_compiler.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <llvm/Config/llvm-config.h>

#include <memory>
#include <mutex>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "tinygrad/base/stable_hash.h"
#include "tinygrad/runtime/cpu/cpu_target.h"

namespace tg {
namespace {

// Targets and the host description are process-wide: set up once.
struct LlvmHost {
  std::string cpu, features;
};

const LlvmHost& InitLlvm() {
  static const LlvmHost* const kHost = [] {
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
    LLVMInitializeNativeAsmParser();
    auto* host = new LlvmHost;
    char* cpu = LLVMGetHostCPUName();
    char* features = LLVMGetHostCPUFeatures();
    host->cpu = cpu;
    host->features = features;
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
    return host;
  }();
  return *kHost;
}

// The reference's triple for the host architecture (a bare-metal ELF: no libc assumptions).
std::string HostTriple() {
  char* def = LLVMGetDefaultTargetTriple();
  std::string arch = std::string(def).substr(0, std::string(def).find('-'));
  LLVMDisposeMessage(def);
  return arch + "-none-unknown-elf";
}

std::string TakeMessage(char* msg) {
  std::string s = msg != nullptr ? msg : "";
  if (msg != nullptr) LLVMDisposeMessage(msg);
  return s;
}

std::string TakeError(LLVMErrorRef err) {
  char* msg = LLVMGetErrorMessage(err);
  std::string s = msg;
  LLVMDisposeErrorMessage(msg);
  return s;
}

// Owners of LLVM C handles.
struct ContextDeleter {
  void operator()(LLVMOpaqueContext* c) const { LLVMContextDispose(c); }
};
struct ModuleDeleter {
  void operator()(LLVMOpaqueModule* m) const { LLVMDisposeModule(m); }
};
struct TargetMachineDeleter {
  void operator()(LLVMOpaqueTargetMachine* t) const { LLVMDisposeTargetMachine(t); }
};
struct PassOptionsDeleter {
  void operator()(LLVMOpaquePassBuilderOptions* p) const { LLVMDisposePassBuilderOptions(p); }
};
struct MemoryBufferDeleter {
  void operator()(LLVMOpaqueMemoryBuffer* b) const { LLVMDisposeMemoryBuffer(b); }
};

// Error-severity diagnostics LLVM reports through the context (tinygrad's handle_diag).
void CollectDiagnostic(LLVMDiagnosticInfoRef info, void* out) {
  if (LLVMGetDiagInfoSeverity(info) != LLVMDSError) return;
  auto* msgs = static_cast<std::vector<std::string>*>(out);
  msgs->push_back(TakeMessage(LLVMGetDiagInfoDescription(info)));
}

// One LLJIT per loaded program: it owns the program's code and memory.
struct JitOwner {
  LLVMOrcLLJITRef jit = nullptr;
  ~JitOwner() {
    if (jit != nullptr) {
      LLVMErrorRef err = LLVMOrcDisposeLLJIT(jit);
      if (err != nullptr) LLVMConsumeError(err);
    }
  }
};

// A parameter of the kernel's `define` line: its LLVM type (a pointer or an integer).
struct IrParam {
  bool is_ptr;
  std::string type;  // "float*", "<4 x float>*", "i32", "i64", ...
  bool core_id;      // `i32 %core_id`: the thread index (LLVMRenderer's threads extension)
};

}  // namespace

LlvmCompilerOptions LlvmCompilerOptions::FromConfig(const Config& config) {
  LlvmCompilerOptions o;
  o.optimize = config.llvmopt != 0;
  o.cachelevel = config.cachelevel;
  o.cache_dir = config.cache_dir;
  return o;
}

LlvmCompiler::LlvmCompiler(LlvmCompilerOptions options)
    : options_(std::move(options)),
      cache_(CompileCacheDir(options_.cachelevel, options_.cache_dir, "llvm_obj")) {
  const LlvmHost& host = InitLlvm();
  if (!IsNativeCpuTarget(options_.target)) {
    // LLVM's x86-64-vN CPUs imply their levels' features
    options_.cpu = options_.target;
    options_.features = CpuTargetLlvmFeatures(options_.target);
  } else {
    if (options_.cpu.empty()) options_.cpu = host.cpu;
    if (options_.features.empty()) options_.features = host.features;
  }
  triple_ = HostTriple();
  id_ = absl::StrCat("llvm-", LLVM_VERSION_STRING, " ", triple_, " ", options_.cpu, " ",
                     options_.features, options_.optimize ? " O2" : " O0",
                     options_.verify_each ? " verify" : "");
}

uint64_t LlvmCompiler::CacheKey(std::string_view ir) const {
  StableHasher h;
  h.AddBytes("compile_llvm_obj").AddBytes(id_).AddBytes(ir);
  return h.Finish();
}

absl::StatusOr<std::string> LlvmCompiler::Compile(std::string_view ir) {
  uint64_t key = CacheKey(ir);
  if (std::optional<std::string> hit = cache_.Get(key)) return *std::move(hit);
  absl::StatusOr<std::string> obj = CompileUncached(ir);
  if (obj.ok()) cache_.Put(key, *obj);
  return obj;
}

absl::StatusOr<std::string> LlvmCompiler::CompileUncached(std::string_view ir) const {
  // LLVM takes an unknown CPU name with a warning on stderr and generic code
  if (!IsKnownCpuTarget(options_.target)) return CheckCpuTarget(options_.target);
  // a target machine per call: LLVM does not promise one is safe to share between threads
  char* err = nullptr;
  LLVMTargetRef target;
  if (LLVMGetTargetFromTriple(triple_.c_str(), &target, &err) != 0)
    return absl::InternalError(absl::StrCat("LLVM target ", triple_, ": ", TakeMessage(err)));
  std::unique_ptr<LLVMOpaqueTargetMachine, TargetMachineDeleter> tm(LLVMCreateTargetMachine(
      target, triple_.c_str(), options_.cpu.c_str(), options_.features.c_str(),
      LLVMCodeGenLevelDefault, LLVMRelocPIC, LLVMCodeModelDefault));

  std::vector<std::string> diagnostics;
  std::unique_ptr<LLVMOpaqueContext, ContextDeleter> ctx(LLVMContextCreate());
  LLVMContextSetDiagnosticHandler(ctx.get(), CollectDiagnostic, &diagnostics);
  // the parser takes the buffer
  LLVMMemoryBufferRef buf =
      LLVMCreateMemoryBufferWithMemoryRangeCopy(ir.data(), ir.size(), "kernel");
  LLVMModuleRef raw_mod = nullptr;
  if (LLVMParseIRInContext(ctx.get(), buf, &raw_mod, &err) != 0)
    return absl::InvalidArgumentError(absl::StrCat("LLVM IR does not parse: ", TakeMessage(err)));
  std::unique_ptr<LLVMOpaqueModule, ModuleDeleter> mod(raw_mod);
  if (LLVMVerifyModule(mod.get(), LLVMReturnStatusAction, &err) != 0)
    return absl::InvalidArgumentError(absl::StrCat("LLVM IR is invalid: ", TakeMessage(err)));
  TakeMessage(err);

  std::unique_ptr<LLVMOpaquePassBuilderOptions, PassOptionsDeleter> pbo(
      LLVMCreatePassBuilderOptions());
  if (options_.optimize) {
    LLVMPassBuilderOptionsSetLoopUnrolling(pbo.get(), 1);
    LLVMPassBuilderOptionsSetLoopVectorization(pbo.get(), 1);
    LLVMPassBuilderOptionsSetSLPVectorization(pbo.get(), 1);
    LLVMPassBuilderOptionsSetVerifyEach(pbo.get(), options_.verify_each ? 1 : 0);
  }
  if (LLVMErrorRef e = LLVMRunPasses(mod.get(), options_.optimize ? "default<O2>" : "default<O0>",
                                     tm.get(), pbo.get()))
    return absl::InternalError(absl::StrCat("LLVM passes failed: ", TakeError(e)));

  LLVMMemoryBufferRef raw_obj = nullptr;
  if (LLVMTargetMachineEmitToMemoryBuffer(tm.get(), mod.get(), LLVMObjectFile, &err, &raw_obj) != 0)
    return absl::InternalError(absl::StrCat("LLVM codegen failed: ", TakeMessage(err)));
  std::unique_ptr<LLVMOpaqueMemoryBuffer, MemoryBufferDeleter> obj(raw_obj);
  if (!diagnostics.empty())
    return absl::InvalidArgumentError(
        absl::StrCat("llvm diagnostic: ", absl::StrJoin(diagnostics, "\n")));
  return std::string(LLVMGetBufferStart(obj.get()), LLVMGetBufferSize(obj.get()));
}

absl::StatusOr<std::string> WithLlvmCpuEntry(std::string_view ir_view,
                                             std::string_view function_name) {
  std::string ir(ir_view), fn(function_name);
  std::string head = absl::StrCat("define void @", fn, "(");
  size_t at = ir.find(head);
  if (at == std::string::npos)
    return absl::InvalidArgumentError(absl::StrCat("the IR does not define @", fn));
  size_t open = at + head.size(), close = ir.find(')', open);
  if (close == std::string::npos)
    return absl::InvalidArgumentError(absl::StrCat("unterminated parameters of @", fn));
  std::vector<IrParam> params;
  std::string list = ir.substr(open, close - open);
  if (!absl::StripAsciiWhitespace(list).empty()) {
    for (const std::string& p : std::vector<std::string>(absl::StrSplit(list, ", "))) {
      // "float* noalias align 32 %data0", "<4 x float>* ...", "ptr ...", "i32 %n": the type is
      // the text up to the first space after any <...>
      size_t from = p.front() == '<' ? p.find('>') : 0;
      std::string type = p.substr(0, from == std::string::npos ? p.size() : p.find(' ', from));
      if (type.ends_with('*')) {
        params.push_back({true, type, false});
      } else if (p == "i32 %core_id") {
        params.push_back({false, type, true});
      } else if (type.size() > 1 && type.front() == 'i' &&
                 type.find_first_not_of("0123456789", 1) == std::string::npos) {
        params.push_back({false, type, false});
      } else {
        return absl::InvalidArgumentError(
            absl::StrCat("parameter `", p, "` of @", fn, " is no pointer or integer"));
      }
    }
  }
  // typed pointers (LLVM 14): the buffers arrive as i8* and are cast to the kernel's types
  std::vector<std::string> body, call_args;
  int nb = 0, nv = 0;
  for (const IrParam& p : params) {
    if (p.core_id) {
      call_args.push_back("i32 %core_id");
    } else if (p.is_ptr) {
      body.push_back(absl::StrCat("  %b", nb, ".p = getelementptr inbounds i8*, i8** %bufs, i64 ",
                                  nb, "\n  %b", nb, ".i8 = load i8*, i8** %b", nb, ".p\n  %b",
                                  nb, " = bitcast i8* %b", nb, ".i8 to ", p.type));
      call_args.push_back(absl::StrCat(p.type, " %b", nb++));
    } else {
      body.push_back(absl::StrCat("  %v", nv, ".p = getelementptr inbounds i32, i32* %vars, i64 ",
                                  nv, "\n  %v", nv, ".i = load i32, i32* %v", nv, ".p"));
      // the runtime passes int32 values; other widths sign-extend or truncate
      int bits = std::stoi(p.type.substr(1));
      std::string v = absl::StrCat("%v", nv, ".i");
      if (bits != 32) {
        body.push_back(absl::StrCat("  %v", nv, " = ", bits > 32 ? "sext" : "trunc", " i32 ", v,
                                    " to ", p.type));
        v = absl::StrCat("%v", nv);
      }
      call_args.push_back(absl::StrCat(p.type, " ", v));
      ++nv;
    }
  }
  return absl::StrCat(ir, "\ndefine void @", fn, std::string(kCpuEntrySuffix),
                      "(i8** %bufs, i32* %vars, i32 %core_id) {\n", absl::StrJoin(body, "\n"),
                      body.empty() ? "" : "\n", "  call void @", fn, "(",
                      absl::StrJoin(call_args, ", "), ")\n  ret void\n}\n");
}

absl::StatusOr<CpuProgram> LoadLlvmObject(std::string_view obj, std::string_view function_name) {
  InitLlvm();
  auto owner = std::make_shared<JitOwner>();
  // the builder is consumed by LLVMOrcCreateLLJIT
  if (LLVMErrorRef e = LLVMOrcCreateLLJIT(&owner->jit, LLVMOrcCreateLLJITBuilder()))
    return absl::InternalError(absl::StrCat("LLJIT: ", TakeError(e)));
  LLVMOrcJITDylibRef main_jd = LLVMOrcLLJITGetMainJITDylib(owner->jit);
  // libcalls the code generator may emit (e.g. half conversions) resolve against this process
  LLVMOrcDefinitionGeneratorRef gen = nullptr;
  if (LLVMErrorRef e = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
          &gen, LLVMOrcLLJITGetGlobalPrefix(owner->jit), nullptr, nullptr))
    return absl::InternalError(absl::StrCat("LLJIT process symbols: ", TakeError(e)));
  LLVMOrcJITDylibAddGenerator(main_jd, gen);
  // the JIT takes the buffer
  LLVMMemoryBufferRef buf =
      LLVMCreateMemoryBufferWithMemoryRangeCopy(obj.data(), obj.size(), "kernel.o");
  if (LLVMErrorRef e = LLVMOrcLLJITAddObjectFile(owner->jit, main_jd, buf))
    return absl::InvalidArgumentError(absl::StrCat("LLJIT can't add the object: ", TakeError(e)));
  std::string fn(function_name);
  std::string entry = fn + std::string(kCpuEntrySuffix);
  LLVMOrcJITTargetAddress addr = 0;
  if (LLVMErrorRef e = LLVMOrcLLJITLookup(owner->jit, &addr, entry.c_str())) {
    std::string msg = TakeError(e);
    if (msg.find("Symbols not found: [ " + entry) != std::string::npos)
      return absl::NotFoundError(
          absl::StrCat("no symbol ", entry, " (compiled without WithLlvmCpuEntry?): ", msg));
    return absl::InvalidArgumentError(absl::StrCat("LLJIT can't link ", entry, ": ", msg));
  }
  return CpuProgram::FromEntry(reinterpret_cast<CpuProgram::EntryFn>(addr),
                               fn, std::move(owner));
}

}  // namespace tg
