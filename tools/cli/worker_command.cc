// File: tools/cli/worker_command.cc
#include "tools/cli/worker_command.h"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "autotune/device_lock.h"
#include "autotune/net/curve_keys.h"
#include "autotune/net/secure_endpoint.h"
#include "tinygrad/base/config.h"
#include "workers/worker.h"
#include "workers/worker_child.h"

namespace tg {
namespace {

namespace net = autotune::net;
using workers::TimingMode;
using workers::Worker;
using workers::WorkerOptions;

void PrintWorkerUsage(std::FILE* out) {
  std::fprintf(out,
               "usage: tg worker --connect tcp://HOST:PORT|ipc://PATH [--id NAME] [--children N]\n"
               "                 [--key FILE --server-key FILE | --insecure]\n"
               "                 [--fake-timing | --simulate-device-ms X] [--exit-on-bye] [--heartbeat-ms N]\n"
               "                 [--exit-with-parent] [--device-lock PATH|none]\n"
               "                 [--inject-fault crash:OPTS|hang:OPTS ...]\n\n"
               "Runs a tuning-farm worker: announces this machine's device class to the coordinator and\n"
               "measures the candidates it sends, each in a child process (a crash or hang is reported,\n"
               "never fatal). tcp:// needs CURVE keys (--key: this worker's secret key file, --server-key:\n"
               "the coordinator's public key file; make them with tg keygen) or --insecure. --children\n"
               "defaults to the number of cores. --fake-timing and --simulate-device-ms are for tests and\n"
               "benchmarks only. SIGTERM or SIGINT: says bye to the coordinator and exits.\n"
               "--device-lock: the machine-wide lock that every worker and tg tune on this machine share:\n"
               "kernels are timed one at a time and never while anything compiles (default: device-CPU.lock\n"
               "in the tinygrad-cc cache directory; none: this worker's children only take turns among\n"
               "themselves).\n"
               "--exit-with-parent (the local workers of tg tune --workers): SIGTERM when the process\n"
               "that started this one dies, so a killed coordinator leaves no workers behind.\n"
               "--inject-fault (tests only): a candidate with exactly these opts (JSON, as tg db show\n"
               "prints them) crashes its child with SIGSEGV, or hangs it until the run deadline.\n");
}

int Usage(const std::string& msg) {
  std::fprintf(stderr, "tg worker: %s\n\n", msg.c_str());
  PrintWorkerUsage(stderr);
  return 2;
}

Worker* g_worker = nullptr;

void OnSignal(int sig) {
  if (g_worker != nullptr) g_worker->Stop(sig);  // async-signal-safe
}

bool ParseInt(std::string_view s, int lo, int* out) {
  return absl::SimpleAtoi(std::string(s), out) && *out >= lo;
}

}  // namespace

int WorkerCommand(std::span<const std::string_view> args) {
  if (!args.empty() && args[0] == "--child") return workers::WorkerChildMain(args.subspan(1));
  WorkerOptions o;
  std::string key, server_key;
  bool insecure = false, fake = false, simulate = false;
  std::vector<std::string> faults;  // child arguments
  std::string device_lock = autotune::DefaultDeviceLockPath(GetConfig().cache_dir, "CPU");
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    auto value = [&](std::string_view* v) {
      if (i + 1 >= args.size()) return false;
      *v = args[++i];
      return true;
    };
    std::string_view v;
    if (a == "-h" || a == "--help") {
      PrintWorkerUsage(stdout);
      return 0;
    } else if (a == "--connect") {
      if (!value(&v)) return Usage("--connect needs an endpoint");
      o.endpoint = std::string(v);
    } else if (a == "--id") {
      if (!value(&v) || v.empty()) return Usage("--id needs a name");
      o.worker_id = std::string(v);
    } else if (a == "--children") {
      if (!value(&v) || !ParseInt(v, 1, &o.children)) return Usage("--children needs a count >= 1");
    } else if (a == "--key") {
      if (!value(&v)) return Usage("--key needs a secret key file");
      key = std::string(v);
    } else if (a == "--server-key") {
      if (!value(&v)) return Usage("--server-key needs a public key file");
      server_key = std::string(v);
    } else if (a == "--insecure") {
      insecure = true;
    } else if (a == "--fake-timing") {
      fake = true;
    } else if (a == "--simulate-device-ms") {
      double ms = 0;
      if (!value(&v) || !absl::SimpleAtod(std::string(v), &ms) || ms < 0) {
        return Usage("--simulate-device-ms needs a time >= 0");
      }
      simulate = true;
      o.simulate_device_s = ms / 1000;
    } else if (a == "--exit-on-bye") {
      o.exit_on_bye = true;
    } else if (a == "--exit-with-parent") {
      prctl(PR_SET_PDEATHSIG, SIGTERM);
      if (getppid() == 1) return 0;  // the parent died before the signal was armed
    } else if (a == workers::kInjectFaultFlag) {
      if (!value(&v)) return Usage("--inject-fault needs crash:OPTS or hang:OPTS");
      if (absl::Status f = workers::ParseInjectedFault(v).status(); !f.ok()) return Usage(std::string(f.message()));
      faults.insert(faults.end(), {std::string(workers::kInjectFaultFlag), std::string(v)});
    } else if (a == "--device-lock") {
      if (!value(&v) || v.empty()) return Usage("--device-lock needs a lock file path, or none");
      device_lock = v == "none" ? "" : std::string(v);
    } else if (a == "--heartbeat-ms") {
      int ms = 0;
      if (!value(&v) || !ParseInt(v, 1, &ms)) return Usage("--heartbeat-ms needs a time >= 1");
      o.heartbeat = std::chrono::milliseconds(ms);
    } else {
      return Usage("unknown option '" + std::string(a) + "'");
    }
  }
  if (o.endpoint.empty()) return Usage("--connect ENDPOINT is required");
  if (!o.endpoint.starts_with("tcp://") && !o.endpoint.starts_with("ipc://")) {
    return Usage("--connect takes tcp://HOST:PORT or ipc://PATH, not '" + o.endpoint + "'");
  }
  if (fake && simulate) return Usage("--fake-timing and --simulate-device-ms exclude each other");
  if (key.empty() != server_key.empty()) return Usage("--key and --server-key go together");
  if (!key.empty() && insecure) return Usage("--insecure and CURVE keys exclude each other");
  if (o.endpoint.starts_with("tcp://") && key.empty() && !insecure) {
    return Usage("tcp:// needs --key FILE --server-key FILE (CURVE), or --insecure");
  }
  if (!key.empty()) {
    absl::StatusOr<net::CurveKeyPair> mine = net::ReadSecretKeyFile(key);
    if (!mine.ok()) return Usage(std::string(mine.status().message()));
    absl::StatusOr<std::string> server = net::ReadPublicKeyFile(server_key);
    if (!server.ok()) return Usage(std::string(server.status().message()));
    o.security = net::SecurityOptions::CurveClient(*mine, *server);
  } else if (insecure) {
    o.security = net::SecurityOptions::Insecure();
  }
  o.mode = simulate ? TimingMode::kSimulate : fake ? TimingMode::kFakeTiming : TimingMode::kReal;
  // The child is this very binary (`tg worker --child`).
  char self[PATH_MAX] = {};
  const ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n <= 0) {
    std::fprintf(stderr, "tg worker: cannot find this program (/proc/self/exe)\n");
    return 1;
  }
  o.child_argv = {std::string(self, static_cast<size_t>(n)), "worker", "--child"};
  o.child_argv.insert(o.child_argv.end(), faults.begin(), faults.end());
  if (!device_lock.empty() && o.mode == TimingMode::kReal) {
    // opened here first, so that a bad path is this command's error rather than every job's
    if (absl::Status s = autotune::DeviceLock::Open(device_lock).status(); !s.ok()) {
      std::fprintf(stderr, "tg worker: %s\n", std::string(s.message()).c_str());
      return 1;
    }
    o.child_argv.insert(o.child_argv.end(), {std::string(workers::kDeviceLockFlag), device_lock});
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
  std::fprintf(stderr, "tg worker %s: serving %s with %d children\n", (*w)->worker_id().c_str(),
               endpoint.c_str(), (*w)->capacity());
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
