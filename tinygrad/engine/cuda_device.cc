// File: tinygrad/engine/cuda_device.cc
// Port of tinygrad/runtime/ops_cuda.py's CUDADevice as an engine Device: CudaRenderer +
// NVRTC (CUBIN) over runtime/cuda's context, buffers and programs, with kernel faults turned
// into DeviceLostError.
#include "tinygrad/engine/cuda_device.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/device_name.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/engine/lru_allocator.h"
#include "tinygrad/renderer/cuda/cuda.h"
#include "tinygrad/renderer/ptx/ptx.h"
#include "tinygrad/runtime/cuda/arch.h"
#include "tinygrad/runtime/cuda/buffer.h"
#include "tinygrad/runtime/cuda/context.h"
#include "tinygrad/runtime/cuda/cuda_disassembler.h"
#include "tinygrad/runtime/cuda/driver_api.h"
#include "tinygrad/runtime/cuda/graph.h"
#include "tinygrad/runtime/cuda/nvrtc_api.h"
#include "tinygrad/runtime/cuda/nvrtc_compiler.h"
#include "tinygrad/runtime/cuda/pinned_uploader.h"
#include "tinygrad/runtime/cuda/program.h"
#include "tinygrad/runtime/cuda/ptx_compiler.h"
#include "tinygrad/runtime/cuda/tensor_map.h"
#include "tinygrad/runtime/dynamic_library.h"

namespace tg {
namespace {

// A CUDA error after which the context is unusable: a fault in a kernel (700..799: illegal
// address, misaligned access, trap, launch timeout, ...), except a launch refused for its
// resources, which leaves the context as it was.
bool PoisonsContext(const absl::Status& s) {
  std::optional<int> code = CudaErrorCode(s);
  return code.has_value() && *code >= cuda_abi::CUDA_ERROR_ILLEGAL_ADDRESS && *code < 800 &&
         *code != cuda_abi::CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
}

// Whether a fault lost the GPU, shared by the device and everything it made: once lost, every
// call fails at once (a poisoned context would fail it anyway, after a round trip).
class Health {
 public:
  explicit Health(std::string device) : device_(std::move(device)) {}

  // OK, or the DeviceLostError of the fault that lost the device.
  absl::Status Check() const {
    std::lock_guard<std::mutex> l(mu_);
    return lost_ ? DeviceLostError(why_) : absl::OkStatus();
  }
  // `s` as the device reports it: a context-poisoning error (or any error after one) becomes a
  // DeviceLostError naming the first fault.
  absl::Status Note(absl::Status s) {
    if (s.ok()) return s;
    std::lock_guard<std::mutex> l(mu_);
    if (!lost_ && !PoisonsContext(s)) return s;
    if (!lost_) {
      lost_ = true;
      why_ = absl::StrCat(device_, " is lost: ", s.message(),
                          " (a kernel fault poisons the CUDA context: this process can no "
                          "longer use the GPU)");
    }
    return DeviceLostError(why_);
  }
  template <typename T>
  absl::StatusOr<T> Note(absl::StatusOr<T> v) {
    if (v.ok()) return v;
    return Note(v.status());
  }

 private:
  const std::string device_;
  mutable std::mutex mu_;
  bool lost_ = false;
  std::string why_;
};

class CudaRawBuffer : public RawBuffer {
 public:
  CudaRawBuffer(CudaBuffer b, std::shared_ptr<Health> health,
                std::shared_ptr<PinnedUploader> uploader)
      : buf_(std::move(b)), health_(std::move(health)), uploader_(std::move(uploader)) {}
  void* data() override { return reinterpret_cast<void*>(static_cast<uintptr_t>(buf_.address())); }
  size_t nbytes() const override { return buf_.size(); }
  // Queued through pinned memory: returns without waiting for the kernels before it.
  absl::Status CopyIn(std::span<const std::byte> src, size_t offset) override {
    RETURN_IF_ERROR(health_->Check());
    return health_->Note(buf_.CopyIn(src, offset, *uploader_));
  }
  // Waits for the kernels and copies queued before it; so the copy-ins before it are done.
  absl::Status CopyOut(std::span<std::byte> dst, size_t offset) const override {
    RETURN_IF_ERROR(health_->Check());
    const uint64_t mark = uploader_->Mark();
    RETURN_IF_ERROR(health_->Note(buf_.CopyOut(dst, offset)));
    uploader_->Completed(mark);
    return absl::OkStatus();
  }
  // From another CUDA buffer, of this GPU or another: a peer copy (cuMemcpyPeer).
  absl::Status CopyFromDevice(const RawBuffer& src, size_t src_offset, size_t offset,
                              size_t n) override {
    const auto* cuda = dynamic_cast<const CudaRawBuffer*>(&src);
    if (cuda == nullptr) return RawBuffer::CopyFromDevice(src, src_offset, offset, n);
    RETURN_IF_ERROR(health_->Check());
    RETURN_IF_ERROR(cuda->health_->Check());
    return health_->Note(buf_.CopyFrom(cuda->buf_, src_offset, offset, n));
  }
  absl::Status Fill(uint8_t value) {
    RETURN_IF_ERROR(health_->Check());
    return health_->Note(buf_.Fill(value));
  }

 private:
  CudaBuffer buf_;
  std::shared_ptr<Health> health_;
  std::shared_ptr<PinnedUploader> uploader_;  // the device's
};

// The copy engine's element type for a dtype; nullopt for one it does not take here.
std::optional<TensorMapElement> TensorMapElementOf(DType d) {
  if (d == dtypes::float16) return TensorMapElement::kFloat16;
  if (d == dtypes::bfloat16) return TensorMapElement::kBfloat16;
  if (d == dtypes::float32) return TensorMapElement::kFloat32;
  return std::nullopt;
}

class CudaKernel : public Program {
 public:
  CudaKernel(CudaProgram p, std::shared_ptr<Health> health, const CudaDeviceInfo& info,
             uint32_t shared_bytes = 0, std::vector<TensorMapSpec> tensor_maps = {})
      : prog_(std::move(p)),
        health_(std::move(health)),
        info_(info),
        shared_bytes_(shared_bytes),
        map_specs_(std::move(tensor_maps)) {}

  // stop_after_s is not honoured: a launched kernel runs to its end (can_stop_runs()).
  absl::StatusOr<double> Run(std::span<void* const> bufs, std::span<const int64_t> vals,
                             const LaunchDims& global_size,
                             const std::optional<LaunchDims>& local_size, bool wait,
                             double) override {
    RETURN_IF_ERROR(health_->Check());
    ASSIGN_OR_RETURN(PreparedLaunch l, Prepare(bufs, vals, global_size, local_size));
    if (l.dims.grid[0] == 0) return 0.0;  // nothing to compute: no launch
    return health_->Note(prog_.Launch(l.ptrs, l.vars, l.dims, wait, l.maps));
  }

  // A launch as the driver takes it: the arguments, the tensor maps for these buffers, and the
  // grid and block (a grid of zeros when the global size has a zero: nothing to launch).
  struct PreparedLaunch {
    std::vector<CudaBuffer::CUdeviceptr> ptrs;
    std::vector<int32_t> vars;
    std::vector<cuda_abi::CUtensorMap> maps;
    CudaLaunchDims dims;
  };
  absl::StatusOr<PreparedLaunch> Prepare(std::span<void* const> bufs, std::span<const int64_t> vals,
                                         const LaunchDims& global_size,
                                         const std::optional<LaunchDims>& local_size) {
    PreparedLaunch l{.dims = {.shared_bytes = shared_bytes_}};
    for (int64_t v : vals) {
      if (v < INT32_MIN || v > INT32_MAX)
        return absl::OutOfRangeError(absl::StrCat("variable value ", v, " does not fit int32"));
      l.vars.push_back(static_cast<int32_t>(v));
    }
    for (void* b : bufs) l.ptrs.push_back(reinterpret_cast<uintptr_t>(b));
    for (int64_t g : global_size) {
      if (g < 0) return absl::InvalidArgumentError(absl::StrCat("negative global size ", g));
      if (g == 0) {
        l.dims.grid = {0, 0, 0};
        return l;
      }
    }
    LaunchDims grid = global_size, block = {1, 1, 1};
    if (local_size.has_value()) {
      block = *local_size;
    } else {
      // a kernel that indexes by global thread (no local size): blocks that tile it exactly
      block = PickLocalSize(global_size, info_.max_block_dims, info_.max_threads_per_block);
      for (int i = 0; i < 3; ++i) grid[i] = global_size[i] / block[i];
    }
    for (int i = 0; i < 3; ++i) {
      if (grid[i] < 1 || grid[i] > UINT32_MAX || block[i] < 1 || block[i] > UINT32_MAX)
        return absl::InvalidArgumentError(
            absl::StrCat("launch of ", prog_.function_name(), " with grid (", grid[0], ", ",
                         grid[1], ", ", grid[2], "), block (", block[0], ", ", block[1], ", ",
                         block[2], "): every dimension must be in [1, 2^32)"));
      l.dims.grid[i] = static_cast<uint32_t>(grid[i]);
      l.dims.block[i] = static_cast<uint32_t>(block[i]);
    }
    ASSIGN_OR_RETURN(l.maps, EncodeMaps(l.ptrs));
    return l;
  }
  const CudaProgram& program() const { return prog_; }

 private:
  // The tensor maps for these buffers: encoded again only when an address changed (a map holds
  // its buffer's address; the measurer launches one program on the same buffers many times).
  absl::StatusOr<std::vector<cuda_abi::CUtensorMap>> EncodeMaps(
      std::span<const CudaBuffer::CUdeviceptr> ptrs) {
    if (map_specs_.empty()) return std::vector<cuda_abi::CUtensorMap>{};
    std::lock_guard<std::mutex> l(maps_mu_);
    bool same = map_addresses_.size() == map_specs_.size();
    for (size_t i = 0; same && i < map_specs_.size(); ++i)
      same = map_specs_[i].buffer < static_cast<int64_t>(ptrs.size()) &&
             map_addresses_[i] == ptrs[map_specs_[i].buffer];
    if (same) return maps_;
    maps_.clear();
    map_addresses_.clear();
    for (const TensorMapSpec& m : map_specs_) {
      if (m.buffer < 0 || m.buffer >= static_cast<int64_t>(ptrs.size()))
        return absl::InvalidArgumentError(
            absl::StrCat(prog_.function_name(), ": a tensor map of buffer argument ", m.buffer,
                         ", but the launch has ", ptrs.size(), " buffers"));
      ASSIGN_OR_RETURN(
          cuda_abi::CUtensorMap map,
          EncodeTiledTensorMap(
              prog_.api(),
              {.element = *TensorMapElementOf(m.element),  // LoadProgram checked it
               .address = ptrs[m.buffer],
               .cols = static_cast<uint64_t>(m.cols),
               .rows = static_cast<uint64_t>(m.rows),
               .row_stride_bytes = static_cast<uint64_t>(m.cols * m.element.itemsize()),
               .box_cols = static_cast<uint32_t>(m.box_cols),
               .box_rows = static_cast<uint32_t>(m.box_rows)}));
      maps_.push_back(map);
      map_addresses_.push_back(ptrs[m.buffer]);
    }
    return maps_;
  }

  CudaProgram prog_;
  std::shared_ptr<Health> health_;
  const CudaDeviceInfo& info_;  // the device's, which outlives its programs
  uint32_t shared_bytes_;       // dynamic shared memory per launch
  const std::vector<TensorMapSpec> map_specs_;  // passed after the buffers and variables
  std::mutex maps_mu_;                          // Run may be called from several threads
  std::vector<cuda_abi::CUtensorMap> maps_;     // encoded for map_addresses_
  std::vector<CudaBuffer::CUdeviceptr> map_addresses_;
};

// A batch of CudaKernel launches as one CUDA graph (the reference's CUDAGraph).
class CudaKernelGraph : public KernelGraph {
 public:
  CudaKernelGraph(CudaGraph graph, std::vector<CudaKernel*> kernels, std::shared_ptr<Health> health)
      : graph_(std::move(graph)), kernels_(std::move(kernels)), health_(std::move(health)) {}

  absl::Status Update(size_t index, std::span<void* const> bufs, std::span<const int64_t> vals,
                      const LaunchDims& global, const std::optional<LaunchDims>& local) override {
    RETURN_IF_ERROR(health_->Check());
    if (index >= kernels_.size())
      return absl::InvalidArgumentError(
          absl::StrCat("launch ", index, " of a graph of ", kernels_.size()));
    ASSIGN_OR_RETURN(CudaKernel::PreparedLaunch l,
                     kernels_[index]->Prepare(bufs, vals, global, local));
    return health_->Note(graph_.SetKernel(index, CudaKernelArgs(l.ptrs, l.vars, l.maps), l.dims));
  }
  absl::StatusOr<double> Run(bool wait) override {
    RETURN_IF_ERROR(health_->Check());
    return health_->Note(graph_.Launch(wait));
  }

 private:
  CudaGraph graph_;
  std::vector<CudaKernel*> kernels_;  // launch i's program (the engine's, which outlive graphs)
  std::shared_ptr<Health> health_;
};

std::string DriverText(const CudaDeviceInfo& info) {
  std::string s =
      absl::StrCat("CUDA ", info.driver_version / 1000, ".", (info.driver_version % 1000) / 10);
  if (!info.driver_release.empty()) absl::StrAppend(&s, " (", info.driver_release, ")");
  return s;
}

// How a device turns rendered source into what the driver loads: NVRTC (CUDA C++ to a CUBIN)
// or, with CUDA_PTX, PtxCompiler (the renderer's PTX with its placeholders filled, JIT-compiled
// by the driver at load, as the reference's PTXCompiler).
struct KernelCompiler {
  absl::StatusOr<std::unique_ptr<NvrtcCompiler>> nvrtc =
      absl::UnavailableError("no NVRTC compiler");
  std::unique_ptr<PtxCompiler> ptx;
  // With PTX: the driver's JIT library, held open. The driver loads it for each PTX module and
  // unloads it after, so without a hold of ours a module load opens it again: a cost per
  // candidate, and in a sandboxed worker child (which can open no file) every module after the
  // first failed with CUDA_ERROR_JIT_COMPILER_NOT_FOUND (seen on an H200, 2026-11-27). Where it
  // does not open here, the driver's own load reports it at the first module.
  std::optional<DynamicLibrary> ptx_jit;

  std::string id() const {
    if (ptx != nullptr) return ptx->compiler_id();
    if (!nvrtc.ok()) return absl::StrCat("nvrtc unavailable: ", nvrtc.status().message());
    return (*nvrtc)->compiler_id();
  }
  absl::StatusOr<std::string> Compile(const std::string& device, std::string_view src) {
    if (ptx != nullptr) return ptx->Compile(src);
    if (!nvrtc.ok())
      return absl::UnavailableError(
          absl::StrCat(device, " cannot compile kernels: ", nvrtc.status().message()));
    return (*nvrtc)->Compile(src);
  }
  // NVRTC: an instance per compiling thread (NvrtcCompiler::ReserveInstances), copied into
  // `temp_dir` ("": asked for none). The PTX path compiles nothing here (the driver assembles
  // at load) and NVRTC's absence shows at Compile.
  absl::Status PrepareThreads(const std::string& device, int threads, const std::string& temp_dir) {
    if (ptx != nullptr || !nvrtc.ok() || threads <= 1 || temp_dir.empty()) return absl::OkStatus();
    absl::Status s = (*nvrtc)->ReserveInstances(threads, temp_dir);
    if (s.ok()) return s;
    return absl::Status(s.code(), absl::StrCat(device, ": ", s.message()));
  }
};

class CudaDevice : public Device {
 public:
  CudaDevice(std::string name, std::shared_ptr<CudaContext> ctx, std::unique_ptr<Renderer> renderer,
             KernelCompiler compiler, std::string runtime, std::vector<std::string> tool_dirs,
             std::string temp_dir, bool lru)
      : name_(std::move(name)),
        ctx_(std::move(ctx)),
        health_(std::make_shared<Health>(name_)),
        renderer_(std::move(renderer)),
        compiler_(std::move(compiler)),
        tool_dirs_(std::move(tool_dirs)),
        temp_dir_(std::move(temp_dir)),
        uploader_(std::make_shared<PinnedUploader>(ctx_)) {
    if (lru) lru_ = std::make_unique<LruAllocator>([this](size_t n) { return AllocateUncached(n); });
    const CudaDeviceInfo& info = ctx_->info();
    // the optimizer's limits are this GPU's (the reference's CUDARenderer has the same
    // figures as constants, which every NVIDIA GPU since Kepler reports)
    renderer_->global_max =
        LaunchDims{info.max_grid_dims[0], info.max_grid_dims[1], info.max_grid_dims[2]};
    renderer_->local_max =
        LaunchDims{info.max_block_dims[0], info.max_block_dims[1], info.max_block_dims[2]};
    renderer_->shared_max = info.max_shared_per_block;
    gpu_ = GpuDescription{.name = info.name,
                          .arch = info.arch(),
                          .driver = DriverText(info),
                          .runtime = std::move(runtime),
                          .compute_units = info.sm_count,
                          .memory_bytes = info.total_memory,
                          .l2_bytes = static_cast<size_t>(std::max(info.l2_cache_bytes, 0)),
                          .max_threads_per_block = info.max_threads_per_block,
                          .max_shared_per_block = info.max_shared_per_block};
  }

  const std::string& name() const override { return name_; }
  const Renderer& renderer() const override { return *renderer_; }
  std::string compiler_id() const override { return compiler_.id(); }
  absl::StatusOr<std::string> Compile(const ProgramSpec& spec) override {
    return compiler_.Compile(name_, spec.src);
  }
  absl::Status PrepareCompileThreads(int threads) override {
    return compiler_.PrepareThreads(name_, threads, temp_dir_);
  }
  // SASS of NVRTC's CUBIN; the PTX of CUDA_PTX=1 as it is (cuda_disassembler.h).
  absl::StatusOr<std::string> Disassemble(const std::string& lib) const override {
    return DisassembleCuda(lib, tool_dirs_);
  }
  absl::StatusOr<std::unique_ptr<Program>> Load(const std::string& function_name,
                                                const std::string& lib) override {
    return LoadWithShared(function_name, lib, 0);
  }
  absl::StatusOr<std::unique_ptr<Program>> LoadProgram(const ProgramSpec& spec,
                                                       const std::string& lib) override {
    const int64_t optin = ctx_->info().max_shared_per_block_optin;
    if (spec.dynamic_shared_bytes < 0 || spec.dynamic_shared_bytes > optin)
      return absl::InvalidArgumentError(absl::StrCat(
          spec.function_name, " asks for ", spec.dynamic_shared_bytes,
          " bytes of dynamic shared memory; ", name_, " gives a block at most ", optin));
    for (const TensorMapSpec& m : spec.tensor_maps) {
      if (ctx_->info().cc_major < 9)
        return absl::UnimplementedError(
            absl::StrCat(spec.function_name, " loads through tensor maps, which need Hopper's copy ",
                         "engine (sm_90 on); ", name_, " is ", ctx_->info().arch()));
      if (m.buffer < 0 || !TensorMapElementOf(m.element).has_value())
        return absl::InvalidArgumentError(
            absl::StrCat(spec.function_name, ": a tensor map of buffer argument ", m.buffer,
                         " of ", m.element.name(), " (want an argument of half, bfloat16 or float)"));
    }
    return LoadWithShared(spec.function_name, lib,
                          static_cast<uint32_t>(spec.dynamic_shared_bytes), spec.tensor_maps);
  }
  // Kept memory of that size first (LRU); cuMemAlloc's otherwise.
  absl::StatusOr<std::shared_ptr<RawBuffer>> Allocate(size_t nbytes) override {
    RETURN_IF_ERROR(health_->Check());
    return lru_ != nullptr ? lru_->Allocate(nbytes) : AllocateUncached(nbytes);
  }
  absl::Status Synchronize() override {
    RETURN_IF_ERROR(health_->Check());
    const uint64_t mark = uploader_->Mark();
    RETURN_IF_ERROR(health_->Note(ctx_->Synchronize()));
    uploader_->Completed(mark);
    return absl::OkStatus();
  }
  absl::Status InvalidateCaches() override {
    std::lock_guard<std::mutex> l(scratch_mu_);
    if (scratch_ == nullptr) {
      // twice the L2: whatever the replacement policy keeps, the kernel's lines are written over
      const size_t bytes = std::max<size_t>(2 * gpu_.l2_bytes, size_t{1} << 20);
      ASSIGN_OR_RETURN(CudaBuffer b, health_->Note(CudaBuffer::Allocate(ctx_, bytes)));
      scratch_ = std::make_unique<CudaRawBuffer>(std::move(b), health_, uploader_);
    }
    return scratch_->Fill(++scratch_fills_ & 0xff);
  }
  bool can_stop_runs() const override { return false; }
  bool has_graphs() const override { return ctx_->api().HasGraphs(); }
  absl::StatusOr<std::unique_ptr<KernelGraph>> MakeGraph(
      std::span<const GraphLaunch> launches) override {
    RETURN_IF_ERROR(health_->Check());
    ASSIGN_OR_RETURN(CudaGraph graph, health_->Note(CudaGraph::Create(ctx_)));
    std::vector<CudaKernel*> kernels;
    for (const GraphLaunch& g : launches) {
      auto* kernel = dynamic_cast<CudaKernel*>(g.program);
      if (kernel == nullptr)
        return absl::InvalidArgumentError(
            absl::StrCat("a graph of ", name_, " takes only programs ", name_, " loaded"));
      ASSIGN_OR_RETURN(CudaKernel::PreparedLaunch l,
                       kernel->Prepare(g.bufs, g.vals, g.global, g.local));
      RETURN_IF_ERROR(health_->Note(
          graph
              .AddKernel(kernel->program(), CudaKernelArgs(l.ptrs, l.vars, l.maps), l.dims, g.after)
              .status()));
      kernels.push_back(kernel);
    }
    RETURN_IF_ERROR(health_->Note(graph.Instantiate()));
    return std::make_unique<CudaKernelGraph>(std::move(graph), std::move(kernels), health_);
  }
  const GpuDescription* gpu() const override { return &gpu_; }

 private:
  absl::StatusOr<std::shared_ptr<RawBuffer>> AllocateUncached(size_t nbytes) {
    ASSIGN_OR_RETURN(CudaBuffer b, health_->Note(CudaBuffer::Allocate(ctx_, nbytes)));
    return std::make_shared<CudaRawBuffer>(std::move(b), health_, uploader_);
  }
  absl::StatusOr<std::unique_ptr<Program>> LoadWithShared(
      const std::string& function_name, const std::string& lib, uint32_t shared,
      std::vector<TensorMapSpec> tensor_maps = {}) {
    RETURN_IF_ERROR(health_->Check());
    ASSIGN_OR_RETURN(CudaProgram p, health_->Note(CudaProgram::Load(ctx_, function_name, lib)));
    return std::make_unique<CudaKernel>(std::move(p), health_, ctx_->info(), shared,
                                        std::move(tensor_maps));
  }
  const std::string name_;
  std::shared_ptr<CudaContext> ctx_;
  std::shared_ptr<Health> health_;
  std::unique_ptr<Renderer> renderer_;
  KernelCompiler compiler_;
  const std::vector<std::string> tool_dirs_;  // where nvdisasm is looked for after PATH
  const std::string temp_dir_;                // where NVRTC's copies are made
  std::shared_ptr<PinnedUploader> uploader_;  // copy-ins; buffers hold it too
  GpuDescription gpu_;
  std::mutex scratch_mu_;
  std::unique_ptr<CudaRawBuffer> scratch_;  // what InvalidateCaches writes
  uint32_t scratch_fills_ = 0;
  std::unique_ptr<LruAllocator> lru_;  // last: it frees what it keeps before the rest goes
};

}  // namespace

std::array<int64_t, 3> PickLocalSize(const std::array<int64_t, 3>& global,
                                     const std::array<int, 3>& max_block, int max_threads) {
  std::array<int64_t, 3> local = {1, 1, 1};
  int64_t budget = std::max(max_threads, 1);
  for (int i = 0; i < 3; ++i) {
    int64_t l = 1;
    while (l * 2 <= 1024 && l * 2 <= max_block[i] && l * 2 <= budget && global[i] % (l * 2) == 0)
      l *= 2;
    local[i] = l;
    budget /= l;
  }
  return local;
}

absl::StatusOr<std::unique_ptr<Device>> MakeCudaDevice(const std::string& name,
                                                       const CudaDeviceOptions& options) {
  auto unavailable = [&](const absl::Status& s) {
    return absl::Status(
        s.code() == absl::StatusCode::kInvalidArgument ? s.code() : absl::StatusCode::kUnavailable,
        absl::StrCat("device ", name, " is not available: ", s.message()));
  };
  ASSIGN_OR_RETURN(int ordinal, DeviceOrdinal(name));
  absl::StatusOr<std::shared_ptr<const CudaDriverApi>> api = CudaDriverApi::Load(options.libs);
  if (!api.ok()) return unavailable(api.status());
  absl::StatusOr<std::shared_ptr<CudaContext>> ctx = CudaContext::Open(*api, ordinal);
  if (!ctx.ok()) return unavailable(ctx.status());
  const CudaDeviceInfo& info = (*ctx)->info();
  absl::StatusOr<CudaArch> arch = ParseCudaArch(info.arch());
  if (!arch.ok()) return unavailable(arch.status());
  KernelCompiler compiler;
  std::unique_ptr<Renderer> renderer;
  std::string runtime;
  std::string nvrtc_file;  // where the toolkit is whose nvdisasm DEBUG=7 runs
  if (options.ptx) {
    // The reference's CompilerPair(PTXRenderer, PTXCompiler): PTX for the driver's JIT, which
    // needs no toolkit library at all.
    renderer = std::make_unique<PtxRenderer>(*arch);
    ASSIGN_OR_RETURN(compiler.ptx, PtxCompiler::Create(nullptr, {.arch = arch->name(),
                                                                 .assemble = false,
                                                                 .cachelevel = options.cachelevel,
                                                                 .cache_dir = options.cache_dir}));
    if (absl::StatusOr<DynamicLibrary> jit =
            DynamicLibrary::Open("the driver's PTX JIT compiler",
                                 std::vector<std::string>{"libnvidia-ptxjitcompiler.so.1"});
        jit.ok())
      compiler.ptx_jit = *std::move(jit);
    runtime = "driver PTX JIT";
  } else {
    renderer = std::make_unique<CudaRenderer>(*arch);
    // Without NVRTC the GPU still holds and copies memory; compiling reports what is missing.
    runtime = "NVRTC unavailable";
    if (absl::StatusOr<std::shared_ptr<const NvrtcApi>> nvrtc = NvrtcApi::Load(options.libs);
        nvrtc.ok()) {
      runtime = absl::StrCat("NVRTC ", (*nvrtc)->version_major, ".", (*nvrtc)->version_minor);
      nvrtc_file = (*nvrtc)->library.file();
      compiler.nvrtc = NvrtcCompiler::Create(*nvrtc, {.arch = CompileArch(*arch).name(),
                                                      .output = CudaBinaryKind::kCubin,
                                                      .include_dirs = CudaIncludeDirs(options.libs),
                                                      .cachelevel = options.cachelevel,
                                                      .cache_dir = options.cache_dir});
    } else {
      compiler.nvrtc = nvrtc.status();
    }
  }
  return std::unique_ptr<Device>(
      new CudaDevice(name, *std::move(ctx), std::move(renderer), std::move(compiler),
                     std::move(runtime), CudaToolDirs(options.libs, nvrtc_file), options.temp_dir,
                     options.lru));
}

}  // namespace tg
