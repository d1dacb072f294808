// File: tinygrad/runtime/cuda/program.cc
// Port of tinygrad/runtime/ops_cuda.py: CUDAProgram, cu_time_execution.
#include "tinygrad/runtime/cuda/program.h"

#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"

namespace tg {
namespace {

// The dynamic shared memory any function may take without raising its limit.
constexpr uint32_t kDefaultDynamicSharedBytes = 48 * 1024;

using cuda_abi::CUevent;

// An event destroyed on every path out of Launch.
class ScopedEvent {
 public:
  explicit ScopedEvent(const CudaDriverApi& api) : api_(api) {}
  ScopedEvent(const ScopedEvent&) = delete;
  ScopedEvent& operator=(const ScopedEvent&) = delete;
  ~ScopedEvent() {
    if (event_ != nullptr) (void)api_.cuEventDestroy(event_);
  }
  absl::Status Create() { return api_.Check(api_.cuEventCreate(&event_, 0), "cuEventCreate"); }
  CUevent get() const { return event_; }

 private:
  const CudaDriverApi& api_;
  CUevent event_ = nullptr;
};

}  // namespace

absl::StatusOr<CudaProgram> CudaProgram::Load(std::shared_ptr<CudaContext> ctx,
                                              std::string_view function_name,
                                              const std::string& image) {
  const CudaDriverApi& cu = ctx->api();
  if (image.empty()) return absl::InvalidArgumentError("empty CUDA module image");
  RETURN_IF_ERROR(ctx->MakeCurrent());
  // The JIT's error log says why PTX did not assemble; the CUresult alone does not.
  std::string log(16384, '\0');
  cuda_abi::CUjit_option options[] = {cuda_abi::CU_JIT_ERROR_LOG_BUFFER,
                                      cuda_abi::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {log.data(), reinterpret_cast<void*>(static_cast<uintptr_t>(log.size()))};
  cuda_abi::CUmodule module = nullptr;
  // image.c_str(): PTX must be NUL-terminated; a CUBIN's size is in its ELF header.
  if (absl::Status s = cu.Check(cu.cuModuleLoadDataEx(&module, image.c_str(), 2, options, values),
                                "cuModuleLoadData");
      !s.ok()) {
    log.resize(strnlen(log.data(), log.size()));
    absl::Status with_log(s.code(), absl::StrCat(s.message(), log.empty() ? "" : "\n", log));
    s.ForEachPayload(
        [&](absl::string_view url, const absl::Cord& p) { with_log.SetPayload(url, p); });
    return with_log;
  }
  cuda_abi::CUfunction function = nullptr;
  const std::string name(function_name);
  CudaProgram program(std::move(ctx), module, nullptr, name);  // unloads on the error path
  RETURN_IF_ERROR(cu.Check(cu.cuModuleGetFunction(&function, module, name.c_str()),
                           absl::StrCat("cuModuleGetFunction(", name, ")")));
  program.function_ = function;
  return program;
}

CudaProgram::CudaProgram(CudaProgram&& o) noexcept
    : ctx_(std::move(o.ctx_)),
      module_(o.module_),
      function_(o.function_),
      name_(std::move(o.name_)) {
  o.module_ = nullptr;
  o.function_ = nullptr;
}

CudaProgram& CudaProgram::operator=(CudaProgram&& o) noexcept {
  if (this != &o) {
    Unload();
    ctx_ = std::move(o.ctx_);
    module_ = o.module_;
    function_ = o.function_;
    name_ = std::move(o.name_);
    o.module_ = nullptr;
    o.function_ = nullptr;
  }
  return *this;
}

CudaProgram::~CudaProgram() { Unload(); }

void CudaProgram::Unload() {
  if (ctx_ != nullptr && module_ != nullptr && ctx_->MakeCurrent().ok())
    (void)ctx_->api().cuModuleUnload(module_);
  ctx_.reset();
  module_ = nullptr;
  function_ = nullptr;
}

CudaKernelArgs::CudaKernelArgs(std::span<const cuda_abi::CUdeviceptr> bufs,
                               std::span<const int32_t> vals,
                               std::span<const cuda_abi::CUtensorMap> tensor_maps)
    : bufs_(bufs.begin(), bufs.end()),
      vals_(vals.begin(), vals.end()),
      maps_(tensor_maps.begin(), tensor_maps.end()) {
  params_.reserve(bufs_.size() + vals_.size() + maps_.size());
  for (cuda_abi::CUdeviceptr& b : bufs_) params_.push_back(&b);
  for (int32_t& v : vals_) params_.push_back(&v);
  for (cuda_abi::CUtensorMap& m : maps_) params_.push_back(&m);
}

absl::StatusOr<double> TimeExecution(const CudaDriverApi& cu, std::string_view what, bool wait,
                                     absl::FunctionRef<absl::Status()> enqueue) {
  if (!wait) {
    RETURN_IF_ERROR(enqueue());
    return 0.0;
  }
  ScopedEvent start(cu), end(cu);
  RETURN_IF_ERROR(start.Create());
  RETURN_IF_ERROR(end.Create());
  RETURN_IF_ERROR(cu.Check(cu.cuEventRecord(start.get(), nullptr), "cuEventRecord"));
  RETURN_IF_ERROR(enqueue());
  RETURN_IF_ERROR(cu.Check(cu.cuEventRecord(end.get(), nullptr), "cuEventRecord"));
  RETURN_IF_ERROR(
      cu.Check(cu.cuEventSynchronize(end.get()), absl::StrCat("running ", std::string(what))));
  float ms = 0;
  RETURN_IF_ERROR(
      cu.Check(cu.cuEventElapsedTime(&ms, start.get(), end.get()), "cuEventElapsedTime"));
  return static_cast<double>(ms) * 1e-3;
}

absl::Status CudaProgram::PrepareLaunch(const CudaLaunchDims& dims) const {
  if (ctx_ == nullptr) return absl::FailedPreconditionError("CUDA program was moved from");
  for (int i = 0; i < 3; ++i)
    if (dims.grid[i] == 0 || dims.block[i] == 0)
      return absl::InvalidArgumentError(
          absl::StrCat("launch of ", name_, " with a zero dimension: grid (", dims.grid[0], ", ",
                       dims.grid[1], ", ", dims.grid[2], "), block (", dims.block[0], ", ",
                       dims.block[1], ", ", dims.block[2], ")"));
  RETURN_IF_ERROR(ctx_->MakeCurrent());
  if (dims.shared_bytes <= kDefaultDynamicSharedBytes) return absl::OkStatus();
  const CudaDriverApi& cu = ctx_->api();
  return cu.Check(
      cu.cuFuncSetAttribute(function_, cuda_abi::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                            static_cast<int>(dims.shared_bytes)),
      absl::StrCat("cuFuncSetAttribute(", name_, ", max dynamic shared memory ", dims.shared_bytes,
                   ")"));
}

cuda_abi::CUDA_KERNEL_NODE_PARAMS_v2 CudaProgram::NodeParams(const CudaKernelArgs& args,
                                                             const CudaLaunchDims& dims) const {
  return {.func = function_,
          .gridDimX = dims.grid[0],
          .gridDimY = dims.grid[1],
          .gridDimZ = dims.grid[2],
          .blockDimX = dims.block[0],
          .blockDimY = dims.block[1],
          .blockDimZ = dims.block[2],
          .sharedMemBytes = dims.shared_bytes,
          .kernelParams = args.params()};
}

absl::StatusOr<double> CudaProgram::Launch(
    std::span<const CUdeviceptr> bufs, std::span<const int32_t> vals, const CudaLaunchDims& dims,
    bool wait, std::span<const cuda_abi::CUtensorMap> tensor_maps) const {
  RETURN_IF_ERROR(PrepareLaunch(dims));
  const CudaDriverApi& cu = ctx_->api();
  const CudaKernelArgs args(bufs, vals, tensor_maps);
  return TimeExecution(cu, name_, wait, [&] {
    return cu.Check(cu.cuLaunchKernel(function_, dims.grid[0], dims.grid[1], dims.grid[2],
                                      dims.block[0], dims.block[1], dims.block[2],
                                      dims.shared_bytes, /*stream=*/nullptr, args.params(),
                                      /*extra=*/nullptr),
                    absl::StrCat("cuLaunchKernel(", name_, ")"));
  });
}

}  // namespace tg
