// File: tools/cli/run_command.cc
#include "tools/cli/run_command.h"

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "autotune/tuner.h"
#include "tinygrad/base/config.h"
#include "tinygrad/engine/opt_chooser.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/workloads/workloads.h"

namespace tg {
namespace {

// Debian's Abseil has its own string_view: spell std::string_view arguments as strings.
std::string S(std::string_view v) { return std::string(v); }

void PrintRunUsage(std::FILE* out) {
  std::fprintf(out,
               "usage: tg run <workload> [--<param> N ...] [--runs N] [--noopt]\n\n"
               "Runs a built-in workload on the CPU, printing each kernel (DEBUG=2 style) on the\n"
               "first run, then the time of each run. Kernels tuned before (tg tune) run with their\n"
               "tuned opts from the tuning database; BEAM=N tunes the others first. DEBUG, NOOPT,\n"
               "BEAM, CACHELEVEL, ... from the environment apply.\n\n"
               "workloads:\n");
  for (const Workload& w : Workloads()) {
    std::string params;
    for (const auto& [name, value] : w.params) absl::StrAppend(&params, " --", S(name), " ", value);
    std::fprintf(out, "  %-13s %s\n  %13s%s\n", std::string(w.name).c_str(),
                 std::string(w.summary).c_str(), "", params.c_str());
  }
}

int Usage(const std::string& msg) {
  std::fprintf(stderr, "tg run: %s\n\n", msg.c_str());
  PrintRunUsage(stderr);
  return 2;
}

struct Snapshot {
  EngineStats stats;
  std::chrono::steady_clock::time_point at;
  static Snapshot Now() { return {GetEngineStats(), std::chrono::steady_clock::now()}; }
};

// One run: build the graph, realize its random inputs quietly, then time the outputs.
int RunOnce(const Workload& w, const WorkloadParams& p, int debug, int run) {
  WorkloadGraph g = w.build(p);
  Config quiet = GetConfig();
  quiet.debug = 0;
  {
    ScopedConfig scoped(quiet);
    if (absl::Status s = Realize(g.inputs); !s.ok()) {
      std::fprintf(stderr, "tg run: making the inputs failed: %s\n", s.ToString().c_str());
      return 1;
    }
  }
  Config loud = GetConfig();
  loud.debug = debug;
  ScopedConfig scoped(loud);
  Snapshot before = Snapshot::Now();
  if (absl::Status s = Realize(g.outputs); !s.ok()) {
    std::fprintf(stderr, "tg run: %s failed: %s\n", std::string(w.name).c_str(),
                 s.ToString().c_str());
    return 1;
  }
  Snapshot after = Snapshot::Now();
  double total = std::chrono::duration<double>(after.at - before.at).count();
  const EngineStats& a = after.stats;
  const EngineStats& b = before.stats;
  std::printf(
      "run %d: %s %.2f ms total: %lld kernels, %.2f ms in kernels, %.2f ms scheduling, "
      "%.2f ms codegen (%lld new programs), %.2f ms compiling\n",
      run, std::string(w.name).c_str(), total * 1e3,
      static_cast<long long>(a.kernel_count - b.kernel_count), (a.time_sum_s - b.time_sum_s) * 1e3,
      (a.schedule_s - b.schedule_s) * 1e3, (a.codegen_s - b.codegen_s) * 1e3,
      static_cast<long long>(a.programs_built - b.programs_built),
      (a.compile_s - b.compile_s) * 1e3);
  return 0;
}

}  // namespace

int RunWorkloadCommand(std::span<const std::string_view> args) {
  if (args.empty()) return Usage("no workload given");
  if (args[0] == "-h" || args[0] == "--help") {
    PrintRunUsage(stdout);
    return 0;
  }
  const Workload* w = FindWorkload(args[0]);
  if (w == nullptr) return Usage(absl::StrCat("unknown workload '", S(args[0]), "'"));
  WorkloadParams p = w->Defaults();
  int runs = 3;
  Config config = GetConfig();
  for (size_t i = 1; i < args.size(); ++i) {
    std::string_view flag = args[i];
    if (flag == "--noopt") {
      config.noopt = true;
      continue;
    }
    if (flag.substr(0, 2) != "--" || i + 1 >= args.size())
      return Usage(absl::StrCat("expected --<param> <int>, got '", S(flag), "'"));
    std::string name(flag.substr(2));
    int64_t value;
    if (!absl::SimpleAtoi(S(args[++i]), &value) || value < 1)
      return Usage(absl::StrCat("--", name, " needs a positive integer, got '", S(args[i]), "'"));
    if (name == "runs") {
      runs = static_cast<int>(value);
    } else if (p.contains(name)) {
      p[name] = value;
    } else {
      std::vector<std::string> known;
      for (const auto& [k, v] : w->params) known.push_back(S(k));
      return Usage(absl::StrCat(S(w->name), " has no parameter '", name, "' (it has: ",
                                absl::StrJoin(known, ", "), ")"));
    }
  }
  ScopedConfig scoped(config);
  // Tuned opts from the database (BEAM=0: lookup only), or BEAM search for kernels not in it.
  std::unique_ptr<autotune::Tuner> tuner;
  if (!config.noopt) {
    absl::StatusOr<std::unique_ptr<autotune::Tuner>> t =
        autotune::Tuner::Create(autotune::TunerOptions::FromConfig(config));
    if (!t.ok()) {
      std::fprintf(stderr, "tg run: %s\n", t.status().ToString().c_str());
      return 1;
    }
    tuner = *std::move(t);
    SetKernelOptChooser(tuner.get());
  }
  std::string shown;
  for (const auto& [k, v] : p) absl::StrAppend(&shown, " ", k, "=", v);
  std::printf("%s:%s\n", std::string(w->name).c_str(), shown.c_str());
  int debug = std::max(config.debug, 2);
  for (int r = 1; r <= runs; ++r) {
    // Kernel lines on the first run only; later runs hit the caches and show the steady state.
    if (int rc = RunOnce(*w, p, r == 1 ? debug : std::max(config.debug, 1), r); rc != 0) {
      SetKernelOptChooser(nullptr);
      return rc;
    }
  }
  SetKernelOptChooser(nullptr);
  return 0;
}

}  // namespace tg
