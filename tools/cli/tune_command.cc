// File: tools/cli/tune_command.cc
#include "tools/cli/tune_command.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "autotune/compile/remote_preparer.h"
#include "autotune/compile/target_info.h"
#include "autotune/db/opts_text.h"
#include "autotune/measure/local_measurer.h"
#include "autotune/tuner.h"
#include "nlohmann/json.hpp"
#include "tools/cli/command_line.h"
#include "tools/cli/farm_tune.h"
#include "tools/cli/progress_line.h"
#include "tools/cli/security_flags.h"
#include "tools/cli/serve_flags.h"
#include "tools/cli/workload_flags.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/config.h"
#include "tinygrad/base/device_name.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/uop/render.h"
#include "tinygrad/codegen/opt/scheduler.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/schedule/schedule.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/workloads/workloads.h"
#include "tools/dashboard/tune_dashboard.h"
#include "tools/web/local_server.h"

namespace tg {
namespace {

using autotune::BeamProgress;
using autotune::SearchSettings;
using autotune::KernelTuning;
using autotune::Tuner;
using autotune::TunerOptions;

std::string S(std::string_view v) { return std::string(v); }

constexpr char kDescription[] =
    "Tunes every kernel of a built-in workload with BEAM search on the default device (DEV, else\n"
    "the GPU where the CUDA driver opens one, else the CPU: tg devices) and stores the winners\n"
    "in the tuning database (default: the tinygrad-cc cache directory). Kernels already in the\n"
    "database are answered from it; --ignore-cache searches again.\n"
    "By default tg tune is a coordinator with one local `tg worker` per core (for a GPU: one, whose\n"
    "children share the cores) on a private ipc:// socket: every kernel is searched at once, each\n"
    "candidate runs in a worker's child process (a crashing or hanging kernel is reported, never\n"
    "fatal), and measurements are journaled in the database, so a killed tg tune resumes where it\n"
    "stopped. The workers share the machine's device lock: one kernel is timed at a time, never\n"
    "while anything compiles.\n"
    "BEAM_* knobs, CACHELEVEL and THREADS from the environment apply.\n"
    "--dashboard serves a page that follows the tune live (each kernel's search state, a plot of\n"
    "its best time over search time, the farm's workers, jobs in flight and failures) on\n"
    "127.0.0.1 and prints its URL; it stops when tg tune ends, unless --dashboard-wait keeps the\n"
    "final table served until Ctrl-C.";

std::string Ms(double s) { return s < 1e30 ? absl::StrFormat("%.3f ms", s * 1e3) : "-"; }

std::string OptsText(const std::vector<Opt>& opts) {
  return opts.empty() ? "(none)" : autotune::OptsToShortText(opts);
}

// The kernel's name once `opts` are applied (tinygrad's naming: r/E, then the axis sizes), for
// records stored without one (by builds before kernel names were recorded).
std::string TunedName(const UOp& ast, const Renderer& ren, const std::vector<Opt>& opts) {
  Scheduler k(ast, ren);
  k.ConvertLoopToGlobal();
  for (const Opt& o : opts)
    if (!k.ApplyOpt(o).ok()) break;
  return StripAnsi(k.KernelName());
}

struct Row {
  std::string name;
  KernelTuning t;
};

void PrintTable(const std::vector<Row>& rows) {
  std::printf("\n%-28s %12s %12s %12s %9s %9s %6s %9s  %s\n", "kernel", "baseline", "heuristic", "tuned",
              "vs base", "vs heur", "cands", "search", "opts");
  for (const Row& r : rows) {
    const autotune::TuningRecord& rec = *r.t.record;
    double base = rec.noopt_time_s.value_or(1e31), heur = rec.heuristic_time_s.value_or(1e31);
    auto ratio = [&](double b) { return b < 1e30 && rec.time_s > 0 ? absl::StrFormat("%.2fx", b / rec.time_s) : "-"; };
    std::string search = r.t.from_cache ? "cached" : absl::StrFormat("%.1f s", rec.search_wall_s);
    std::printf("%-28s %12s %12s %12s %9s %9s %6lld %9s  %s\n", r.name.c_str(), Ms(base).c_str(), Ms(heur).c_str(),
                Ms(rec.time_s).c_str(), ratio(base).c_str(), ratio(heur).c_str(),
                static_cast<long long>(rec.candidates), search.c_str(), OptsText(rec.opts).c_str());
  }
}

// A JSON number; null for "not measured".
nlohmann::ordered_json Num(std::optional<double> v) {
  return v.has_value() && *v < 1e30 ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

// One line of --json output: the kernel's work (flops and bytes estimated on the unoptimized
// program, so that a PADTO's padding or a PACK's copy does not count as work done), its three
// times and what the search cost.
absl::Status AppendJson(const std::string& path, const Workload& w, const WorkloadParams& p, int index,
                        const std::string& name, const UOp& ast, Device& dev, const KernelTuning& t, int beam,
                        bool simd, const SearchSettings& settings) {
  const autotune::TuningRecord& rec = *t.record;
  KernelInfo ki = KernelInfo::IsKernelInfo(ast.arg()) ? KernelInfo::FromArg(ast.arg()) : KernelInfo{};
  ki.opts_to_apply = std::vector<Arg>{};
  ASSIGN_OR_RETURN(ProgramSpec spec, GetProgram(ast.replace_arg(ki.ToArg()), dev.renderer(),
                                                rec.key.codegen_options.value_or(CodegenOptions{})));
  absl::flat_hash_map<std::string, ConstValue> no_vars;
  ASSIGN_OR_RETURN(ConstValue flops, SymInfer(spec.estimates.ops, no_vars));
  ASSIGN_OR_RETURN(ConstValue bytes, SymInfer(spec.estimates.mem, no_vars));
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  for (const auto& [k, v] : p) params[k] = v;
  nlohmann::ordered_json opts = nlohmann::ordered_json::array();
  for (const Opt& o : rec.opts) opts.push_back(o.ToString());
  nlohmann::ordered_json line = {
      {"workload", S(w.name)}, {"params", params}, {"kernel", index}, {"name", name}, {"beam", beam},
      {"simd", simd}, {"block", settings.block}, {"pack", settings.pack}, {"tiles", settings.tiles},
      {"cpu_target", S(dev.cpu_target())}, {"flops", flops.to_int64()}, {"bytes", bytes.to_int64()},
      {"noopt_s", Num(rec.noopt_time_s)}, {"heuristic_s", Num(rec.heuristic_time_s)},
      {"tuned_s", Num(rec.time_s)}, {"opts", opts}, {"candidates", rec.candidates},
      {"search_s", Num(rec.search_wall_s)}, {"from_cache", t.from_cache}};
  if (t.search.has_value()) {
    const autotune::BeamResult& r = *t.search;
    line["rounds"] = r.rounds;
    line["measured"] = r.candidates;
    line["failed"] = r.failed();
    line["prepare_wall_s"] = Num(r.prepare_wall_s);
    line["run_wall_s"] = Num(r.run_wall_s);
    line["actions_wall_s"] = Num(r.actions_wall_s);
    line["run_fraction"] = Num(r.run_fraction());
    // per stage, summed over candidates: the wall times (with the waits for a CPU or on a lock
    // that many threads bring), and the lowering threads' CPU time
    line["lower_cpu_s"] = Num(r.cost.lower_cpu_s);
    line["lower_wall_sum_s"] = Num(r.cost.lower_s);
    line["compile_wall_sum_s"] = Num(r.cost.compile_s);
    line["run_wall_sum_s"] = Num(r.cost.run_s);
    line["program"] = absl::StrFormat("%016x", r.program_hash);
  }
  const std::string text = line.dump() + "\n";
  std::FILE* f = std::fopen(path.c_str(), "a");
  if (f == nullptr) return absl::NotFoundError(absl::StrCat("cannot open ", path, " for appending"));
  std::fputs(text.c_str(), f);
  if (std::fclose(f) != 0) return absl::DataLossError(absl::StrCat("writing ", path, " failed"));
  return absl::OkStatus();
}

// The client of `tg tune --compile-with`: a GPU device's batches prepared by a compile server
// for the device's own target. Errors: a device without a GPU, unreadable keys, a bad endpoint.
absl::StatusOr<std::shared_ptr<autotune::RemotePreparer>> ConnectCompileServer(Device& dev, const std::string& endpoint,
                                                                                const SecurityFlags& flags) {
  const GpuDescription* gpu = dev.gpu();
  if (gpu == nullptr)
    return absl::InvalidArgumentError(absl::StrCat("device ", dev.name(), " is no GPU: its candidates compile where they run"));
  absl::StatusOr<autotune::net::SecurityOptions> sec = ClientSecurity(flags);
  if (!sec.ok()) return sec.status();
  ASSIGN_OR_RETURN(std::unique_ptr<autotune::RemotePreparer> r,
                   autotune::RemotePreparer::Connect(autotune::TargetInfoOf(std::string(DeviceKind(dev.name())), gpu->arch,
                                                                            autotune::DeviceCompiler(dev)),
                                                     {.endpoint = endpoint, .security = *sec}));
  return std::shared_ptr<autotune::RemotePreparer>(std::move(r));
}

}  // namespace

int TuneWorkloadCommand(std::span<const std::string_view> args) {
  CLI::App app(kDescription, "tg tune");
  SetUpCommandApp(app);
  std::string name;
  WorkloadParams p;
  DType dtype = dtypes::float32;
  const Workload* w = AddWorkloadFlags(app, args, name, p, &dtype);
  TunerOptions topts = TunerOptions::FromConfig(GetConfig());
  topts.beam = 2;
  std::string json_path;
  FarmTuneFlags farm;
  bool in_process = false, simd = false, blocking = false, pack = false;
  std::string cpu_target = GetConfig().cpu_target;  // CPU_TARGET; --cpu-target overrides it
  app.add_option("--beam", topts.beam, "BEAM width")->capture_default_str()->check(IntAtLeast(1));
  app.add_option("--db", topts.db, "another database: a SQLite file, or postgresql://... for a shared one")
      ->type_name("PATH");
  app.add_flag("--ignore-cache", topts.ignore_cache, "search again kernels the database answers");
  app.add_option("--json", json_path, "append one JSON object per kernel (times, flops, bytes, search costs)\n"
                                      "for tools/bench/perf_table.py")
      ->type_name("PATH");
  app.add_flag("--simd", simd, "(same as BEAM_SIMD=1) add our SIMD extension opt to the search: loads and\n"
                               "stores of 8 or 16 floats (AVX-512 vectors) where the reference stops at 4");
  app.add_flag("--blocking", blocking, "(same as BEAM_BLOCK=1) add our BLOCK opt to the search: cache\n"
                                       "blocking of an output loop (its loop over blocks runs outermost)");
  app.add_flag("--pack", pack, "add our PACK opt to the search: a copy of an input's panel (a matmul's B inside\n"
                               "a BLOCK loop) into a contiguous stack array before the loops that read it");
  CLI::Option* workers = app.add_option("--workers", farm.workers, "N local workers instead of one per core (one for a GPU)")
                             ->check(IntAtLeast(1));
  CLI::Option* bind = app.add_option("--bind", farm.bind, "take remote workers on EP instead (tcp:// with\n"
                                                          "--key and --allow, or --insecure)")
                          ->type_name("EP");
  app.add_option("--status-bind", farm.status_bind, "the status socket (tg farm status) on EP")->type_name("EP");
  AddSecurityFlags(app, farm.security, SecurityRole::kServer);
  app.add_flag("--in-process", in_process, "search one kernel at a time in this process (the BEAM of tg run)")
      ->excludes(workers)
      ->excludes(bind);
  app.add_option("--cpu-target", cpu_target,
                 "compile CPU kernels for this ISA instead of the host's (default: CPU_TARGET, else\n"
                 "native): x86-64-v3 (AVX2, FMA), x86-64-v4 (AVX-512) or x86-64-v2 (SSE4.2); tuned\n"
                 "records are the target's own device class. Local workers compile for it too;\n"
                 "remote ones take jobs only if started with tg worker --cpu-target ISA")
      ->type_name("ISA");
  app.add_flag("--fake-timing", farm.fake_timing, "(tests only) candidates are checked but not timed; each\n"
                                                  "gets a fixed time from its program (in-process too)");
  std::string compile_with;
  SecurityFlags compile_security;
  AddCompileServerFlags(app, compile_with, compile_security, "; --in-process, or the local workers")->excludes(bind);
  bool dashboard = false, dashboard_wait = false;
  web::ServeOptions serve;
  CLI::Option* dashboard_flag = app.add_flag(
      "--dashboard", dashboard,
      "serve a live page of the tune on loopback (URL printed at start); it stops\n"
      "when tg tune ends unless --dashboard-wait");
  app.add_flag("--dashboard-wait", dashboard_wait, "keep serving the dashboard's final table after the tune, until Ctrl-C")
      ->needs(dashboard_flag);
  for (CLI::Option* o : AddServeFlags(app, serve, "dashboard-")) o->needs(dashboard_flag);
  if (std::optional<int> rc = ParseCommandLine(app, args)) return *rc;
  TG_CHECK(w != nullptr && w->name == name) << "WORKLOAD was checked";
  if (dashboard) {
    if (std::optional<int> rc = CheckServeFlags(serve, "tune")) return *rc;
  }
  // A --db path is the user's: its file may be made, its folders are not (a typo would
  // otherwise leave a new tree behind).
  if (app.count("--db") > 0) topts.db_create = autotune::DbCreate::kFile;
  if (simd) {
    topts.settings.simd = true;
    topts.settings.tiles = true;  // as BEAM_SIMD=1: the ISA's register tiles (autotune/search/register_tiles.h)
  }
  if (blocking) topts.settings.block = true;
  if (pack) topts.settings.pack = true;

  // the default device (DEV=, DEVICE= or <KIND>=1, else the first that opens), as for the
  // workload's tensors
  DeviceOptions dev_options = DeviceOptions::FromConfig(GetConfig());
  dev_options.cpu.cpu_target = cpu_target;
  absl::StatusOr<Device*> dev = GetDevice(DefaultDevice(), dev_options);
  if (!dev.ok()) {
    std::fprintf(stderr, "tg tune: %s\n", dev.status().ToString().c_str());
    return 1;
  }
  // One local worker per core for a CPU; one for a GPU, whose children share the cores (each
  // child holds a context on the GPU: a worker per core would make cores x cores of them).
  if (!in_process && !WantsFarm(farm))
    farm.workers = (**dev).gpu() != nullptr ? 1 : std::max(1, GetConfig().cpu_count);
  std::shared_ptr<autotune::RemotePreparer> remote;
  if (!compile_with.empty() && !in_process) {
    // the local workers' children ask it through their worker (tg worker --compile-with)
    if ((**dev).gpu() == nullptr) {
      std::fprintf(stderr, "tg tune: --compile-with: device %s is no GPU: its candidates compile where they run\n",
                   (**dev).name().c_str());
      return 1;
    }
    farm.local_worker_args = {"--compile-with", compile_with};
    if (!compile_security.key.empty())
      farm.local_worker_args.insert(farm.local_worker_args.end(), {"--compile-key", compile_security.key,
                                                                   "--compile-server-key", compile_security.server_key});
    else if (farm.security.insecure)
      farm.local_worker_args.push_back("--insecure");
  } else if (!compile_with.empty()) {
    compile_security.insecure = farm.security.insecure;
    absl::StatusOr<std::shared_ptr<autotune::RemotePreparer>> r = ConnectCompileServer(**dev, compile_with, compile_security);
    if (!r.ok()) {
      std::fprintf(stderr, "tg tune: --compile-with: %s\n", std::string(r.status().message()).c_str());
      return 1;
    }
    remote = *r;
    topts.preparer = remote;
  }
  ProgressLine progress(stdout, ProgressLine::IsTerminal(stdout));
  std::string current;
  topts.progress = [&](const UOp&, const BeamProgress& b) {
    std::string phase = b.phase == BeamProgress::Phase::kBaseline    ? "baselines"
                        : b.phase == BeamProgress::Phase::kFinalists ? "finalists"
                        : b.phase == BeamProgress::Phase::kDone      ? "done"
                                                                     : absl::StrCat("round ", b.round);
    progress.Update(absl::StrFormat("%s  %s: %d/%d timed, best %s, %.1f s", current, phase, b.timed, b.candidates,
                                  Ms(b.best_s), b.elapsed_s));
  };
  if (farm.fake_timing && in_process) {
    // in-process with the farm's test timing, so a test can compare the two modes' winners
    absl::StatusOr<std::unique_ptr<autotune::LocalMeasurer>> m =
        autotune::LocalMeasurer::Create({.device = (**dev).name(), .fake_timing = true, .preparer = topts.preparer});
    if (!m.ok()) {
      std::fprintf(stderr, "tg tune: %s\n", m.status().ToString().c_str());
      return 1;
    }
    topts.measurer = *std::move(m);
  }
  std::string shown;
  for (const auto& [k, v] : p) absl::StrAppend(&shown, " ", k, "=", v);
  // The dashboard gets the run's events through the observer and the farm's status through
  // on_status: the tuner and the farm know nothing of the page.
  std::unique_ptr<dashboard::TuneDashboard> dash;
  if (dashboard) {
    dash = std::make_unique<dashboard::TuneDashboard>(absl::StrCat(S(w->name), ":", shown, ", BEAM=", topts.beam));
    topts.observer = &dash->recorder();
    farm.on_status = [d = dash.get()](const autotune::farm::FarmStatus& s) { d->SetFarmStatus(s); };
    if (absl::Status s = dash->Start(serve); !s.ok()) {
      std::fprintf(stderr, "tg tune: dashboard: %s\n", std::string(s.message()).c_str());
      return 1;
    }
    std::printf("dashboard: %s\n", dash->url().c_str());
    std::fflush(stdout);
  }
  absl::StatusOr<std::unique_ptr<Tuner>> tuner = Tuner::Create(topts);
  if (!tuner.ok()) {
    std::fprintf(stderr, "tg tune: %s\n", tuner.status().ToString().c_str());
    return 1;
  }

  // Everything from here returns through the lambda, so a --dashboard-wait page stays up after
  // a failed tune too (its failures are what one wants to look at).
  auto tune = [&]() -> int {
    WorkloadGraph g = w->build(p, {.dtype = dtype});
    if (absl::Status s = Realize(g.inputs); !s.ok()) {
      std::fprintf(stderr, "tg tune: making the inputs failed: %s\n", s.ToString().c_str());
      return 1;
    }
    std::vector<UOp> roots;
    for (const Tensor& t : g.outputs) roots.push_back(t.uop());
    absl::StatusOr<Schedule> sched = CreateScheduleWithVars(UOp::Sink(roots));
    if (!sched.ok()) {
      std::fprintf(stderr, "tg tune: scheduling %s failed: %s\n", S(w->name).c_str(), sched.status().ToString().c_str());
      return 1;
    }
    std::vector<UOp> kernels;
    absl::flat_hash_set<uint64_t> seen;
    for (const ScheduleItem& item : sched->items)
      if (item.ast.op() == Ops::SINK && seen.insert(item.ast.key()).second) kernels.push_back(item.ast);

    if (dash != nullptr)
      for (const UOp& k : kernels) dash->recorder().AddKernel(k, TunedName(k, (**dev).renderer(), {}));
    std::printf("%s:%s, %zu kernels, BEAM=%d, on %s%s, database %s\n", S(w->name).c_str(), shown.c_str(), kernels.size(),
                topts.beam, (**dev).name().c_str(), cpu_target.empty() ? "" : absl::StrCat(", CPU target ", cpu_target).c_str(), (*tuner)->db() != nullptr ? (*tuner)->db()->location().c_str() : "off (CACHELEVEL=0)");
    std::vector<KernelTuning> farm_results;
    if (WantsFarm(farm)) {
      absl::StatusOr<std::vector<KernelTuning>> r =
          FarmTuneKernels(kernels, **dev, topts, farm, [&](const std::string& line) { progress.Update(line); });
      progress.Clear();
      if (!r.ok()) {
        std::fprintf(stderr, "tg tune: farm: %s\n", r.status().ToString().c_str());
        return 1;
      }
      farm_results = *std::move(r);
    }
    std::vector<Row> rows;
    simd = topts.settings.simd;
    for (size_t i = 0; i < kernels.size(); ++i) {
      current = absl::StrFormat("kernel %zu/%zu", i + 1, kernels.size());
      absl::StatusOr<KernelTuning> t;
      if (WantsFarm(farm)) {
        t = farm_results[i];
        if (!t->record.has_value()) t = absl::InternalError("the farm answered no record");
      } else {
        progress.Update(absl::StrCat(current, "  looking up"));
        t = (*tuner)->Tune(kernels[i], **dev);
        progress.Clear();
      }
      if (!t.ok()) {
        std::fprintf(stderr, "tg tune: %s failed: %s\n", current.c_str(), t.status().ToString().c_str());
        return 1;
      }
      std::string name = !t->record->kernel_name.empty() ? t->record->kernel_name
                                                         : TunedName(kernels[i], (**dev).renderer(), t->record->opts);
      if (t->unusable.has_value())
        std::printf("%s: record %s held opts %s that do not apply (%s); searched again, the winner replaced it\n",
                    current.c_str(), t->unusable->key.Digest().substr(0, 16).c_str(),
                    autotune::OptsToText(t->unusable->opts).c_str(), std::string(t->unusable_why.message()).c_str());
      std::printf("%s %-28s %s -> %s%s\n", current.c_str(), name.c_str(),
                  Ms(t->record->heuristic_time_s.value_or(1e31)).c_str(), Ms(t->record->time_s).c_str(),
                  t->from_cache ? " (cached)" : absl::StrFormat(" (%lld candidates, %.1f s)",
                                                                static_cast<long long>(t->record->candidates),
                                                                t->record->search_wall_s).c_str());
      if (!json_path.empty()) {
        if (absl::Status s = AppendJson(json_path, *w, p, static_cast<int>(i), name, kernels[i], **dev, *t, topts.beam, simd,
                                       topts.settings);
            !s.ok()) {
          std::fprintf(stderr, "tg tune: writing %s: %s\n", json_path.c_str(), s.ToString().c_str());
          return 1;
        }
      }
      rows.push_back({name, *std::move(t)});
    }
    PrintTable(rows);
    if (remote != nullptr)
      std::printf("compile server %s: %llu batches prepared there, %llu here\n", compile_with.c_str(),
                  static_cast<unsigned long long>(remote->batches_prepared()),
                  static_cast<unsigned long long>(remote->batches_refused()));
    return 0;
  };
  const int rc = tune();
  if (dash != nullptr) {
    dash->recorder().MarkFinished();
    if (dashboard_wait) {
      std::printf("dashboard: %s shows the final table until Ctrl-C\n", dash->url().c_str());
      std::fflush(stdout);
      web::WaitForInterrupt();
    }
  }
  return rc;
}

}  // namespace tg
