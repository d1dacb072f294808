// File: tinygrad/engine/realize.cc
// Port of tinygrad/engine/realize.py (runners, method cache, ExecItem.run, run_schedule) and
// Tensor.realize's schedule -> memory plan -> run sequence.
#include "tinygrad/engine/realize.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <mutex>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/config.h"
#include "tinygrad/base/device_name.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/base/terminal.h"
#include "tinygrad/codegen/codegen_options.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/engine/buffer.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/engine/diagnostics.h"
#include "tinygrad/engine/exec_item.h"
#include "tinygrad/engine/memory.h"
#include "tinygrad/engine/opt_chooser.h"
#include "tinygrad/schedule/schedule.h"
#include "tinygrad/schedule/schedule_options.h"
#include "tinygrad/uop/multi.h"
#include "tinygrad/uop/render.h"
#include "tinygrad/uop/spec.h"

namespace tg {
namespace {

// What a realize takes from the settings: read once, at the Tensor API's edge (Realize), and
// passed to everything below it.
struct RealizeSettings {
  int debug = 0;  // DEBUG
  int beam = 0;   // BEAM: only a tuner (an installed KernelOptChooser) acts on it
  bool no_memory_planner = false;
  CodegenOptions codegen;
  ScheduleOptions schedule;
  DeviceOptions device;

  static RealizeSettings FromConfig(const Config& c) {
    return {.debug = c.debug,
            .beam = c.beam,
            .no_memory_planner = c.no_memory_planner,
            .codegen = CodegenOptions::FromConfig(c),
            .schedule = ScheduleOptions::FromConfig(c),
            .device = DeviceOptions::FromConfig(c)};
  }
};

// What the renderer lets a kernel use that its compiler id does not say: the CPU renderers'
// THREADS and CPU_COUNT.
std::string RendererLimits(const Renderer& r) {
  return absl::StrCat("threads=", r.has_threads,
                      " global_max=", r.global_max ? absl::StrJoin(*r.global_max, ",") : "none");
}

// A rendered and compiled kernel, before it is loaded on a device: what devices of one kind
// and compiler share.
struct CompiledProgram {
  ProgramSpec spec;
  std::string lib;
};

// tinygrad's method_cache: (device, compiler, ast key, BEAM, NOOPT, DEVECTORIZE) -> runner, plus
// the renderer's thread limits, all codegen options and the installed opt chooser (a tuner may
// pick other opts than the default). Like the reference's second key (the device's kind instead
// of its name), a kernel compiled for one GPU is loaded on another of the same kind and
// compiler ("CUDA:1" beside "CUDA") without rendering or compiling it again; the runner itself
// is per device, as a loaded program lives on one device.
// DEBUG>=7: what the device made of a kernel (the reference's Compiler.disassemble), or one
// line saying why it cannot be shown (no disassembler installed): never a failed run.
void PrintDisassembly(const Device& dev, const std::string& lib) {
  absl::StatusOr<std::string> text = dev.Disassemble(lib);
  if (text.ok()) {
    std::cout << *text << "\n";
  } else {
    std::cout << "DEBUG=7: no disassembly: " << text.status().message() << "\n";
  }
}

class MethodCache {
 public:
  static MethodCache& Get() {
    static MethodCache* const cache = new MethodCache();
    return *cache;
  }

  absl::StatusOr<CompiledRunner*> GetRunner(Device& dev, const UOp& ast, const RealizeSettings& s) {
    const CodegenOptions& codegen = s.codegen;
    KernelOptChooser* chooser = GetKernelOptChooser();
    if (chooser == nullptr && s.beam >= 1) WarnBeamWithoutTuner(s.beam);
    Key key{dev.name(), dev.compiler_id(), RendererLimits(dev.renderer()), ast.key(), s.beam,
            codegen.KeyText(), chooser != nullptr ? chooser->id() : ""};
    Key kind_key = key;
    std::get<0>(kind_key) = std::string(DeviceKind(dev.name()));
    std::shared_ptr<const CompiledProgram> compiled;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (auto it = cache_.find(key); it != cache_.end()) return it->second.get();
      if (auto it = programs_.find(kind_key); it != programs_.end()) compiled = it->second;
    }
    auto t0 = std::chrono::steady_clock::now();
    auto t1 = t0;
    if (compiled == nullptr) {
      ASSIGN_OR_RETURN(ChosenKernel k, WithChosenOpts(ast, dev, codegen, s.beam));
      absl::StatusOr<CompiledProgram> built = Build(dev, ast, k.ast, s, t1);
      if (!built.ok() && k.chosen.has_value()) {
        // The chooser's opts (a record of a shared database, maybe) fail here: the default
        // opts still make a kernel, and one bad record must not stop the run.
        absl::StatusOr<CompiledProgram> fallback = Build(dev, ast, ast, s, t1);
        if (fallback.ok()) {
          WarnChosenOptsFailed(*k.chosen, fallback->spec.name, built.status());
          GetEngineStats().chosen_opts_failed += 1;
        } else {
          fallback = absl::Status(fallback.status().code(),
                                  absl::StrCat(fallback.status().message(), " (with the opts of ",
                                               k.chosen->origin, ": ", built.status().message(), ")"));
        }
        built = std::move(fallback);
      }
      RETURN_IF_ERROR(built.status());
      compiled = std::make_shared<const CompiledProgram>(*std::move(built));
    }
    ASSIGN_OR_RETURN(std::unique_ptr<Program> prog, dev.LoadProgram(compiled->spec, compiled->lib));
    EngineStats& stats = GetEngineStats();
    stats.codegen_s += std::chrono::duration<double>(t1 - t0).count();
    stats.compile_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    stats.programs_built += 1;
    auto runner = std::make_unique<CompiledRunner>(CompiledRunner{compiled->spec, std::move(prog)});
    std::lock_guard<std::mutex> lock(mu_);
    programs_.try_emplace(kind_key, compiled);
    auto [it, fresh] = cache_.try_emplace(key, std::move(runner));
    return it->second.get();
  }

  size_t size() {
    std::lock_guard<std::mutex> lock(mu_);
    return cache_.size();
  }

 private:
  // `to_lower` (`ast` with the opts it is to get) lowered and compiled; `t1` is set to when
  // the lowering ended.
  static absl::StatusOr<CompiledProgram> Build(Device& dev, const UOp& ast, const UOp& to_lower,
                                               const RealizeSettings& s,
                                               std::chrono::steady_clock::time_point& t1) {
    ASSIGN_OR_RETURN(ProgramSpec spec, GetProgram(to_lower, dev.renderer(), s.codegen));
    t1 = std::chrono::steady_clock::now();
    if (s.debug >= 3) {
      // DEBUG>=5 already printed the AST inside GetProgram.
      if (s.debug < 5) std::cout << ForStream(PrettyPrint(ast), stdout) << "\n";
      std::string opts;
      for (const Arg& o : spec.applied_opts)
        absl::StrAppend(&opts, opts.empty() ? "" : ", ", o.repr());
      std::cout << "applied opts: [" << opts << "]\n";
    }
    if (s.debug >= 4) std::cout << spec.src << "\n";
    ASSIGN_OR_RETURN(std::string lib, dev.Compile(spec));
    if (s.debug >= 7) PrintDisassembly(dev, lib);
    return CompiledProgram{std::move(spec), std::move(lib)};
  }

  // Once per kernel: the method cache keeps the kernel built with the default opts.
  static void WarnChosenOptsFailed(const ChosenOpts& chosen, std::string_view kernel, const absl::Status& why) {
    std::string opts;
    for (const Opt& o : chosen.opts) absl::StrAppend(&opts, opts.empty() ? "" : ", ", o.ToString());
    std::cerr << "tinygrad-cc: kernel " << StripAnsi(kernel) << ": the opts [" << opts << "] of "
              << chosen.origin << " do not work here (" << why.message()
              << "); it runs with the default opts" << (chosen.remedy.empty() ? "" : "; ") << chosen.remedy
              << "\n";
  }

  // BEAM >= 1 with nothing installed that could search: said once, the default opts are used.
  static void WarnBeamWithoutTuner(int beam) {
    static std::atomic<bool> warned{false};
    if (!warned.exchange(true))
      std::cerr << "tinygrad-cc: BEAM=" << beam
                << " is set but no tuner is installed (link //autotune:tuner and install it); "
                   "using the default opts\n";
  }

  // (device, compiler, renderer limits, AST, BEAM, codegen options' key text, opt chooser); in
  // programs_ the device's kind instead of its name.
  using Key = std::tuple<std::string, std::string, std::string, uint64_t, int, std::string, std::string>;
  std::mutex mu_;
  absl::flat_hash_map<Key, std::unique_ptr<CompiledRunner>> cache_;
  absl::flat_hash_map<Key, std::shared_ptr<const CompiledProgram>> programs_;
};

// tinygrad's expansion of a kernel of MultiBuffers (create_schedule_with_vars): an item whose
// buffers are on several devices becomes one item per device, on that device's part of each
// buffer (an MSELECT of it), with the kernel's _device_num fixed to the device's position.
absl::StatusOr<std::vector<ScheduleItem>> SplitByDevice(std::vector<ScheduleItem> items) {
  std::vector<ScheduleItem> out;
  for (ScheduleItem& item : items) {
    size_t devices = 0;
    for (const UOp& b : item.bufs)
      if (b.device().is_tuple()) devices = b.device().size();
    if (devices == 0) {
      out.push_back(std::move(item));
      continue;
    }
    for (const UOp& b : item.bufs)
      if (!b.device().is_tuple() || b.device().size() != devices)
        return absl::InternalError("a kernel's buffers must all be on the same devices");
    bool uses_device_num = false;
    for (const UOp& u : item.ast.toposort())
      uses_device_num |= u.op() == Ops::DEFINE_VAR && u.arg()[0].str() == kDeviceNumVar;
    for (size_t j = 0; j < devices; ++j) {
      ScheduleItem one{.ast = item.ast, .bufs = {}, .fixedvars = item.fixedvars};
      for (const UOp& b : item.bufs)
        one.bufs.push_back(b.op() == Ops::MSTACK ? b.src(j) : Mselect(b, static_cast<int64_t>(j)));
      if (uses_device_num) one.fixedvars[std::string(kDeviceNumVar)] = static_cast<int64_t>(j);
      out.push_back(std::move(one));
    }
  }
  return out;
}

}  // namespace

size_t MethodCacheSize() { return MethodCache::Get().size(); }

absl::StatusOr<absl::flat_hash_map<UOp, UOp>> Realize(std::span<const UOp> roots) {
  // The Tensor API's edge: the settings are read here, once, and become the options of every
  // pass, device and cache below.
  const Config& c = GetConfig();
  const RealizeSettings settings = RealizeSettings::FromConfig(c);
  // SPEC >= 2's per-rewrite check and TRACK_MATCH_STATS act process-wide, in the rewriter.
  ApplyDiagnostics(c);
  auto start = std::chrono::steady_clock::now();
  ASSIGN_OR_RETURN(Schedule sched, CreateScheduleWithVars(UOp::Sink(roots), settings.schedule));
  GetEngineStats().schedules += 1;
  GetEngineStats().schedule_s +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  VarVals var_vals;
  for (const auto& [name, v] : sched.var_vals) var_vals[name] = ConstValue(v);

  // Buffers of every item; BUFFER_VIEW items make their output a view of their input. An item
  // of multi-device buffers runs once per device, on that device's buffers.
  BufferTable& table = BufferTable::Get();
  ASSIGN_OR_RETURN(sched.items, SplitByDevice(std::move(sched.items)));
  std::vector<BufferList> item_bufs;
  for (const ScheduleItem& item : sched.items) {
    BufferList bl;
    for (const UOp& b : item.bufs) bl.push_back(table.GetOrCreate(b));
    if (item.ast.op() == Ops::BUFFER_VIEW && bl.size() == 2 && bl[0]->base() == nullptr &&
        !bl[0]->is_allocated()) {
      std::shared_ptr<Buffer> base = bl[1]->base() ? bl[1]->base() : bl[1];
      int64_t offset = item.ast.arg()[1].int64() * bl[0]->dtype().itemsize() + bl[1]->offset();
      bl[0] = std::make_shared<Buffer>(base, bl[0]->size(), bl[0]->dtype(), offset);
      table.Set(item.bufs[0], bl[0]);
    }
    item_bufs.push_back(std::move(bl));
  }

  // Keep what callers hold after this: the realized outputs, and everything copies touch.
  absl::flat_hash_set<const Buffer*> keep;
  for (const auto& [from, to] : sched.becomes_map) {
    UOp base = to.base();
    if (base.op() == Ops::AFTER) base = base.src(0);
    if (base.op() == Ops::BUFFER)
      for (const std::shared_ptr<Buffer>& b : table.FindShards(base)) keep.insert(b.get());
  }
  for (size_t i = 0; i < sched.items.size(); ++i)
    if (sched.items[i].ast.op() != Ops::SINK)
      for (const auto& b : item_bufs[i]) keep.insert(b.get());
  absl::flat_hash_map<const Buffer*, std::shared_ptr<Buffer>> planned;
  if (!settings.no_memory_planner) planned = PlanMemory(item_bufs, keep);
  for (BufferList& bl : item_bufs)
    for (std::shared_ptr<Buffer>& b : bl)
      if (auto it = planned.find(b.get()); it != planned.end()) b = it->second;

  int64_t kernels_before = GetEngineStats().kernel_count;
  double time_before = GetEngineStats().time_sum_s;
  const ExecOptions exec_options{.debug = settings.debug, .device = settings.device};
  ExecItemCapture* capture = ExecItemCapture::Active();
  for (size_t i = 0; i < sched.items.size(); ++i) {
    const ScheduleItem& item = sched.items[i];
    ExecItem ei{.bufs = std::move(item_bufs[i]), .fixedvars = item.fixedvars};
    switch (item.ast.op()) {
      case Ops::SINK: {
        if (ei.bufs.empty()) return absl::InternalError("kernel without buffers");
        ASSIGN_OR_RETURN(ei.device, GetDevice(ei.bufs[0]->device(), settings.device));
        ASSIGN_OR_RETURN(ei.runner, MethodCache::Get().GetRunner(*ei.device, item.ast, settings));
        break;
      }
      case Ops::COPY:
        ei.kind = ExecItem::Kind::kCopy;
        break;
      case Ops::BUFFER_VIEW:
        ei.kind = ExecItem::Kind::kView;  // the view was set up above
        break;
      default:
        return absl::UnimplementedError(
            absl::StrCat("can't run a schedule item of ", std::string(OpName(item.ast.op()))));
    }
    RETURN_IF_ERROR(RunExecItem(ei, var_vals, exec_options));
    if (capture != nullptr) capture->Add(std::move(ei), exec_options);
  }
  table.Sweep();
  if (settings.debug >= 1) {
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << absl::StrFormat("realized %d kernels in %.2f ms (kernel time %.2f ms)%s\n",
                                 GetEngineStats().kernel_count - kernels_before, wall * 1e3,
                                 (GetEngineStats().time_sum_s - time_before) * 1e3,
                                 sched.cache_hit ? ", schedule cache hit" : "");
  }
  return std::move(sched.becomes_map);
}

namespace {
// A new BUFFER UOp with its Buffer, for `nbytes` of host data of `dtype`.
absl::StatusOr<std::pair<UOp, std::shared_ptr<Buffer>>> NewBufferForHost(const std::string& device,
                                                                         DType dtype, size_t nbytes) {
  size_t item = dtype.itemsize();
  if (item == 0 || nbytes % item != 0)
    return absl::InvalidArgumentError(
        absl::StrCat(nbytes, " bytes are not a whole number of ", dtype.name(), " elements"));
  UOp b = UOp::NewBuffer(CanonicalDeviceName(device), static_cast<int64_t>(nbytes / item), dtype);
  return std::make_pair(b, BufferTable::Get().GetOrCreate(b));
}
}  // namespace

absl::StatusOr<UOp> BufferFromHost(const std::string& device, DType dtype,
                                   std::span<const std::byte> data) {
  ASSIGN_OR_RETURN(auto b, NewBufferForHost(device, dtype, data.size()));
  // The Tensor API's edge, like Realize: the device as the process's settings make it.
  RETURN_IF_ERROR(b.second->CopyIn(data, DeviceOptions::FromConfig(GetConfig())));
  return b.first;
}

absl::StatusOr<UOp> BufferOverHost(const std::string& device, DType dtype,
                                   std::span<const std::byte> data,
                                   std::shared_ptr<const void> owner) {
  ASSIGN_OR_RETURN(auto b, NewBufferForHost(device, dtype, data.size()));
  RETURN_IF_ERROR(b.second->SetPendingContents(data, std::move(owner)));
  return b.first;
}

absl::Status EnsureOnDevice(const UOp& buffer) {
  if (buffer.op() == Ops::MSTACK) {
    for (const UOp& b : buffer.src()) RETURN_IF_ERROR(EnsureOnDevice(b));
    return absl::OkStatus();
  }
  if (buffer.op() != Ops::BUFFER) return absl::OkStatus();
  std::shared_ptr<Buffer> b = BufferTable::Get().Find(buffer);
  if (!b || !b->has_pending_contents()) return absl::OkStatus();
  // The Tensor API's edge, like Realize: the device as the process's settings make it.
  return b->EnsureAllocated(DeviceOptions::FromConfig(GetConfig()));
}

absl::Status CopyOut(const UOp& buffer, std::span<std::byte> out) {
  if (buffer.op() != Ops::BUFFER)
    return absl::InvalidArgumentError(
        absl::StrCat("CopyOut needs a BUFFER, got ", std::string(OpName(buffer.op()))));
  std::shared_ptr<Buffer> b = BufferTable::Get().Find(buffer);
  if (!b) return absl::FailedPreconditionError("CopyOut of a buffer that was never realized");
  return b->CopyOut(out);
}

absl::Status CopyIn(const UOp& buffer, std::span<const std::byte> data) {
  if (buffer.op() != Ops::BUFFER)
    return absl::InvalidArgumentError(
        absl::StrCat("CopyIn needs a BUFFER, got ", std::string(OpName(buffer.op()))));
  // The Tensor API's edge, like Realize: the device as the process's settings make it.
  return BufferTable::Get().GetOrCreate(buffer)->CopyIn(data, DeviceOptions::FromConfig(GetConfig()));
}

}  // namespace tg
