// File: tools/cli/farm_tune.cc
// Broker + local worker processes + the tuning driver over a FarmMeasurer for `tg tune --workers N / --bind EP`.
#include "tools/cli/farm_tune.h"

#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "autotune/farm/broker.h"
#include "autotune/driver.h"
#include "autotune/farm/farm_measurer.h"
#include "autotune/key/device_class.h"
#include "autotune/net/curve_keys.h"
#include "autotune/net/zap_handler.h"
#include "tinygrad/base/config.h"
#include "tinygrad/base/status_macros.h"

extern char** environ;

namespace tg {
namespace {

namespace farm = autotune::farm;
namespace net = autotune::net;

// The local worker processes; killed (SIGTERM, then SIGKILL) if still running at the end.
class LocalWorkers {
 public:
  ~LocalWorkers() { Stop(std::chrono::seconds(5)); }
  // `cpu_target`: the coordinator's device's, so that the workers announce its device class.
  absl::Status Start(int n, const std::string& endpoint, bool fake_timing, const std::string& device,
                     const std::string& cpu_target, const std::vector<std::string>& more) {
    for (int i = 0; i < n; ++i) {
      std::vector<std::string> args = {"tg", "worker", "--connect", endpoint, "--exit-on-bye", "--exit-with-parent"};
      if (fake_timing) args.push_back("--fake-timing");
      args.insert(args.end(), {"--device", device, "--cpu-target", cpu_target.empty() ? "native" : cpu_target});
      args.insert(args.end(), more.begin(), more.end());
      std::vector<char*> argv;
      for (std::string& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      pid_t pid;
      if (int e = posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, argv.data(), environ); e != 0)
        return absl::InternalError(absl::StrCat("starting a local worker failed: ", e));
      pids_.push_back(pid);
    }
    return absl::OkStatus();
  }
  const std::vector<pid_t>& pids() const { return pids_; }
  // How many have exited already (reaped); a local farm whose workers all died is over.
  int Exited() {
    for (pid_t& pid : pids_) {
      int status;
      if (pid > 0 && waitpid(pid, &status, WNOHANG) == pid) {
        pid = -pid;
        if (WIFEXITED(status) && WEXITSTATUS(status) == 2)
          std::fprintf(stderr, "farm: a local worker exited with a usage error (does this tg have `tg worker`?)\n");
      }
    }
    int n = 0;
    for (pid_t pid : pids_) n += pid < 0;
    return n;
  }
  // Waits for the workers (they exit on the coordinator's Bye), then kills the rest.
  void Stop(std::chrono::milliseconds grace) {
    const auto deadline = std::chrono::steady_clock::now() + grace;
    for (pid_t pid : pids_) {
      if (pid < 0) continue;  // reaped by Exited()
      int status;
      while (waitpid(pid, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
          kill(pid, SIGKILL);
          waitpid(pid, &status, 0);
          break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }
    pids_.clear();
  }

 private:
  std::vector<pid_t> pids_;
};

}  // namespace

bool WantsFarm(const FarmTuneFlags& f) { return f.workers > 0 || !f.bind.empty(); }

absl::StatusOr<std::vector<autotune::KernelTuning>> FarmTuneKernels(const std::vector<UOp>& kernels, Device& dev,
                                                                    const autotune::TunerOptions& topts,
                                                                    const FarmTuneFlags& flags,
                                                                    const std::function<void(const std::string&)>& show) {
  if (!WantsFarm(flags)) return absl::InvalidArgumentError("no farm flag given");
  if (flags.workers > 0 && !flags.bind.empty())
    return absl::InvalidArgumentError("--workers and --bind: start local workers with tg worker instead");
  ASSIGN_OR_RETURN(autotune::DeviceClass dc, autotune::DeviceClassFor(dev));
  std::unique_ptr<autotune::TuningDb> db;
  if (!topts.db.empty()) {
    ASSIGN_OR_RETURN(db, autotune::OpenTuningDb(topts.db, topts.db_create));
  }
  autotune::SearchSettings settings = topts.settings;
  if (topts.beam > 0) settings.width = topts.beam;
  // Everything answered from the database: no farm to start.
  if (db != nullptr && !topts.ignore_cache) {
    std::vector<autotune::KernelTuning> cached;
    for (const UOp& ast : kernels) {
      ASSIGN_OR_RETURN(std::optional<autotune::TuningRecord> hit,
                       db->Lookup(autotune::TuningKey::Make(ast, dc, settings, topts.codegen)));
      // A record whose opts do not apply is searched again: the driver's job, on the farm.
      if (!hit.has_value() || !autotune::CheckOptsApply(ast, dev.renderer(), topts.codegen, hit->opts).ok()) break;
      cached.push_back({.record = std::move(hit), .from_cache = true});
    }
    if (cached.size() == kernels.size()) return cached;
  }

  net::ZmqContext ctx;
  std::unique_ptr<net::ZapHandler> zap;
  net::SecurityOptions sec;
  std::string endpoint = flags.bind, status_ep = flags.status_bind, dir;
  if (flags.workers > 0) {
    char tmpl[] = "/tmp/tg-farm-XXXXXX";  // mkdtemp makes it 0700: the ipc:// rule
    if (mkdtemp(tmpl) == nullptr) return absl::InternalError("cannot make a private directory for the farm socket");
    dir = tmpl;
    endpoint = absl::StrCat("ipc://", dir, "/farm");
    if (status_ep.empty()) status_ep = absl::StrCat("ipc://", dir, "/status");
  } else if (!flags.security.key.empty()) {
    if (flags.security.allow.empty()) return absl::InvalidArgumentError("--key needs --allow (the workers' public keys)");
    ASSIGN_OR_RETURN(net::CurveKeyPair keys, net::ReadSecretKeyFile(flags.security.key));
    ASSIGN_OR_RETURN(zap, net::ZapHandler::Start(ctx, {.allowlist_path = flags.security.allow}));
    sec = net::SecurityOptions::CurveServer(keys, zap.get());
  } else if (flags.security.insecure) {
    sec = net::SecurityOptions::Insecure();
  }
  struct DirGuard {
    std::string dir;
    ~DirGuard() {
      std::error_code ec;
      if (!dir.empty()) std::filesystem::remove_all(dir, ec);
    }
  } guard{dir};

  ASSIGN_OR_RETURN(std::unique_ptr<farm::Broker> broker,
                   farm::Broker::Start({.endpoint = endpoint, .security = sec, .status_endpoint = status_ep,
                                        .clock = flags.clock, .context = &ctx}));
  std::printf("farm: workers connect to %s%s%s\n", broker->endpoint().c_str(),
              broker->status_endpoint().empty() ? "" : ", status: tg farm status --connect ",
              broker->status_endpoint().c_str());
  LocalWorkers local;
  RETURN_IF_ERROR(local.Start(flags.workers, broker->endpoint(), flags.fake_timing, dev.name(), std::string(dev.cpu_target()),
                              flags.local_worker_args));
  if (flags.workers > 0) std::printf("farm: local worker pids: %s\n", absl::StrJoin(local.pids(), " ").c_str());
  std::fflush(stdout);
  bool joined = false;
  for (auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(static_cast<int64_t>(
                                                           flags.wait_for_workers_s * 1000));
       !joined && std::chrono::steady_clock::now() < until;) {
    joined = broker->WaitForWorkers(dc.Digest(), 1, std::chrono::milliseconds(200));
    if (!joined && flags.workers > 0 && local.Exited() == flags.workers)
      return absl::FailedPreconditionError("every local worker exited before joining");
  }
  if (!joined)
    return absl::DeadlineExceededError(
        absl::StrFormat("no worker of this machine's device class (%s) joined within %.0f s", dc.Digest(),
                        flags.wait_for_workers_s));
  if (flags.workers > 0) broker->WaitForWorkers(dc.Digest(), flags.workers, std::chrono::seconds(10));

  farm::FarmMeasurer measurer(broker.get(), dc.Digest());
  autotune::DriverOptions o{
      .measurer = &measurer,
      .db = db.get(),
      .device_class = dc,
      .renderer = &dev.renderer(),
      .settings = settings,
      .codegen = topts.codegen,
      .beam_debug = topts.beam_debug,
      .debug = topts.debug,
      .ignore_cache = topts.ignore_cache,
      .journal = true,
      .progress = [&](const autotune::TuningProgress& p) {
        if (flags.on_status) flags.on_status(broker->Status());
        double best = 0;
        for (double s : p.speedups) best = std::max(best, s);
        show(absl::StrFormat("kernels %d/%d done (%d cached), %d jobs in flight, %zu workers, "
                             "%lld measured, %lld from journal, best speedup %.2fx",
                             p.done, p.kernels, p.cached, p.in_flight, broker->Status().workers.size(),
                             static_cast<long long>(p.measured), static_cast<long long>(p.journal_hits), best));
      },
      .observer = topts.observer};
  ASSIGN_OR_RETURN(std::vector<autotune::KernelTuning> results, autotune::TuneKernels(kernels, o));
  const farm::FarmStatus fs = broker->Status();
  if (flags.on_status) flags.on_status(fs);
  std::printf("farm: %lld jobs answered, %lld requeued, %lld results dropped (duplicate or late), %lld poisoned, "
              "%lld workers declared dead, %lld job deadlines missed, %lld workers evicted, "
              "%lld backup copies sent (%lld answered first, %lld second answers dropped)\n",
              static_cast<long long>(fs.completed), static_cast<long long>(fs.requeued),
              static_cast<long long>(fs.dropped_results), static_cast<long long>(fs.poisoned),
              static_cast<long long>(fs.dead_workers), static_cast<long long>(fs.deadline_misses),
              static_cast<long long>(fs.evicted_workers), static_cast<long long>(fs.backups_sent),
              static_cast<long long>(fs.backups_won), static_cast<long long>(fs.speculative_losses));
  std::fflush(stdout);
  broker->Shutdown();  // Bye: local workers exit
  local.Stop(std::chrono::seconds(10));
  for (const autotune::KernelTuning& r : results) RETURN_IF_ERROR(r.status);
  return results;
}

}  // namespace tg
