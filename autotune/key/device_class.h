// File: autotune/key/device_class.h
// The device class: a fingerprint of the machine a kernel timing is valid for. Two machines
// of one class run a kernel at the same speed (within noise), so a tuned result from one is
// valid on the other; timings are compared and cached only within a class.
//
// Extends the reference's beam-cache key (tinygrad/codegen/opt/search.py keys by device name
// and renderer suffix only, so a cache file copied to another CPU answers with the first
// CPU's opts).
//
// For a CPU the class is the model name, the ISA flags that change generated code or its
// speed (vector widths, FMA, VNNI, AMX, ...: not the kernel's bug list or hypervisor flags),
// the cores kernels may use, the kernel compiler's identity and the renderer. For a GPU it is
// the GPU's name and compute capability, the driver's and the kernel compiler's versions, the
// compiler's identity (NVRTC version, arch, flags) and the renderer; not the host CPU, which a
// kernel's GPU time does not depend on. A worker announces its class; the digest is the short
// form.
//
// Example:
//   ASSIGN_OR_RETURN(Device* dev, GetDevice("CPU"));
//   ASSIGN_OR_RETURN(DeviceClass dc, DeviceClassFor(*dev));
//   dc.Digest()     // "3f1c0a9e5b7d2c41": the same on every machine of this class
//   dc.Describe()   // "CPU | Intel(R) Xeon(R) ... | avx avx2 avx512f ... | 2 cores | ..."
#ifndef AUTOTUNE_KEY_DEVICE_CLASS_H_
#define AUTOTUNE_KEY_DEVICE_CLASS_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/base/config.h"
#include "tinygrad/codegen/renderer.h"
#include "tinygrad/engine/device.h"

namespace tg::autotune {

struct DeviceClass {
  std::string device;                  // the backend kind: "CPU", "CUDA", ...
  std::string cpu_model;               // "model name (family F, model M)"; empty for a GPU
  std::vector<std::string> isa_flags;  // sorted; only RelevantIsaFlags()
  int cores = 0;                       // cores a kernel may use (1 without THREADS)
  std::string gpu_name;                // "NVIDIA H100 80GB HBM3"
  std::string gpu_arch;                // "sm_90", "gfx1100"
  std::string gpu_driver;              // driver and runtime versions: "CUDA 13.0 (580.65.06), NVRTC 13.0"
  std::string compiler_id;             // Device::compiler_id(): compiler and its flags
  std::string renderer;                // RendererName()

  // 16 hex digits of a stable hash of every field (tinygrad/base/stable_hash.h): the same on
  // every machine and process for the same class.
  std::string Digest() const;
  // One line for people: "CPU | <model> | <flags> | <n> cores | <renderer> | <compiler>".
  std::string Describe() const;

  friend bool operator==(const DeviceClass&, const DeviceClass&) = default;
};

// What /proc/cpuinfo says about the CPU.
struct CpuInfo {
  std::string model_name;          // first "model name" (x86) or "CPU implementer/part" (ARM)
  std::string family;              // x86 "cpu family"
  std::string model;               // x86 "model"
  std::vector<std::string> flags;  // "flags"/"Features" common to every processor, sorted
  int logical_cpus = 0;            // "processor" entries
};

// Parses the text of /proc/cpuinfo (x86 and ARM layouts). Missing fields stay empty.
CpuInfo ParseCpuInfo(std::string_view text);

// The flags of `flags` that change what a kernel compiles to or how fast it runs, sorted.
std::vector<std::string> RelevantIsaFlags(const std::vector<std::string>& flags);

// The renderer's identity: its class name (demangled) and suffix, e.g. "tg::ClangRenderer".
std::string RendererName(const Renderer& r);

// A CPU class from parsed cpuinfo, for kernels that may run on `cores` cores, compiled for
// `cpu_target` (runtime/cpu/cpu_target.h): for an x86-64 level, isa_flags keeps only the
// CPU's flags that the level includes, so records tuned for AVX2 on an AVX-512 machine never
// mix with that machine's AVX-512 records (its compiler id differs too).
DeviceClass CpuDeviceClass(const CpuInfo& info, int cores, std::string compiler_id, std::string renderer,
                           std::string_view cpu_target = {});

// A GPU class from the device's description (GpuDeviceClass: the GPU fields, no host CPU).
DeviceClass GpuDeviceClass(const std::string& device, const GpuDescription& gpu, std::string compiler_id,
                           std::string renderer);

// The class of `dev` on this machine. A GPU (dev.gpu()): GpuDeviceClass. A CPU: reads
// /proc/cpuinfo, dev.compiler_id(), dev.cpu_target() and dev.renderer() (whose threads are
// the cores a kernel may use: THREADS, CPU_COUNT); errors: /proc/cpuinfo unreadable
// (non-Linux).
absl::StatusOr<DeviceClass> DeviceClassFor(const Device& dev);

}  // namespace tg::autotune

#endif  // AUTOTUNE_KEY_DEVICE_CLASS_H_
