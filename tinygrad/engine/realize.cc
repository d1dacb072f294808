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
#include "tinygrad/codegen/codegen_options.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/engine/buffer.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/engine/launch.h"
#include "tinygrad/engine/memory.h"
#include "tinygrad/engine/opt_chooser.h"
#include "tinygrad/schedule/schedule.h"
#include "tinygrad/schedule/schedule_options.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/uop/render.h"
#include "tinygrad/uop/spec.h"

namespace tg {
namespace {

using VarVals = absl::flat_hash_map<std::string, ConstValue>;

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

// A compiled kernel (tinygrad's CompiledRunner).
struct CompiledRunner {
  ProgramSpec spec;
  std::unique_ptr<Program> program;
  bool first_run = true;
  std::optional<LaunchShape> chosen_launch;  // the block optimize_local_size chose, once
};

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
      ASSIGN_OR_RETURN(UOp to_lower, WithChosenOpts(ast, dev, codegen));
      ASSIGN_OR_RETURN(ProgramSpec spec, GetProgram(to_lower, dev.renderer(), codegen));
      t1 = std::chrono::steady_clock::now();
      if (s.debug >= 3) {
        // DEBUG>=5 already printed the AST inside GetProgram.
        if (s.debug < 5) std::cout << PrettyPrint(ast) << "\n";
        std::string opts;
        for (const Arg& o : spec.applied_opts)
          absl::StrAppend(&opts, opts.empty() ? "" : ", ", o.repr());
        std::cout << "applied opts: [" << opts << "]\n";
      }
      if (s.debug >= 4) std::cout << spec.src << "\n";
      ASSIGN_OR_RETURN(std::string lib, dev.Compile(spec));
      if (s.debug >= 7) PrintDisassembly(dev, lib);
      compiled = std::make_shared<const CompiledProgram>(CompiledProgram{std::move(spec), std::move(lib)});
    }
    ASSIGN_OR_RETURN(std::unique_ptr<Program> prog, dev.Load(compiled->spec.function_name, compiled->lib));
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

EngineStats& Stats() {
  static EngineStats* const stats = new EngineStats();
  return *stats;
}

absl::StatusOr<int64_t> Infer(const UOp& u, const VarVals& vars) {
  ASSIGN_OR_RETURN(ConstValue v, SymInfer(u, vars));
  return v.to_int64();
}

std::string TimeStr(double seconds) {
  return seconds < 1e-3 ? absl::StrFormat("%7.2fus", seconds * 1e6)
                        : absl::StrFormat("%7.2fms", seconds * 1e3);
}

// tinygrad's DEBUG=2 line for one kernel.
void PrintKernelLine(const std::string& device, const ProgramSpec& spec, size_t nargs, double et,
                     const VarVals& vars) {
  EngineStats& s = Stats();
  auto est = [&](const UOp& u) -> double {
    if (!u) return 0;
    absl::StatusOr<int64_t> v = Infer(u, vars);
    return v.ok() ? static_cast<double>(*v) : 0;
  };
  double ops = est(spec.estimates.ops), lds = est(spec.estimates.lds);
  double mem = std::min(est(spec.estimates.mem), lds);
  double t = et > 0 ? et : 1e-20;
  // The name carries ANSI colors: pad by its visible length, as tinygrad's ansilen does.
  std::string name =
      spec.name +
      std::string(std::max<int>(0, 46 - static_cast<int>(StripAnsi(spec.name).size())), ' ');
  std::cout << absl::StrFormat(
      "*** %-7s %4d %s arg %2d tm %s/%9.2fms (%7.0f GFLOPS %4.0f|%-6.0f GB/s)\n",
      device.substr(0, 7), s.kernel_count, name, nargs, TimeStr(et), s.time_sum_s * 1e3,
      ops / t * 1e-9, mem / t * 1e-9, lds / t * 1e-9);
}

// optimize_local_size for a kernel about to run: its timing runs write the outputs, so an
// output the kernel also reads (an assign) is replaced by a scratch buffer for them, as the
// reference does.
absl::StatusOr<LaunchShape> ChooseLocalSize(Device& dev, const CompiledRunner& runner,
                                            std::vector<void*> args, std::span<const int64_t> vals,
                                            std::span<const std::shared_ptr<Buffer>> bufs,
                                            const LaunchShape& shape) {
  const ProgramSpec& spec = runner.spec;
  std::vector<std::shared_ptr<RawBuffer>> scratch;
  for (int64_t out : spec.outs) {
    auto arg = std::find(spec.globals.begin(), spec.globals.end(), out);
    if (arg == spec.globals.end()) continue;
    void* const data = args[arg - spec.globals.begin()];
    bool read = false;
    for (size_t i = 0; i < spec.globals.size(); ++i)
      read |= spec.globals[i] != out ? args[i] == data
                                     : std::find(spec.ins.begin(), spec.ins.end(), out) != spec.ins.end();
    if (!read) continue;
    ASSIGN_OR_RETURN(std::shared_ptr<RawBuffer> raw, dev.Allocate(bufs[out]->nbytes()));
    args[arg - spec.globals.begin()] = raw->data();
    scratch.push_back(std::move(raw));
  }
  return OptimizeLocalSize(*runner.program, args, vals, shape.global, Program::kNoStop);
}

absl::Status RunKernel(const ScheduleItem& item, std::span<const std::shared_ptr<Buffer>> bufs,
                       const VarVals& var_vals, const RealizeSettings& s) {
  if (bufs.empty()) return absl::InternalError("kernel without buffers");
  ASSIGN_OR_RETURN(Device * dev, GetDevice(bufs[0]->device(), s.device));
  ASSIGN_OR_RETURN(CompiledRunner * runner, MethodCache::Get().GetRunner(*dev, item.ast, s));
  const ProgramSpec& spec = runner->spec;

  std::vector<void*> args;
  for (int64_t slot : spec.globals) {
    if (slot < 0 || slot >= static_cast<int64_t>(bufs.size()))
      return absl::InternalError(
          absl::StrCat("kernel ", spec.name, " uses buffer slot ", slot, " of ", bufs.size()));
    RETURN_IF_ERROR(bufs[slot]->EnsureAllocated(s.device));
    args.push_back(bufs[slot]->data());
  }
  std::vector<int64_t> vals;
  for (const UOp& v : spec.vars) {
    const std::string& name = v.arg()[0].str();
    auto it = var_vals.find(name);
    if (it == var_vals.end())
      return absl::InvalidArgumentError(
          absl::StrCat("kernel ", spec.name, " needs variable '", name, "', which is not bound"));
    vals.push_back(it->second.to_int64());
  }
  ASSIGN_OR_RETURN(LaunchShape shape, LaunchShapeOf(spec, var_vals));
  if (NeedsLocalSize(dev->renderer(), spec)) {
    // The reference's optimize_local_size, once per runner (it replaces the runner's spec).
    if (!runner->chosen_launch) {
      ASSIGN_OR_RETURN(runner->chosen_launch, ChooseLocalSize(*dev, *runner, args, vals, bufs, shape));
    }
    shape = *runner->chosen_launch;
  }
  bool wait = s.debug >= 1;
  ASSIGN_OR_RETURN(double et, runner->program->Run(args, vals, shape.global, shape.local, wait, Program::kNoStop));

  EngineStats& stats = Stats();
  stats.kernel_count += 1;
  stats.time_sum_s += et;
  if (spec.estimates.ops) {
    absl::StatusOr<int64_t> ops = Infer(spec.estimates.ops, var_vals);
    if (ops.ok()) stats.global_ops += *ops;
  }
  if (s.debug >= 2) PrintKernelLine(dev->name(), spec, args.size(), et, var_vals);
  runner->first_run = false;
  return absl::OkStatus();
}

// Device to device where the two devices can (the reference's BufferXfer: GPU to GPU of one
// kind, a peer copy), else through host memory: the source's bytes copied out, then into the
// destination (tinygrad's BufferCopy). A peer copy that fails (two GPUs that cannot reach each
// other) takes the host path too, unless it lost a device.
absl::Status RunCopy(std::span<const std::shared_ptr<Buffer>> bufs, const RealizeSettings& s) {
  const int debug = s.debug;
  if (bufs.size() != 2) return absl::InternalError("COPY needs (dest, src)");
  Buffer& dst = *bufs[0];
  Buffer& src = *bufs[1];
  if (dst.nbytes() != src.nbytes())
    return absl::InternalError(
        absl::StrCat("buffer copy mismatch, ", dst.nbytes(), " != ", src.nbytes()));
  absl::Status direct = absl::UnimplementedError("not between GPUs of one kind");
  if (DeviceKind(dst.device()) == DeviceKind(src.device())) direct = dst.CopyFromDevice(src, s.device);
  if (IsDeviceLost(direct)) return direct;
  if (!direct.ok()) {
    std::vector<std::byte> tmp(src.nbytes());
    RETURN_IF_ERROR(src.CopyOut(tmp));
    RETURN_IF_ERROR(dst.CopyIn(tmp, s.device));
  }
  if (debug >= 2)
    std::cout << absl::StrFormat("*** %-7s %4d copy %8d, %s <- %s%s\n", dst.device().substr(0, 7),
                                 Stats().kernel_count, dst.nbytes(), dst.device(), src.device(),
                                 direct.ok() ? " (device to device)"
                                 : direct.code() == absl::StatusCode::kUnimplemented
                                     ? ""
                                     : absl::StrCat(" (through the host: ", direct.message(), ")"));
  return absl::OkStatus();
}

}  // namespace

EngineStats& GetEngineStats() { return Stats(); }
size_t MethodCacheSize() { return MethodCache::Get().size(); }

absl::StatusOr<absl::flat_hash_map<UOp, UOp>> Realize(std::span<const UOp> roots) {
  // The Tensor API's edge: the settings are read here, once, and become the options of every
  // pass, device and cache below.
  const Config& c = GetConfig();
  const RealizeSettings settings = RealizeSettings::FromConfig(c);
  // SPEC >= 2 also verifies every graph rewrite's result, the scheduler's too (SPEC=1 only
  // GetProgram's ends).
  SetSpecCheckLevel(c.spec >= 2 ? 1 : 0);
  auto start = std::chrono::steady_clock::now();
  ASSIGN_OR_RETURN(Schedule sched, CreateScheduleWithVars(UOp::Sink(roots), settings.schedule));
  Stats().schedule_s +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  VarVals var_vals;
  for (const auto& [name, v] : sched.var_vals) var_vals[name] = ConstValue(v);

  // Buffers of every item; BUFFER_VIEW items make their output a view of their input.
  BufferTable& table = BufferTable::Get();
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
      if (std::shared_ptr<Buffer> b = table.Find(base)) keep.insert(b.get());
  }
  for (size_t i = 0; i < sched.items.size(); ++i)
    if (sched.items[i].ast.op() != Ops::SINK)
      for (const auto& b : item_bufs[i]) keep.insert(b.get());
  absl::flat_hash_map<const Buffer*, std::shared_ptr<Buffer>> planned;
  if (!settings.no_memory_planner) planned = PlanMemory(item_bufs, keep);
  for (BufferList& bl : item_bufs)
    for (std::shared_ptr<Buffer>& b : bl)
      if (auto it = planned.find(b.get()); it != planned.end()) b = it->second;

  int64_t kernels_before = Stats().kernel_count;
  double time_before = Stats().time_sum_s;
  for (size_t i = 0; i < sched.items.size(); ++i) {
    const ScheduleItem& item = sched.items[i];
    VarVals vars = var_vals;
    for (const auto& [name, v] : item.fixedvars) vars[name] = ConstValue(v);
    switch (item.ast.op()) {
      case Ops::SINK:
        RETURN_IF_ERROR(RunKernel(item, item_bufs[i], vars, settings));
        break;
      case Ops::COPY:
        RETURN_IF_ERROR(RunCopy(item_bufs[i], settings));
        break;
      case Ops::BUFFER_VIEW:
        break;  // the view was set up above
      default:
        return absl::UnimplementedError(
            absl::StrCat("can't run a schedule item of ", std::string(OpName(item.ast.op()))));
    }
  }
  table.Sweep();
  if (settings.debug >= 1) {
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << absl::StrFormat("realized %d kernels in %.2f ms (kernel time %.2f ms)%s\n",
                                 Stats().kernel_count - kernels_before, wall * 1e3,
                                 (Stats().time_sum_s - time_before) * 1e3,
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

}  // namespace tg
