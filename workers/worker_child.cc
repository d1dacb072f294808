// File: workers/worker_child.cc
// The worker daemon's child: decode a MeasureRequest, LocalMeasurer::Measure it with the
// device phase inside the pool's device gate, encode the MeasureResult.
#include "workers/worker_child.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <variant>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "autotune/codec/farm_codec.h"
#include "autotune/codec/farm_messages.h"
#include "autotune/db/opts_text.h"
#include "autotune/lock/device_lock.h"
#include "autotune/measure/local_measurer.h"
#include "tinygrad/base/status_macros.h"
#include "workers/child_main.h"

namespace tg::workers {
namespace {

using autotune::LocalMeasurer;
using autotune::codec::FarmMessage;
using autotune::codec::MeasureRequest;
using autotune::codec::MeasureResult;

// The state of the one job this process runs at a time (RunChildLoop is sequential). The
// measurer's device hooks are fixed at its creation, so they reach the job through here.
struct ChildState {
  WorkerChildOptions options;
  std::unique_ptr<LocalMeasurer> measurer;
  DeviceGate* gate = nullptr;                          // of the job being run
  std::span<const std::vector<Opt>> candidates;        // of the job being run
};

std::string Respond(uint64_t job_id, uint64_t search_id, absl::Status status,
                    autotune::MeasureBatch batch = {}) {
  return autotune::codec::EncodeFarmMessage(MeasureResult{
      .job_id = job_id, .search_id = search_id, .status = std::move(status), .batch = std::move(batch)});
}

// The injected faults (tests only): a crash is a real SIGSEGV, a hang a loop no signal ends.
void Misbehave(const std::vector<InjectedFault>& faults, std::span<const std::vector<Opt>> candidates) {
  for (const InjectedFault& f : faults) {
    if (f.kind == InjectedFault::Kind::kLoseDevice) continue;  // after the measuring: LoseDevice
    if (std::find(candidates.begin(), candidates.end(), f.opts) == candidates.end()) continue;
    if (f.kind == InjectedFault::Kind::kCrash) {
      volatile int* volatile p = nullptr;
      *p = 1;
    }
    volatile uint64_t spins = 0;
    while (true) spins = spins + 1;
  }
}

// The injected `lose` fault (tests only): the batch as a GPU kernel fault of that candidate
// leaves it (LocalMeasurer: it kRuntimeError, the ones after it kWorkerLost). True when it hit.
bool LoseDevice(const std::vector<InjectedFault>& faults, std::span<const std::vector<Opt>> candidates,
                autotune::MeasureBatch& batch) {
  for (const InjectedFault& f : faults) {
    if (f.kind != InjectedFault::Kind::kLoseDevice) continue;
    auto it = std::find(candidates.begin(), candidates.end(), f.opts);
    if (it == candidates.end()) continue;
    const size_t at = static_cast<size_t>(it - candidates.begin());
    for (size_t i = at; i < batch.results.size(); ++i) {
      autotune::CandidateResult& r = batch.results[i];
      r = autotune::CandidateResult{.program_hash = r.program_hash, .uops = r.uops, .cost = r.cost};
      r.outcome = i == at ? autotune::Outcome::kRuntimeError : autotune::Outcome::kWorkerLost;
      r.error = i == at ? "injected: CUDA is lost: CUDA_ERROR_ILLEGAL_ADDRESS (700)"
                        : "not measured: injected: CUDA is lost";
    }
    return true;
  }
  return false;
}

std::string Handle(ChildState& st, std::string_view request, DeviceGate& gate) {
  absl::StatusOr<FarmMessage> m = autotune::codec::DecodeFarmMessage(request);
  if (!m.ok()) return Respond(0, 0, absl::InvalidArgumentError(absl::StrCat("child request: ", m.status().message())));
  MeasureRequest* req = std::get_if<MeasureRequest>(&*m);
  if (req == nullptr || !req->task.has_value()) {
    return Respond(0, 0, absl::InvalidArgumentError("child request: not a job with its task"));
  }
  if (st.measurer == nullptr) {
    std::shared_ptr<autotune::DeviceLock> lock;
    if (!st.options.device_lock.empty()) {
      absl::StatusOr<std::shared_ptr<autotune::DeviceLock>> l = autotune::DeviceLock::Open(st.options.device_lock);
      if (!l.ok()) return Respond(req->job_id, req->search_id, l.status());
      lock = *std::move(l);
    }
    absl::StatusOr<std::unique_ptr<LocalMeasurer>> lm = LocalMeasurer::Create({
        .device = st.options.device,
        .compile_threads = st.options.compile_threads,
        .fake_timing = st.options.fake_timing,
        .device_lock = std::move(lock),
        .acquire_device =
            [&st] {
              st.gate->Acquire();
              Misbehave(st.options.faults, st.candidates);
            },
        .release_device = [&st] { st.gate->Release(); },
        .before_run = [&st](double limit_s) { st.gate->Progress(limit_s); },
        // a kernel fault poisoned the GPU for this process: answer, then make way for a fresh child
        .on_device_lost = [&st](const absl::Status&) { st.gate->Retire(); },
    });
    if (!lm.ok()) return Respond(req->job_id, req->search_id, lm.status());
    st.measurer = *std::move(lm);
  }
  st.gate = &gate;
  st.candidates = req->candidates;
  absl::StatusOr<autotune::MeasureBatch> b = st.measurer->Measure(*req->task, req->candidates, req->options);
  if (b.ok() && LoseDevice(st.options.faults, req->candidates, *b)) gate.Retire();
  st.gate = nullptr;
  st.candidates = {};
  if (!b.ok()) return Respond(req->job_id, req->search_id, b.status());
  return Respond(req->job_id, req->search_id, absl::OkStatus(), *std::move(b));
}

}  // namespace

absl::StatusOr<InjectedFault> ParseInjectedFault(std::string_view spec) {
  const size_t colon = spec.find(':');
  const std::string_view kind = spec.substr(0, colon);
  if (colon == std::string_view::npos || (kind != "crash" && kind != "hang" && kind != "lose"))
    return absl::InvalidArgumentError(
        absl::StrCat("fault '", std::string(spec), "': expected crash:OPTS, hang:OPTS or lose:OPTS"));
  absl::StatusOr<std::vector<Opt>> opts = autotune::OptsFromText(spec.substr(colon + 1));
  if (!opts.ok()) return absl::InvalidArgumentError(absl::StrCat("fault '", std::string(spec), "': ", opts.status().message()));
  const InjectedFault::Kind k = kind == "crash"  ? InjectedFault::Kind::kCrash
                               : kind == "hang" ? InjectedFault::Kind::kHang
                                                : InjectedFault::Kind::kLoseDevice;
  return InjectedFault{.kind = k, .opts = *std::move(opts)};
}

absl::StatusOr<WorkerChildOptions> ParseWorkerChildArgs(std::span<const std::string_view> args) {
  WorkerChildOptions o;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    if (a == kFakeTimingFlag) {
      o.fake_timing = true;
    } else if (a == kCompileThreadsFlag) {
      if (i + 1 >= args.size() || !absl::SimpleAtoi(std::string(args[i + 1]), &o.compile_threads) || o.compile_threads < 0) {
        return absl::InvalidArgumentError(std::string(kCompileThreadsFlag) + " needs a count >= 0");
      }
      ++i;
    } else if (a == kDeviceFlag) {
      if (i + 1 >= args.size() || args[i + 1].empty())
        return absl::InvalidArgumentError(std::string(kDeviceFlag) + " needs a device name");
      o.device = std::string(args[++i]);
    } else if (a == kDeviceLockFlag) {
      if (i + 1 >= args.size() || args[i + 1].empty())
        return absl::InvalidArgumentError(std::string(kDeviceLockFlag) + " needs a lock file path");
      o.device_lock = std::string(args[++i]);
    } else if (a == kInjectFaultFlag) {
      if (i + 1 >= args.size()) return absl::InvalidArgumentError(std::string(kInjectFaultFlag) + " needs crash:OPTS, hang:OPTS or lose:OPTS");
      ASSIGN_OR_RETURN(InjectedFault f, ParseInjectedFault(args[++i]));
      o.faults.push_back(std::move(f));
    } else {
      return absl::InvalidArgumentError("unknown child argument '" + std::string(a) + "'");
    }
  }
  return o;
}

int WorkerChildMain(std::span<const std::string_view> args) {
  absl::StatusOr<WorkerChildOptions> o = ParseWorkerChildArgs(args);
  if (!o.ok()) {
    std::fprintf(stderr, "worker child: %s\n", std::string(o.status().message()).c_str());
    return 2;
  }
  ChildState st{.options = *o};
  return RunChildLoop([&st](std::string_view request, DeviceGate& gate) { return Handle(st, request, gate); });
}

}  // namespace tg::workers
