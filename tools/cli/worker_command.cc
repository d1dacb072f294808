// File: tools/cli/worker_command.cc
#include "tools/cli/worker_command.h"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "autotune/lock/device_lock.h"
#include "autotune/net/secure_endpoint.h"
#include "tinygrad/base/config.h"
#include "tinygrad/base/device_name.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/tensor/tensor.h"
#include "tools/cli/command_line.h"
#include "tools/cli/security_flags.h"
#include "workers/worker.h"
#include "workers/worker_child.h"

namespace tg {
namespace {

namespace net = autotune::net;
using workers::TimingMode;
using workers::Worker;
using workers::WorkerOptions;

constexpr char kDescription[] =
    "Runs a tuning-farm worker: announces this machine's device class to the coordinator and\n"
    "measures the candidates it sends, each in a child process (a crash or hang is reported,\n"
    "never fatal), sandboxed: once set up, a child can start no process, open no socket or\n"
    "file and reach no other process (seccomp), and is limited in memory and in CPU time per\n"
    "job (a candidate past them fails as \"memory limit\" or \"cpu limit\"). tcp:// needs CURVE\n"
    "keys (make them with tg keygen) or --insecure.\n"
    "SIGTERM or SIGINT: says bye to the coordinator and exits.";

Worker* g_worker = nullptr;

void OnSignal(int sig) {
  if (g_worker != nullptr) g_worker->Stop(sig);  // async-signal-safe
}

std::string NotEmpty(const std::string& v) { return v.empty() ? "needs a value" : ""; }

}  // namespace

int WorkerCommand(std::span<const std::string_view> args) {
  if (!args.empty() && args[0] == "--child") return workers::WorkerChildMain(args.subspan(1));
  CLI::App app(kDescription, "tg worker");
  SetUpCommandApp(app);
  WorkerOptions o;
  o.cores = GetConfig().cpu_count;  // CPU_COUNT, read here at the edge
  SecurityFlags security;
  bool fake = false, exit_with_parent = false, no_sandbox = false;
  std::optional<double> simulate_ms;
  std::optional<int> heartbeat_ms;
  std::vector<std::string> faults;
  std::optional<std::string> device_lock;
  app.add_option("--connect", o.endpoint, "the coordinator: tcp://HOST:PORT or ipc://PATH")
      ->required()
      ->check([](const std::string& ep) {
        return ep.starts_with("tcp://") || ep.starts_with("ipc://")
                   ? std::string()
                   : "takes tcp://HOST:PORT or ipc://PATH, not '" + ep + "'";
      });
  app.add_option("--device", o.device,
                 "the device candidates run on: CPU, CUDA, CUDA:N, PYTHON (the UOp emulator, EMULATE=CUDA\n"
                 "etc.) (default: the default device, as for tg run: DEV, else CUDA where the driver\n"
                 "opens a GPU, else CPU)")
      ->check(NotEmpty);
  o.cpu_target = GetConfig().cpu_target;  // CPU_TARGET; --cpu-target overrides it
  app.add_option("--cpu-target", o.cpu_target,
                 "compile CPU kernels for this ISA instead of the host's (default: CPU_TARGET, else\n"
                 "native): x86-64-v3 (AVX2, FMA), x86-64-v4 (AVX-512) or x86-64-v2 (SSE4.2). The\n"
                 "device class announced is the target's, so only a coordinator tuning for it\n"
                 "(tg tune --cpu-target) sends jobs; a target this CPU lacks is refused at start")
      ->type_name("ISA");
  app.add_option("--id", o.worker_id, "this worker's NAME (default: host and pid)")->check(NotEmpty);
  app.add_option("--children", o.children, "child processes (default: the number of cores)")
      ->check(IntAtLeast(1));
  AddSecurityFlags(app, security, SecurityRole::kClient);
  std::string compile_with;
  SecurityFlags compile_security;
  AddCompileServerFlags(app, compile_with, compile_security, "");
  CLI::Option* fake_flag = app.add_flag("--fake-timing", fake, "(tests only) check candidates, time none");
  app.add_option("--simulate-device-ms", simulate_ms, "(benchmarks only) every run takes X ms")
      ->check(NonNegativeNumber())
      ->excludes(fake_flag);
  app.add_flag("--no-sandbox", no_sandbox,
               "run candidates unconfined: for a kernel without seccomp filters, or a compiler that\n"
               "runs as a process (CPU_CC); a kernel can then do whatever this user can");
  app.add_option("--child-memory-limit", o.child_memory_limit,
                 "private writable memory each child may map (heap, anonymous mappings, stacks:\n"
                 "RLIMIT_DATA; not RLIMIT_AS, which a GPU driver's address-space reservations would\n"
                 "exhaust), in bytes or with a unit (512MiB, 8GB); 0: none (default: this machine's\n"
                 "RAM / (children + 1 spare), at least 1 GiB)")
      ->check([](const std::string& v) {
        return v.find('-') == std::string::npos ? std::string() : "needs a size >= 0, got '" + v + "'";
      })
      ->transform(CLI::AsSizeValue(false));
  app.add_option("--job-cpu-s", o.job_cpu_s,
                 "CPU seconds a child may use on one job (all its threads) before SIGXCPU ends it;\n"
                 "0: from each job's own limits, (compile threads + 1) x the wall time its deadlines\n"
                 "allow, a backstop no honest job reaches")
      ->capture_default_str()
      ->check(NonNegativeNumber());
  app.add_flag("--exit-on-bye", o.exit_on_bye,
               "exit (0) when the coordinator says bye; a coordinator that refuses this worker\n"
               "(evicted, another protocol version) ends it anyway, with exit 1");
  app.add_option("--heartbeat-ms", heartbeat_ms, "heartbeat interval")->check(IntAtLeast(1));
  app.add_option("--prepare-nice", o.prepare_nice,
                 "how much nicer the children lower and compile (on SCHED_BATCH threads) than they\n"
                 "time kernels: compiling yields to this daemon and to timed runs; higher values\n"
                 "also yield more to other work of the same session")
      ->capture_default_str()
      ->check(CLI::Range(0, 19));
  app.add_flag("--exit-with-parent", exit_with_parent,
               "SIGTERM when the process that started this one dies (the local workers of tg tune)");
  app.add_option("--device-lock", device_lock,
                 "the machine-wide lock every worker and tg tune share: kernels are timed one at a\n"
                 "time and never while anything compiles (default: device-<DEVICE>.lock in the cache\n"
                 "directory; none: this worker's children only take turns among themselves)")
      ->check(NotEmpty);
  app.add_option(std::string(workers::kInjectFaultFlag), faults,
                 "(tests only) crash:OPTS, hang:OPTS, lose:OPTS, exec:OPTS, spin:OPTS or hog:OPTS: a\n"
                 "candidate with exactly these opts (JSON, as tg db show prints them) crashes its child\n"
                 "with SIGSEGV, hangs it, is answered as a GPU kernel fault (the child retires), runs a\n"
                 "shell, burns CPU forever or allocates until refused")
      ->check([](const std::string& spec) {
        absl::Status s = workers::ParseInjectedFault(spec).status();
        return s.ok() ? std::string() : std::string(s.message());
      })
      ->allow_extra_args(false);
  if (std::optional<int> rc = ParseCommandLine(app, args)) return *rc;
  if (app.count("--device") == 0) o.device = DefaultDevice();

  if (exit_with_parent) {
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() == 1) return kExitOk;  // the parent died before the signal was armed
  }
  if (o.endpoint.starts_with("tcp://") && security.key.empty() && !security.insecure) {
    return UsageError(app, "tcp:// needs --key FILE --server-key FILE (CURVE), or --insecure");
  }
  absl::StatusOr<net::SecurityOptions> sec = ClientSecurity(security);
  if (!sec.ok()) return UsageError(app, std::string(sec.status().message()));
  o.security = *sec;
  if (!compile_with.empty()) {
    if (DeviceKind(o.device) != "CUDA")
      return UsageError(app, "--compile-with needs a GPU device (--device CUDA): a CPU compiles where it runs");
    compile_security.insecure = security.insecure;
    absl::StatusOr<net::SecurityOptions> csec = ClientSecurity(compile_security);
    if (!csec.ok()) return UsageError(app, std::string(csec.status().message()));
    o.compile_server = autotune::RemotePreparerOptions{.endpoint = compile_with,
                                                       .security = *csec,
                                                       .reply_timeout_s = o.prepare_timeout_floor.count() / 2};
  }
  if (heartbeat_ms) o.heartbeat = std::chrono::milliseconds(*heartbeat_ms);
  if (simulate_ms) o.simulate_device_s = *simulate_ms / 1000;
  if (!device_lock.has_value()) device_lock = autotune::DefaultDeviceLockPath(GetConfig().cache_dir, o.device);
  if (*device_lock == "none") device_lock->clear();
  const bool simulate = simulate_ms.has_value();
  o.mode = simulate ? TimingMode::kSimulate : fake ? TimingMode::kFakeTiming : TimingMode::kReal;
  // The child is this very binary (`tg worker --child`).
  char self[PATH_MAX] = {};
  const ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n <= 0) {
    std::fprintf(stderr, "tg worker: cannot find this program (/proc/self/exe)\n");
    return 1;
  }
  o.child_argv = {std::string(self, static_cast<size_t>(n)), "worker", "--child"};
  for (const std::string& f : faults)
    o.child_argv.insert(o.child_argv.end(), {std::string(workers::kInjectFaultFlag), f});
  if (!device_lock->empty() && o.mode == TimingMode::kReal) {
    // opened here first, so that a bad path is this command's error rather than every job's
    if (absl::Status s = autotune::DeviceLock::Open(*device_lock).status(); !s.ok()) {
      std::fprintf(stderr, "tg worker: %s\n", std::string(s.message()).c_str());
      return 1;
    }
    o.child_argv.insert(o.child_argv.end(), {std::string(workers::kDeviceLockFlag), *device_lock});
  }
  if (!no_sandbox && !simulate) {
    // said now rather than by every job: what the children's set-up would find
    if (absl::Status s = workers::CheckSandboxable(o.device, DeviceOptions::FromConfig(GetConfig())); !s.ok()) {
      std::fprintf(stderr, "tg worker: %s (--no-sandbox runs candidates unconfined)\n", std::string(s.message()).c_str());
      return 1;
    }
    o.child_argv.emplace_back(workers::kSandboxFlag);
  }
  const std::string endpoint = o.endpoint;
  absl::StatusOr<std::unique_ptr<Worker>> w = Worker::Create(std::move(o));
  if (!w.ok()) {
    std::fprintf(stderr, "tg worker: %s\n", std::string(w.status().message()).c_str());
    return 1;
  }
  g_worker = w->get();
  struct sigaction sa = {};
  sa.sa_handler = OnSignal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);
  const uint64_t memory = (*w)->child_memory_limit();
  std::fprintf(stderr, "tg worker %s: serving %s with %d children%s\n", (*w)->worker_id().c_str(), endpoint.c_str(),
               (*w)->capacity(),
               memory > 0 && !simulate ? absl::StrFormat(", each with a memory limit of %.2f GiB", memory / 1073741824.0).c_str() : "");
  absl::Status s = (*w)->Run();
  signal(SIGTERM, SIG_DFL);
  signal(SIGINT, SIG_DFL);
  g_worker = nullptr;
  if (!s.ok()) {
    std::fprintf(stderr, "tg worker: %s\n", std::string(s.message()).c_str());
    return 1;
  }
  return 0;
}

}  // namespace tg
