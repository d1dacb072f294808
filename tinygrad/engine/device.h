// File: tinygrad/engine/device.h
// Port of tinygrad/device.py (Compiled, Allocator, the Device registry): what the engine
// needs from a backend, and the table of backends.
//
// A Device renders with its Renderer, compiles the source to a loadable library, loads
// programs and allocates memory. Backends are wired explicitly in GetDevice() (no static
// registration): "CPU" is clang-compiled C run in this process; "CUDA" (and "CUDA:1", ... for
// more GPUs) an NVIDIA GPU through the driver API, kernels compiled by NVRTC (cuda_device.h);
// "PYTHON" the UOp emulator, a GPU's semantics run on the host (emulator_device.h).
// Names are canonicalized as tinygrad does ("cuda:0" is "CUDA").
//
// How a device renders and compiles (tinygrad's CPU_LLVM, CPU_CC, ...) is a DeviceOptions value
// it takes when it is made, and never changes after. The registry keeps one device per (name,
// options), so code that was handed options gets the device they describe, and a program whose
// settings change (a ScopedConfig around a realize) gets another device, not a changed one.
//
// Example:
//   ASSIGN_OR_RETURN(Device* dev, GetDevice("CPU", DeviceOptions::FromConfig(config)));
//   ASSIGN_OR_RETURN(std::string lib, dev->Compile(spec));
//   ASSIGN_OR_RETURN(auto prog, dev->Load(spec.function_name, lib));
#ifndef TINYGRAD_ENGINE_DEVICE_H_
#define TINYGRAD_ENGINE_DEVICE_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tinygrad/base/config.h"
#include "tinygrad/codegen/renderer.h"
#include "tinygrad/engine/cpu_device_options.h"
#include "tinygrad/engine/cuda_device_options.h"
#include "tinygrad/engine/emulator_device_options.h"

namespace tg {

// Device memory; freed when the last owner lets go.
class RawBuffer {
 public:
  virtual ~RawBuffer() = default;
  // An address the device's programs take as a buffer argument. For a GPU it is the device
  // address (not host memory: never dereference it), which Program::Run passes on.
  virtual void* data() = 0;
  virtual size_t nbytes() const = 0;
  // Host memory into [offset, offset + src.size()) / out of [offset, offset + dst.size()).
  // InvalidArgument for a range outside the buffer; a device error otherwise (a GPU copy can
  // fail, e.g. once a faulted kernel has lost the device: see IsDeviceLost).
  virtual absl::Status CopyIn(std::span<const std::byte> src, size_t offset = 0) = 0;
  virtual absl::Status CopyOut(std::span<std::byte> dst, size_t offset = 0) const = 0;
  // Copies `n` bytes of `src` at `src_offset` into [offset, offset + n) without the host, where
  // the two buffers' devices can (the reference's allocator _transfer: a GPU's buffer from
  // another GPU of its kind, a peer copy). Unimplemented where they cannot (the default: the
  // caller copies through the host); InvalidArgument for a range outside either buffer; a
  // device error otherwise.
  virtual absl::Status CopyFromDevice(const RawBuffer& src, size_t src_offset, size_t offset, size_t n);
};

// A loaded kernel.
class Program {
 public:
  virtual ~Program() = default;
  // Runs once. Buffers in the kernel's argument order, then the variable values in
  // ProgramSpec::vars order. Returns the seconds it took when `wait`. A finite stop_after_s
  // (the autotuner's early stop and timeout) cuts the run short where the backend can:
  // DeadlineExceeded, and the outputs are garbage.
  virtual absl::StatusOr<double> Run(std::span<void* const> bufs, std::span<const int64_t> vals,
                                     const LaunchDims& global_size,
                                     const std::optional<LaunchDims>& local_size, bool wait,
                                     double stop_after_s) = 0;
  static constexpr double kNoStop = std::numeric_limits<double>::infinity();
};

// One kernel launch of a graph (Device::MakeGraph): what Program::Run takes, and the launches
// of the graph it must follow.
struct GraphLaunch {
  Program* program = nullptr;  // a program the device loaded; it must outlive the graph
  std::vector<void*> bufs;
  std::vector<int64_t> vals;
  LaunchDims global{1, 1, 1};
  std::optional<LaunchDims> local;
  std::vector<size_t> after;  // indices of earlier launches whose results it uses or overwrites
};

// Kernel launches recorded once and run with one call, their arguments changed in place between
// runs (tinygrad's GraphRunner; CUDA graphs): a TinyJit's replays pay one launch per batch of
// kernels instead of one per kernel.
class KernelGraph {
 public:
  virtual ~KernelGraph() = default;
  // Launch `index`'s buffers, values and sizes from the next Run on (its program and what it
  // follows stay). A global size of zero skips it. Device errors pass through.
  virtual absl::Status Update(size_t index, std::span<void* const> bufs,
                              std::span<const int64_t> vals, const LaunchDims& global,
                              const std::optional<LaunchDims>& local) = 0;
  // Runs every launch, each after those it follows. With `wait`, blocks until they are done and
  // returns the seconds they took; without, 0 once queued.
  virtual absl::StatusOr<double> Run(bool wait) = 0;
};

// What a GPU is: the device class (the tuning key) and the optimizer's and measurer's limits
// come from it. Filled by GPU backends; a CPU device has none.
struct GpuDescription {
  std::string name;        // "NVIDIA H100 80GB HBM3"
  std::string arch;        // "sm_90"
  std::string driver;      // the driver's version: "CUDA 13.0 (580.65.06)"
  std::string runtime;     // the kernel compiler's version: "NVRTC 13.0"
  int compute_units = 0;   // streaming multiprocessors
  size_t memory_bytes = 0;
  size_t l2_bytes = 0;
  int max_threads_per_block = 0;  // the most threads a launch's local size may multiply to
  int max_shared_per_block = 0;   // bytes of shared memory a kernel may declare
};

class Device {
 public:
  virtual ~Device() = default;
  virtual const std::string& name() const = 0;
  virtual const Renderer& renderer() const = 0;
  // Identifies the compiler and its flags: part of the method-cache key.
  virtual std::string compiler_id() const = 0;
  // The loadable library for a rendered kernel. Thread-safe.
  virtual absl::StatusOr<std::string> Compile(const ProgramSpec& spec) = 0;
  // Readies Compile for `threads` threads calling it at once (the measurer's compile threads):
  // a compiler that serializes part of each compile on a lock of its library (NVRTC) gets an
  // instance of it per thread here, while files can still be opened (a worker's child calls
  // this before its sandbox closes). Compiles work either way: an error says why they still
  // share a lock. Default: nothing to ready.
  virtual absl::Status PrepareCompileThreads(int /*threads*/) { return absl::OkStatus(); }
  // A compiled ProgramSpec, loaded with what its launches need beyond the function: the
  // dynamic shared memory and the tensor maps of a generated matmul (GEMM opt). Devices
  // without them refuse a program that asks for some (Unimplemented); the rest is Load's.
  virtual absl::StatusOr<std::unique_ptr<Program>> LoadProgram(const ProgramSpec& spec,
                                                               const std::string& lib);
  virtual absl::StatusOr<std::unique_ptr<Program>> Load(const std::string& function_name,
                                                        const std::string& lib) = 0;
  virtual absl::StatusOr<std::shared_ptr<RawBuffer>> Allocate(size_t nbytes) = 0;
  // `lib` (what Compile made) for people, as DEBUG=7 prints it (the reference's
  // Compiler.disassemble): the CPU's machine code by objdump, a GPU's SASS or PTX. Errors:
  // NotFound when the disassembler is not installed, Unimplemented for a device without one;
  // either is worth a line to the user, never a failed run.
  virtual absl::StatusOr<std::string> Disassemble(const std::string& lib) const;

  // Waits for everything queued on the device (tinygrad's synchronize): a kernel run without
  // `wait` has finished, and a fault it caused shows here.
  virtual absl::Status Synchronize() { return absl::OkStatus(); }
  // Evicts what earlier runs left in the device's caches so that the next run starts cold, as
  // the reference's BEAM does before each timed run on devices with invalidate_caches (GPUs: a
  // write over a buffer larger than the L2). Nothing to do on a CPU (the reference leaves its
  // caches alone too).
  virtual absl::Status InvalidateCaches() { return absl::OkStatus(); }
  // Whether Program::Run honours stop_after_s. A GPU kernel, once launched, runs to its end.
  virtual bool can_stop_runs() const { return true; }
  // Whether MakeGraph can work here (the reference's Compiled.graph is set).
  virtual bool has_graphs() const { return false; }
  // Records `launches` (of this device's programs) as one graph. Unimplemented on a device
  // without graphs (the default: the emulator, as the reference's PYTHON device): the launches
  // then run one at a time.
  virtual absl::StatusOr<std::unique_ptr<KernelGraph>> MakeGraph(
      std::span<const GraphLaunch> launches);
  // The GPU behind the device; null for a CPU.
  virtual const GpuDescription* gpu() const { return nullptr; }
  // A CPU device's kernels' ISA when it is not the host's (CpuDeviceOptions::cpu_target:
  // "x86-64-v3"); "" for the host's and for every other device.
  virtual std::string_view cpu_target() const { return {}; }
};

// An error saying the device can no longer be used by this process: a GPU kernel faulted
// (illegal address, trap, ...) and poisoned its context, so every later call fails. Memory and
// programs of the device are gone with it; only a new process gets the GPU back (a worker
// replaces its child). The message says what happened.
absl::Status DeviceLostError(std::string_view message);
// Whether `s` is a DeviceLostError.
bool IsDeviceLost(const absl::Status& s);

// The options of every backend; a device reads those of its kind.
struct DeviceOptions {
  CpuDeviceOptions cpu;
  CudaDeviceOptions cuda;
  EmulatorDeviceOptions emulator;

  // At the edge (the Tensor API's realize, `tg`'s commands): the process's settings.
  static DeviceOptions FromConfig(const Config& c) {
    return {.cpu = CpuDeviceOptions::FromConfig(c),
            .cuda = CudaDeviceOptions::FromConfig(c),
            .emulator = EmulatorDeviceOptions::FromConfig(c)};
  }

  friend bool operator==(const DeviceOptions&, const DeviceOptions&) = default;
};

// The device named `name` ("CPU", "CUDA", "CUDA:1"; canonicalized as tinygrad does) made with
// `options`: created on first use of the pair, lives for the process. Devices of one name
// differ only in how they render and compile; memory one allocates is the same memory to every
// other (for CPU: this process's; for a GPU: its primary context's). NotFound for a kind that
// does not exist; Unavailable for one this machine cannot open (no GPU, no CUDA driver: the
// message names what is missing).
absl::StatusOr<Device*> GetDevice(const std::string& name, const DeviceOptions& options);

// GetDevice(name, DeviceOptions::FromConfig(GetConfig())): the device as the process's current
// settings describe it. For program edges (main(), tools, tests); library code below an edge is
// handed its Device or DeviceOptions instead.
absl::StatusOr<Device*> GetDevice(const std::string& name);

}  // namespace tg

#endif  // TINYGRAD_ENGINE_DEVICE_H_
