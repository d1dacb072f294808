// File: tools/bench/opt_list_bench.cc
// Times hand-picked opt lists on one kernel of a built-in workload on the CPU, for comparing
// opts (BLOCK against none, say) in one run on a shared machine: the lists take turns, --runs
// rounds, and each list's best and median time are printed with its GFLOP/s. Every list's
// output is checked against the first list's (the first is the reference: "[]" is the
// unoptimized kernel). Beside wall times it prints the median process CPU time of a run, which
// leaves out the time other processes hold the cores (on a busy machine the wall-clock median
// mostly measures them).
//
//   opt_list_bench --m 1024 --n 1024 --k 1024 "UPCAST1:16 UPCAST0:4 SIMD:16 THREAD1:2"
//                  "UPCAST1:16 UPCAST0:4 SIMD:16 THREAD1:2 BLOCK1:4"
//
// Opt lists are written as `tg tune` prints them: OPaxis:arg, the axis left out for none
// (SIMD:16), ":arg" left out for none (NOLOCALS); "none" is the empty list.
#include <algorithm>
#include <cctype>
#include <optional>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/statusor.h"
#include "absl/strings/str_format.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/codegen/opt/opt.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/schedule/schedule.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/workloads/workloads.h"

namespace tg {
namespace {

struct Compiled {
  std::string text;
  ProgramSpec spec;
  std::unique_ptr<Program> prog;
  LaunchDims global{1, 1, 1};
  std::vector<double> times;
  std::vector<double> cpu_times;  // the process's CPU time: what other processes take is left out
};

double ProcessCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// "UPCAST1:16 SIMD:16 NOLOCALS" (TC's three-int arg is not taken).
absl::StatusOr<std::vector<Opt>> ParseOpts(const std::string& text) {
  std::vector<Opt> opts;
  if (text == "none") return opts;
  for (absl::string_view item : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    auto bad = [&] { return absl::InvalidArgumentError(absl::StrCat("bad opt '", std::string(item), "'")); };
    const size_t colon = item.find(':');
    absl::string_view head = item.substr(0, colon);
    size_t name_end = 0;
    while (name_end < head.size() && std::isupper(static_cast<unsigned char>(head[name_end]))) ++name_end;
    std::optional<OptOps> op = OptOpsFromName(std::string_view(head.data(), name_end));
    if (!op) return bad();
    Opt o{*op, std::nullopt, std::monostate{}};
    int64_t v = 0;
    if (name_end < head.size()) {
      if (!absl::SimpleAtoi(head.substr(name_end), &v)) return bad();
      o.axis = v;
    }
    if (colon != absl::string_view::npos) {
      if (!absl::SimpleAtoi(item.substr(colon + 1), &v)) return bad();
      o.arg = v;
    }
    opts.push_back(o);
  }
  return opts;
}

absl::StatusOr<Compiled> Compile(Device& dev, const UOp& ast, const std::string& text) {
  ASSIGN_OR_RETURN(std::vector<Opt> opts, ParseOpts(text));
  KernelInfo ki = KernelInfo::IsKernelInfo(ast.arg()) ? KernelInfo::FromArg(ast.arg()) : KernelInfo{};
  ki.opts_to_apply.emplace();
  for (const Opt& o : opts) ki.opts_to_apply->push_back(OptToArg(o));
  Compiled c{.text = text};
  ASSIGN_OR_RETURN(c.spec, GetProgram(ast.replace_arg(ki.ToArg()), dev.renderer()));
  ASSIGN_OR_RETURN(std::string lib, dev.Compile(c.spec));
  ASSIGN_OR_RETURN(c.prog, dev.LoadProgram(c.spec, lib));
  for (size_t i = 0; i < 3; ++i) c.global[i] = c.spec.global_size[i].arg().int64();
  return c;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int Main(int argc, char** argv) {
  CLI::App app("Times opt lists on one kernel of a built-in workload, in turns (tools/bench/opt_list_bench.cc)");
  std::string workload = "matmul";
  int kernel = 0, runs = 20;
  int64_t m = 1024, n = 1024, k = 1024;
  std::vector<std::string> lists;
  bool print_src = false;
  std::string cpu_target;
  app.add_option("--workload", workload, "a built-in workload with m, n, k parameters")->capture_default_str();
  app.add_option("--m", m)->capture_default_str();
  app.add_option("--n", n)->capture_default_str();
  app.add_option("--k", k)->capture_default_str();
  std::vector<std::string> extra_params;
  app.add_option("--param", extra_params, "another workload parameter, NAME=VALUE (matmul_packed_b's nr=32)");
  app.add_option("--kernel", kernel, "which of the workload's kernels")->capture_default_str();
  app.add_option("--runs", runs, "rounds; each list runs once a round")->capture_default_str()->check(CLI::PositiveNumber);
  app.add_flag("--src", print_src, "print each list's C source");
  app.add_option("--cpu-target", cpu_target, "the kernels' ISA (x86-64-v3, x86-64-v4; default the host's)");
  app.add_option("lists", lists, "opt lists (\"UPCAST1:16 SIMD:16\", \"none\"), the first is the reference")->required();
  CLI11_PARSE(app, argc, argv);

  const Workload* w = FindWorkload(workload);
  if (w == nullptr) {
    std::fprintf(stderr, "unknown workload %s\n", workload.c_str());
    return 2;
  }
  // --m/--n/--k only for workloads that have them (mlp's sizes come through --param)
  WorkloadParams params;
  for (const auto& [name, def] : w->params) {
    if (name == "m") params["m"] = m;
    if (name == "n") params["n"] = n;
    if (name == "k") params["k"] = k;
  }
  for (const std::string& p : extra_params) {
    std::vector<std::string> kv = absl::StrSplit(p, absl::MaxSplits('=', 1));
    int64_t v = 0;
    if (kv.size() != 2 || !absl::SimpleAtoi(kv[1], &v)) {
      std::fprintf(stderr, "bad --param '%s' (NAME=VALUE)\n", p.c_str());
      return 2;
    }
    params[kv[0]] = v;
  }
  WorkloadGraph g = w->build(params);
  if (absl::Status s = Realize(g.inputs); !s.ok()) {
    std::fprintf(stderr, "inputs: %s\n", s.ToString().c_str());
    return 1;
  }
  std::vector<UOp> roots;
  for (const Tensor& t : g.outputs) roots.push_back(t.uop());
  absl::StatusOr<Schedule> sched = CreateScheduleWithVars(UOp::Sink(roots));
  if (!sched.ok()) {
    std::fprintf(stderr, "schedule: %s\n", sched.status().ToString().c_str());
    return 1;
  }
  std::vector<const ScheduleItem*> kernels;
  for (const ScheduleItem& item : sched->items)
    if (item.ast.op() == Ops::SINK) kernels.push_back(&item);
  if (kernel < 0 || kernel >= static_cast<int>(kernels.size())) {
    std::fprintf(stderr, "the workload has %zu kernels\n", kernels.size());
    return 2;
  }
  const ScheduleItem& item = *kernels[kernel];
  DeviceOptions dev_options = DeviceOptions::FromConfig(GetConfig());
  dev_options.cpu.cpu_target = cpu_target;
  absl::StatusOr<Device*> dev = GetDevice("CPU", dev_options);
  if (!dev.ok()) {
    std::fprintf(stderr, "device: %s\n", dev.status().ToString().c_str());
    return 1;
  }
  // one output buffer per list (compared afterwards), the inputs shared
  std::vector<std::vector<std::shared_ptr<RawBuffer>>> bufs(lists.size());
  std::vector<Compiled> compiled;
  for (size_t l = 0; l < lists.size(); ++l) {
    absl::StatusOr<Compiled> c = Compile(**dev, item.ast, lists[l]);
    if (!c.ok()) {
      std::fprintf(stderr, "%s: %s\n", lists[l].c_str(), c.status().ToString().c_str());
      return 1;
    }
    if (print_src) std::printf("// %s\n%s\n", lists[l].c_str(), c->spec.src.c_str());
    compiled.push_back(*std::move(c));
    for (const UOp& b : item.bufs) {
      const int64_t bytes = b.dtype().itemsize() * b.arg().int64();
      absl::StatusOr<std::shared_ptr<RawBuffer>> buf = (*dev)->Allocate(bytes);
      if (!buf.ok()) {
        std::fprintf(stderr, "allocate: %s\n", buf.status().ToString().c_str());
        return 1;
      }
      std::vector<float> init(bytes / sizeof(float));
      for (size_t i = 0; i < init.size(); ++i) init[i] = static_cast<float>((i * 7919) % 13) - 6.0f;
      if (absl::Status s = (*buf)->CopyIn(std::as_bytes(std::span<const float>(init))); !s.ok()) {
        std::fprintf(stderr, "copy in: %s\n", s.ToString().c_str());
        return 1;
      }
      bufs[l].push_back(*std::move(buf));
    }
  }
  // 2mnk for a matmul workload; otherwise the reference list's estimate (mlp: its linear layer
  // and epilogue), so GFLOP/s is not 2mnk of sizes the workload never used
  double flops = 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  const UOp& ops = compiled[0].spec.estimates.ops;
  const bool has_k = std::any_of(w->params.begin(), w->params.end(), [](const auto& p) { return p.first == "k"; });
  if (!has_k && ops.op() == Ops::CONST && ops.arg().is_number()) flops = ops.arg().number().to_float();
  for (int r = 0; r < runs + 1; ++r) {
    for (size_t l = 0; l < compiled.size(); ++l) {
      std::vector<void*> ptrs;
      for (const auto& b : bufs[l]) ptrs.push_back(b->data());
      const double cpu0 = ProcessCpuSeconds();
      absl::StatusOr<double> t =
          compiled[l].prog->Run(ptrs, {}, compiled[l].global, std::nullopt, true, Program::kNoStop);
      const double cpu = ProcessCpuSeconds() - cpu0;
      if (!t.ok()) {
        std::fprintf(stderr, "run: %s\n", t.status().ToString().c_str());
        return 1;
      }
      if (r > 0) {  // round 0 warms caches and pages
        compiled[l].times.push_back(*t);
        compiled[l].cpu_times.push_back(cpu);
      }
    }
  }
  std::vector<float> want, got;
  for (size_t l = 0; l < compiled.size(); ++l) {
    const RawBuffer& out = *bufs[l][0];
    std::vector<float>& v = l == 0 ? want : got;
    v.resize(out.nbytes() / sizeof(float));
    if (absl::Status s = out.CopyOut(std::as_writable_bytes(std::span<float>(v))); !s.ok()) {
      std::fprintf(stderr, "copy out: %s\n", s.ToString().c_str());
      return 1;
    }
    double worst = 0;
    if (l > 0)
      for (size_t i = 0; i < v.size(); ++i) worst = std::max(worst, std::fabs(static_cast<double>(v[i]) - want[i]));
    const double best = *std::min_element(compiled[l].times.begin(), compiled[l].times.end());
    const double med = Median(compiled[l].times);
    const double cpu_med = Median(compiled[l].cpu_times);
    std::printf("%8.2f GFLOP/s best %9.3f ms median %9.3f ms  cpu median %9.3f ms (%7.2f GFLOP/cpu-s)  max|diff| %g  %s\n",
                flops / best * 1e-9, best * 1e3, med * 1e3, cpu_med * 1e3, flops / cpu_med * 1e-9, worst,
                compiled[l].text.c_str());
  }
  return 0;
}

}  // namespace
}  // namespace tg

int main(int argc, char** argv) { return tg::Main(argc, argv); }
