// File: workers/worker_child.cc
// The worker daemon's child: decode a MeasureRequest, LocalMeasurer::Measure it with the
// device phase inside the pool's device gate, encode the MeasureResult.
#include "workers/worker_child.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <new>
#include <string>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "autotune/codec/farm_codec.h"
#include "autotune/compile/relayed_preparer.h"
#include "autotune/compile/target_info.h"
#include "autotune/codec/farm_messages.h"
#include "autotune/db/opts_text.h"
#include "autotune/farm/job_deadline.h"
#include "autotune/lock/device_lock.h"
#include "autotune/measure/local_measurer.h"
#include "autotune/measure/warm_up.h"
#include "tinygrad/base/config.h"
#include "tinygrad/base/device_name.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/engine/cpu_device.h"
#include "workers/child_main.h"
#include "workers/resource_limits.h"
#include "workers/sandbox.h"
#include "workers/thread_priority.h"

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
  DeviceOptions device_options;
  absl::Status setup;  // how the set-up went; a job is answered with it when it failed
  std::unique_ptr<LocalMeasurer> measurer;
  DeviceGate* gate = nullptr;                          // of the job being run
  std::span<const std::vector<Opt>> candidates;        // of the job being run
};

std::string Respond(uint64_t job_id, uint64_t search_id, absl::Status status,
                    autotune::MeasureBatch batch = {}) {
  return autotune::codec::EncodeFarmMessage(MeasureResult{
      .job_id = job_id, .search_id = search_id, .status = std::move(status), .batch = std::move(batch)});
}

// Allocates (64 MiB at a time, never touched: the memory limit counts mappings) until
// refused, then does what operator new does then: its handler (InstallLimitHandlers: exit
// kChildExitOutOfMemory), else std::bad_alloc, which kills. Through the nothrow form, since
// ASan's throwing one reports and dies before any handler.
[[noreturn]] void Hog() {
  static std::vector<void*> kept;
  while (void* p = ::operator new(size_t{64} << 20, std::nothrow)) kept.push_back(p);
  if (std::new_handler h = std::get_new_handler()) h();
  std::abort();
}

// The injected faults (tests only): a crash is a real SIGSEGV, a hang blocks for good, a spin
// is a loop no signal but the CPU limit ends, a hog allocates past the memory limit. Not
// instrumented by UBSan, which would report the crash and exit instead of faulting.
__attribute__((no_sanitize("undefined"))) void Misbehave(const std::vector<InjectedFault>& faults, std::span<const std::vector<Opt>> candidates) {
  for (const InjectedFault& f : faults) {
    if (f.kind == InjectedFault::Kind::kLoseDevice) continue;  // after the measuring: LoseDevice
    if (std::find(candidates.begin(), candidates.end(), f.opts) == candidates.end()) continue;
    switch (f.kind) {
      case InjectedFault::Kind::kCrash: {
        volatile int* volatile p = nullptr;
        *p = 1;
        break;
      }
      case InjectedFault::Kind::kExec:
        execl("/bin/sh", "sh", "-c", "echo escaped", static_cast<char*>(nullptr));
        _exit(127);  // no shell: as dead as if it had run
      case InjectedFault::Kind::kHang:
        while (true) pause();
      case InjectedFault::Kind::kSpin: {
        volatile uint64_t spins = 0;
        while (true) spins = spins + 1;
      }
      case InjectedFault::Kind::kHog: Hog();
      case InjectedFault::Kind::kLoseDevice: break;
    }
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

absl::StatusOr<std::unique_ptr<LocalMeasurer>> MakeMeasurer(ChildState& st) {
  std::shared_ptr<autotune::DeviceLock> lock;
  if (!st.options.device_lock.empty()) {
    // In the sandbox no file opens: a descriptor for every hold the measurer can take at once
    // (one per compile thread, then one run).
    const int threads = st.options.compile_threads > 0 ? st.options.compile_threads
                                                       : static_cast<int>(std::thread::hardware_concurrency());
    ASSIGN_OR_RETURN(lock, autotune::DeviceLock::Open(st.options.device_lock,
                                                      st.options.sandbox ? std::max(1, threads) + 1 : 0));
  }
  ASSIGN_OR_RETURN(Device * device, GetDevice(st.options.device, st.device_options));
  std::shared_ptr<autotune::CandidatePreparer> preparer;
  if (st.options.compile_relay && device->gpu() != nullptr) {
    preparer = std::make_shared<autotune::RelayedPreparer>(
        autotune::TargetInfoOf(std::string(DeviceKind(device->name())), device->gpu()->arch, autotune::DeviceCompiler(*device)),
        [&st](std::string request) -> absl::StatusOr<std::string> {
          if (st.gate == nullptr) return absl::CancelledError("no job");  // the warm-up: prepared here
          return st.gate->AskRelay(request);
        });
  }
  // The hooks find the gate of the job being run; the warm-up runs with none.
  return std::make_unique<LocalMeasurer>(device, autotune::LocalMeasurerOptions{
      .device = st.options.device,
      .compile_threads = st.options.compile_threads,
      .fake_timing = st.options.fake_timing,
      .device_lock = std::move(lock),
      .acquire_device =
          [&st] {
            if (st.gate == nullptr) return;
            st.gate->Acquire();
            Misbehave(st.options.faults, st.candidates);
          },
      .release_device = [&st] { if (st.gate != nullptr) st.gate->Release(); },
      .before_run = [&st](double limit_s) { if (st.gate != nullptr) st.gate->Progress(limit_s); },
      .prepare_thread_setup = PrepareThreadSetup(st.options.prepare_nice),
      // a kernel fault poisoned the GPU for this process: answer, then make way for a fresh child
      .on_device_lost = [&st](const absl::Status&) { if (st.gate != nullptr) st.gate->Retire(); },
      .preparer = std::move(preparer),
  });
}

// What a child does before it says it is ready (ChildLoopOptions::on_start).
absl::Status SetUp(ChildState& st) {
  // first: the set-up itself (a compiler's start-up, a GPU driver's) runs under the limit
  if (absl::StatusOr<uint64_t> l = LimitDataFromNow(st.options.memory_limit); !l.ok()) return l.status();
  if (st.options.sandbox) {
    RETURN_IF_ERROR(CheckSandboxable(st.options.device, st.device_options));
    // nothing is opened in the sandbox: the compile caches live in memory
    st.device_options.cpu.cachelevel = 0;
    st.device_options.cuda.cachelevel = 0;
  }
  ASSIGN_OR_RETURN(st.measurer, MakeMeasurer(st));
  if (!st.options.sandbox) {
    InstallLimitHandlers();
    return absl::OkStatus();
  }
  // what a first job does once per process, while files can still be opened
  if (absl::Status s = autotune::WarmUp(*st.measurer); !s.ok()) {
    return absl::FailedPreconditionError(absl::StrCat("sandbox: before it: ", s.message()));
  }
  InstallLimitHandlers();  // after the compilers loaded: LLVM installs a new-handler of its own
  return EnterSandbox();
}

// Before each job: the child's CPU time limit, from what it used so far (resource_limits.h).
void LimitCpuTimeForJob(const ChildState& st, const MeasureRequest& req) {
  const double budget = st.options.job_cpu_s > 0
                            ? st.options.job_cpu_s
                            : JobCpuBudgetS(req.options, req.candidates.size(), st.options.compile_threads);
  if (absl::StatusOr<double> l = LimitCpuTimeFromNow(budget); !l.ok()) {
    static bool warned = false;
    if (!std::exchange(warned, true))
      std::fprintf(stderr, "worker child %d: jobs run without a CPU time limit: %s\n", static_cast<int>(getpid()),
                   std::string(l.status().message()).c_str());
  }
}

std::string Handle(ChildState& st, std::string_view request, DeviceGate& gate) {
  absl::StatusOr<FarmMessage> m = autotune::codec::DecodeFarmMessage(request);
  if (!m.ok()) return Respond(0, 0, absl::InvalidArgumentError(absl::StrCat("child request: ", m.status().message())));
  MeasureRequest* req = std::get_if<MeasureRequest>(&*m);
  if (req == nullptr || !req->task.has_value()) {
    return Respond(0, 0, absl::InvalidArgumentError("child request: not a job with its task"));
  }
  if (!st.setup.ok()) return Respond(req->job_id, req->search_id, st.setup);
  LimitCpuTimeForJob(st, *req);
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

std::function<void()> PrepareThreadSetup(int prepare_nice) {
  if (prepare_nice < 0) return nullptr;
  return [prepare_nice] {
    static std::atomic<bool> warned{false};
    absl::Status s = LowerThisThreadPriority(prepare_nice);
    if (!s.ok() && !warned.exchange(true))
      std::fprintf(stderr, "worker child: compiling at the timing thread's priority: %s\n", std::string(s.message()).c_str());
  };
}

double JobCpuBudgetS(const autotune::MeasureOptions& options, size_t candidates, int compile_threads) {
  const int threads = compile_threads > 0 ? compile_threads : static_cast<int>(std::thread::hardware_concurrency());
  const double attempt_s = std::chrono::duration<double>(
                               autotune::farm::JobAttemptBudget(options, candidates, autotune::farm::WorkerTimeLimits{}))
                               .count();
  return attempt_s * (std::max(threads, 1) + 1);
}

absl::StatusOr<InjectedFault> ParseInjectedFault(std::string_view spec) {
  static constexpr std::pair<std::string_view, InjectedFault::Kind> kKinds[] = {
      {"crash", InjectedFault::Kind::kCrash}, {"hang", InjectedFault::Kind::kHang},
      {"lose", InjectedFault::Kind::kLoseDevice}, {"exec", InjectedFault::Kind::kExec},
      {"spin", InjectedFault::Kind::kSpin}, {"hog", InjectedFault::Kind::kHog}};
  const size_t colon = spec.find(':');
  const std::string_view kind = spec.substr(0, colon);
  const auto* k = std::find_if(std::begin(kKinds), std::end(kKinds), [&](const auto& e) { return e.first == kind; });
  if (colon == std::string_view::npos || k == std::end(kKinds))
    return absl::InvalidArgumentError(
        absl::StrCat("fault '", std::string(spec), "': expected ", std::string(kInjectedFaultKinds)));
  absl::StatusOr<std::vector<Opt>> opts = autotune::OptsFromText(spec.substr(colon + 1));
  if (!opts.ok()) return absl::InvalidArgumentError(absl::StrCat("fault '", std::string(spec), "': ", opts.status().message()));
  return InjectedFault{.kind = k->second, .opts = *std::move(opts)};
}

absl::StatusOr<WorkerChildOptions> ParseWorkerChildArgs(std::span<const std::string_view> args) {
  WorkerChildOptions o;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    if (a == kFakeTimingFlag) {
      o.fake_timing = true;
    } else if (a == kSandboxFlag) {
      o.sandbox = true;
    } else if (a == kCompileRelayFlag) {
      o.compile_relay = true;
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
    } else if (a == kPrepareNiceFlag) {
      if (i + 1 >= args.size() || !absl::SimpleAtoi(std::string(args[i + 1]), &o.prepare_nice) || o.prepare_nice < 0 ||
          o.prepare_nice > 19) {
        return absl::InvalidArgumentError(std::string(kPrepareNiceFlag) + " needs a nice increment in 0..19");
      }
      ++i;
    } else if (a == kMemoryLimitFlag) {
      if (i + 1 >= args.size() || !absl::SimpleAtoi(std::string(args[i + 1]), &o.memory_limit))
        return absl::InvalidArgumentError(std::string(kMemoryLimitFlag) + " needs a byte count >= 0");
      ++i;
    } else if (a == kJobCpuFlag) {
      if (i + 1 >= args.size() || !absl::SimpleAtod(std::string(args[i + 1]), &o.job_cpu_s) || !(o.job_cpu_s >= 0) ||
          std::isinf(o.job_cpu_s)) {
        return absl::InvalidArgumentError(std::string(kJobCpuFlag) + " needs a number of seconds >= 0");
      }
      ++i;
    } else if (a == kCpuTargetFlag) {
      if (i + 1 >= args.size() || args[i + 1].empty())
        return absl::InvalidArgumentError(std::string(kCpuTargetFlag) + " needs a CPU target (native, x86-64-v3, ...)");
      o.cpu_target = std::string(args[++i]);
    } else if (a == kInjectFaultFlag) {
      if (i + 1 >= args.size())
        return absl::InvalidArgumentError(absl::StrCat(std::string(kInjectFaultFlag), " needs ", std::string(kInjectedFaultKinds)));
      ASSIGN_OR_RETURN(InjectedFault f, ParseInjectedFault(args[++i]));
      o.faults.push_back(std::move(f));
    } else {
      return absl::InvalidArgumentError("unknown child argument '" + std::string(a) + "'");
    }
  }
  return o;
}

absl::Status CheckSandboxable(std::string_view device, const DeviceOptions& options) {
  RETURN_IF_ERROR(SandboxSupported());
  if (CanonicalDeviceName(device).starts_with("CPU") && !CpuCompilesInProcess(options.cpu)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the candidate sandbox forbids starting processes, and the CPU device would compile with one (CPU_CC=",
        options.cpu.cc.empty() ? "clang, in a build without the in-process compilers" : options.cpu.cc,
        "): unset CPU_CC, or turn the sandbox off"));
  }
  return absl::OkStatus();
}

int WorkerChildMain(std::span<const std::string_view> args) {
  absl::StatusOr<WorkerChildOptions> o = ParseWorkerChildArgs(args);
  if (!o.ok()) {
    std::fprintf(stderr, "worker child: %s\n", std::string(o.status().message()).c_str());
    return 2;
  }
  // The child program's edge: the process settings are read here, once.
  ChildState st{.options = *o, .device_options = DeviceOptions::FromConfig(GetConfig())};
  if (o->cpu_target.has_value()) st.device_options.cpu.cpu_target = *o->cpu_target;
  const int rc = RunChildLoop(
      [&st](std::string_view request, DeviceGate& gate) { return Handle(st, request, gate); },
      {.on_start = [&st] {
         st.setup = SetUp(st);
         if (!st.setup.ok()) std::fprintf(stderr, "worker child %d: %s\n", static_cast<int>(getpid()), std::string(st.setup.message()).c_str());
       }});
  // A sandboxed process ends here, without exit handlers (a sanitizer's leak check would
  // start a tracer process, which the sandbox kills).
  if (st.options.sandbox && st.setup.ok()) _exit(rc);
  return rc;
}

}  // namespace tg::workers
