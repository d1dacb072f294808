// File: autotune/farm/broker.cc
// The broker thread: worker registry, credit-based dispatch, heartbeats, requeue, deadlines,
// backups, poison.
#include "autotune/farm/broker.h"
#include "autotune/farm/farm_status_json.h"

#include <pthread.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <tuple>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "autotune/codec/farm_codec.h"
#include "autotune/codec/farm_messages.h"
#include "autotune/farm/backup_threshold.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/unique_fd.h"

namespace tg::autotune::farm {
namespace {

// A FarmJob as submitted: its parts may run on several workers (after a poison split).
struct Submission {
  FarmJob job;
  uint64_t task_digest = 0;
  JobCallback done;
  std::vector<CandidateResult> results;
  std::vector<MeasuredBy> measured_by;
  size_t remaining = 0;
  double prepare_wall_s = 0;
  double run_wall_s = 0;
  bool finished = false;
};

// A dispatchable piece of a submission: candidates [offset, offset + count).
struct Part {
  std::shared_ptr<Submission> sub;
  size_t offset = 0;
  size_t count = 0;
  // The principals (Principal()) of the workers that lost it, once per loss: each death or
  // restart holding it, each deadline it missed. Two make it suspect (split, quarantine).
  std::vector<std::string> lost_with;
  int missed = 0;  // of those losses, missed deadlines
  // Principals it goes to only when its class has no other worker alive: those it, or the
  // part it was split from, was lost with.
  std::vector<std::string> avoid;
  // Its copies in workers' in_flight (two while a backup runs), answered or not.
  int copies = 0;
  // A copy's answer was taken (or it was quarantined): any other copy's answer is dropped.
  bool answered = false;
};

// A job on a worker.
struct InFlight {
  std::shared_ptr<Part> part;
  Clock::Duration budget{};  // JobTimeBudget: what it adds to the deadlines of the jobs next to it
  Clock::TimePoint deadline;
  int64_t extensions_left = 0;  // jobs sent after it that may still push its deadline back
  Clock::TimePoint sent;        // what its class's durations and its backup threshold count from
  bool backup = false;          // the second copy of a part in flight elsewhere
};

struct Worker {
  std::string id;
  std::string key;        // its CURVE key (the ZAP User-Id); "" without CURVE
  std::string principal;  // Principal(id, key): who misses and evictions are counted against
  codec::Hello hello;
  std::string device_class;
  int credits = 0;
  absl::flat_hash_map<uint64_t, InFlight> in_flight;  // by job id
  // Jobs requeued past their deadline: their slots stay taken until the late answers come.
  absl::flat_hash_set<uint64_t> overdue;
  absl::flat_hash_set<uint64_t> tasks;  // digests it has
  Clock::TimePoint last_seen;
  // Liveness in the broker's own heartbeat ticks: a tick after a message counts 1, each silent
  // one more; past dead_after the worker is dead. A starved broker ticks less, so its own delay
  // is never taken for a worker's silence.
  bool heard = true;  // a message since the last tick
  int silent_ticks = 0;
  // Ticks since a send found no connection to it (-1: none did). Its Hello of the same
  // incarnation (a reconnect) may be on its way: it is dead only at kUnroutableGraceTicks.
  int unroutable_ticks = -1;
  int64_t jobs = 0, errors = 0, lost = 0;
};

// The error of a candidate quarantined after `losses` losses, `missed` of them deadlines.
std::string PoisonError(size_t losses, int missed) {
  const size_t killed = losses - static_cast<size_t>(missed);
  if (missed == 0) return absl::StrCat("poison: killed ", killed, " workers");
  if (killed == 0) return absl::StrCat("poison: held past its deadline by ", missed, " workers");
  return absl::StrCat("poison: killed ", killed, killed == 1 ? " worker" : " workers", ", held past its deadline by ",
                      missed == 1 ? std::string("another") : absl::StrCat(missed, " others"));
}

// Tasks a worker keeps at least (protocol): forget ours before it forgets its own.
constexpr size_t kTasksPerWorker = 64;
// Heartbeat ticks a worker that a send found unroutable has to come back on a new connection
// before it is dead. A worker gives up a connection only to dial again at once, and our ticks
// are our own (a stalled broker's first tick comes right after it resumes), so its Hello comes
// well within; a worker that is gone is still found sooner than by its silence (dead_after).
constexpr int kUnroutableGraceTicks = 2;
// FarmStatus::evicted keeps the latest this many.
constexpr size_t kEvictedListed = 64;

// Whom a worker's misses count against: its key when CURVE authenticated it (a new id does
// not start it afresh), else its id.
std::string Principal(const std::string& id, const std::string& key) {
  return key.empty() ? absl::StrCat("id:", id) : absl::StrCat("key:", key);
}

// t + d, saturating (d >= 0): deadlines add up budgets of up to kMaxJobBudget each.
Clock::TimePoint Later(Clock::TimePoint t, Clock::Duration d) {
  return t > Clock::TimePoint::max() - d ? Clock::TimePoint::max() : t + d;
}

bool Contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

struct Broker::State {
  BrokerOptions opt;
  // Heartbeats and liveness run on this clock (opt.clock, else the machine's).
  Clock* clock = &Clock::Real();
  Clock::Duration backup_floor{};  // opt.backup_floor_beats heartbeats, at most kMaxJobBudget
  std::unique_ptr<net::ZmqContext> own_ctx;
  net::ZmqContext* ctx = nullptr;
  net::ZmqSocket router;
  net::ZmqSocket status;
  UniqueFd wake_fd;
  mutable std::thread thread;  // mutable: Snapshot reads its CPU clock

  mutable std::mutex mu;
  mutable std::condition_variable workers_cv;
  bool stop = false;
  bool stopped = false;
  std::deque<std::shared_ptr<Part>> queue;
  std::map<std::string, Worker> workers;
  // Jobs lost by each worker id, across its restarts.
  absl::flat_hash_map<std::string, int64_t> losses;
  // Deadlines missed by each principal, and those evicted for it (for the broker's life).
  absl::flat_hash_map<std::string, int64_t> misses;
  absl::flat_hash_set<std::string> evicted;
  // The latest answered jobs' durations of each device class: the backup threshold.
  absl::flat_hash_map<std::string, JobDurations> durations;
  // Speculate scans the jobs in flight from this time on (no part is due before), and at once
  // when a slot frees while `backups_waiting` (a part is due without a backup).
  Clock::TimePoint next_backup_scan = Clock::TimePoint::min();
  bool backups_waiting = false;
  uint64_t next_job_id = 1;
  uint64_t heartbeat_seq = 0;
  FarmStatus counters;  // only the counter fields are used
  // Callbacks to run once the lock is released.
  std::vector<std::pair<JobCallback, absl::StatusOr<JobResult>>> completions;

  void Wake() const {
    uint64_t one = 1;
    [[maybe_unused]] ssize_t n = write(wake_fd.get(), &one, sizeof(one));
  }

  void SendTo(const std::string& id, const codec::FarmMessage& m) {
    // A failed send to a worker that is gone is noticed by the next dispatch or its silence.
    [[maybe_unused]] absl::Status s = router.Send({id, codec::EncodeFarmMessage(m)}, net::SendMode::kDontWait);
  }

  void Finish(const std::shared_ptr<Submission>& sub, absl::StatusOr<JobResult> r) {
    if (sub->finished) return;
    sub->finished = true;
    ++counters.completed;
    completions.emplace_back(std::move(sub->done), std::move(r));
  }

  // Part `p` answered with `results` (one per candidate of the part).
  void Complete(Part& p, std::vector<CandidateResult> results, const MeasuredBy& by, double prep_s, double run_s) {
    p.answered = true;
    Submission& sub = *p.sub;
    if (sub.finished) return;
    for (size_t i = 0; i < p.count; ++i) {
      CandidateResult& r = results[i];
      if (r.duplicate_of >= 0) r.duplicate_of += static_cast<int>(p.offset);
      sub.results[p.offset + i] = std::move(r);
      sub.measured_by[p.offset + i] = by;
    }
    sub.prepare_wall_s = std::max(sub.prepare_wall_s, prep_s);
    sub.run_wall_s = std::max(sub.run_wall_s, run_s);
    sub.remaining -= p.count;
    if (sub.remaining == 0) {
      JobResult out;
      out.batch.results = std::move(sub.results);
      out.batch.prepare_wall_s = sub.prepare_wall_s;
      out.batch.run_wall_s = sub.run_wall_s;
      out.measured_by = std::move(sub.measured_by);
      Finish(p.sub, std::move(out));
    }
  }

  // A copy of `part` left worker `w` unanswered (its `copies` already counts it out): requeued,
  // or (lost with two workers, `blame` counting this one) split or quarantined; nothing yet
  // while another copy runs (that one answers, or is lost in turn). `missed`: it held the part
  // past its deadline.
  void Requeue(const std::shared_ptr<Part>& part, const Worker& w, bool blame, bool missed) {
    if (part->sub->finished || part->answered) return;
    if (blame) {
      // Every loss counts (a worker restarted under its old id may lose it twice: the only
      // worker of a class must still get rid of a candidate that kills it).
      part->lost_with.push_back(w.principal);
      if (missed) ++part->missed;
      if (!Contains(part->avoid, w.principal)) part->avoid.push_back(w.principal);
    }
    if (part->copies > 0) {
      ScanForBackups();  // the copy left may be due
      return;
    }
    ++counters.requeued;
    if (part->lost_with.size() < 2) {
      queue.push_front(part);
    } else if (part->count > 1) {
      // One of its candidates may be what kills (or hangs) workers: find it by sending each alone.
      for (size_t i = part->count; i-- > 0;)
        queue.push_front(std::make_shared<Part>(
            Part{.sub = part->sub, .offset = part->offset + i, .count = 1, .avoid = part->avoid}));
    } else {
      ++counters.poisoned;
      CandidateResult r;
      r.outcome = part->missed == 0 ? Outcome::kWorkerLost : Outcome::kTimeout;
      r.error = PoisonError(part->lost_with.size(), part->missed);
      std::vector<CandidateResult> rs;
      rs.push_back(std::move(r));
      Complete(*part, std::move(rs), MeasuredBy{}, 0, 0);
    }
  }

  // Copy `f` of a part is gone from `w` unanswered (it died, restarted, or reconnected without
  // it): requeued (Requeue), unless another copy answered the part already.
  void LoseCopy(Worker& w, const InFlight& f, bool blame) {
    --f.part->copies;
    if (f.part->answered) return;  // nothing was lost
    ++w.lost;
    if (blame) ++losses[w.id];
    Requeue(f.part, w, blame, /*missed=*/false);
  }

  // `w` died (or restarted) holding its in-flight parts: requeue them.
  void LoseJobs(Worker& w, bool blame) {
    for (auto& [job_id, f] : w.in_flight) LoseCopy(w, f, blame);
    w.in_flight.clear();
    w.overdue.clear();
    w.credits = 0;
  }

  void RemoveWorker(const std::string& id, bool blame) {
    auto it = workers.find(id);
    if (it == workers.end()) return;
    LoseJobs(it->second, blame);
    workers.erase(it);
    workers_cv.notify_all();
  }

  void AddCredits(Worker& w, int n) {
    const int cap = static_cast<int>(w.hello.capacity) - static_cast<int>(w.in_flight.size() + w.overdue.size());
    w.credits = std::clamp(w.credits + n, 0, std::max(cap, 0));
    if (backups_waiting && w.credits > 0) ScanForBackups();
  }

  std::string EvictionReason(const std::string& principal) const {
    auto it = misses.find(principal);
    return absl::StrCat("evicted: held ", it == misses.end() ? 0 : it->second,
                        " jobs past their deadline; this coordinator takes no more work from ",
                        absl::StartsWith(principal, "key:") ? "this key" : "this worker id");
  }

  // Every worker of `principal` gets Bye and loses its jobs (requeued, not held against them:
  // they are not late yet); its Hellos get Bye from now on.
  void Evict(const std::string& principal) {
    evicted.insert(principal);
    std::vector<std::string> ids;
    for (const auto& [id, w] : workers)
      if (w.principal == principal) ids.push_back(id);
    const std::string reason = EvictionReason(principal);
    for (const std::string& id : ids) {
      const Worker& w = workers.at(id);
      ++counters.evicted_workers;
      if (counters.evicted.size() >= kEvictedListed) counters.evicted.erase(counters.evicted.begin());
      counters.evicted.push_back(
          EvictedWorker{.id = id, .host = w.hello.host, .key = w.key, .deadline_misses = misses[principal]});
      SendTo(id, codec::Bye{.reason = reason, .refused = true});
      RemoveWorker(id, /*blame=*/false);
    }
  }

  // Requeues every job past its deadline (the worker keeps the slot), then evicts the
  // principals that have missed too many. A copy whose job another copy answered (or still
  // runs) counts as a miss all the same: the deadline is what an honest worker keeps.
  void CheckDeadlines(Clock::TimePoint now) {
    std::vector<std::string> evict;
    for (auto& [id, w] : workers) {
      std::vector<uint64_t> late;
      for (const auto& [job_id, f] : w.in_flight)
        if (now > f.deadline) late.push_back(job_id);
      if (late.empty()) continue;
      std::sort(late.begin(), late.end());  // requeued in a fixed order
      for (uint64_t job_id : late) {
        auto node = w.in_flight.extract(job_id);
        w.overdue.insert(job_id);
        ++counters.deadline_misses;
        ++misses[w.principal];
        --node.mapped().part->copies;
        Requeue(node.mapped().part, w, /*blame=*/true, /*missed=*/true);
      }
      if (misses[w.principal] >= opt.evict_after_misses && !Contains(evict, w.principal)) evict.push_back(w.principal);
    }
    for (const std::string& p : evict) Evict(p);
  }

  void OnHello(const std::string& id, const std::string& key, codec::Hello h) {
    if (h.protocol_version != codec::kProtocolVersion) {
      ++counters.rejected_hellos;
      SendTo(id, codec::Bye{.reason = absl::StrCat("protocol version ", h.protocol_version,
                                                   " not supported; the coordinator speaks ",
                                                   codec::kProtocolVersion),
                            .refused = true});
      RemoveWorker(id, /*blame=*/false);
      return;
    }
    const std::string principal = Principal(id, key);
    if (evicted.contains(principal)) {
      // also a reconnect of a worker we evicted: its incarnation does not bring it back
      ++counters.evicted_hellos;
      SendTo(id, codec::Bye{.reason = EvictionReason(principal), .refused = true});
      RemoveWorker(id, /*blame=*/false);
      return;
    }
    if (auto it = workers.find(id); it != workers.end() && IsReconnect(it->second, principal, h)) {
      return OnReconnect(it->second, std::move(h));
    }
    // A Hello from a known worker of another incarnation: it restarted, and what it held is gone.
    RemoveWorker(id, /*blame=*/true);
    Worker& w = workers[id];
    w.id = id;
    w.key = key;
    w.principal = principal;
    w.device_class = h.device.Digest();
    w.hello = std::move(h);
    w.last_seen = clock->Now();
    workers_cv.notify_all();
  }

  // Whether Hello `h` under `w`'s id is the same worker process on a new connection: the
  // incarnation it named before (0 names none), the same key (a stolen id and incarnation get
  // no jobs of another key's) and the same device class (the jobs it holds are of that class).
  static bool IsReconnect(const Worker& w, const std::string& principal, const codec::Hello& h) {
    return h.incarnation != 0 && h.incarnation == w.hello.incarnation && principal == w.principal &&
           h.device.Digest() == w.device_class;
  }

  // The same worker process on a new connection (it missed our heartbeats, or we its, or a send
  // found its old connection gone): the jobs it still holds stay in flight with it, on their
  // deadlines of before (a reconnect does not buy time); their results come on the new
  // connection. The others never reached it or their results were lost on the way, no fault of
  // its own: requeued without blame, and the slots of overdue jobs it no longer holds are free.
  void OnReconnect(Worker& w, codec::Hello h) {
    ++counters.reconnects;
    const absl::flat_hash_set<uint64_t> holding(h.holding.begin(), h.holding.end());
    std::vector<uint64_t> gone;
    for (const auto& [job_id, f] : w.in_flight)
      if (!holding.contains(job_id)) gone.push_back(job_id);
    std::sort(gone.begin(), gone.end());  // requeued in a fixed order
    for (uint64_t job_id : gone) LoseCopy(w, w.in_flight.extract(job_id).mapped(), /*blame=*/false);
    absl::erase_if(w.overdue, [&](uint64_t job_id) { return !holding.contains(job_id); });
    w.credits = 0;  // its Ready follows
    w.hello = std::move(h);
    w.last_seen = clock->Now();
    w.heard = true;
    w.unroutable_ticks = -1;
  }

  void OnResult(Worker& w, codec::MeasureResult r) {
    auto it = w.in_flight.find(r.job_id);
    if (it == w.in_flight.end()) {
      // A duplicate, or the late answer to a job requeued past its deadline (its slot is free again).
      w.overdue.erase(r.job_id);
      ++counters.dropped_results;
      AddCredits(w, 1);
      return;
    }
    const InFlight f = std::move(it->second);
    const std::shared_ptr<Part>& part = f.part;
    w.in_flight.erase(it);
    AddCredits(w, 1);
    --part->copies;
    if (part->answered) {
      // The other copy answered first: not this worker's fault, and not a duplicate.
      ++counters.speculative_losses;
      return;
    }
    if (!r.status.ok()) {
      if (r.status.code() == absl::StatusCode::kFailedPrecondition &&
          absl::StartsWith(r.status.message(), "unknown task")) {
        ++counters.task_resends;
        w.tasks.erase(part->sub->task_digest);
        if (part->copies == 0) {
          queue.push_front(part);
        } else {
          ScanForBackups();  // the other copy runs on, and may be due
        }
        return;
      }
      part->answered = true;
      ++counters.job_errors;
      ++w.errors;
      Finish(part->sub, absl::Status(r.status.code(), absl::StrCat("worker ", w.id, ": ", r.status.message())));
      return;
    }
    if (r.batch.results.size() != part->count) {
      part->answered = true;
      ++counters.job_errors;
      ++w.errors;
      Finish(part->sub, absl::InternalError(absl::StrCat("worker ", w.id, " answered ", r.batch.results.size(),
                                                         " results for ", part->count, " candidates")));
      return;
    }
    ++counters.results;
    ++w.jobs;
    if (f.backup) ++counters.backups_won;
    const Clock::TimePoint now = clock->Now();
    durations[part->sub->job.device_class].Add(now - f.sent, part->count);
    Complete(*part, std::move(r.batch.results), MeasuredBy{.worker = w.id, .host = w.hello.host},
             r.batch.prepare_wall_s, r.batch.run_wall_s);
  }

  void OnMessage(net::Frames frames, const net::PeerInfo& peer) {
    if (frames.size() != 2) return;
    const std::string& id = frames[0];
    absl::StatusOr<codec::FarmMessage> m = codec::DecodeFarmMessage(frames[1]);
    if (!m.ok()) return;  // garbage from an authenticated peer: ignore it
    if (auto* h = std::get_if<codec::Hello>(&*m)) return OnHello(id, peer.user_id, std::move(*h));
    auto it = workers.find(id);
    if (it == workers.end()) {
      // Declared dead (or never said Hello): it says Hello again once it notices our silence.
      if (std::holds_alternative<codec::MeasureResult>(*m)) ++counters.dropped_results;
      return;
    }
    Worker& w = it->second;
    w.last_seen = clock->Now();
    w.heard = true;
    if (auto* rd = std::get_if<codec::Ready>(&*m)) {
      AddCredits(w, static_cast<int>(rd->credits));
    } else if (auto* r = std::get_if<codec::MeasureResult>(&*m)) {
      OnResult(w, std::move(*r));
    } else if (std::holds_alternative<codec::Bye>(*m)) {
      RemoveWorker(id, /*blame=*/false);  // a clean goodbye: its jobs were not its fault
    }
  }

  // Sends `part` to `w` (a `backup` copy of it, while it runs elsewhere). False when the worker
  // is unroutable (gone).
  bool Send(Worker& w, const std::shared_ptr<Part>& part, bool backup) {
    const Submission& sub = *part->sub;
    codec::MeasureRequest req{
        .job_id = next_job_id++,
        .search_id = sub.job.search_id,
        .task_digest = sub.task_digest,
        .candidates = {sub.job.candidates.begin() + static_cast<std::ptrdiff_t>(part->offset),
                       sub.job.candidates.begin() + static_cast<std::ptrdiff_t>(part->offset + part->count)},
        .options = sub.job.options,
    };
    const bool has_task = w.tasks.contains(sub.task_digest);
    if (!has_task) req.task = *sub.job.task;
    // Before the send: the worker may answer (and a test's clock move on) before we go on.
    const Clock::TimePoint sent_at = clock->Now();
    absl::Status s = router.Send({w.id, codec::EncodeFarmMessage(req)}, net::SendMode::kDontWait);
    if (!s.ok()) return false;
    if (!has_task) {
      if (w.tasks.size() >= kTasksPerWorker) w.tasks.clear();
      w.tasks.insert(sub.task_digest);
    }
    ++counters.jobs_sent;
    if (backup) ++counters.backups_sent;
    ++part->copies;
    --w.credits;
    // The deadline (broker.h): its own budget, and those of the jobs it may wait behind: the
    // ones the worker holds now, and (up to a limit) the ones sent after it.
    const int64_t capacity = std::max<int64_t>(w.hello.capacity, 1);
    const Clock::Duration budget = JobTimeBudget(sub.job.options, part->count,
                                                 static_cast<int>(std::min<int64_t>(capacity, INT_MAX)), opt.worker_limits);
    Clock::TimePoint deadline = Later(sent_at, opt.job_slack + budget);
    for (auto& [id, f] : w.in_flight) {
      deadline = Later(deadline, f.budget);
      if (f.extensions_left > 0) {
        f.deadline = Later(f.deadline, budget);
        --f.extensions_left;
      }
    }
    w.in_flight.emplace(req.job_id, InFlight{.part = part,
                                             .budget = budget,
                                             .deadline = deadline,
                                             .extensions_left = 2 * capacity * static_cast<int64_t>(part->count + 1),
                                             .sent = sent_at,
                                             .backup = backup});
    return true;
  }

  // Whether `part` should rather not go to `w`: it was lost with w's principal.
  static bool Avoids(const Part& part, const Worker& w) { return Contains(part.avoid, w.principal); }

  int64_t MissesOf(const Worker& w) const {
    auto it = misses.find(w.principal);
    return it == misses.end() ? 0 : it->second;
  }

  void Dispatch() {
    int free = 0;
    for (auto& [id, w] : workers) free += w.credits;
    for (auto it = queue.begin(); it != queue.end() && free > 0;) {
      const std::shared_ptr<Part>& part = *it;
      if (part->sub->finished) {
        it = queue.erase(it);
        continue;
      }
      // The worker of the class with the most free slots (spreads jobs over the farm), among
      // those that missed the fewest deadlines. A job lost before goes to a worker it was not
      // lost with (waiting for one's slot if need be: a hostile worker must not get it twice),
      // else to the worker that lost the fewest jobs, so that a worker being killed for
      // unrelated reasons does not make it poison by accident.
      Worker* best = nullptr;
      const bool was_lost = !part->lost_with.empty();
      bool fresh_alive = false;  // a worker of its class it was not lost with
      auto rank = [&](const Worker& w) {
        return std::make_tuple(Avoids(*part, w), MissesOf(w), was_lost ? losses[w.id] : 0, -w.credits);
      };
      for (auto& [id, w] : workers) {
        if (w.device_class != part->sub->job.device_class) continue;
        fresh_alive = fresh_alive || !Avoids(*part, w);
        if (w.credits <= 0) continue;
        if (best == nullptr || rank(w) < rank(*best)) best = &w;
      }
      if (best != nullptr && Avoids(*part, *best) && fresh_alive) best = nullptr;
      if (best == nullptr) {
        ++it;
        continue;
      }
      if (!Send(*best, part, /*backup=*/false)) {
        // Unroutable: its connection is gone. The job stays queued (not its fault); the worker
        // keeps what it holds for kUnroutableGraceTicks, its reconnect may be on the way (as
        // after a stall of ours: the old connection closed, the new one's Hello not read yet).
        free -= best->credits;
        MarkUnroutable(*best);
        ++it;
        continue;
      }
      --free;
      it = queue.erase(it);
    }
  }

  // A send found no connection to `w`: no job goes to it for now, and it is dead unless it
  // reconnects within kUnroutableGraceTicks (Heartbeats).
  void MarkUnroutable(Worker& w) {
    w.credits = 0;
    if (w.unroutable_ticks < 0) w.unroutable_ticks = 0;
  }

  // How long a copy of `part` runs before the part gets a backup (BackupThreshold).
  Clock::Duration BackupAfter(const Part& part) const {
    static const JobDurations kNone;
    auto it = durations.find(part.sub->job.device_class);
    return BackupThreshold(it != durations.end() ? it->second : kNone, part.sub->job.options, part.count,
                           opt.backup_after, backup_floor);
  }

  // Backups (broker.h): a part held by one worker past its threshold, in a class with a free
  // slot and nothing queued, gets a copy on the idle worker of another principal with the most
  // free slots (none that missed a deadline or lost the part); the longest overdue first.
  // Scanned when a part may be due (next_backup_scan), at least once per heartbeat: not on
  // every pass, which would cost the scan of every job in flight per message.
  void Speculate(Clock::TimePoint now) {
    if (opt.backup_after <= 0 || now < next_backup_scan) return;
    std::vector<std::string> idle;  // classes with a free slot
    for (const auto& [id, w] : workers)
      if (w.credits > 0 && !Contains(idle, w.device_class)) idle.push_back(w.device_class);
    if (idle.empty()) return;
    // Thresholds shrink as the history changes: look again within a heartbeat in any case.
    Clock::TimePoint next = Later(now, opt.heartbeat);
    bool waiting = false;  // a part is due but has no backup: look again once a slot frees
    struct Due {
      Clock::TimePoint at;
      uint64_t job_id;
      std::string holder;  // principal
      std::shared_ptr<Part> part;
    };
    std::vector<Due> due;
    for (const auto& [id, w] : workers) {
      for (const auto& [job_id, f] : w.in_flight) {
        const Part& p = *f.part;
        // One copy, not answered, not suspect (lost twice: the copy that runs decides, then
        // the poison rule).
        if (p.copies != 1 || p.answered || p.sub->finished || p.lost_with.size() >= 2) continue;
        const Clock::TimePoint at = Later(f.sent, BackupAfter(p));
        if (now <= at) {
          next = std::min(next, Later(at, Clock::Duration(1)));  // due once past `at`
        } else if (!Contains(idle, w.device_class)) {
          waiting = true;
        } else {
          due.push_back(Due{.at = at, .job_id = job_id, .holder = w.principal, .part = f.part});
        }
      }
    }
    next_backup_scan = next;
    backups_waiting = waiting;
    if (due.empty()) return;
    std::vector<std::string> queued;  // classes with jobs waiting: their free slots are not idle
    for (const std::shared_ptr<Part>& p : queue)
      if (!p->sub->finished && !Contains(queued, p->sub->job.device_class)) queued.push_back(p->sub->job.device_class);
    std::sort(due.begin(), due.end(),
              [](const Due& a, const Due& b) { return std::tie(a.at, a.job_id) < std::tie(b.at, b.job_id); });
    for (const Due& d : due) {
      const std::string& dc = d.part->sub->job.device_class;
      if (Contains(queued, dc)) {
        waiting = true;
        continue;
      }
      Worker* best = nullptr;
      for (auto& [id, w] : workers) {
        if (w.credits <= 0 || w.device_class != dc || w.principal == d.holder || Avoids(*d.part, w) || MissesOf(w) > 0)
          continue;
        if (best == nullptr || w.credits > best->credits) best = &w;
      }
      if (best == nullptr || !Send(*best, d.part, /*backup=*/true)) {
        waiting = true;
        if (best != nullptr) MarkUnroutable(*best);
      }
    }
    backups_waiting = waiting;
  }

  // Something may have made a part due for a backup, or placeable: scan on the next pass.
  void ScanForBackups() { next_backup_scan = Clock::TimePoint::min(); }

  // One heartbeat tick: silence counted, the dead removed, a heartbeat to each of the others.
  void Heartbeats() {
    std::vector<std::string> silent_ids, unroutable_ids;
    for (auto& [id, w] : workers) {
      w.silent_ticks = w.heard ? 1 : w.silent_ticks + 1;
      w.heard = false;
      if (w.silent_ticks > opt.dead_after) {
        silent_ids.push_back(id);
      } else if (w.unroutable_ticks >= 0 && ++w.unroutable_ticks >= kUnroutableGraceTicks) {
        unroutable_ids.push_back(id);
      }
    }
    for (const std::string& id : silent_ids) {
      ++counters.dead_workers;
      RemoveWorker(id, /*blame=*/true);
    }
    // Disconnected and not back: its jobs go again, not held against it (it may have lost
    // them to the network, not died of them).
    for (const std::string& id : unroutable_ids) {
      ++counters.dead_workers;
      RemoveWorker(id, /*blame=*/false);
    }
    ++heartbeat_seq;
    for (auto& [id, w] : workers)
      SendTo(id, codec::Heartbeat{.seq = heartbeat_seq, .in_flight = static_cast<uint32_t>(w.in_flight.size())});
  }

  FarmStatus Snapshot() const {
    FarmStatus s = counters;
    s.workers.clear();
    s.classes.clear();
    std::map<std::string, FarmStatus::ClassQueue> classes;
    for (const auto& [id, w] : workers) {
      s.workers.push_back(WorkerStatus{.id = id,
                                       .host = w.hello.host,
                                       .device_class = w.device_class,
                                       .device = w.hello.device.Describe(),
                                       .build_id = w.hello.build_id,
                                       .capacity = static_cast<int>(w.hello.capacity),
                                       .credits = w.credits,
                                       .in_flight = static_cast<int>(w.in_flight.size()),
                                       .last_seen_s = clock->SecondsSince(w.last_seen),
                                       .jobs = w.jobs,
                                       .errors = w.errors,
                                       .lost = w.lost,
                                       .deadline_misses = MissesOf(w),
                                       .overdue = static_cast<int>(w.overdue.size()),
                                       .unroutable = w.unroutable_ticks >= 0});
      FarmStatus::ClassQueue& c = classes[w.device_class];
      c.device_class = w.device_class;
      ++c.workers;
      c.slots += static_cast<int>(w.hello.capacity);
      c.in_flight += static_cast<int>(w.in_flight.size());
    }
    for (const std::shared_ptr<Part>& p : queue) {
      if (p->sub->finished) continue;
      FarmStatus::ClassQueue& c = classes[p->sub->job.device_class];
      c.device_class = p->sub->job.device_class;
      ++c.queued;
    }
    for (auto& [k, c] : classes) s.classes.push_back(c);
    s.pending = s.submitted - s.completed;
    clockid_t cid;
    timespec ts;
    if (thread.joinable() && pthread_getcpuclockid(thread.native_handle(), &cid) == 0 && clock_gettime(cid, &ts) == 0)
      s.broker_cpu_s = static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
    return s;
  }

  void Loop() {
    pthread_setname_np(pthread_self(), "tg-broker");
    Clock::TimePoint next_hb = clock->Now() + opt.heartbeat;
    for (;;) {
      std::vector<net::PollItem> items;
      items.push_back({.socket = &router});
      items.push_back({.fd = wake_fd.get()});
      if (status.is_open()) items.push_back({.socket = &status});
      // At most one interval of real time, so a clock that moves without real time (a test's
      // FakeClock) is looked at again within one interval.
      const auto wait = std::clamp(std::chrono::duration_cast<std::chrono::milliseconds>(next_hb - clock->Now()),
                                   std::chrono::milliseconds(0), opt.heartbeat);
      absl::StatusOr<int> ready = net::Poll(items, wait);
      std::unique_lock<std::mutex> lock(mu);
      if (stop || (!ready.ok() && net::IsTerminated(ready.status()))) break;
      if (items[1].readable) {
        uint64_t v;
        [[maybe_unused]] ssize_t n = read(wake_fd.get(), &v, sizeof(v));
      }
      // Bounded, so a flood of messages never starves heartbeats and dispatch.
      for (int i = 0; i < 4096; ++i) {
        net::PeerInfo peer;
        absl::StatusOr<net::Frames> f = router.TryReceive(&peer);
        if (!f.ok()) break;
        // ZAP admits keys at the handshake only: a key revoked since then is cut off here,
        // its message unread and its jobs requeued, as if the worker had died.
        if (opt.security.zap != nullptr && !opt.security.zap->IsAllowed(peer.user_id)) {
          ++counters.revoked_messages;
          if (!f->empty() && workers.contains((*f)[0])) RemoveWorker((*f)[0], /*blame=*/false);
          continue;
        }
        OnMessage(*std::move(f), peer);
      }
      if (status.is_open()) {
        while (true) {
          absl::StatusOr<net::Frames> f = status.TryReceive();
          if (!f.ok()) break;
          const bool json = !f->empty() && (*f)[0] == kStatusJsonRequest;
          [[maybe_unused]] absl::Status s =
              status.Send({json ? FarmStatusToJson(Snapshot()) : FormatFarmStatus(Snapshot())}, net::SendMode::kDontWait);
        }
      }
      const Clock::TimePoint now = clock->Now();
      if (now >= next_hb) {
        Heartbeats();
        next_hb = now + opt.heartbeat;
      }
      CheckDeadlines(now);
      Dispatch();
      Speculate(now);
      auto done = std::move(completions);
      completions.clear();
      lock.unlock();
      for (auto& [cb, r] : done) cb(std::move(r));
    }
    // Shutdown: Bye to every worker, cancel what is left.
    std::vector<std::pair<JobCallback, absl::StatusOr<JobResult>>> done;
    {
      std::lock_guard<std::mutex> lock(mu);
      for (auto& [id, w] : workers) SendTo(id, codec::Bye{.reason = "coordinator shutting down"});
      auto cancel = [&](const std::shared_ptr<Part>& p) {
        Finish(p->sub, absl::CancelledError("farm broker shut down"));
      };
      for (const auto& p : queue) cancel(p);
      for (auto& [id, w] : workers)
        for (auto& [job, f] : w.in_flight) cancel(f.part);
      queue.clear();
      workers.clear();
      stopped = true;
      done = std::move(completions);
      completions.clear();
      workers_cv.notify_all();
    }
    for (auto& [cb, r] : done) cb(std::move(r));
    router.Close();
    status.Close();
  }
};

std::string FormatFarmStatus(const FarmStatus& s) {
  std::string out = absl::StrFormat("workers: %d\n", s.workers.size());
  for (const WorkerStatus& w : s.workers)
    absl::StrAppendFormat(&out,
                          "  %-24s host=%s class=%s slots=%d in_flight=%d credits=%d jobs=%d errors=%d lost=%d "
                          "deadline_misses=%d overdue=%d seen=%.1fs ago%s | %s\n",
                          w.id, w.host.empty() ? "?" : w.host, w.device_class, w.capacity, w.in_flight, w.credits, w.jobs,
                          w.errors, w.lost, w.deadline_misses, w.overdue, w.last_seen_s,
                          w.unroutable ? " (connection lost: waiting for it to reconnect)" : "", w.device);
  absl::StrAppendFormat(&out, "device classes: %d\n", s.classes.size());
  for (const FarmStatus::ClassQueue& c : s.classes)
    absl::StrAppendFormat(&out, "  %s workers=%d slots=%d queued=%d in_flight=%d\n", c.device_class, c.workers,
                          c.slots, c.queued, c.in_flight);
  if (!s.evicted.empty()) {
    absl::StrAppendFormat(&out, "evicted (missed deadlines): %d\n", s.evicted.size());
    for (const EvictedWorker& e : s.evicted)
      absl::StrAppendFormat(&out, "  %-24s host=%s deadline_misses=%d key=%s\n", e.id, e.host.empty() ? "?" : e.host,
                            e.deadline_misses, e.key.empty() ? "-" : e.key);
  }
  absl::StrAppendFormat(&out,
                        "jobs: submitted=%d completed=%d pending=%d sent=%d results=%d\n"
                        "errors: job_errors=%d dropped_results=%d requeued=%d task_resends=%d poisoned=%d "
                        "dead_workers=%d rejected_hellos=%d revoked_messages=%d reconnects=%d\n"
                        "deadlines: deadline_misses=%d evicted_workers=%d evicted_hellos=%d\n"
                        "backups: backups_sent=%d backups_won=%d speculative_losses=%d\nbroker cpu: %.3fs\n",
                        s.submitted, s.completed, s.pending, s.jobs_sent, s.results, s.job_errors,
                        s.dropped_results, s.requeued, s.task_resends, s.poisoned, s.dead_workers,
                        s.rejected_hellos, s.revoked_messages, s.reconnects, s.deadline_misses,
                        s.evicted_workers, s.evicted_hellos, s.backups_sent, s.backups_won, s.speculative_losses,
                        s.broker_cpu_s);
  return out;
}

absl::StatusOr<std::unique_ptr<Broker>> Broker::Start(BrokerOptions options) {
  if (options.heartbeat <= std::chrono::milliseconds(0) || options.dead_after < 1)
    return absl::InvalidArgumentError("farm broker: heartbeat must be > 0 and dead_after >= 1");
  if (options.job_slack < std::chrono::milliseconds(0) || options.evict_after_misses < 1)
    return absl::InvalidArgumentError("farm broker: job_slack must be >= 0 and evict_after_misses >= 1");
  if (!(options.backup_after >= 0) || !std::isfinite(options.backup_after) || options.backup_floor_beats < 0)
    return absl::InvalidArgumentError("farm broker: backup_after must be finite and >= 0, backup_floor_beats >= 0");
  for (auto floor : {options.worker_limits.prepare_floor, options.worker_limits.run_floor,
                     options.worker_limits.child_start}) {
    if (!(floor.count() >= 0) || !std::isfinite(floor.count()))
      return absl::InvalidArgumentError("farm broker: worker_limits must be finite and >= 0");
  }
  auto st = std::make_unique<State>();
  st->opt = std::move(options);
  if (st->opt.clock != nullptr) st->clock = st->opt.clock;
  const double floor_s = std::chrono::duration<double>(st->opt.heartbeat).count() * st->opt.backup_floor_beats;
  st->backup_floor = floor_s <= std::chrono::duration<double>(kMaxJobBudget).count() ? FromSeconds(floor_s)
                                                                                      : Clock::Duration(kMaxJobBudget);
  if (st->opt.context == nullptr) st->own_ctx = std::make_unique<net::ZmqContext>();
  st->ctx = st->opt.context != nullptr ? st->opt.context : st->own_ctx.get();
  st->wake_fd.reset(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC));
  if (!st->wake_fd) return absl::InternalError("farm broker: eventfd failed");
  auto router = net::ZmqSocket::Create(*st->ctx, net::SocketType::kRouter);
  if (!router.ok()) return router.status();
  st->router = *std::move(router);
  // Unroutable sends fail instead of vanishing; a worker reconnecting under its old id takes
  // over its routing id at once instead of being refused while the old pipe lingers.
  if (absl::Status s = st->router.SetRouterMandatory(true); !s.ok()) return s;
  if (absl::Status s = st->router.SetRouterHandover(true); !s.ok()) return s;
  if (absl::Status s = net::ConfigureServer(st->router, st->opt.endpoint, st->opt.security); !s.ok()) return s;
  auto ep = st->router.LastEndpoint();
  if (!ep.ok()) return ep.status();
  std::unique_ptr<Broker> b(new Broker());
  b->endpoint_ = *ep;
  if (!st->opt.status_endpoint.empty()) {
    auto status = net::ZmqSocket::Create(*st->ctx, net::SocketType::kRep);
    if (!status.ok()) return status.status();
    st->status = *std::move(status);
    if (absl::Status s = net::ConfigureServer(st->status, st->opt.status_endpoint, st->opt.security); !s.ok())
      return s;
    auto sep = st->status.LastEndpoint();
    if (!sep.ok()) return sep.status();
    b->status_endpoint_ = *sep;
  }
  State* raw = st.get();
  st->thread = std::thread([raw] { raw->Loop(); });
  b->st_ = std::move(st);
  return b;
}

Broker::~Broker() { Shutdown(); }

void Broker::Shutdown() {
  if (st_ == nullptr) return;
  {
    std::lock_guard<std::mutex> lock(st_->mu);
    st_->stop = true;
  }
  st_->Wake();
  if (st_->thread.joinable()) st_->thread.join();
}

void Broker::Submit(FarmJob job, JobCallback done) {
  TG_CHECK(job.task != nullptr) << "FarmJob without a task";
  auto sub = std::make_shared<Submission>();
  sub->task_digest = codec::KernelTaskDigest(*job.task);
  sub->results.resize(job.candidates.size());
  sub->measured_by.resize(job.candidates.size());
  sub->remaining = job.candidates.size();
  sub->done = std::move(done);
  const size_t n = job.candidates.size();
  sub->job = std::move(job);
  {
    std::unique_lock<std::mutex> lock(st_->mu);
    if (st_->stop || st_->stopped) {
      lock.unlock();
      sub->done(absl::CancelledError("farm broker shut down"));
      return;
    }
    ++st_->counters.submitted;
    if (n == 0) {
      ++st_->counters.completed;
      lock.unlock();
      sub->done(JobResult{});
      return;
    }
    st_->queue.push_back(std::make_shared<Part>(Part{.sub = sub, .offset = 0, .count = n}));
  }
  st_->Wake();
}

std::future<absl::StatusOr<JobResult>> Broker::Submit(FarmJob job) {
  auto promise = std::make_shared<std::promise<absl::StatusOr<JobResult>>>();
  std::future<absl::StatusOr<JobResult>> f = promise->get_future();
  Submit(std::move(job), [promise](absl::StatusOr<JobResult> r) { promise->set_value(std::move(r)); });
  return f;
}

FarmStatus Broker::Status() const {
  std::lock_guard<std::mutex> lock(st_->mu);
  return st_->Snapshot();
}

int Broker::Slots(const std::string& device_class) const {
  std::lock_guard<std::mutex> lock(st_->mu);
  int slots = 0;
  for (const auto& [id, w] : st_->workers)
    if (w.device_class == device_class) slots += static_cast<int>(w.hello.capacity);
  return slots;
}

bool Broker::WaitForWorkers(const std::string& device_class, int n, std::chrono::milliseconds timeout) const {
  std::unique_lock<std::mutex> lock(st_->mu);
  return st_->workers_cv.wait_for(lock, timeout, [&] {
    if (st_->stopped) return true;
    int alive = 0;
    for (const auto& [id, w] : st_->workers)
      if (device_class.empty() || w.device_class == device_class) ++alive;
    return alive >= n;
  });
}

}  // namespace tg::autotune::farm
