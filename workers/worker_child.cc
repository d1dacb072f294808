// File: workers/worker_child.cc
// The worker daemon's child: decode a MeasureRequest, LocalMeasurer::Measure it with the
// device phase inside the pool's device gate, encode the MeasureResult.
#include "workers/worker_child.h"

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
#include "autotune/local_measurer.h"
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
  const WorkerChildHooks* hooks = nullptr;
  std::unique_ptr<LocalMeasurer> measurer;
  DeviceGate* gate = nullptr;                          // of the job being run
  std::span<const std::vector<Opt>> candidates;        // of the job being run
};

std::string Respond(uint64_t job_id, uint64_t search_id, absl::Status status,
                    autotune::MeasureBatch batch = {}) {
  return autotune::codec::EncodeFarmMessage(MeasureResult{
      .job_id = job_id, .search_id = search_id, .status = std::move(status), .batch = std::move(batch)});
}

std::string Handle(ChildState& st, std::string_view request, DeviceGate& gate) {
  absl::StatusOr<FarmMessage> m = autotune::codec::DecodeFarmMessage(request);
  if (!m.ok()) return Respond(0, 0, absl::InvalidArgumentError(absl::StrCat("child request: ", m.status().message())));
  MeasureRequest* req = std::get_if<MeasureRequest>(&*m);
  if (req == nullptr || !req->task.has_value()) {
    return Respond(0, 0, absl::InvalidArgumentError("child request: not a job with its task"));
  }
  if (st.measurer == nullptr) {
    absl::StatusOr<std::unique_ptr<LocalMeasurer>> lm = LocalMeasurer::Create({
        .compile_threads = st.options.compile_threads,
        .fake_timing = st.options.fake_timing,
        .acquire_device =
            [&st] {
              st.gate->Acquire();
              if (st.hooks->on_device) st.hooks->on_device(st.candidates);
            },
        .release_device = [&st] { st.gate->Release(); },
    });
    if (!lm.ok()) return Respond(req->job_id, req->search_id, lm.status());
    st.measurer = *std::move(lm);
  }
  st.gate = &gate;
  st.candidates = req->candidates;
  absl::StatusOr<autotune::MeasureBatch> b = st.measurer->Measure(*req->task, req->candidates, req->options);
  st.gate = nullptr;
  st.candidates = {};
  if (!b.ok()) return Respond(req->job_id, req->search_id, b.status());
  return Respond(req->job_id, req->search_id, absl::OkStatus(), *std::move(b));
}

}  // namespace

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
    } else {
      return absl::InvalidArgumentError("unknown child argument '" + std::string(a) + "'");
    }
  }
  return o;
}

int WorkerChildMain(std::span<const std::string_view> args, const WorkerChildHooks& hooks) {
  absl::StatusOr<WorkerChildOptions> o = ParseWorkerChildArgs(args);
  if (!o.ok()) {
    std::fprintf(stderr, "worker child: %s\n", std::string(o.status().message()).c_str());
    return 2;
  }
  ChildState st{.options = *o, .hooks = &hooks};
  return RunChildLoop([&st](std::string_view request, DeviceGate& gate) { return Handle(st, request, gate); });
}

}  // namespace tg::workers
