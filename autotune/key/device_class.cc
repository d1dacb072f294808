// File: autotune/key/device_class.cc
// The device class: /proc/cpuinfo parsing, the ISA flag filter, the digest.
#include "autotune/key/device_class.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tinygrad/base/device_name.h"
#include "tinygrad/base/stable_hash.h"
#include "tinygrad/runtime/cpu/cpu_target.h"

namespace tg::autotune {
namespace {

// Flags (Linux's names) that change code generation or speed: vector ISAs and their
// extensions, FMA, dot-product / matrix units, half/bfloat16 conversion. Everything else in
// the list (bug workarounds, hypervisor, power management, ...) can differ between two
// machines that run kernels identically, and must not split the class.
const std::set<std::string_view>& KnownIsaFlags() {
  // clang-format off
  static const auto* kFlags = new std::set<std::string_view>{
      // x86 (pni is Linux's name for SSE3)
      "pni", "ssse3", "sse4_1", "sse4_2", "avx", "avx2", "fma", "f16c", "bmi1", "bmi2",
      "popcnt", "avx_vnni", "avx512f", "avx512dq", "avx512cd", "avx512bw", "avx512vl",
      "avx512ifma", "avx512vbmi", "avx512_vbmi2", "avx512_vnni", "avx512_bitalg",
      "avx512_vpopcntdq", "avx512_bf16", "avx512_fp16", "amx_tile", "amx_bf16", "amx_int8",
      "amx_fp16",
      // ARM (Features)
      "asimd", "asimdhp", "asimddp", "fphp", "sve", "sve2", "i8mm", "bf16", "sme", "svei8mm",
      "svebf16",
  };
  // clang-format on
  return *kFlags;
}

// Pieces of `s` between `sep`s (empty pieces kept).
std::vector<std::string_view> Split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  for (size_t start = 0;;) {
    size_t end = s.find(sep, start);
    out.push_back(
        s.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) return out;
    start = end + 1;
  }
}

std::string_view Strip(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// 16 lowercase hex digits.
std::string Hex64(uint64_t v) { return absl::StrCat(absl::Hex(v, absl::kZeroPad16)); }

}  // namespace

CpuInfo ParseCpuInfo(std::string_view text) {
  CpuInfo info;
  std::string implementer, part;
  std::vector<std::string> common;  // flags present on every processor seen so far
  bool have_flags = false;
  for (std::string_view line : Split(text, '\n')) {
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view key = Strip(line.substr(0, colon));
    std::string_view value = Strip(line.substr(colon + 1));
    if (key == "processor") {
      ++info.logical_cpus;
    } else if (key == "model name" && info.model_name.empty()) {
      info.model_name = std::string(value);
    } else if (key == "cpu family" && info.family.empty()) {
      info.family = std::string(value);
    } else if (key == "model" && info.model.empty()) {
      info.model = std::string(value);
    } else if (key == "CPU implementer" && implementer.empty()) {
      implementer = std::string(value);
    } else if (key == "CPU part" && part.empty()) {
      part = std::string(value);
    } else if (key == "flags" || key == "Features") {
      // Hybrid CPUs may list different flags per core: a kernel may run on any of them.
      std::vector<std::string> flags;
      for (std::string_view f : Split(value, ' '))
        if (!f.empty()) flags.emplace_back(f);
      std::sort(flags.begin(), flags.end());
      flags.erase(std::unique(flags.begin(), flags.end()), flags.end());
      if (!have_flags) {
        common = std::move(flags);
        have_flags = true;
      } else {
        std::vector<std::string> both;
        std::set_intersection(common.begin(), common.end(), flags.begin(), flags.end(),
                              std::back_inserter(both));
        common = std::move(both);
      }
    }
  }
  // ARM kernels print no model name; implementer and part identify the core design.
  if (info.model_name.empty() && !implementer.empty())
    info.model_name = absl::StrCat("ARM implementer ", implementer, " part ", part);
  info.flags = std::move(common);
  return info;
}

std::vector<std::string> RelevantIsaFlags(const std::vector<std::string>& flags) {
  std::vector<std::string> out;
  for (const std::string& f : flags)
    if (KnownIsaFlags().contains(f)) out.push_back(f);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string RendererName(const Renderer& r) {
  const char* mangled = typeid(r).name();
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(
      abi::__cxa_demangle(mangled, nullptr, nullptr, &status), std::free);
  std::string name = status == 0 && demangled ? demangled.get() : mangled;
  if (!r.suffix.empty()) absl::StrAppend(&name, "/", r.suffix);
  return name;
}

DeviceClass CpuDeviceClass(const CpuInfo& info, int cores, std::string compiler_id,
                           std::string renderer, std::string_view cpu_target) {
  DeviceClass dc;
  dc.device = "CPU";
  dc.cpu_model = info.model_name;
  // Virtual machines often print a vague model name ("AMD EPYC"); family and model tell the
  // core generation apart.
  if (!info.family.empty())
    absl::StrAppend(&dc.cpu_model, " (family ", info.family, ", model ", info.model, ")");
  dc.isa_flags = RelevantIsaFlags(info.flags);
  if (std::optional<std::vector<std::string>> level = CpuTargetIsaFlags(cpu_target)) {
    std::vector<std::string> both;
    std::set_intersection(dc.isa_flags.begin(), dc.isa_flags.end(), level->begin(), level->end(),
                          std::back_inserter(both));
    dc.isa_flags = std::move(both);
  }
  dc.cores = cores;
  dc.compiler_id = std::move(compiler_id);
  dc.renderer = std::move(renderer);
  return dc;
}

DeviceClass GpuDeviceClass(const std::string& device, const GpuDescription& gpu, std::string compiler_id,
                           std::string renderer) {
  DeviceClass dc;
  dc.device = device;
  dc.gpu_name = gpu.name;
  dc.gpu_arch = gpu.arch;
  dc.gpu_driver = gpu.runtime.empty() ? gpu.driver : absl::StrCat(gpu.driver, ", ", gpu.runtime);
  dc.compiler_id = std::move(compiler_id);
  dc.renderer = std::move(renderer);
  return dc;
}

absl::StatusOr<DeviceClass> DeviceClassFor(const Device& dev) {
  // The device's kind, not its renderer's device: the UOp emulator (PYTHON) renders for the GPU
  // it emulates ("CUDA"), but its times are the host's interpreting it.
  const std::string kind(DeviceKind(dev.name()));
  // A GPU's kernel times are the GPU's (events on the device): the host CPU is not part of it.
  if (const GpuDescription* gpu = dev.gpu(); gpu != nullptr)
    return GpuDeviceClass(kind, *gpu, dev.compiler_id(), RendererName(dev.renderer()));
  std::ifstream in("/proc/cpuinfo");
  if (!in) return absl::UnavailableError("device class: cannot read /proc/cpuinfo");
  std::stringstream text;
  text << in.rdbuf();
  // Without threads a kernel runs on one core whatever the machine has; with them, on the
  // renderer's THREAD limit (CPU_COUNT).
  const Renderer& ren = dev.renderer();
  const int cores = ren.has_threads && ren.global_max ? static_cast<int>((*ren.global_max)[0]) : 1;
  DeviceClass dc = CpuDeviceClass(ParseCpuInfo(text.str()), cores, dev.compiler_id(), RendererName(ren),
                                  dev.cpu_target());
  dc.device = kind;
  if (dc.device != "CPU") dc.cores = 0;  // a GPU kernel's speed does not depend on host cores
  return dc;
}

std::string DeviceClass::Digest() const {
  StableHasher h;
  h.AddBytes("tinygrad-cc device class v1");
  for (const std::string* s :
       {&device, &cpu_model, &gpu_name, &gpu_arch, &gpu_driver, &compiler_id, &renderer})
    h.AddBytes(*s);
  h.Add(isa_flags.size());
  for (const std::string& f : isa_flags) h.AddBytes(f);
  h.Add(static_cast<uint64_t>(cores));
  return Hex64(h.Finish());
}

std::string DeviceClass::Describe() const {
  std::vector<std::string> parts = {device};
  if (!cpu_model.empty()) parts.push_back(cpu_model);
  if (!isa_flags.empty()) parts.push_back(absl::StrJoin(isa_flags, " "));
  if (cores > 0) parts.push_back(absl::StrCat(cores, cores == 1 ? " core" : " cores"));
  for (const std::string* s : {&gpu_name, &gpu_arch, &gpu_driver, &renderer})
    if (!s->empty()) parts.push_back(*s);
  // The compiler id may span lines (a --version banner): its first line is enough to read.
  if (!compiler_id.empty()) parts.push_back(compiler_id.substr(0, compiler_id.find('\n')));
  return absl::StrJoin(parts, " | ");
}

}  // namespace tg::autotune
