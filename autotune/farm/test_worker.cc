// File: autotune/farm/test_worker.cc
// The scripted worker's thread: the worker half of the farm protocol, with faults on request.
#include "autotune/farm/test_worker.h"

#include <algorithm>
#include <deque>
#include <optional>
#include <future>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "autotune/codec/ast_codec.h"
#include "autotune/codec/farm_codec.h"
#include "autotune/codec/farm_messages.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/wait_until.h"

namespace tg::autotune::farm {
namespace {

using SteadyClock = std::chrono::steady_clock;

}  // namespace

CandidateResult FakeCandidate(const std::vector<Opt>& opts) {
  CandidateResult r;
  r.program_hash = codec::WireDigest(codec::EncodeOpts(opts)) | 1;
  r.min_s = 1e-4 + static_cast<double>(r.program_hash % 1000) * 1e-6;
  r.samples_s = {r.min_s};
  return r;
}

TestWorker::TestWorker(net::ZmqContext& ctx, TestWorkerOptions o) : ctx_(ctx), o_(std::move(o)) {
  holding_ = o_.hold_answers;
  Start();
}

TestWorker::~TestWorker() { Stop(); }

void TestWorker::Start() {
  stop_ = false;
  killed_ = false;
  thread_ = std::thread([this] { Run(); });
}

void TestWorker::Freeze() {
  frozen_ = true;
  // A message sent after Freeze returned would make the worker's silence start later than the
  // test thinks (scripted liveness tests count it in heartbeats).
  TG_CHECK(WaitUntil([&] { return parked_.load() || !thread_.joinable(); }))
      << "test worker " << o_.id << " never stopped";
}
void TestWorker::Thaw() { frozen_ = false; }
void TestWorker::ForgetTasks() { forget_ = true; }

void TestWorker::Kill() {
  killed_ = true;
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

void TestWorker::Restart() {
  if (thread_.joinable()) Kill();
  Start();
}

void TestWorker::Stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

void TestWorker::Run() {
  auto sock_or = net::ZmqSocket::Create(ctx_, net::SocketType::kDealer);
  TG_CHECK(sock_or.ok()) << sock_or.status();
  net::ZmqSocket sock = *std::move(sock_or);
  TG_CHECK(sock.SetRoutingId(o_.id).ok());
  TG_CHECK(sock.SetLinger(std::chrono::milliseconds(0)).ok());
  TG_CHECK(net::ConfigureClient(sock, o_.endpoint, o_.security).ok());
  auto send = [&](const codec::FarmMessage& m) {
    [[maybe_unused]] absl::Status s = sock.Send({codec::EncodeFarmMessage(m)});
  };
  // Answers held back while holding_ (sent in order once it is off).
  std::deque<codec::MeasureResult> held;
  auto answer = [&](const codec::MeasureResult& res) {
    if (holding_) {
      held.push_back(res);
      return;
    }
    ++jobs_;
    send(res);
    if (o_.duplicate_results) send(res);
  };
  auto hello = [&] {
    ++hellos_;
    send(codec::Hello{.protocol_version = o_.protocol_version != 0 ? o_.protocol_version : codec::kProtocolVersion,
                      .build_id = "test",
                      .device = o_.device,
                      .worker_id = o_.id,
                      .capacity = static_cast<uint32_t>(o_.capacity),
                      .host = "host-of-" + o_.id});
    send(codec::Ready{.credits = static_cast<uint32_t>(o_.capacity)});
  };
  // Heartbeats and the coordinator's silence run on the options' clock; the simulated device
  // below takes real time. Read before the Hello: a test that moves a scripted clock one
  // heartbeat on once the broker has the Hello then hears this worker at the new time.
  Clock& clock = o_.clock != nullptr ? *o_.clock : Clock::Real();
  Clock::TimePoint last_heard = clock.Now();
  Clock::TimePoint next_hb = last_heard + o_.heartbeat;
  hello();
  absl::flat_hash_map<uint64_t, KernelTask> tasks;
  std::deque<codec::MeasureRequest> pending;
  uint64_t seq = 0;
  std::future<codec::MeasureResult> running;
  // A simulated device (delay only): the answer is ready, it is sent at sim_done.
  std::optional<codec::MeasureResult> sim;
  SteadyClock::time_point sim_done;
  while (!stop_) {
    if (frozen_) {
      parked_ = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      // Frozen time does not count as the coordinator's silence (a stopped process has no clock
      // running for it either; it notices the silence only after it resumes).
      last_heard = clock.Now();
      continue;
    }
    parked_ = false;
    while (!holding_ && !held.empty()) {
      answer(held.front());
      held.pop_front();
    }
    if (running.valid() && running.wait_for(std::chrono::seconds(0)) == std::future_status::ready) answer(running.get());
    if (sim.has_value() && SteadyClock::now() >= sim_done) {
      answer(*sim);
      sim.reset();
    }
    const bool busy = running.valid() || sim.has_value();
    auto wait = std::chrono::milliseconds(running.valid() ? 1 : 5);
    if (sim.has_value())
      wait = std::clamp(std::chrono::ceil<std::chrono::milliseconds>(sim_done - SteadyClock::now()),
                        std::chrono::milliseconds(0), o_.heartbeat);
    absl::StatusOr<net::Frames> f = pending.empty() || busy ? sock.ReceiveFor(wait) : sock.TryReceive();
    bool bye = false;
    while (f.ok()) {
      last_heard = clock.Now();
      if (f->size() == 1) {
        absl::StatusOr<codec::FarmMessage> m = codec::DecodeFarmMessage((*f)[0]);
        if (m.ok()) {
          if (auto* req = std::get_if<codec::MeasureRequest>(&*m)) {
            ++received_;
            pending.push_back(std::move(*req));
          }
          if (auto* b = std::get_if<codec::Bye>(&*m)) {
            ++byes_;
            if (b->refused) ++refused_byes_;
            bye = true;
          }
        }
      }
      f = sock.TryReceive();
    }
    if (bye) break;  // --exit-on-bye
    const Clock::TimePoint now = clock.Now();
    if (now - last_heard > o_.heartbeat * o_.dead_after) {
      hello();  // the coordinator went silent: it declared us dead, or restarted
      last_heard = now;
    }
    if (now >= next_hb) {
      send(codec::Heartbeat{.seq = ++seq, .in_flight = static_cast<uint32_t>(pending.size())});
      next_hb = now + o_.heartbeat;
    }
    if (pending.empty() || busy) continue;
    codec::MeasureRequest req = std::move(pending.front());
    pending.pop_front();
    if (forget_.exchange(false)) tasks.clear();
    if (req.task.has_value()) tasks.insert_or_assign(req.task_digest, *req.task);
    auto task = tasks.find(req.task_digest);
    codec::MeasureResult res{.job_id = req.job_id, .search_id = req.search_id};
    if (task == tasks.end()) {
      ++unknown_;
      res.status = absl::FailedPreconditionError(absl::StrFormat("unknown task %016x", req.task_digest));
      if (holding_) {
        held.push_back(std::move(res));
      } else {
        send(res);
      }
      continue;
    }
    bool poisoned = false;
    if (o_.poison)
      for (const auto& c : req.candidates) poisoned = poisoned || o_.poison(c);
    if (poisoned) {
      // Dies: a new connection under the same id says Hello; every job it held is gone.
      sock.Close();
      pending.clear();
      held.clear();
      tasks.clear();
      auto s = net::ZmqSocket::Create(ctx_, net::SocketType::kDealer);
      TG_CHECK(s.ok());
      sock = *std::move(s);
      TG_CHECK(sock.SetRoutingId(o_.id).ok());
      TG_CHECK(sock.SetLinger(std::chrono::milliseconds(0)).ok());
      TG_CHECK(net::ConfigureClient(sock, o_.endpoint, o_.security).ok());
      hello();
      continue;
    }
    if (o_.delay_s == 0 && !o_.measure) {  // nothing to wait for: answer at once
      for (const auto& c : req.candidates) res.batch.results.push_back(FakeCandidate(c));
      answer(res);
      continue;
    }
    if (!o_.measure) {
      for (const auto& c : req.candidates) res.batch.results.push_back(FakeCandidate(c));
      sim = std::move(res);
      sim_done = SteadyClock::now() + std::chrono::duration_cast<SteadyClock::duration>(std::chrono::duration<double>(
                                    o_.delay_s * static_cast<double>(req.candidates.size())));
      continue;
    }
    // Measured on a helper thread, so heartbeats go on while it runs (as a worker whose
    // children measure); one job at a time, as one device.
    running = std::async(std::launch::async, [this, req = std::move(req), task = task->second]() mutable {
      codec::MeasureResult res{.job_id = req.job_id, .search_id = req.search_id};
      if (o_.delay_s > 0)
        std::this_thread::sleep_for(
            std::chrono::duration<double>(o_.delay_s * static_cast<double>(req.candidates.size())));
      if (o_.measure) {
        absl::StatusOr<MeasureBatch> b = o_.measure(task, req.candidates, req.options);
        if (b.ok()) res.batch = *std::move(b);
        else res.status = b.status();
      } else {
        for (const auto& c : req.candidates) res.batch.results.push_back(FakeCandidate(c));
      }
      return res;
    });
  }
  if (!killed_ && !frozen_) send(codec::Bye{.reason = "test worker stopping"});
}

}  // namespace tg::autotune::farm
