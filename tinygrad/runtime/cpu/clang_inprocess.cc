// File: tinygrad/runtime/cpu/clang_inprocess.cc
// Port of tinygrad/runtime/support/compiler_cpu.py: ClangJITCompiler.compile (clang -c), run
// through libclang-cpp in this process.
#include "tinygrad/runtime/cpu/clang_inprocess.h"

#include <dlfcn.h>
#include <sys/utsname.h>

#include <climits>
#include <cstdlib>
#include <memory>
#include <mutex>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/Version.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Driver/Compilation.h"
#include "clang/Driver/Driver.h"
#include "clang/Driver/Job.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Host.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "tinygrad/base/stable_hash.h"
#include "tinygrad/runtime/cpu/cpu_target.h"

namespace tg {
namespace {

// The name the source has inside the compiler (the remapped in-memory file).
constexpr char kSourceName[] = "kernel.c";

void InitTargets() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
  });
}

// The clang binary next to the libclang-cpp.so this process uses (/usr/lib/llvm-14/bin/clang
// for Debian's): the driver derives the resource directory from it, as the binary does.
std::string ClangExecutable() {
  Dl_info info;
  if (::dladdr(reinterpret_cast<void*>(&clang::getClangFullVersion), &info) != 0 &&
      info.dli_fname != nullptr) {
    char real[PATH_MAX];
    if (::realpath(info.dli_fname, real) != nullptr) {
      std::string lib = real;  // <root>/lib/libclang-cpp.so.14
      size_t slash = lib.rfind('/');
      size_t parent = slash == std::string::npos ? std::string::npos : lib.rfind('/', slash - 1);
      if (parent != std::string::npos) return lib.substr(0, parent) + "/bin/clang";
    }
  }
  return "clang";
}

// A diagnostics engine that prints into `out` (never stderr), without colors.
struct StringDiagnostics {
  explicit StringDiagnostics(std::string* out)
      : os(*out),
        opts(new clang::DiagnosticOptions),
        engine(new clang::DiagnosticIDs, opts, new clang::TextDiagnosticPrinter(os, opts.get()),
               /*ShouldOwnClient=*/true) {
    opts->ShowColors = false;
  }
  llvm::raw_string_ostream os;
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> opts;
  clang::DiagnosticsEngine engine;
};

// Runs the clang driver on `flags` + the source name and returns its one -cc1 job's arguments
// (without "-cc1"), minus those the header explains; `backend` gets the -mllvm options.
absl::StatusOr<std::vector<std::string>> DriverCc1Args(const std::vector<std::string>& flags,
                                                       std::vector<std::string>* backend) {
  // the driver reads the process-wide LLVM command line state: one at a time
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  std::string diag_text;
  StringDiagnostics diags(&diag_text);
  std::string exe = ClangExecutable();
  clang::driver::Driver driver(exe, llvm::sys::getDefaultTargetTriple(), diags.engine);
  driver.setCheckInputsExist(false);
  std::vector<const char*> argv{exe.c_str()};
  for (const std::string& f : flags) argv.push_back(f.c_str());
  argv.push_back(kSourceName);
  std::unique_ptr<clang::driver::Compilation> comp(driver.BuildCompilation(argv));
  diags.os.flush();
  if (comp == nullptr || diags.engine.hasErrorOccurred())
    return absl::FailedPreconditionError(
        absl::StrCat("clang driver rejected `", absl::StrJoin(flags, " "), "`: ", diag_text));
  const clang::driver::JobList& jobs = comp->getJobs();
  if (jobs.size() != 1 || std::string_view(jobs.begin()->getArguments().front()) != "-cc1")
    return absl::FailedPreconditionError(absl::StrCat(
        "`clang ", absl::StrJoin(flags, " "), "` is not one -cc1 compile (add -c?)"));
  const llvm::opt::ArgStringList& args = jobs.begin()->getArguments();
  std::vector<std::string> out;
  for (size_t i = 1; i < args.size(); ++i) {
    std::string_view a = args[i];
    if (a == "-disable-free" || a.starts_with("-fdebug-compilation-dir") ||
        a.starts_with("-fcoverage-compilation-dir"))
      continue;
    if (a == "-mllvm" && i + 1 < args.size()) {
      backend->push_back(args[++i]);
      continue;
    }
    if (a == "-o" && i + 1 < args.size()) {  // the object goes to memory
      ++i;
      continue;
    }
    out.emplace_back(a);
  }
  return out;
}

// Applies -mllvm options to LLVM's global command line once per distinct set (clang re-parses
// them at every compile, which races between threads; with none left it skips that).
void ApplyBackendOptions(const std::vector<std::string>& backend) {
  if (backend.empty()) return;
  static std::mutex mu;
  static std::vector<std::vector<std::string>> applied;
  std::lock_guard<std::mutex> lock(mu);
  for (const std::vector<std::string>& a : applied)
    if (a == backend) return;
  applied.push_back(backend);
  std::vector<const char*> argv{"clang"};
  for (const std::string& o : backend) argv.push_back(o.c_str());
  llvm::cl::ParseCommandLineOptions(static_cast<int>(argv.size()), argv.data());
}

}  // namespace

std::vector<std::string> ClangInProcessOptions::DefaultFlags(std::string_view target) {
  struct utsname u;
  std::string machine = ::uname(&u) == 0 ? u.machine : "x86_64";
  std::vector<std::string> flags = {"-c", "-x", "c"};
  for (std::string& f : CpuArchFlags(target)) flags.push_back(std::move(f));
  // a bare-metal target: no libc assumptions; -fno-math-errno makes __builtin_sqrt an
  // instruction instead of a libm call
  flags.push_back("--target=" + machine + "-none-unknown-elf");
  for (const char* f : {"-O2", "-fPIC", "-ffreestanding", "-fno-math-errno", "-nostdlib", "-fno-ident"})
    flags.emplace_back(f);
  return flags;
}

ClangInProcessOptions ClangInProcessOptions::FromConfig(const Config& config) {
  ClangInProcessOptions o;
  o.flags = DefaultFlags();
  o.cachelevel = config.cachelevel;
  o.cache_dir = config.cache_dir;
  return o;
}

ClangInProcessCompiler::ClangInProcessCompiler(ClangInProcessOptions options)
    : options_(std::move(options)),
      cache_(CompileCacheDir(options_.cachelevel, options_.cache_dir, "clang_jit")) {
  InitTargets();
  std::vector<std::string> backend;
  absl::StatusOr<std::vector<std::string>> args = DriverCc1Args(options_.flags, &backend);
  if (args.ok()) {
    cc1_args_ = *std::move(args);
    ApplyBackendOptions(backend);
  } else {
    init_status_ = args.status();
  }
  id_ = absl::StrCat(clang::getClangFullVersion(), " in-process ",
                     absl::StrJoin(options_.flags, " "), " | cc1 ", absl::StrJoin(cc1_args_, " "),
                     backend.empty() ? "" : " | mllvm ", absl::StrJoin(backend, " "));
}

uint64_t ClangInProcessCompiler::CacheKey(std::string_view src) const {
  StableHasher h;
  h.AddBytes("compile_clang_jit").AddBytes(id_).AddBytes(src);
  return h.Finish();
}

absl::StatusOr<std::string> ClangInProcessCompiler::Compile(std::string_view src) {
  if (!init_status_.ok()) return init_status_;
  uint64_t key = CacheKey(src);
  if (std::optional<std::string> hit = cache_.Get(key)) return *std::move(hit);
  absl::StatusOr<std::string> obj = CompileUncached(src);
  if (obj.ok()) cache_.Put(key, *obj);
  return obj;
}

absl::StatusOr<std::string> ClangInProcessCompiler::CompileUncached(std::string_view src) const {
  if (!init_status_.ok()) return init_status_;
  std::string diag_text;
  auto invocation = std::make_shared<clang::CompilerInvocation>();
  {
    StringDiagnostics parse_diags(&diag_text);
    std::vector<const char*> argv;
    for (const std::string& a : cc1_args_) argv.push_back(a.c_str());
    bool ok = clang::CompilerInvocation::CreateFromArgs(*invocation, argv, parse_diags.engine);
    parse_diags.os.flush();
    if (!ok || parse_diags.engine.hasErrorOccurred())
      return absl::FailedPreconditionError(absl::StrCat("clang -cc1 arguments: ", diag_text));
  }
  invocation->getDiagnosticOpts().ShowColors = false;
  invocation->getFrontendOpts().DisableFree = false;
  // The buffer stays ours (RetainRemappedFileBuffers): a compile that fails before the
  // preprocessor exists (an unknown target CPU) never takes it, and it leaked. Declared before
  // the compiler instance, it outlives it.
  std::unique_ptr<llvm::MemoryBuffer> source =
      llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(src.data(), src.size()), kSourceName);
  invocation->getPreprocessorOpts().RetainRemappedFileBuffers = true;
  invocation->getPreprocessorOpts().addRemappedFile(kSourceName, source.get());

  clang::CompilerInstance ci;
  ci.setInvocation(std::move(invocation));
  llvm::raw_string_ostream diag_os(diag_text);
  ci.createDiagnostics(new clang::TextDiagnosticPrinter(diag_os, &ci.getDiagnosticOpts()),
                       /*ShouldOwnClient=*/true);
  ci.setVerboseOutputStream(diag_os);  // "N errors generated." (stderr by default)
  llvm::SmallString<0> obj;
  ci.setOutputStream(std::make_unique<llvm::raw_svector_ostream>(obj));
  clang::EmitObjAction action;  // owns its LLVMContext
  bool ok = ci.ExecuteAction(action);
  diag_os.flush();
  if (!ok || ci.getDiagnostics().hasErrorOccurred())
    return absl::InvalidArgumentError(absl::StrCat("clang compile failed (in-process):\n",
                                                   diag_text));
  if (obj.empty()) return absl::InternalError("clang wrote no object: " + diag_text);
  return std::string(obj.data(), obj.size());
}

}  // namespace tg
