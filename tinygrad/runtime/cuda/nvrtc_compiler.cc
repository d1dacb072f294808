// File: tinygrad/runtime/cuda/nvrtc_compiler.cc
// Port of tinygrad/runtime/support/compiler_cuda.py: CUDACompiler, NVCompiler.
#include "tinygrad/runtime/cuda/nvrtc_compiler.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "tinygrad/base/stable_hash.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/runtime/cuda/nvrtc_copy.h"
#include "tinygrad/runtime/cuda/toolkit_handle.h"

namespace tg {
namespace {

using cuda_abi::nvrtcProgram;
using cuda_abi::nvrtcResult;

using ProgramHolder = ToolkitHandle<nvrtcProgram, nvrtcResult>;

std::string ProgramLog(const NvrtcApi& api, nvrtcProgram prog) {
  return ReadToolkitText(
      [&](size_t* size) { return api.nvrtcGetProgramLogSize(prog, size) == cuda_abi::NVRTC_SUCCESS; },
      [&](char* log) { return api.nvrtcGetProgramLog(prog, log) == cuda_abi::NVRTC_SUCCESS; });
}

// What a new instance compiles first: its one-time start-up, and proof that it works.
constexpr std::string_view kFirstKernel = "extern \"C\" __global__ void tg_first_kernel() {}\n";

}  // namespace

// A free instance, the compile's alone until the lease ends; when every instance is busy, one
// of them shared, in turn.
class NvrtcCompiler::Lease {
 public:
  explicit Lease(const NvrtcCompiler& c) : c_(c) {
    absl::MutexLock l(&c_.instances_mu_);
    for (Instance& i : c_.instances_) {
      if (!i.busy) {
        i.busy = true;
        own_ = &i;
        api_ = i.api.get();
        return;
      }
    }
    api_ = c_.instances_[c_.next_shared_++ % c_.instances_.size()].api.get();
  }
  Lease(const Lease&) = delete;
  Lease& operator=(const Lease&) = delete;
  ~Lease() {
    if (own_ == nullptr) return;
    absl::MutexLock l(&c_.instances_mu_);
    own_->busy = false;
  }
  const NvrtcApi& api() const { return *api_; }

 private:
  const NvrtcCompiler& c_;
  Instance* own_ = nullptr;  // null: shared
  const NvrtcApi* api_ = nullptr;
};

absl::StatusOr<std::unique_ptr<NvrtcCompiler>> NvrtcCompiler::Create(
    std::shared_ptr<const NvrtcApi> api, NvrtcCompilerOptions options) {
  if (api == nullptr) return absl::InvalidArgumentError("NvrtcCompiler needs a loaded NVRTC");
  ASSIGN_OR_RETURN(CudaArch arch, ParseCudaArch(options.arch));
  ASSIGN_OR_RETURN(std::vector<NvrtcHeader> headers,
                   ReadHeaderClosure(options.include_dirs, kCudaKernelHeaders));
  return std::unique_ptr<NvrtcCompiler>(
      new NvrtcCompiler(std::move(api), std::move(options), arch, std::move(headers)));
}

NvrtcCompiler::NvrtcCompiler(std::shared_ptr<const NvrtcApi> api, NvrtcCompilerOptions options,
                             CudaArch arch, std::vector<NvrtcHeader> headers)
    : api_(std::move(api)),
      options_(std::move(options)),
      arch_(arch),
      headers_(std::move(headers)),
      cache_(CompileCacheDir(options_.cachelevel, options_.cache_dir,
                             absl::StrCat(options_.output == CudaBinaryKind::kPtx ? "cuda_" : "nv_",
                                          arch_.name()))) {
  std::vector<std::string> portable = {"--gpu-architecture=" + arch_.name()};
  // --minimal: NVRTC 12.4+ leaves out its default includes (the reference's choice too).
  if (api_->version_major > 12 || (api_->version_major == 12 && api_->version_minor >= 4))
    portable.push_back("--minimal");
  portable.insert(portable.end(), options_.extra_flags.begin(), options_.extra_flags.end());
  compiler_id_ = absl::StrCat("nvrtc ", api_->version_major, ".", api_->version_minor, " ",
                              options_.output == CudaBinaryKind::kPtx ? "ptx" : "cubin", " ",
                              absl::StrJoin(portable, " "));
  StableHasher h;
  for (const NvrtcHeader& header : headers_) {
    header_texts_.push_back(header.text.c_str());
    header_names_.push_back(header.name.c_str());
    h.AddBytes(header.name).AddBytes(header.text);
  }
  headers_hash_ = h.Finish();
  instances_.push_back({.api = api_});
  // The -I dirs stay: a header the closure missed is still found outside a sandbox.
  // The reference puts -I first; the order of -I and the other flags does not matter to NVRTC.
  for (const std::string& dir : options_.include_dirs) flags_.push_back("-I" + dir);
  flags_.insert(flags_.end(), portable.begin(), portable.end());
}

uint64_t NvrtcCompiler::CacheKey(std::string_view src) const {
  StableHasher h;
  h.AddBytes("compile_nvrtc").AddBytes(compiler_id_).AddBytes(absl::StrJoin(flags_, "\n"));
  h.Add(headers_hash_);
  h.AddBytes(src);
  return h.Finish();
}

absl::StatusOr<std::string> NvrtcCompiler::CompileUncached(std::string_view src, std::string* log) const {
  const Lease lease(*this);
  return CompileOn(lease.api(), src, log);
}

absl::StatusOr<std::string> NvrtcCompiler::CompileOn(const NvrtcApi& api, std::string_view src, std::string* log) const {
  // NVRTC reads the source as a C string: one with a NUL inside would be cut short silently.
  if (src.find('\0') != std::string_view::npos)
    return absl::InvalidArgumentError("CUDA source contains a NUL byte");
  const std::string source(src);
  ProgramHolder prog(api.nvrtcDestroyProgram);
  if (nvrtcResult r =
          api.nvrtcCreateProgram(prog.out(), source.c_str(), "<null>", static_cast<int>(headers_.size()),
                                 header_texts_.data(), header_names_.data());
      r != cuda_abi::NVRTC_SUCCESS)
    return absl::InternalError(absl::StrCat("nvrtcCreateProgram failed: ", api.ErrorName(r)));

  std::vector<const char*> argv;
  for (const std::string& f : flags_) argv.push_back(f.c_str());
  if (nvrtcResult r =
          api.nvrtcCompileProgram(prog.get(), static_cast<int>(argv.size()), argv.data());
      r != cuda_abi::NVRTC_SUCCESS) {
    std::string message =
        absl::StrCat("NVRTC compile for ", arch_.name(), " failed: ", api.ErrorName(r), "\n",
                     ProgramLog(api, prog.get()));
    if (r == cuda_abi::NVRTC_ERROR_INVALID_OPTION && !api.supported_archs.empty())
      absl::StrAppend(&message, "\nNVRTC ", api.version_major, ".", api.version_minor,
                      " supports sm_", absl::StrJoin(api.supported_archs, ", sm_"));
    if (r == cuda_abi::NVRTC_ERROR_COMPILATION || r == cuda_abi::NVRTC_ERROR_INVALID_OPTION)
      return absl::InvalidArgumentError(message);
    return absl::InternalError(message);
  }

  if (log != nullptr) *log = ProgramLog(api, prog.get());
  const bool ptx = options_.output == CudaBinaryKind::kPtx;
  size_t size = 0;
  nvrtcResult r =
      ptx ? api.nvrtcGetPTXSize(prog.get(), &size) : api.nvrtcGetCUBINSize(prog.get(), &size);
  if (r != cuda_abi::NVRTC_SUCCESS)
    return absl::InternalError(
        absl::StrCat("nvrtcGet", ptx ? "PTX" : "CUBIN", "Size failed: ", api.ErrorName(r)));
  std::string out(size, '\0');
  r = ptx ? api.nvrtcGetPTX(prog.get(), out.data()) : api.nvrtcGetCUBIN(prog.get(), out.data());
  if (r != cuda_abi::NVRTC_SUCCESS)
    return absl::InternalError(
        absl::StrCat("nvrtcGet", ptx ? "PTX" : "CUBIN", " failed: ", api.ErrorName(r)));
  // PTX comes NUL-terminated; std::string keeps a terminator of its own for the driver.
  if (ptx && !out.empty() && out.back() == '\0') out.pop_back();
  if (out.empty()) return absl::InternalError("NVRTC produced an empty binary");
  return out;
}

absl::Status NvrtcCompiler::ReserveInstances(int count, const std::string& temp_dir) {
  absl::MutexLock reserving(&reserve_mu_);
  const int had = instances();
  if (had >= count) return absl::OkStatus();
  // Made on a few threads at once (they are made when a search starts, and a copy is mostly
  // I/O, its first compile CPU), but no more than kMakersAtOnce copies on disk at a time.
  constexpr size_t kMakersAtOnce = 4;
  std::vector<absl::StatusOr<std::shared_ptr<const NvrtcApi>>> made(static_cast<size_t>(count - had),
                                                                    absl::UnknownError("not made"));
  std::atomic<size_t> next{0};
  std::vector<std::thread> makers;
  for (size_t t = 0; t < std::min(kMakersAtOnce, made.size()); ++t)
    makers.emplace_back([&] {
      for (size_t i = next++; i < made.size(); i = next++) {
        made[i] = LoadNvrtcCopy(*api_, temp_dir);
        if (made[i].ok())
          if (absl::Status works = CompileOn(**made[i], kFirstKernel).status(); !works.ok()) made[i] = works;
      }
    });
  for (std::thread& t : makers) t.join();
  absl::Status first_error;
  absl::MutexLock l(&instances_mu_);
  for (auto& m : made) {
    if (m.ok()) {
      instances_.push_back({.api = *std::move(m)});
    } else if (first_error.ok()) {
      first_error = m.status();
    }
  }
  if (first_error.ok()) return first_error;
  const size_t have = instances_.size();
  return absl::Status(first_error.code(),
                      absl::StrCat("NVRTC compiles on ", have, " instance", have == 1 ? "" : "s", ", not ", count,
                                   " (threads sharing one sleep on its process-wide lock): ", first_error.message()));
}

int NvrtcCompiler::instances() const {
  absl::MutexLock l(&instances_mu_);
  return static_cast<int>(instances_.size());
}

std::vector<std::string> PtxasPerformanceRemarks(std::string_view log) {
  std::vector<std::string> out;
  for (absl::string_view line : absl::StrSplit(absl::string_view(log.data(), log.size()), '\n'))
    if (absl::StrContains(line, "Potential Performance Loss") || absl::StrContains(line, " is injected "))
      out.emplace_back(absl::StripAsciiWhitespace(line));
  return out;
}

absl::StatusOr<std::string> NvrtcCompiler::Compile(std::string_view src) {
  return cache_.GetOrCompile(CacheKey(src), [&] { return CompileUncached(src); });
}

}  // namespace tg
