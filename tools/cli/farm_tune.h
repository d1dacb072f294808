// File: tools/cli/farm_tune.h
// The farm mode of `tg tune` (its default): a coordinator (autotune/farm Broker, and the tuning
// driver over a FarmMeasurer) that tunes every kernel of a workload at once on worker processes.
//   (no flag)      one local worker per core, as --workers <cores>
//   --workers N    N local `tg worker --connect ipc://<private dir>/farm --exit-on-bye`
//                  processes (this binary, /proc/self/exe), on an ipc:// socket in a fresh
//                  0700 temp dir
//   --bind EP      also (or only) accept remote workers on EP: tcp:// needs --key FILE (our
//                  secret key) and --allow PATH (allowlist of worker public keys), or --insecure
// The coordinator's status socket (for `tg farm status --connect`) is printed at start: next
// to the ipc socket for local farms, or --status-bind EP.
//
// Not a port: tinygrad tunes in-process.
#ifndef TOOLS_CLI_FARM_TUNE_H_
#define TOOLS_CLI_FARM_TUNE_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "autotune/farm/broker.h"
#include "autotune/tuner.h"
#include "tinygrad/base/clock.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/uop/uop.h"
#include "tools/cli/security_flags.h"

namespace tg {

struct FarmTuneFlags {
  int workers = 0;            // local worker processes to start
  std::string bind;           // extra endpoint for remote workers ("" none)
  std::string status_bind;    // status socket ("": ipc next to the local socket, if any)
  SecurityFlags security;     // --key (CURVE on tcp://), --allow (workers' public keys), --insecure
  bool fake_timing = false;   // local workers with --fake-timing (tests only)
  // More arguments for each local worker: its compile server (--compile-with EP and its keys).
  std::vector<std::string> local_worker_args;
  double wait_for_workers_s = 60;  // how long to wait for the first worker (real time)
  // The broker's clock (heartbeats, and when a silent worker is dead); null: the machine's. A
  // test's FakeClock, shared with its workers, keeps the farm's liveness decisions off the
  // machine's speed.
  Clock* clock = nullptr;
  // Gets the broker's status with each progress report and once at the end (the dashboard's
  // farm section); called on the tuning thread. Null: none.
  std::function<void(const autotune::farm::FarmStatus&)> on_status;
};

// True when any farm flag is set.
bool WantsFarm(const FarmTuneFlags& f);

// Tunes `kernels` on the farm with `topts` (beam, db, ignore_cache, settings); one result per
// kernel, as Tuner::Tune answers. `show` gets progress lines.
absl::StatusOr<std::vector<autotune::KernelTuning>> FarmTuneKernels(const std::vector<UOp>& kernels, Device& dev,
                                                                    const autotune::TunerOptions& topts,
                                                                    const FarmTuneFlags& flags,
                                                                    const std::function<void(const std::string&)>& show);

}  // namespace tg

#endif  // TOOLS_CLI_FARM_TUNE_H_
