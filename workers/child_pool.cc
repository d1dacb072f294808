// File: workers/child_pool.cc
// ChildPool: one supervisor thread polls every child's socket and pidfd, moves jobs through
// their phases, grants the device, enforces deadlines, and replaces dead children.
#include "workers/child_pool.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/unique_fd.h"
#include "workers/resource_limits.h"
#include "workers/spawn.h"

namespace tg::workers {
namespace {

using TimePoint = Clock::TimePoint;

// A slot whose child failed to start this many times in a row counts as unable to start;
// when every slot is, queued jobs fail (kLost) instead of waiting forever.
constexpr int kMaxStartFailures = 3;
// A child that closed its socket gets this long to exit before it is killed.
constexpr FloatSeconds kEofGrace{1.0};
constexpr size_t kReadChunk = 64 << 10;

double Seconds(Clock::Duration d) { return std::chrono::duration<double>(d).count(); }

TimePoint After(TimePoint t, FloatSeconds d) {
  return t + FromSeconds(std::clamp(d.count(), 0.0, 1e7));  // "forever" stays representable
}

std::string Secs(FloatSeconds d) { return absl::StrFormat("%g s", d.count()); }

// Start-failure backoff: none for the first retry, then 50 ms doubling up to 5 s.
FloatSeconds Backoff(int failures) {
  if (failures <= 1) return FloatSeconds(0);
  return FloatSeconds(std::min(5.0, 0.05 * std::pow(2.0, failures - 2)));
}

const char* PhaseVerb(JobPhase p) {
  switch (p) {
    case JobPhase::kQueued: return "before the job started";
    case JobPhase::kPreparing: return "while preparing";
    case JobPhase::kWaiting: return "while waiting for the device";
    case JobPhase::kRunning: return "while running";
    case JobPhase::kFinishing: return "while finishing";
  }
  return "";
}

// A child that died on its own: of its resource limits (resource_limits.h), or a crash.
JobOutcomeKind KindOfDeath(int status) {
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU) return JobOutcomeKind::kCpuLimit;
  if (WIFEXITED(status) && WEXITSTATUS(status) == kChildExitOutOfMemory) return JobOutcomeKind::kMemoryLimit;
  return JobOutcomeKind::kCrashed;
}

struct Job {
  std::string request;
  JobLimits limits;
  ChildPool::Callback done;
  TimePoint submitted;
};

// kRetiring: the child answered its last job and is exiting (it said kRetiring): no job for it.
enum class SlotState { kEmpty, kSpawning, kStarting, kIdle, kBusy, kRetiring, kKilled };
enum class Timer { kNone, kStartup, kPrepare, kRun, kFinish, kEofGrace, kRespawn };

struct Slot {
  SpawnedChild proc;
  SlotState state = SlotState::kEmpty;
  bool ready = false;  // this child sent kReady
  FrameParser parser{0};
  std::string out;  // bytes not yet sent to the child, from out_off
  size_t out_off = 0;
  bool eof = false;
  Timer timer = Timer::kRespawn;  // an empty slot starts at once
  TimePoint deadline{};
  std::optional<Job> job;
  uint64_t job_seq = 0;  // which job `job` is (a relay's answer must be for it)
  bool relay_pending = false;  // a relay request of `job` is waiting for its answer
  JobOutcome outcome;  // of `job`, being filled
  TimePoint phase_start{};
  // Set when the pool killed the child: what its job becomes.
  std::optional<JobOutcomeKind> kill_kind;
  std::string kill_detail;
  bool retiring = false;             // the child said kRetiring during its job
  std::optional<TimePoint> died_at;  // the previous child's death, for the respawn time
  int start_failures = 0;            // in a row
  std::string last_start_error;
};

}  // namespace

struct ChildPool::Impl {
  explicit Impl(const ChildPoolOptions& o)
      : opt(o), clock(o.clock != nullptr ? *o.clock : Clock::Real()), slots(o.children + o.spares) {
    for (Slot& s : slots) s.parser = FrameParser(o.max_frame_bytes);
    stats.children = o.children;
    stats.spares = o.spares;
    pids.assign(slots.size(), 0);
  }

  void Loop();
  void Wake() {
    uint64_t one = 1;
    [[maybe_unused]] ssize_t n = write(wake_fd.get(), &one, sizeof(one));
  }

  void SpawnerLoop();  // the spawner thread
  // Supervisor-thread steps.
  void RequestSpawn(int i);
  void CollectSpawns(TimePoint now);
  void OnSpawned(int i, absl::StatusOr<SpawnedChild> c, TimePoint now);
  void StartFailed(int i, TimePoint now, std::string why);
  void Dispatch(TimePoint now);
  void FailJobsIfNoChildCanStart();
  void Send(int i, FrameType type, std::string_view payload = {});
  void Flush(int i);
  void ReadAvailable(int i, TimePoint now);
  void HandleFrame(int i, const Frame& f, TimePoint now);
  void TryGrant(TimePoint now);
  void PassRelayAnswers();
  void EndPhase(Slot& s, TimePoint now);
  void Kill(int i, JobOutcomeKind kind, std::string detail);
  void OnExit(int i, TimePoint now);
  void CheckTimers(TimePoint now);
  void Finish(Job job, JobOutcome outcome);
  void Deliver();
  void ShutdownChildren();
  void Count(int64_t PoolStats::*counter) {
    std::lock_guard<std::mutex> l(mu);
    ++(stats.*counter);
  }
  void SetPid(int i, pid_t pid) {
    std::lock_guard<std::mutex> l(mu);
    pids[i] = pid;
  }

  const ChildPoolOptions opt;
  Clock& clock;  // deadlines and phase times
  UniqueFd wake_fd;
  std::thread thread;  // the supervisor

  // The spawner thread: posix_spawn blocks its caller for a millisecond or more, which the
  // supervisor must not spend while a spare could take the next job. It lives until every
  // child is reaped, since PR_SET_PDEATHSIG fires when the spawning thread exits.
  std::thread spawner;
  std::mutex spawn_mu;
  std::condition_variable spawn_cv;
  std::deque<int> spawn_requests;  // slots
  std::deque<std::pair<int, absl::StatusOr<SpawnedChild>>> spawn_results;
  bool spawner_busy = false;
  bool spawn_closed = false;  // shutdown: take no new requests
  bool spawner_exit = false;  // every child is reaped

  // Shared with callers, under mu.
  mutable std::mutex mu;
  std::condition_variable started_cv;
  std::deque<Job> queue;
  bool stopping = false;
  bool started = false;     // every first child became ready
  std::string start_error;  // a first child could not start
  PoolStats stats;
  std::vector<pid_t> pids;
  std::mutex shutdown_mu;  // one Shutdown joins
  struct RelayAnswer {
    int slot;
    uint64_t job_seq;
    std::string answer;
  };
  std::vector<RelayAnswer> relay_answers;  // from ChildPoolOptions::relay's callers

  // Supervisor thread only.
  uint64_t jobs_sent = 0;
  std::vector<Slot> slots;
  bool initial = true;  // still starting the first children
  std::deque<int> device_waiters;
  int device_holder = -1;
  std::vector<std::pair<Callback, JobOutcome>> to_deliver;
};

void ChildPool::Impl::SpawnerLoop() {
  pthread_setname_np(pthread_self(), "tg-pool-spawn");
  std::unique_lock<std::mutex> l(spawn_mu);
  while (true) {
    spawn_cv.wait(l, [&] { return spawner_exit || (!spawn_closed && !spawn_requests.empty()); });
    if (spawner_exit) return;
    int i = spawn_requests.front();
    spawn_requests.pop_front();
    spawner_busy = true;
    l.unlock();
    absl::StatusOr<SpawnedChild> c = SpawnChild(opt.argv);
    l.lock();
    spawn_results.emplace_back(i, std::move(c));
    spawner_busy = false;
    spawn_cv.notify_all();
    Wake();
  }
}

void ChildPool::Impl::RequestSpawn(int i) {
  slots[i].state = SlotState::kSpawning;
  slots[i].timer = Timer::kNone;
  std::lock_guard<std::mutex> l(spawn_mu);
  spawn_requests.push_back(i);
  spawn_cv.notify_all();
}

void ChildPool::Impl::CollectSpawns(TimePoint now) {
  std::deque<std::pair<int, absl::StatusOr<SpawnedChild>>> done;
  {
    std::lock_guard<std::mutex> l(spawn_mu);
    done.swap(spawn_results);
  }
  for (auto& [i, c] : done) OnSpawned(i, std::move(c), now);
}

void ChildPool::Impl::OnSpawned(int i, absl::StatusOr<SpawnedChild> c, TimePoint now) {
  Slot& s = slots[i];
  {
    std::lock_guard<std::mutex> l(mu);
    ++stats.spawns;
  }
  if (!c.ok()) {
    StartFailed(i, now, std::string(c.status().message()));
    return;
  }
  s.proc = *std::move(c);
  s.state = SlotState::kStarting;
  s.ready = false;
  s.parser = FrameParser(opt.max_frame_bytes);
  s.out.clear();
  s.out_off = 0;
  s.eof = false;
  s.kill_kind.reset();
  s.kill_detail.clear();
  s.timer = Timer::kStartup;
  s.deadline = After(now, opt.startup_timeout);
  SetPid(i, s.proc.pid);
}

void ChildPool::Impl::StartFailed(int i, TimePoint now, std::string why) {
  Slot& s = slots[i];
  ++s.start_failures;
  s.last_start_error = std::move(why);
  s.state = SlotState::kEmpty;
  s.timer = Timer::kRespawn;
  s.deadline = After(now, Backoff(s.start_failures));
  std::lock_guard<std::mutex> l(mu);
  ++stats.start_failures;
  if (initial && start_error.empty()) {
    start_error = absl::StrCat("child ", i, " did not start: ", s.last_start_error);
    started_cv.notify_all();
  }
}

void ChildPool::Impl::Dispatch(TimePoint now) {
  int running = 0;
  for (const Slot& s : slots) running += s.job.has_value();
  for (int i = 0; i < static_cast<int>(slots.size()) && running < opt.children; ++i) {
    Slot& s = slots[i];
    if (s.state != SlotState::kIdle) continue;
    ++running;
    std::optional<Job> job;
    {
      std::lock_guard<std::mutex> l(mu);
      if (queue.empty()) return;
      job = std::move(queue.front());
      queue.pop_front();
      ++stats.jobs_started;
    }
    s.outcome = JobOutcome{};
    s.outcome.pid = s.proc.pid;
    s.outcome.queue_s = Seconds(now - job->submitted);
    s.outcome.phase = JobPhase::kPreparing;
    s.phase_start = now;
    s.state = SlotState::kBusy;
    s.timer = Timer::kPrepare;
    s.deadline = After(now, job->limits.prepare_timeout);
    std::string request = std::move(job->request);
    s.job = std::move(job);
    s.job_seq = ++jobs_sent;
    s.relay_pending = false;
    Send(i, FrameType::kJob, request);
  }
}

void ChildPool::Impl::FailJobsIfNoChildCanStart() {
  std::string why;
  for (const Slot& s : slots) {
    if (s.start_failures < kMaxStartFailures) return;
    why = s.last_start_error;
  }
  std::deque<Job> failed;
  {
    std::lock_guard<std::mutex> l(mu);
    failed.swap(queue);
  }
  for (Job& j : failed) {
    JobOutcome o;
    o.detail = absl::StrCat("no child could be started: ", why);
    o.queue_s = clock.SecondsSince(j.submitted);
    Finish(std::move(j), std::move(o));
  }
}

void ChildPool::Impl::Send(int i, FrameType type, std::string_view payload) {
  Slot& s = slots[i];
  s.out.append(EncodeFrame(type, payload));
  Flush(i);
}

void ChildPool::Impl::Flush(int i) {
  Slot& s = slots[i];
  while (s.out_off < s.out.size()) {
    ssize_t n = send(s.proc.fd.get(), s.out.data() + s.out_off, s.out.size() - s.out_off,
                     MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return;
      break;  // EPIPE, ECONNRESET: the child is dying; its pidfd will say how
    }
    s.out_off += static_cast<size_t>(n);
  }
  s.out.clear();
  s.out_off = 0;
}

void ChildPool::Impl::ReadAvailable(int i, TimePoint now) {
  Slot& s = slots[i];
  char buf[kReadChunk];
  while (!s.eof && s.state != SlotState::kKilled) {
    ssize_t n = recv(s.proc.fd.get(), buf, sizeof(buf), MSG_DONTWAIT);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    if (n <= 0) {
      s.eof = true;  // closed, or an error such as ECONNRESET
      break;
    }
    s.parser.Append(std::string_view(buf, static_cast<size_t>(n)));
    while (s.state != SlotState::kKilled) {
      std::optional<Frame> f = s.parser.Next();
      if (!f) break;
      HandleFrame(i, *f, now);
    }
    if (s.state != SlotState::kKilled && !s.parser.error().empty()) {
      Kill(i, JobOutcomeKind::kProtocolError, absl::StrCat("sent a bad frame: ", s.parser.error()));
    }
  }
  if (s.eof && s.state != SlotState::kKilled && s.timer != Timer::kEofGrace) {
    // Usually the child is exiting and its pidfd fires next; a child that only closed its
    // socket is killed after a grace period.
    s.timer = Timer::kEofGrace;
    s.deadline = After(now, kEofGrace);
  }
}

void ChildPool::Impl::EndPhase(Slot& s, TimePoint now) {
  double d = Seconds(now - s.phase_start);
  switch (s.outcome.phase) {
    case JobPhase::kPreparing:
    case JobPhase::kFinishing: s.outcome.prepare_s += d; break;
    case JobPhase::kWaiting: s.outcome.wait_s += d; break;
    case JobPhase::kRunning: s.outcome.run_s += d; break;
    case JobPhase::kQueued: break;
  }
  s.phase_start = now;
}

void ChildPool::Impl::HandleFrame(int i, const Frame& f, TimePoint now) {
  Slot& s = slots[i];
  auto unexpected = [&](const char* when) {
    Kill(i, JobOutcomeKind::kProtocolError,
         absl::StrCat("sent an unexpected ", std::string(FrameTypeName(f.type)), " frame ", when));
  };
  if (s.state == SlotState::kStarting) {
    if (f.type != FrameType::kReady) return unexpected("before it was ready");
    s.ready = true;
    s.state = SlotState::kIdle;
    s.timer = Timer::kNone;
    s.start_failures = 0;
    std::lock_guard<std::mutex> l(mu);
    if (s.died_at) {
      double r = Seconds(now - *s.died_at);
      ++stats.respawns;
      stats.last_respawn_s = r;
      stats.max_respawn_s = std::max(stats.max_respawn_s, r);
      stats.total_respawn_s += r;
      s.died_at.reset();
    }
    if (initial && std::all_of(slots.begin(), slots.end(), [](const Slot& x) { return x.ready; })) {
      initial = false;
      started = true;
      started_cv.notify_all();
    }
    return;
  }
  if (s.state != SlotState::kBusy) return unexpected("while idle");
  JobPhase phase = s.outcome.phase;
  switch (f.type) {
    case FrameType::kWantDevice:
      if (phase != JobPhase::kPreparing && phase != JobPhase::kFinishing) {
        return unexpected(PhaseVerb(phase));
      }
      EndPhase(s, now);
      Count(&PoolStats::device_requests);
      s.outcome.phase = JobPhase::kWaiting;
      s.timer = Timer::kNone;  // waiting for another child's run is not this job's fault
      device_waiters.push_back(i);
      TryGrant(now);
      return;
    case FrameType::kDeviceDone:
      if (phase != JobPhase::kRunning) return unexpected(PhaseVerb(phase));
      EndPhase(s, now);
      device_holder = -1;
      Count(&PoolStats::device_releases);
      s.outcome.phase = JobPhase::kFinishing;
      s.timer = Timer::kFinish;
      s.deadline = After(now, s.job->limits.prepare_timeout);
      TryGrant(now);
      return;
    case FrameType::kProgress: {
      if (phase != JobPhase::kRunning) return unexpected(PhaseVerb(phase));
      absl::StatusOr<std::optional<double>> limit = DecodeRunLimit(f.payload);
      if (!limit.ok())
        return Kill(i, JobOutcomeKind::kProtocolError, absl::StrCat("sent a bad progress frame: ", limit.status().message()));
      std::optional<FloatSeconds> run_limit;
      if (*limit) run_limit = FloatSeconds(**limit);
      s.deadline = After(now, s.job->limits.RunDeadline(run_limit));
      Count(&PoolStats::progress_reports);
      return;
    }
    case FrameType::kRelay: {
      if (phase != JobPhase::kPreparing) return unexpected(PhaseVerb(phase));
      if (s.relay_pending) return unexpected("before its previous relay request was answered");
      if (!opt.relay) return Send(i, FrameType::kRelayed);
      s.relay_pending = true;
      // (the prepare timer keeps running: a relay that never answers ends the job)
      opt.relay(f.payload, [this, i, seq = s.job_seq](std::string answer) {
        {
          std::lock_guard<std::mutex> l(mu);
          relay_answers.push_back({i, seq, std::move(answer)});
        }
        Wake();
      });
      return;
    }
    case FrameType::kRetiring:
      if (phase == JobPhase::kWaiting) return unexpected(PhaseVerb(phase));
      s.retiring = true;
      return;
    case FrameType::kResponse: {
      if (phase == JobPhase::kWaiting) return unexpected(PhaseVerb(phase));
      EndPhase(s, now);
      if (phase == JobPhase::kRunning) device_holder = -1;
      s.outcome.kind = JobOutcomeKind::kOk;
      s.outcome.response = f.payload;
      s.state = s.retiring ? SlotState::kRetiring : SlotState::kIdle;
      s.timer = Timer::kNone;
      if (s.retiring) {  // it exits now; one that lingers is killed
        s.timer = Timer::kEofGrace;
        s.deadline = After(now, kEofGrace);
      }
      Job job = std::move(*s.job);
      s.job.reset();
      Finish(std::move(job), std::move(s.outcome));
      TryGrant(now);
      return;
    }
    default: return unexpected(PhaseVerb(phase));
  }
}

// Each relay answer to its child, if that child still prepares the job that asked.
void ChildPool::Impl::PassRelayAnswers() {
  std::vector<RelayAnswer> answers;
  {
    std::lock_guard<std::mutex> l(mu);
    answers.swap(relay_answers);
  }
  for (RelayAnswer& a : answers) {
    Slot& s = slots[a.slot];
    if (s.state != SlotState::kBusy || s.job_seq != a.job_seq || s.outcome.phase != JobPhase::kPreparing) continue;
    s.relay_pending = false;
    Send(a.slot, FrameType::kRelayed, a.answer);
    Count(&PoolStats::relayed);
  }
}

void ChildPool::Impl::TryGrant(TimePoint now) {
  if (device_holder >= 0 || device_waiters.empty()) return;
  int i = device_waiters.front();
  device_waiters.pop_front();
  Slot& s = slots[i];
  TG_CHECK(s.state == SlotState::kBusy && s.outcome.phase == JobPhase::kWaiting);
  EndPhase(s, now);
  s.outcome.phase = JobPhase::kRunning;
  s.timer = Timer::kRun;
  s.deadline = After(now, s.job->limits.run_deadline);
  device_holder = i;
  Count(&PoolStats::device_grants);
  Send(i, FrameType::kGrant);
}

void ChildPool::Impl::Kill(int i, JobOutcomeKind kind, std::string detail) {
  Slot& s = slots[i];
  if (s.state == SlotState::kKilled || s.proc.pid <= 0) return;
  s.kill_kind = kind;
  s.kill_detail = std::move(detail);
  s.state = SlotState::kKilled;
  s.timer = Timer::kNone;
  KillProcessGroup(s.proc.pid);  // the pidfd fires; OnExit reports the job
}

void ChildPool::Impl::OnExit(int i, TimePoint now) {
  Slot& s = slots[i];
  // A response written just before the child died still counts.
  if (s.state != SlotState::kKilled) ReadAvailable(i, now);
  pid_t pid = s.proc.pid;
  int status = ReapChild(s.proc);
  SetPid(i, 0);
  if (device_holder == i) device_holder = -1;
  device_waiters.erase(std::remove(device_waiters.begin(), device_waiters.end(), i),
                       device_waiters.end());
  std::string what = DescribeWaitStatus(status);
  s.retiring = false;
  if (s.job) {
    EndPhase(s, now);
    JobOutcome o = std::move(s.outcome);
    o.pid = pid;
    if (WIFSIGNALED(status)) o.signal = WTERMSIG(status);
    if (WIFEXITED(status)) o.exit_code = WEXITSTATUS(status);
    if (s.kill_kind) {
      o.kind = *s.kill_kind;
      o.detail = s.kill_detail;
    } else {
      o.kind = KindOfDeath(status);
      o.detail = absl::StrCat(what, " ", PhaseVerb(o.phase));
    }
    Job job = std::move(*s.job);
    s.job.reset();
    Finish(std::move(job), std::move(o));
    s.died_at = now;
  } else if (!s.ready) {
    s.died_at.reset();
    StartFailed(i, now, s.kill_kind ? s.kill_detail : absl::StrCat(what, " before it was ready"));
    TryGrant(now);
    return;
  } else {
    s.died_at = now;  // an idle child died (or broke the protocol): replace it all the same
  }
  s.state = SlotState::kEmpty;
  s.timer = Timer::kRespawn;
  s.deadline = now;
  TryGrant(now);
}

void ChildPool::Impl::CheckTimers(TimePoint now) {
  for (int i = 0; i < static_cast<int>(slots.size()); ++i) {
    Slot& s = slots[i];
    if (s.timer == Timer::kNone || s.deadline > now) continue;
    const JobLimits* l = s.job ? &s.job->limits : nullptr;
    switch (s.timer) {
      case Timer::kNone: break;
      case Timer::kRespawn: RequestSpawn(i); break;
      case Timer::kStartup:
        Kill(i, JobOutcomeKind::kTimeout,
             absl::StrCat("did not become ready within ", Secs(opt.startup_timeout)));
        break;
      case Timer::kPrepare:
        Kill(i, JobOutcomeKind::kTimeout, absl::StrCat("prepared longer than ", Secs(l->prepare_timeout)));
        break;
      case Timer::kRun:
        Kill(i, JobOutcomeKind::kTimeout, absl::StrCat("ran longer than ", Secs(l->run_deadline)));
        break;
      case Timer::kFinish:
        Kill(i, JobOutcomeKind::kTimeout,
             absl::StrCat("took longer than ", Secs(l->prepare_timeout), " after its device run"));
        break;
      case Timer::kEofGrace:
        Kill(i, JobOutcomeKind::kProtocolError, "closed its connection but kept running");
        break;
    }
  }
}

void ChildPool::Impl::Finish(Job job, JobOutcome outcome) {
  {
    std::lock_guard<std::mutex> l(mu);
    ++stats.jobs_done;
    switch (outcome.kind) {
      case JobOutcomeKind::kOk: ++stats.ok; break;
      case JobOutcomeKind::kCrashed: ++stats.crashed; break;
      case JobOutcomeKind::kTimeout: ++stats.timeouts; break;
      case JobOutcomeKind::kLost: ++stats.lost; break;
      case JobOutcomeKind::kProtocolError: ++stats.protocol_errors; break;
      case JobOutcomeKind::kCpuLimit: ++stats.cpu_limits; break;
      case JobOutcomeKind::kMemoryLimit: ++stats.memory_limits; break;
    }
  }
  to_deliver.emplace_back(std::move(job.done), std::move(outcome));
}

void ChildPool::Impl::Deliver() {
  std::vector<std::pair<Callback, JobOutcome>> batch;
  batch.swap(to_deliver);
  for (auto& [done, outcome] : batch) done(std::move(outcome));
}

void ChildPool::Impl::Loop() {
  pthread_setname_np(pthread_self(), "tg-pool");
  std::vector<pollfd> fds;
  std::vector<std::pair<int, int>> who;  // per pollfd: slot (-1: wake fd), 0 socket / 1 pidfd
  while (true) {
    {
      std::lock_guard<std::mutex> l(mu);
      if (stopping) break;
    }
    TimePoint now = clock.Now();
    CollectSpawns(now);
    PassRelayAnswers();
    Dispatch(now);  // before respawning: a ready spare takes the job at once
    CheckTimers(now);
    Dispatch(now);
    FailJobsIfNoChildCanStart();
    Deliver();

    fds.clear();
    who.clear();
    fds.push_back({wake_fd.get(), POLLIN, 0});
    who.push_back({-1, 0});
    std::optional<TimePoint> next;
    for (int i = 0; i < static_cast<int>(slots.size()); ++i) {
      Slot& s = slots[i];
      if (s.timer != Timer::kNone && (!next || s.deadline < *next)) next = s.deadline;
      if (s.proc.pid <= 0) continue;
      short ev = 0;
      if (!s.eof && s.state != SlotState::kKilled) ev |= POLLIN;
      if (s.out_off < s.out.size()) ev |= POLLOUT;
      // A socket we do not read would report POLLHUP in a loop: leave it out.
      if (ev != 0) {
        fds.push_back({s.proc.fd.get(), ev, 0});
        who.push_back({i, 0});
      }
      fds.push_back({s.proc.pidfd.get(), POLLIN, 0});
      who.push_back({i, 1});
    }
    // A clock that moves without real time (a test's FakeClock) wakes us with CheckDeadlines.
    int timeout_ms = -1;
    if (next) {
      double ms = std::ceil(Seconds(*next - clock.Now()) * 1000);
      timeout_ms = static_cast<int>(std::clamp(ms, 0.0, 3600e3));
    }
    int n = poll(fds.data(), fds.size(), timeout_ms);
    if (n < 0) {
      TG_CHECK(errno == EINTR) << "poll: " << errno;
      continue;
    }
    now = clock.Now();
    for (size_t k = 0; k < fds.size(); ++k) {
      if (fds[k].revents == 0) continue;
      auto [i, kind] = who[k];
      if (i < 0) {
        uint64_t v;
        [[maybe_unused]] ssize_t r = read(wake_fd.get(), &v, sizeof(v));
        continue;
      }
      Slot& s = slots[i];
      if (s.proc.pid <= 0) continue;  // reaped earlier in this pass
      if (kind == 0) {
        if (fds[k].revents & POLLOUT) Flush(i);
        if (fds[k].revents & (POLLIN | POLLHUP | POLLERR)) ReadAvailable(i, now);
      } else {
        OnExit(i, now);
      }
    }
    Deliver();
  }
  ShutdownChildren();
}

void ChildPool::Impl::ShutdownChildren() {
  {
    // A spawn under way finishes; its child is shut down with the others.
    std::unique_lock<std::mutex> l(spawn_mu);
    spawn_closed = true;
    spawn_requests.clear();
    spawn_cv.wait(l, [&] { return !spawner_busy; });
  }
  CollectSpawns(clock.Now());
  std::deque<Job> queued;
  {
    std::lock_guard<std::mutex> l(mu);
    queued.swap(queue);
  }
  TimePoint now = clock.Now();
  for (Job& j : queued) {
    JobOutcome o;
    o.detail = "the pool shut down before the job started";
    o.queue_s = Seconds(now - j.submitted);
    Finish(std::move(j), std::move(o));
  }
  for (Slot& s : slots) {
    if (s.proc.pid <= 0) continue;
    if (s.job) {
      EndPhase(s, now);
      JobOutcome o = std::move(s.outcome);
      // A child already killed for its job keeps that verdict.
      o.kind = s.kill_kind.value_or(JobOutcomeKind::kLost);
      o.detail = s.kill_kind ? s.kill_detail : absl::StrCat("the pool shut down ", PhaseVerb(o.phase));
      Finish(std::move(*s.job), std::move(o));
      s.job.reset();
      KillProcessGroup(s.proc.pid);
    } else if (s.state == SlotState::kKilled) {
      KillProcessGroup(s.proc.pid);
    } else {
      shutdown(s.proc.fd.get(), SHUT_WR);  // EOF: RunChildLoop returns 0
    }
  }
  Deliver();
  // Wait for the children to exit, up to the grace period, then kill the rest. Real time: no
  // test advances its clock while the pool shuts down.
  using Steady = std::chrono::steady_clock;
  Steady::time_point give_up = Steady::now() + FromSeconds(std::clamp(opt.exit_grace.count(), 0.0, 1e7));
  while (true) {
    std::vector<pollfd> fds;
    std::vector<int> idx;
    for (int i = 0; i < static_cast<int>(slots.size()); ++i) {
      if (slots[i].proc.pid <= 0) continue;
      fds.push_back({slots[i].proc.pidfd.get(), POLLIN, 0});
      idx.push_back(i);
    }
    if (fds.empty()) break;
    double left_ms = std::ceil(Seconds(give_up - Steady::now()) * 1000);
    if (left_ms <= 0) {
      for (int i : idx) KillProcessGroup(slots[i].proc.pid);
      for (int i : idx) {
        ReapChild(slots[i].proc);
        SetPid(i, 0);
      }
      break;
    }
    if (poll(fds.data(), fds.size(), static_cast<int>(left_ms)) < 0 && errno != EINTR) {
      TG_CHECK(false) << "poll: " << errno;
    }
    for (size_t k = 0; k < fds.size(); ++k) {
      if (fds[k].revents == 0) continue;
      ReapChild(slots[idx[k]].proc);
      SetPid(idx[k], 0);
    }
  }
  {
    std::lock_guard<std::mutex> l(spawn_mu);
    spawner_exit = true;
    spawn_cv.notify_all();
  }
  spawner.join();
}

// ** ChildPool **

std::string_view JobOutcomeKindName(JobOutcomeKind k) {
  switch (k) {
    case JobOutcomeKind::kOk: return "ok";
    case JobOutcomeKind::kCrashed: return "crashed";
    case JobOutcomeKind::kTimeout: return "timeout";
    case JobOutcomeKind::kLost: return "lost";
    case JobOutcomeKind::kProtocolError: return "protocol_error";
    case JobOutcomeKind::kCpuLimit: return "cpu_limit";
    case JobOutcomeKind::kMemoryLimit: return "memory_limit";
  }
  return "unknown";
}

std::string_view JobPhaseName(JobPhase p) {
  switch (p) {
    case JobPhase::kQueued: return "queued";
    case JobPhase::kPreparing: return "preparing";
    case JobPhase::kWaiting: return "waiting";
    case JobPhase::kRunning: return "running";
    case JobPhase::kFinishing: return "finishing";
  }
  return "unknown";
}

absl::StatusOr<std::unique_ptr<ChildPool>> ChildPool::Create(const ChildPoolOptions& options) {
  if (options.argv.empty()) return absl::InvalidArgumentError("ChildPool: empty argv");
  if (options.children < 1) return absl::InvalidArgumentError("ChildPool: children < 1");
  if (options.spares < 0) return absl::InvalidArgumentError("ChildPool: spares < 0");
  if (options.max_frame_bytes < 1 || options.max_frame_bytes > 0xffffffffu) {
    return absl::InvalidArgumentError("ChildPool: max_frame_bytes out of range");
  }
  auto impl = std::make_unique<Impl>(options);
  impl->wake_fd.reset(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (!impl->wake_fd) return absl::InternalError("ChildPool: eventfd failed");
  Impl* raw = impl.get();
  impl->spawner = std::thread([raw] { raw->SpawnerLoop(); });
  impl->thread = std::thread([raw] { raw->Loop(); });
  std::unique_ptr<ChildPool> pool(new ChildPool(std::move(impl)));
  std::string error;
  {
    std::unique_lock<std::mutex> l(raw->mu);
    raw->started_cv.wait(l, [raw] { return raw->started || !raw->start_error.empty(); });
    error = raw->start_error;
  }
  if (!error.empty()) {
    pool->Shutdown();
    return absl::UnavailableError(absl::StrCat("ChildPool: ", error));
  }
  return pool;
}

ChildPool::ChildPool(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

ChildPool::~ChildPool() { Shutdown(); }

void ChildPool::Submit(std::string request, const JobLimits& limits, Callback done) {
  JobOutcome o;
  // A request the child would refuse to read is the caller's error, not the child's.
  if (request.size() > impl_->opt.max_frame_bytes) {
    o.kind = JobOutcomeKind::kProtocolError;
    o.detail = absl::StrCat("request of ", request.size(), " bytes exceeds the frame cap of ",
                            impl_->opt.max_frame_bytes);
  } else {
    o.detail = "the pool shut down before the job started";
  }
  Job job{std::move(request), limits, std::move(done), impl_->clock.Now()};
  {
    std::lock_guard<std::mutex> l(impl_->mu);
    ++impl_->stats.jobs_submitted;
    if (!impl_->stopping && o.kind == JobOutcomeKind::kLost) {
      impl_->queue.push_back(std::move(job));
      impl_->Wake();
      return;
    }
    ++impl_->stats.jobs_done;
    ++(o.kind == JobOutcomeKind::kLost ? impl_->stats.lost : impl_->stats.protocol_errors);
  }
  job.done(std::move(o));
}

std::future<JobOutcome> ChildPool::Submit(std::string request, const JobLimits& limits) {
  auto promise = std::make_shared<std::promise<JobOutcome>>();
  std::future<JobOutcome> f = promise->get_future();
  Submit(std::move(request), limits, [promise](JobOutcome o) { promise->set_value(std::move(o)); });
  return f;
}

JobOutcome ChildPool::Run(std::string request, const JobLimits& limits) {
  return Submit(std::move(request), limits).get();
}

void ChildPool::Shutdown() {
  std::lock_guard<std::mutex> once(impl_->shutdown_mu);
  {
    std::lock_guard<std::mutex> l(impl_->mu);
    impl_->stopping = true;
  }
  impl_->Wake();
  if (impl_->thread.joinable()) {
    TG_CHECK(impl_->thread.get_id() != std::this_thread::get_id())
        << "ChildPool::Shutdown from a job callback";
    impl_->thread.join();
  }
}

void ChildPool::CheckDeadlines() { impl_->Wake(); }

PoolStats ChildPool::stats() const {
  std::lock_guard<std::mutex> l(impl_->mu);
  return impl_->stats;
}

std::vector<pid_t> ChildPool::ChildPids() const {
  std::lock_guard<std::mutex> l(impl_->mu);
  return impl_->pids;
}

}  // namespace tg::workers
