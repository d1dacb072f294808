// File: tools/cli/run_command.cc
#include "tools/cli/run_command.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "autotune/tuner.h"
#include "tinygrad/base/config.h"
#include "tinygrad/engine/opt_chooser.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/viz/viz_save.h"
#include "tinygrad/viz/viz_trace.h"
#include "tinygrad/workloads/workloads.h"
#include "tinygrad/base/check.h"
#include "tools/cli/command_line.h"
#include "tools/cli/serve_flags.h"
#include "tools/cli/workload_flags.h"
#include "tools/viz/viz_server.h"
#include "tools/web/local_server.h"

namespace tg {
namespace {

constexpr char kDescription[] =
    "Runs a built-in workload on the CPU, printing each kernel (DEBUG=2 style) on the first run,\n"
    "then the time of each run. Kernels tuned before (tg tune) run with their tuned opts from the\n"
    "tuning database; BEAM=N tunes the others first. DEBUG, NOOPT, BEAM, CACHELEVEL, ... from the\n"
    "environment apply. VIZ=1 serves the rewrite viewer on the run afterwards (prints its URL,\n"
    "until Ctrl-C; --viz-port N chooses its port, checked before the run); VIZ=-1 saves its\n"
    "trace for `tg viz` instead.";

struct Snapshot {
  EngineStats stats;
  std::chrono::steady_clock::time_point at;
  static Snapshot Now() { return {GetEngineStats(), std::chrono::steady_clock::now()}; }
};

// One run: build the graph, realize its random inputs quietly, then time the outputs.
int RunOnce(const Workload& w, const WorkloadParams& p, DType dtype, int debug, int run) {
  WorkloadGraph g = w.build(p, {.dtype = dtype});
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
  CLI::App app(kDescription, "tg run");
  SetUpCommandApp(app);
  std::string name;
  WorkloadParams p;
  DType dtype = dtypes::float32;
  const Workload* w = AddWorkloadFlags(app, args, name, p, &dtype);
  int runs = 3;
  Config config = GetConfig();
  app.add_option("--runs", runs, "how many times to run it")->capture_default_str()->check(IntAtLeast(1));
  app.add_flag("--noopt", config.noopt, "no opts (as NOOPT=1)");
  // The viewer's address under VIZ=1 (tinygrad reads PORT; a flag here, as tg tune's
  // --dashboard-port, so that the settings every library reads stay as they are).
  web::ServeOptions viz_serve;
  std::vector<CLI::Option*> viz_flags = AddServeFlags(app, viz_serve, "viz-");
  if (std::optional<int> rc = ParseCommandLine(app, args)) return *rc;
  if (std::optional<int> rc = CheckServeFlags(viz_serve, "run")) return *rc;
  const bool viz_flag_given =
      std::any_of(viz_flags.begin(), viz_flags.end(), [](const CLI::Option* o) { return o->count() > 0; });
  if (viz_flag_given && config.viz <= 0) {
    std::fprintf(stderr, "tg run: --viz-host, --viz-port and --allow-remote are for the viewer VIZ=1 serves; "
                         "set VIZ=1\n");
    return kExitUsage;
  }
  // A port in use is found now, not after a run that may take minutes: bind it once and let it go.
  if (config.viz > 0) {
    if (absl::Status s = web::LocalServer::Start(viz_serve, [](httplib::Server&) {}).status(); !s.ok()) {
      std::fprintf(stderr, "tg run: VIZ: %s; --viz-port N serves on another port (0: any free one)\n",
                   std::string(s.message()).c_str());
      return kExitFailed;
    }
  }
  TG_CHECK(w != nullptr && w->name == name) << "WORKLOAD was checked";
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
    if (int rc = RunOnce(*w, p, dtype, r == 1 ? debug : std::max(config.debug, 1), r); rc != 0) {
      SetKernelOptChooser(nullptr);
      return rc;
    }
  }
  SetKernelOptChooser(nullptr);
  std::fflush(stdout);
  if (absl::Status s = SaveVizTraceIfAsked(config, std::cout); !s.ok()) {
    std::fprintf(stderr, "tg run: VIZ: %s\n", s.ToString().c_str());
    return 1;
  }
  // VIZ=1: the viewer on this run's trace, on loopback, until Ctrl-C (tinygrad serves it at exit).
  if (config.viz > 0) {
    if (absl::Status s = viz::ServeViz(CaptureVizTrace(), viz_serve); !s.ok()) {
      std::fprintf(stderr, "tg run: VIZ: %s\n", std::string(s.message()).c_str());
      return 1;
    }
  }
  return 0;
}

}  // namespace tg
