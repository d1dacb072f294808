// File: workers/worker.cc
// The worker daemon on two threads of its own. The socket thread (Run's) owns the DEALER:
// it sends heartbeats, counts the coordinator's silence and passes messages on undecoded
// (reading only a job's ids: a job is held from its arrival); it does nothing that can take
// long, so no job can delay a heartbeat. The job thread owns the job state: it decodes
// requests, keeps the task cache, submits child jobs, handles their outcomes (isolation
// re-runs included) and encodes results, which it hands to the socket thread through a queue
// and an eventfd polled next to the socket. The ChildPool's supervisor (and, in simulate mode,
// the device thread) hand finished work to the job thread.
#include "workers/worker.h"

#include <pthread.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <deque>
#include <list>
#include <mutex>
#include <optional>
#include <random>
#include <thread>
#include <utility>
#include <variant>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "autotune/codec/farm_codec.h"
#include "autotune/codec/farm_messages.h"
#include "autotune/compile/compile_relay.h"
#include "autotune/measure/measurer.h"
#include "autotune/net/handshake_watch.h"
#include "tinygrad/base/stable_hash.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/base/unique_fd.h"
#include "tinygrad/base/version.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/runtime/cpu/cpu_target.h"
#include "workers/child_pool.h"
#include "workers/resource_limits.h"
#include "workers/worker_child.h"

namespace tg::workers {

namespace codec = autotune::codec;
namespace net = autotune::net;
using autotune::CandidateResult;
using autotune::KernelTask;
using autotune::MeasureBatch;
using autotune::Outcome;
using Steady = std::chrono::steady_clock;  // wall times in results

std::string DefaultBuildId() { return absl::StrCat("tinygrad-cc ", std::string(kVersion), " ", std::string(kCompilerVersion)); }

std::string DefaultWorkerId() {
  char host[256] = {};
  if (gethostname(host, sizeof(host) - 1) != 0) std::strcpy(host, "worker");
  return absl::StrCat(host, "-", getpid());
}

namespace {

// The last `capacity` tasks received, by digest, least recently used dropped first.
class TaskCache {
 public:
  explicit TaskCache(size_t capacity) : capacity_(capacity) {}
  std::shared_ptr<const KernelTask> Find(uint64_t digest) {
    auto it = map_.find(digest);
    if (it == map_.end()) return nullptr;
    order_.splice(order_.begin(), order_, it->second.second);
    return it->second.first;
  }
  std::shared_ptr<const KernelTask> Put(uint64_t digest, KernelTask task) {
    if (std::shared_ptr<const KernelTask> t = Find(digest)) return t;
    order_.push_front(digest);
    auto t = std::make_shared<const KernelTask>(std::move(task));
    map_.emplace(digest, std::make_pair(t, order_.begin()));
    while (map_.size() > capacity_) {
      map_.erase(order_.back());
      order_.pop_back();
    }
    return t;
  }

 private:
  size_t capacity_;
  std::list<uint64_t> order_;  // most recent first
  absl::flat_hash_map<uint64_t, std::pair<std::shared_ptr<const KernelTask>, std::list<uint64_t>::iterator>> map_;
};

// A job this worker holds.
struct Job {
  uint64_t job_id = 0, search_id = 0, task_digest = 0;
  std::shared_ptr<const KernelTask> task;
  std::vector<std::vector<Opt>> candidates;
  autotune::MeasureOptions options;
  FloatSeconds run_deadline{0};  // the request's run_deadline_s; 0: options.timeout_s
  // Isolation: one result per candidate, filled as the single-candidate jobs end.
  std::vector<CandidateResult> results;
  size_t pending = 0;
  Steady::time_point start;
};

// A message for the coordinator; job_id names the job a result answers (0: not a result).
struct Outgoing {
  uint64_t job_id = 0;
  std::string bytes;
};

// Finished work handed to the job thread.
struct Completion {
  uint64_t local_id = 0;
  int candidate = -1;  // -1: the whole job; else the isolated candidate
  JobOutcome outcome;
  std::optional<codec::MeasureResult> simulated;
};

// What a candidate's failed child job becomes in the reply.
CandidateResult FailedCandidate(const JobOutcome& o) {
  CandidateResult r;
  switch (o.kind) {
    case JobOutcomeKind::kCrashed:
      r.outcome = Outcome::kRuntimeError;
      r.error = absl::StrCat("crashed: ", o.detail);
      break;
    case JobOutcomeKind::kTimeout:
      r.outcome = Outcome::kTimeout;
      r.error = absl::StrCat("timeout: ", o.detail);
      break;
    case JobOutcomeKind::kProtocolError:
      r.outcome = Outcome::kRuntimeError;
      r.error = absl::StrCat("child protocol error: ", o.detail);
      break;
    case JobOutcomeKind::kCpuLimit:  // it ran too long, counted in CPU time
      r.outcome = Outcome::kTimeout;
      r.error = absl::StrCat("cpu limit: ", o.detail);
      break;
    case JobOutcomeKind::kMemoryLimit:
      r.outcome = Outcome::kRuntimeError;
      r.error = absl::StrCat("memory limit: ", o.detail);
      break;
    case JobOutcomeKind::kLost:
    case JobOutcomeKind::kOk:
      r.outcome = Outcome::kWorkerLost;
      r.error = absl::StrCat("lost: ", o.detail);
      break;
  }
  r.cost.run_s = o.run_s;
  return r;
}

// Names the calling thread for ps, top and perf (at most 15 characters).
void SetThreadName(const char* name) { pthread_setname_np(pthread_self(), name); }

std::string SignalName(int sig) {
  switch (sig) {
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGHUP: return "SIGHUP";
    default: return absl::StrCat("signal ", sig);
  }
}

}  // namespace

struct Worker::Impl {
  WorkerOptions o;
  std::unique_ptr<net::ZmqContext> own_ctx;
  net::ZmqContext* ctx = nullptr;
  net::ZmqSocket sock;
  std::unique_ptr<net::HandshakeWatch> handshake_watch;  // of `sock`: why the coordinator refuses us
  std::unique_ptr<ChildPool> pool;
  // The children's line to the compile server (options.compile_server); the pool calls it and
  // it answers into the pool, so it stops after the pool's supervisor and before the pool goes.
  std::unique_ptr<autotune::CompileRelay> relay;
  autotune::DeviceClass device;
  std::string build_id;
  std::string host = autotune::HostName();  // announced in Hello: provenance of our measurements
  // Announced in Hello: a reconnect of this process (same incarnation) keeps its jobs at the
  // coordinator; a restarted worker (a new one) loses them.
  uint64_t incarnation = 0;
  int capacity = 1;
  uint64_t memory_limit = 0;  // each child's (0: none)
  UniqueFd wake_fd;  // wakes the socket thread: results to send, Stop, a Bye to exit on
  std::atomic<bool> stop{false};
  std::atomic<int> stop_signal{0};
  // The job thread read a Bye that ends Run: with exit_on_bye, or one that refuses us.
  std::atomic<bool> bye_exit{false};
  bool ran = false;

  // ** Between the socket thread and the job thread (and the pool's and simulator's threads) **
  std::mutex mu;
  std::condition_variable job_cv;
  std::deque<std::string> inbox;  // the coordinator's messages, undecoded
  std::deque<Completion> done;    // finished child jobs and simulated ones
  std::deque<Outgoing> outbox;    // encoded results for the socket thread
  // Coordinator job ids received (by the socket thread) and not yet answered (by the job thread).
  absl::flat_hash_set<uint64_t> held;
  std::optional<std::string> refused_reason;  // of a Bye that refused us: Run's error
  bool jobs_stop = false;
  std::atomic<uint32_t> in_flight{0};  // jobs held (for heartbeats)
  std::thread job_thread;

  // Simulate mode: the device thread and its queue.
  struct SimJob {
    uint64_t local_id, job_id, search_id;
    std::vector<std::vector<Opt>> candidates;
    int runs;
  };
  std::thread sim_thread;
  std::mutex sim_mu;
  std::condition_variable sim_cv;
  std::deque<SimJob> sim_queue;
  bool sim_stop = false;

  // ** Job-thread state **
  TaskCache tasks{64};
  absl::flat_hash_map<uint64_t, std::unique_ptr<Job>> jobs;
  uint64_t next_local = 1;

  // ** Socket-thread state **
  uint64_t hb_seq = 0;
  std::deque<Outgoing> unsent;  // messages the socket refused for now, in order
  // Liveness runs on `clock` (o.clock, else the machine's) and is counted in this thread's own
  // heartbeat ticks: a tick after a message counts 1, each silent one more, and the coordinator
  // is given up when the count passes dead_after. A starved or stopped socket thread ticks
  // less, so its own delay is never taken for the coordinator's silence.
  Clock& clock() { return o.clock != nullptr ? *o.clock : Clock::Real(); }
  Clock::TimePoint next_heartbeat;
  bool heard = false;     // a message since the last tick
  bool answered = false;  // a message on this connection
  int silent_ticks = 0;

  mutable std::mutex stats_mu;
  WorkerStats stats;

  ~Impl() {
    StopJobThread();
    if (pool) pool->Shutdown();
    relay.reset();
    StopSimThread();
    sock.Close();
  }

  void Log(std::string_view line) {
    if (o.log) {
      o.log(line);
    } else {
      std::fprintf(stderr, "tg worker %s: %.*s\n", o.worker_id.c_str(), static_cast<int>(line.size()), line.data());
    }
  }
  template <typename F>
  void Stat(F f) {
    std::lock_guard<std::mutex> l(stats_mu);
    f(stats);
  }
  void Wake() {
    uint64_t one = 1;
    (void)!write(wake_fd.get(), &one, sizeof(one));
  }
  // From the pool's supervisor and the simulated device: to the job thread.
  void Push(Completion c) {
    {
      std::lock_guard<std::mutex> l(mu);
      done.push_back(std::move(c));
    }
    job_cv.notify_one();
  }
  void StopJobThread() {
    {
      std::lock_guard<std::mutex> l(mu);
      jobs_stop = true;
    }
    job_cv.notify_all();
    if (job_thread.joinable()) job_thread.join();
  }
  void StopSimThread() {
    {
      std::lock_guard<std::mutex> l(sim_mu);
      sim_stop = true;
    }
    sim_cv.notify_all();
    if (sim_thread.joinable()) sim_thread.join();
  }

  // ** simulate mode **

  void SimLoop() {
    SetThreadName("tg-sim-device");
    std::unique_lock<std::mutex> l(sim_mu);
    while (true) {
      sim_cv.wait(l, [&] { return sim_stop || !sim_queue.empty(); });
      if (sim_stop) return;
      SimJob j = std::move(sim_queue.front());
      sim_queue.pop_front();
      l.unlock();
      codec::MeasureResult r{.job_id = j.job_id, .search_id = j.search_id};
      Steady::time_point t0 = Steady::now();
      const double x = o.simulate_device_s;
      for (const std::vector<Opt>& c : j.candidates) {
        if (x > 0) std::this_thread::sleep_for(std::chrono::duration<double>(x));
        CandidateResult cr;
        cr.samples_s.assign(static_cast<size_t>(std::max(j.runs, 1)), x);
        cr.min_s = x;
        cr.program_hash = StableHasher().AddBytes(codec::EncodeOpts(c)).Finish();
        cr.cost.run_s = x;
        r.batch.results.push_back(std::move(cr));
      }
      r.batch.run_wall_s = std::chrono::duration<double>(Steady::now() - t0).count();
      Push(Completion{.local_id = j.local_id, .simulated = std::move(r)});
      l.lock();
    }
  }

  // ** the job thread: decoding, the task cache, the child pool, isolation, encoding **

  void JobLoop() {
    SetThreadName("tg-worker-jobs");
    std::unique_lock<std::mutex> l(mu);
    while (true) {
      job_cv.wait(l, [&] { return jobs_stop || !inbox.empty() || !done.empty(); });
      if (jobs_stop) return;
      std::deque<Completion> finished;
      finished.swap(done);
      std::deque<std::string> messages;
      messages.swap(inbox);
      l.unlock();
      for (Completion& c : finished) HandleCompletion(std::move(c));
      for (const std::string& m : messages) HandleMessage(m);
      l.lock();
    }
  }

  // Stats count a message before it is sent, so whoever receives it sees it counted.
  void SendResult(codec::MeasureResult r) {
    Stat([&](WorkerStats& s) {
      ++s.results_sent;
      s.in_flight = static_cast<int64_t>(jobs.size());
    });
    in_flight.store(static_cast<uint32_t>(jobs.size()));
    Outgoing out{.job_id = r.job_id, .bytes = codec::EncodeFarmMessage(r)};
    {
      std::lock_guard<std::mutex> l(mu);
      held.erase(r.job_id);
      outbox.push_back(std::move(out));
    }
    Wake();
  }

  // The child stops every kernel run itself at its limit (a first run at the early stop from
  // the best time so far, any run at the timeout) and reports the start of each run with that
  // limit, so the pool's run deadline is a backstop per run: the floor plus twice the run's
  // limit (result checks and resets happen between runs), at most twice the job's longest run.
  // What it catches is a hang the child cannot stop (a kernel or library code that never
  // returns to us).
  JobLimits Limits(const Job& j, size_t candidates) const {
    const FloatSeconds timeout(j.options.timeout_s);
    const FloatSeconds d = j.run_deadline > FloatSeconds::zero() ? j.run_deadline : timeout;
    const double k = static_cast<double>(std::max<size_t>(candidates, 1));
    return {.prepare_timeout = o.prepare_timeout_floor + timeout * k,
            .run_deadline = std::max(2 * d, o.run_deadline_floor),
            .run_deadline_floor = o.run_deadline_floor};
  }

  void Submit(uint64_t local_id, int candidate) {
    Job& j = *jobs.at(local_id);
    codec::MeasureRequest req{.job_id = j.job_id,
                              .search_id = j.search_id,
                              .task_digest = j.task_digest,
                              .task = *j.task,
                              .options = j.options,
                              .run_deadline_s = j.run_deadline.count()};
    if (candidate < 0) {
      req.candidates = j.candidates;
    } else {
      req.candidates = {j.candidates[static_cast<size_t>(candidate)]};
    }
    const JobLimits limits = Limits(j, req.candidates.size());
    pool->Submit(codec::EncodeFarmMessage(req), limits, [this, local_id, candidate](JobOutcome out) {
      Push(Completion{.local_id = local_id, .candidate = candidate, .outcome = std::move(out)});
    });
  }

  void HandleJob(codec::MeasureRequest req) {
    Stat([](WorkerStats& s) { ++s.jobs_received; });
    codec::MeasureResult reply{.job_id = req.job_id, .search_id = req.search_id};
    std::shared_ptr<const KernelTask> task;
    if (req.task.has_value()) {
      const uint64_t digest = codec::KernelTaskDigest(*req.task);
      if (req.task_digest != 0 && req.task_digest != digest) {
        reply.status = absl::InvalidArgumentError(
            absl::StrFormat("task digest %016x does not match its task (%016x)", req.task_digest, digest));
        SendResult(std::move(reply));
        return;
      }
      req.task_digest = digest;
      task = tasks.Put(digest, *std::move(req.task));
    } else {
      task = tasks.Find(req.task_digest);
      if (task == nullptr) {
        Stat([](WorkerStats& s) { ++s.unknown_task; });
        reply.status = absl::FailedPreconditionError(absl::StrFormat("unknown task %016x", req.task_digest));
        SendResult(std::move(reply));
        return;
      }
    }
    if (req.candidates.empty()) {
      SendResult(std::move(reply));
      return;
    }
    const uint64_t local_id = next_local++;
    auto job = std::make_unique<Job>(Job{.job_id = req.job_id,
                                         .search_id = req.search_id,
                                         .task_digest = req.task_digest,
                                         .task = std::move(task),
                                         .candidates = std::move(req.candidates),
                                         .options = std::move(req.options),
                                         .run_deadline = FloatSeconds(req.run_deadline_s),
                                         .start = Steady::now()});
    Job& j = *job;
    jobs.emplace(local_id, std::move(job));
    Stat([&](WorkerStats& s) { s.in_flight = static_cast<int64_t>(jobs.size()); });
    in_flight.store(static_cast<uint32_t>(jobs.size()));
    if (o.mode == TimingMode::kSimulate) {
      {
        std::lock_guard<std::mutex> l(sim_mu);
        sim_queue.push_back(SimJob{local_id, j.job_id, j.search_id, j.candidates, j.options.runs});
      }
      sim_cv.notify_one();
      return;
    }
    Submit(local_id, -1);
  }

  void Finish(uint64_t local_id, codec::MeasureResult r) {
    jobs.erase(local_id);
    SendResult(std::move(r));
  }

  void HandleCompletion(Completion c) {
    auto it = jobs.find(c.local_id);
    if (it == jobs.end()) return;
    Job& j = *it->second;
    if (c.simulated.has_value()) {
      Finish(c.local_id, *std::move(c.simulated));
      return;
    }
    const JobOutcome& out = c.outcome;
    if (out.kind == JobOutcomeKind::kLost && stop.load()) return;  // shutting down: Bye says it
    codec::MeasureResult reply{.job_id = j.job_id, .search_id = j.search_id};
    const size_t n = j.candidates.size();
    // The child's answer, checked: one result per candidate it was given.
    auto decode = [&](size_t expected) -> absl::StatusOr<codec::MeasureResult> {
      absl::StatusOr<codec::FarmMessage> m = codec::DecodeFarmMessage(out.response);
      if (!m.ok()) return absl::InternalError(absl::StrCat("worker child answered garbage: ", m.status().message()));
      auto* r = std::get_if<codec::MeasureResult>(&*m);
      if (r == nullptr) return absl::InternalError("worker child answered with a non-result");
      if (r->status.ok() && r->batch.results.size() != expected) {
        return absl::InternalError(absl::StrCat("worker child answered ", r->batch.results.size(),
                                                " results for ", expected, " candidates"));
      }
      return std::move(*r);
    };
    if (c.candidate < 0) {
      if (out.ok()) {
        absl::StatusOr<codec::MeasureResult> r = decode(n);
        if (r.ok() && r->status.ok() && n > 1) {
          // A GPU kernel fault lost the child's device (the child retired): the candidates it
          // could not measure go again, each in a fresh child of its own.
          std::vector<size_t> lost;
          for (size_t i = 0; i < n; ++i)
            if (r->batch.results[i].outcome == Outcome::kWorkerLost) lost.push_back(i);
          if (!lost.empty()) {
            Log(absl::StrCat("job ", j.job_id, ": the child lost its device; re-running ", lost.size(), " of its ",
                             n, " candidates one per child"));
            Stat([](WorkerStats& s) { ++s.isolations; });
            j.results = std::move(r->batch.results);
            j.pending = lost.size();
            for (size_t i : lost) Submit(c.local_id, static_cast<int>(i));
            return;
          }
        }
        if (r.ok()) {
          reply.status = std::move(r->status);
          reply.batch = std::move(r->batch);
        } else {
          reply.status = r.status();
        }
        Finish(c.local_id, std::move(reply));
        return;
      }
      if (n == 1 || out.kind == JobOutcomeKind::kLost) {
        CandidateResult f = FailedCandidate(out);
        if (n == 1) CountFailure(f);
        reply.batch.results.assign(n, f);
        Finish(c.local_id, std::move(reply));
        return;
      }
      // Some candidate took its child down: find which by running each on its own.
      Log(absl::StrCat("job ", j.job_id, ": child ", std::string(JobOutcomeKindName(out.kind)), " (", out.detail,
                       "); re-running its ", n, " candidates one per child"));
      Stat([](WorkerStats& s) { ++s.isolations; });
      j.results.assign(n, CandidateResult{});
      j.pending = n;
      for (size_t i = 0; i < n; ++i) Submit(c.local_id, static_cast<int>(i));
      return;
    }
    CandidateResult& slot = j.results[static_cast<size_t>(c.candidate)];
    if (out.ok()) {
      absl::StatusOr<codec::MeasureResult> r = decode(1);
      if (r.ok() && r->status.ok()) {
        slot = std::move(r->batch.results[0]);
      } else {
        slot.outcome = Outcome::kRuntimeError;
        slot.error = std::string((r.ok() ? r->status : r.status()).message());
      }
    } else {
      slot = FailedCandidate(out);
      CountFailure(slot);
    }
    if (--j.pending > 0) return;
    reply.batch.results = std::move(j.results);
    Finish(c.local_id, std::move(reply));
  }

  void CountFailure(const CandidateResult& r) {
    Stat([&](WorkerStats& s) {
      if (r.outcome == Outcome::kTimeout) ++s.candidates_timed_out;
      if (r.outcome == Outcome::kRuntimeError) ++s.candidates_crashed;
    });
  }

  // One message from the coordinator, on the job thread.
  void HandleMessage(const std::string& bytes) {
    // A job is in `held` already (Receive): every path below answers it.
    const std::optional<codec::JobIds> ids = codec::PeekJobIds(bytes);
    if (ids.has_value() && o.before_job) o.before_job(ids->job_id);
    absl::StatusOr<codec::FarmMessage> m = codec::DecodeFarmMessage(bytes);
    if (!m.ok()) {
      Stat([](WorkerStats& s) { ++s.bad_messages; });
      // A job we refuse (its task carries source text, ...): answered, so nobody waits for it.
      if (ids.has_value()) {
        Log(absl::StrCat("refused job ", ids->job_id, ": ", m.status().message()));
        SendResult({.job_id = ids->job_id, .search_id = ids->search_id, .status = m.status()});
        return;
      }
      Log(absl::StrCat("ignored an undecodable message: ", m.status().message()));
      return;
    }
    if (auto* req = std::get_if<codec::MeasureRequest>(&*m)) {
      HandleJob(std::move(*req));
    } else if (std::holds_alternative<codec::Heartbeat>(*m)) {
      // liveness only: the socket thread counted it
    } else if (auto* bye = std::get_if<codec::Bye>(&*m)) {
      Log(absl::StrCat("the coordinator said bye", bye->refused ? " and refuses this worker: " : ": ", bye->reason));
      // A refusal ends Run whatever exit_on_bye says: every Hello again would be refused too.
      if (bye->refused || o.exit_on_bye) {
        if (bye->refused) {
          std::lock_guard<std::mutex> l(mu);
          refused_reason = bye->reason;
        }
        bye_exit.store(true);
        Wake();
      }
    } else {
      Stat([](WorkerStats& s) { ++s.bad_messages; });
      Log(absl::StrCat("ignored an unexpected '", std::string(codec::FarmMessageKind(*m)), "' from the coordinator"));
    }
  }

  // ** the socket thread: the DEALER, heartbeats, liveness; nothing that can take long **

  // Heartbeats: sent now or never (a later one replaces it).
  void SendDroppable(std::string bytes) { (void)sock.Send({std::move(bytes)}, net::SendMode::kDontWait); }
  void Flush() {
    while (!unsent.empty()) {
      absl::Status s = sock.Send({unsent.front().bytes}, net::SendMode::kDontWait);
      if (!s.ok()) {
        if (!net::IsTimeout(s)) Log(absl::StrCat("send failed: ", s.message()));
        return;
      }
      unsent.pop_front();
    }
  }
  void SendHeartbeat() {
    Stat([](WorkerStats& s) { ++s.heartbeats_sent; });
    SendDroppable(codec::EncodeFarmMessage(codec::Heartbeat{.seq = ++hb_seq, .in_flight = in_flight.load()}));
  }

  // A fresh socket, then Hello (naming the jobs still held: their results follow on this
  // connection) and Ready ahead of anything still unsent.
  absl::Status Connect() {
    handshake_watch.reset();
    sock.Close();
    ASSIGN_OR_RETURN(sock, net::ZmqSocket::Create(*ctx, net::SocketType::kDealer));
    RETURN_IF_ERROR(sock.SetRoutingId(o.worker_id));
    ASSIGN_OR_RETURN(handshake_watch, net::HandshakeWatch::Start(*ctx, sock, o.security,
                                                                 [this](std::string_view l) { Log(l); }));
    RETURN_IF_ERROR(net::ConfigureClient(sock, o.endpoint, o.security));
    Stat([](WorkerStats& s) { ++s.connects; });
    codec::Hello hello{.build_id = build_id,
                       .device = device,
                       .worker_id = o.worker_id,
                       .capacity = static_cast<uint32_t>(capacity),
                       .host = host,
                       .incarnation = incarnation};
    {
      std::lock_guard<std::mutex> l(mu);
      hello.holding.assign(held.begin(), held.end());
      for (const Outgoing& m : outbox) hello.holding.push_back(m.job_id);
    }
    for (const Outgoing& m : unsent) hello.holding.push_back(m.job_id);
    std::erase(hello.holding, uint64_t{0});
    std::sort(hello.holding.begin(), hello.holding.end());
    hello.holding.erase(std::unique(hello.holding.begin(), hello.holding.end()), hello.holding.end());
    unsent.push_front({.bytes = codec::EncodeFarmMessage(codec::Ready{.credits = static_cast<uint32_t>(capacity)})});
    unsent.push_front({.bytes = codec::EncodeFarmMessage(hello)});
    Flush();
    heard = false;
    answered = false;
    silent_ticks = 0;
    next_heartbeat = clock().Now() + o.heartbeat;
    return absl::OkStatus();
  }

  // Every message counts as word from the coordinator; what it says is the job thread's business.
  // Only a job's ids are read here (PeekJobIds: the message's root, not its task): a job is held
  // from the moment it arrives, so a reconnect while it waits for the job thread names it too.
  void Receive(net::Frames frames) {
    Stat([](WorkerStats& s) { ++s.messages_received; });
    heard = true;
    answered = true;
    if (frames.size() != 1) {
      Stat([](WorkerStats& s) { ++s.bad_messages; });
      Log(absl::StrCat("ignored a message of ", frames.size(), " frames"));
      return;
    }
    const std::optional<codec::JobIds> ids = codec::PeekJobIds(frames[0]);
    {
      std::lock_guard<std::mutex> l(mu);
      if (ids.has_value()) held.insert(ids->job_id);
      inbox.push_back(std::move(frames[0]));
    }
    job_cv.notify_one();
  }

  // One heartbeat tick: ours goes out, and the coordinator's silence is counted.
  absl::Status Tick() {
    SendHeartbeat();
    silent_ticks = heard ? 1 : silent_ticks + 1;
    heard = false;
    if (silent_ticks <= o.dead_after) return absl::OkStatus();
    if (answered) {
      Log(absl::StrCat("no word from the coordinator for ", o.dead_after, " heartbeats: reconnecting"));
    } else {
      Log(absl::StrCat("no answer from the coordinator at ", o.endpoint, " in ", o.dead_after,
                       " heartbeats (is it running?): connecting again"));
    }
    return Connect();
  }

  absl::Status Serve() {
    RETURN_IF_ERROR(Connect());
    while (!stop.load() && !bye_exit.load()) {
      // At most one interval of real time: a clock that moves without real time (a test's
      // FakeClock) is looked at again within one interval.
      const Clock::TimePoint now = clock().Now();
      auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(next_heartbeat - now);
      wait = std::clamp(wait, std::chrono::milliseconds(0), o.heartbeat);
      if (!unsent.empty()) wait = std::min(wait, std::chrono::milliseconds(10));
      net::PollItem items[2] = {{.socket = &sock}, {.fd = wake_fd.get()}};
      absl::StatusOr<int> ready = net::Poll(items, wait);
      if (!ready.ok()) {
        if (net::IsTerminated(ready.status())) break;  // a shared context is going away
        return ready.status();
      }
      if (items[1].readable) {
        uint64_t v;
        (void)!read(wake_fd.get(), &v, sizeof(v));
      }
      {
        std::lock_guard<std::mutex> l(mu);
        for (Outgoing& m : outbox) unsent.push_back(std::move(m));
        outbox.clear();
      }
      if (items[0].readable) {
        while (true) {
          absl::StatusOr<net::Frames> f = sock.TryReceive();
          if (!f.ok()) break;
          Receive(*std::move(f));
        }
      }
      Flush();
      const Clock::TimePoint t = clock().Now();
      if (t >= next_heartbeat) {
        // One tick however long this thread was away: the next a whole interval on.
        next_heartbeat += o.heartbeat;
        if (next_heartbeat <= t) next_heartbeat = t + o.heartbeat;
        RETURN_IF_ERROR(Tick());
      }
    }
    return absl::OkStatus();
  }

  absl::Status Run() {
    if (ran) return absl::FailedPreconditionError("Worker::Run called twice");
    ran = true;
    job_thread = std::thread([this] { JobLoop(); });
    absl::Status served = Serve();
    if (served.ok() && !bye_exit.load()) {
      const int sig = stop_signal.load();
      (void)sock.Send({codec::EncodeFarmMessage(
                          codec::Bye{.reason = sig != 0 ? absl::StrCat("worker stopping on ", SignalName(sig))
                                                        : std::string("worker stopping")})},
                      net::SendMode::kDontWait);
    }
    sock.Close();  // the linger delivers the Bye
    StopJobThread();
    if (pool) pool->Shutdown();
    StopSimThread();
    if (served.ok() && bye_exit.load()) {
      std::lock_guard<std::mutex> l(mu);
      if (refused_reason.has_value())
        return absl::PermissionDeniedError(absl::StrCat("the coordinator refuses this worker: ", *refused_reason));
    }
    return served;
  }
};

absl::StatusOr<std::unique_ptr<Worker>> Worker::Create(WorkerOptions options) {
  auto impl = std::make_unique<Impl>();
  Impl& w = *impl;
  if (options.endpoint.empty()) return absl::InvalidArgumentError("no coordinator endpoint");
  if (options.worker_id.empty()) options.worker_id = DefaultWorkerId();
  if (options.worker_id.size() > 255) return absl::InvalidArgumentError("worker id longer than 255 bytes");
  if (options.heartbeat.count() <= 0) return absl::InvalidArgumentError("heartbeat interval must be > 0 ms");
  if (options.dead_after < 1) return absl::InvalidArgumentError("dead_after must be >= 1");
  if (options.children < 0) return absl::InvalidArgumentError("children must be >= 0");
  if (options.prepare_nice < 0 || options.prepare_nice > 19)
    return absl::InvalidArgumentError("prepare_nice must be in 0..19");
  if (!(options.job_cpu_s >= 0) || std::isinf(options.job_cpu_s))
    return absl::InvalidArgumentError("job_cpu_s must be a number of seconds >= 0");
  if (options.mode == TimingMode::kSimulate && options.simulate_device_s < 0) {
    return absl::InvalidArgumentError("simulated device time must be >= 0");
  }
  const int cores = options.cores > 0 ? options.cores : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  if (options.children == 0) options.children = cores;
  w.capacity = options.children;
  std::random_device rd;
  w.incarnation = (uint64_t{rd()} << 32 | rd()) | 1;  // never 0 (0: a worker that names none)
  w.tasks = TaskCache(std::max<size_t>(options.task_cache, 64));
  w.build_id = options.build_id.empty() ? DefaultBuildId() : options.build_id;
  if (options.cpu_flags.has_value()) {
    const std::vector<std::string>& flags = *options.cpu_flags;
    RETURN_IF_ERROR(CheckCpuTargetOn(options.cpu_target, "x86_64", [&flags](std::string_view f) {
      return std::find(flags.begin(), flags.end(), f) != flags.end();
    }));
  } else {
    RETURN_IF_ERROR(CheckCpuTarget(options.cpu_target));
  }
  if (options.device_class.has_value()) {
    w.device = *options.device_class;
  } else {
    // the process's device settings (an edge's: tg worker's), with this worker's target
    DeviceOptions device_options = DeviceOptions::FromConfig(GetConfig());
    device_options.cpu.cpu_target = options.cpu_target;
    ASSIGN_OR_RETURN(Device * dev, GetDevice(options.device, device_options));
    ASSIGN_OR_RETURN(w.device, autotune::DeviceClassFor(*dev));
  }
  w.wake_fd.reset(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (!w.wake_fd) return absl::InternalError(absl::StrCat("eventfd: ", std::strerror(errno)));
  if (options.context != nullptr) {
    w.ctx = options.context;
  } else {
    w.own_ctx = std::make_unique<net::ZmqContext>();
    w.ctx = w.own_ctx.get();
  }
  if (options.mode == TimingMode::kSimulate) {
    w.o = std::move(options);
    w.sim_thread = std::thread([&w] { w.SimLoop(); });
  } else {
    if (options.child_argv.empty()) return absl::InvalidArgumentError("no child program (child_argv)");
    std::vector<std::string> argv = options.child_argv;
    if (options.mode == TimingMode::kFakeTiming) argv.emplace_back(kFakeTimingFlag);
    argv.emplace_back(kDeviceFlag);
    argv.push_back(options.device);
    // always said, so that a child's CPU_TARGET cannot differ from the class announced
    argv.emplace_back(kCpuTargetFlag);
    argv.push_back(IsNativeCpuTarget(options.cpu_target) ? "native" : options.cpu_target);
    argv.emplace_back(kCompileThreadsFlag);
    argv.push_back(absl::StrCat(std::max(1, cores / options.children)));
    argv.emplace_back(kPrepareNiceFlag);
    argv.push_back(absl::StrCat(options.prepare_nice));
    ChildPoolOptions pool{.children = options.children};
    if (!options.child_memory_limit.has_value())
      options.child_memory_limit = DefaultChildMemoryLimit(pool.children + pool.spares);
    w.memory_limit = *options.child_memory_limit;
    argv.emplace_back(kMemoryLimitFlag);
    argv.push_back(absl::StrCat(w.memory_limit));
    if (options.job_cpu_s > 0) {
      argv.emplace_back(kJobCpuFlag);
      argv.push_back(absl::StrCat(options.job_cpu_s));
    }
    if (options.compile_server) {
      if (options.compile_server->reply_timeout_s >= options.prepare_timeout_floor.count())
        return absl::InvalidArgumentError(absl::StrCat("the compile server's reply timeout (", options.compile_server->reply_timeout_s,
                                                       " s) must be under the prepare timeout (",
                                                       options.prepare_timeout_floor.count(), " s)"));
      ASSIGN_OR_RETURN(w.relay, autotune::CompileRelay::Start(*options.compile_server));
      argv.emplace_back(kCompileRelayFlag);
      pool.relay = [relay = w.relay.get()](std::string request, std::function<void(std::string)> answer) {
        relay->Forward(std::move(request), std::move(answer));
      };
    }
    pool.argv = std::move(argv);
    ASSIGN_OR_RETURN(w.pool, ChildPool::Create(pool));
    w.o = std::move(options);
  }
  return std::unique_ptr<Worker>(new Worker(std::move(impl)));
}

Worker::Worker(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Worker::~Worker() = default;

absl::Status Worker::Run() { return impl_->Run(); }

void Worker::Stop(int signal) {
  impl_->stop_signal.store(signal);
  impl_->stop.store(true);
  impl_->Wake();
}

WorkerStats Worker::stats() const {
  std::lock_guard<std::mutex> l(impl_->stats_mu);
  return impl_->stats;
}

const std::string& Worker::worker_id() const { return impl_->o.worker_id; }
int Worker::capacity() const { return impl_->capacity; }
uint64_t Worker::child_memory_limit() const { return impl_->memory_limit; }

}  // namespace tg::workers
