// File: tinygrad/engine/exec_item.cc
// Port of tinygrad/engine/realize.py: ExecItem.run and the runners (CompiledRunner,
// BufferCopy/BufferXfer), and the `capturing` hook.
#include "tinygrad/engine/exec_item.h"

#include <algorithm>
#include <iostream>
#include <span>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "tinygrad/base/device_name.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/base/terminal.h"
#include "tinygrad/engine/engine_stats.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/uop/render.h"

namespace tg {
namespace {

absl::StatusOr<int64_t> Infer(const UOp& u, const VarVals& vars) {
  ASSIGN_OR_RETURN(ConstValue v, SymInfer(u, vars));
  return v.to_int64();
}

std::string TimeStr(double seconds) {
  return seconds < 1e-3 ? absl::StrFormat("%7.2fus", seconds * 1e6)
                        : absl::StrFormat("%7.2fms", seconds * 1e3);
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

VarVals WithFixedVars(const ExecItem& item, const VarVals& var_vals) {
  VarVals vars = var_vals;
  for (const auto& [name, v] : item.fixedvars) vars[name] = ConstValue(v);
  return vars;
}

// PrepareKernelLaunch with `var_vals` that already hold the item's fixedvars.
absl::StatusOr<KernelLaunch> PrepareLaunchWithVars(const ExecItem& item, const VarVals& var_vals,
                                                   const ExecOptions& s) {
  std::span<const std::shared_ptr<Buffer>> bufs = item.bufs;
  if (bufs.empty()) return absl::InternalError("kernel without buffers");
  if (item.kind != ExecItem::Kind::kKernel || item.device == nullptr || item.runner == nullptr)
    return absl::InternalError("kernel item without a device or runner");
  Device* dev = item.device;
  CompiledRunner* runner = item.runner;
  const ProgramSpec& spec = runner->spec;

  KernelLaunch launch;
  for (int64_t slot : spec.globals) {
    if (slot < 0 || slot >= static_cast<int64_t>(bufs.size()) || bufs[slot] == nullptr)
      return absl::InternalError(absl::StrCat("kernel ", spec.name, " uses buffer slot ", slot,
                                              " of ", bufs.size(), ", which it does not have"));
    RETURN_IF_ERROR(bufs[slot]->EnsureAllocated(s.device));
    launch.args.push_back(bufs[slot]->data());
  }
  for (const UOp& v : spec.vars) {
    const std::string& name = v.arg()[0].str();
    auto it = var_vals.find(name);
    if (it == var_vals.end())
      return absl::InvalidArgumentError(
          absl::StrCat("kernel ", spec.name, " needs variable '", name, "', which is not bound"));
    launch.vals.push_back(it->second.to_int64());
  }
  ASSIGN_OR_RETURN(launch.shape, LaunchShapeOf(spec, var_vals));
  if (NeedsLocalSize(dev->renderer(), spec)) {
    // The reference's optimize_local_size, once per runner (it replaces the runner's spec).
    if (!runner->chosen_launch) {
      ASSIGN_OR_RETURN(runner->chosen_launch, ChooseLocalSize(*dev, *runner, launch.args,
                                                              launch.vals, bufs, launch.shape));
    }
    launch.shape = *runner->chosen_launch;
  }
  return launch;
}

absl::Status RunKernel(const ExecItem& item, const VarVals& var_vals, const ExecOptions& s) {
  ASSIGN_OR_RETURN(KernelLaunch launch, PrepareKernelLaunch(item, var_vals, s));
  ASSIGN_OR_RETURN(double et, item.runner->program->Run(launch.args, launch.vals,
                                                        launch.shape.global, launch.shape.local,
                                                        /*wait=*/s.debug >= 1, Program::kNoStop));
  const ExecItem* items[] = {&item};
  CountKernelRun(items, item.runner->spec.name, launch.args.size(), et, var_vals, s);
  return absl::OkStatus();
}

// Device to device where the two devices can (the reference's BufferXfer: GPU to GPU of one
// kind, a peer copy), else through host memory: the source's bytes copied out, then into the
// destination (tinygrad's BufferCopy). A peer copy that fails (two GPUs that cannot reach each
// other) takes the host path too, unless it lost a device.
absl::Status RunCopy(std::span<const std::shared_ptr<Buffer>> bufs, const ExecOptions& s) {
  const int debug = s.debug;
  if (bufs.size() != 2 || bufs[0] == nullptr || bufs[1] == nullptr)
    return absl::InternalError("COPY needs (dest, src)");
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
                                 GetEngineStats().kernel_count, dst.nbytes(), dst.device(), src.device(),
                                 direct.ok() ? " (device to device)"
                                 : direct.code() == absl::StatusCode::kUnimplemented
                                     ? ""
                                     : absl::StrCat(" (through the host: ", direct.message(), ")"));
  return absl::OkStatus();
}


// The capture active on this thread (tinygrad's module-level `capturing`, per thread here).
thread_local ExecItemCapture* active_capture = nullptr;

}  // namespace

absl::StatusOr<KernelLaunch> PrepareKernelLaunch(const ExecItem& item, const VarVals& var_vals,
                                                 const ExecOptions& s) {
  if (!item.fixedvars.empty()) return PrepareLaunchWithVars(item, WithFixedVars(item, var_vals), s);
  return PrepareLaunchWithVars(item, var_vals, s);
}

void CountKernelRun(std::span<const ExecItem* const> items, std::string_view name, size_t nargs,
                    double et, const VarVals& var_vals, const ExecOptions& options) {
  int64_t ops = 0;
  double mem = 0, lds = 0;
  for (const ExecItem* item : items) {
    const VarVals& vars = item->fixedvars.empty() ? var_vals : WithFixedVars(*item, var_vals);
    auto est = [&](const UOp& u) -> double {
      if (!u) return 0;
      absl::StatusOr<int64_t> v = Infer(u, vars);
      return v.ok() ? static_cast<double>(*v) : 0;
    };
    const Estimates& e = item->runner->spec.estimates;
    const double item_lds = est(e.lds);
    if (e.ops) ops += Infer(e.ops, vars).value_or(0);
    lds += item_lds;
    mem += std::min(est(e.mem), item_lds);
  }
  EngineStats& stats = GetEngineStats();
  stats.kernel_count += 1;
  stats.time_sum_s += et;
  stats.global_ops += ops;
  if (options.debug < 2 || items.empty()) return;
  // tinygrad's DEBUG=2 line. The name carries ANSI colors: pad by its visible length, as
  // tinygrad's ansilen does; they reach the terminal only (ForStream).
  const std::string device = items.front()->device->name();
  const double t = et > 0 ? et : 1e-20;
  const std::string padded(name);
  std::string line =
      padded + std::string(std::max<int>(0, 46 - static_cast<int>(AnsiLen(padded))), ' ');
  std::cout << ForStream(
      absl::StrFormat("*** %-7s %4d %s arg %2d tm %s/%9.2fms (%7.0f GFLOPS %4.0f|%-6.0f GB/s)\n",
                      device.substr(0, 7), stats.kernel_count, line, nargs, TimeStr(et),
                      stats.time_sum_s * 1e3, static_cast<double>(ops) / t * 1e-9, mem / t * 1e-9,
                      lds / t * 1e-9),
      stdout);
}

absl::Status RunExecItem(const ExecItem& item, const VarVals& var_vals, const ExecOptions& options) {
  switch (item.kind) {
    case ExecItem::Kind::kKernel:
      return RunKernel(item, var_vals, options);
    case ExecItem::Kind::kCopy:
      return RunCopy(item.bufs, options);
    case ExecItem::Kind::kView:
      return absl::OkStatus();  // the view was made when the item was lowered
  }
  return absl::InternalError("unknown exec item kind");
}

absl::StatusOr<std::unique_ptr<ExecItemCapture>> ExecItemCapture::Start() {
  if (active_capture != nullptr)
    return absl::FailedPreconditionError(
        "a TinyJit is already capturing on this thread: a TinyJit inside another TinyJit is not "
        "supported");
  std::unique_ptr<ExecItemCapture> c(new ExecItemCapture());
  active_capture = c.get();
  return c;
}

ExecItemCapture::~ExecItemCapture() {
  if (active_capture == this) active_capture = nullptr;
}

ExecItemCapture* ExecItemCapture::Active() { return active_capture; }

void ExecItemCapture::Add(ExecItem item, const ExecOptions& options) {
  if (items_.empty()) options_ = options;
  items_.push_back(std::move(item));
}

}  // namespace tg
