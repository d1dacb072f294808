// File: autotune/farm/broker.h
// The farm coordinator's broker: owns the bound ROUTER socket that `tg worker` daemons connect
// to, keeps the worker registry, and routes measurement jobs to workers of the job's device
// class (the protocol is notes' farm_protocol: Hello/Ready/Heartbeat/MeasureRequest/
// MeasureResult/Bye, see autotune/codec/farm_messages.h).
//
// Not a port: tinygrad measures in-process (search.py's multiprocessing pool). The design is
// the Paranoid Pirate / Majordomo family of ZeroMQ brokers:
// - credit-based flow: a worker announces `capacity` slots (Ready{n}); the broker keeps up to
//   that many jobs in flight on it so the next job is already there when one finishes;
// - a task (the kernel AST and its buffers) is sent once per worker, later jobs carry only its
//   digest; a worker that answers "unknown task" gets the job again with the task;
// - heartbeats both ways; a worker silent for more than `dead_after` of the broker's own
//   heartbeat ticks (or unroutable for 2 of them, or saying Hello as a new incarnation =
//   restarted) is dead and its in-flight jobs are requeued to other workers; the same
//   incarnation (and key) saying Hello again only reconnected: it keeps the jobs it says it
//   holds, on their deadlines of before. A send that finds no connection to a worker waits
//   for such a reconnect rather than requeue its jobs at once;
// - exactly-once: a result is accepted only for a job in flight on exactly that worker; any
//   other (a duplicate, a late answer from a worker declared dead) is dropped and counted;
// - a deadline per job on its worker (below): past it the job is requeued and the worker keeps
//   the slot until its late answer comes (dropped, as a duplicate); a worker that misses
//   `evict_after_misses` deadlines is evicted;
// - backups (below): a job in flight much longer than its class's jobs take gets one copy on
//   an idle worker of another key; the first answer wins, the other is dropped;
// - poison quarantine: a job lost twice (its worker died or restarted holding it, or held it
//   past its deadline) is split into single-candidate jobs; a single candidate lost twice is
//   answered as Outcome::kWorkerLost with error "poison: killed 2 workers" (Outcome::kTimeout,
//   "poison: ... past its deadline", when a deadline was missed) and never sent again. A job
//   lost before is not sent to a worker it was lost with (by key, else id; a split inherits
//   its parent's) while a worker of its class it was not lost with is alive: it waits for
//   that one's free slot instead. So one hostile worker cannot make an honest candidate
//   poison while its class has another worker alive; two with different keys can, as two
//   honest workers killed by it would (and so can the only worker of a class);
// - Bye to every worker on shutdown.
// All sockets live on the broker's own thread; Submit and Status are thread-safe. Completion
// callbacks run on the broker thread and must not block.
//
// Job deadlines. A job sent to worker W at time T is due at
//   T + job_slack + JobTimeBudget(job) + sum of JobTimeBudget(j) over the jobs j it may wait
//   behind on W,
// JobTimeBudget (job_deadline.h) being the longest an honest worker, alone with the job, can
// take under the limits it enforces itself (the job's options: compile budget, runs times the
// run deadline, per candidate, plus re-running each candidate alone after a crash; and
// worker_limits). The jobs it may wait behind are those W held when it was sent and those sent
// to W while it is held: they can take the device or a child first. At most
// 2 x capacity x (candidates + 1) of the later ones count (each of its child jobs waits behind
// at most capacity - 1 others for a child and for the device), so a worker that answers every
// other job at once cannot hold one job for ever. An honest worker answers before (it kills
// what overruns and answers kTimeout), so a miss is the worker's fault, never the job's
// duration. Deadlines run on `clock` and are checked at least once per heartbeat interval.
//
// Past its deadline a job is requeued (counted in deadline_misses and requeued) and counts as
// lost with that worker for the poison rule: a candidate that hangs workers beyond their own
// limits (a GPU that never comes back) is quarantined like one that kills them. The worker
// keeps the slot (no new job in its place) until the late answer comes, which is dropped
// (dropped_results). Misses are counted per principal: the worker's CURVE key (the ZAP
// User-Id), or its id where there is none. A principal at `evict_after_misses` is evicted for
// the broker's life: each of its workers gets Bye (reason "evicted: ..."), its jobs are
// requeued, and a Hello from it (a reconnect, a restart, another id under the same key) is
// answered with Bye (evicted_hellos). These Byes, and the one to a Hello of another protocol
// version, say `refused`: a `tg worker` then stops (exit 1, naming the reason) rather than say
// Hello again. Between misses it gets jobs only when no worker of its class with fewer misses
// has a free slot. Without CURVE a new id starts clean: only keys
// make a penalty stick (so give each worker its own key, as README's farm section does).
//
// Backups. The deadline is the honest worst case (minutes), so a worker that heartbeats but
// never answers would still hold its jobs that long. As MapReduce's backup tasks do, a job
// that has been in flight on one worker longer than
//   BackupThreshold (backup_threshold.h): max(backup_floor_beats heartbeats,
//   backup_after x p90 of the per-candidate durations of its class's latest answered jobs x
//   its candidates), or before 8 answers max(that floor, candidates x (runs + 2) x timeout_s)
// gets one backup copy (a second job id) on a worker of its class, when that class has a
// free slot and nothing queued: backups use idle slots only, never one a queued job could
// take. The copy goes to the worker with the most free slots whose principal is neither the
// one holding the job (never the same key) nor one the job was lost with, and which has
// missed no deadline (a backup is optional; a copy held late would count against the job for
// the poison rule). At most one backup per job at a time (two copies in flight), and none for
// a job lost twice (the copy that runs decides, then the poison rule); the copy is an ordinary
// job on its worker (its own deadline, credit, task resend). Jobs are looked at when one may
// be due and at least once per heartbeat, not on every message.
//
// The first answer of either copy is the job's (exactly once: each part is answered once;
// backups_won counts those a backup gave). The other copy keeps its worker's slot until it
// answers (no cancel in the protocol; the worker is busy with it), and that answer is dropped
// as a speculative loss (speculative_losses, not dropped_results): not held against the
// slower worker, which may well be honest. Only its deadline still counts: a copy past it is
// a deadline miss as any other (so a silent worker is still evicted in the end), not requeued.
// A copy lost while the other one runs (its worker died, restarted, or missed the deadline)
// is not requeued: it counts as a loss with that worker for the poison rule and avoidance,
// and the other copy decides; the job is requeued (or split, or quarantined) only once no
// copy is left. Only the answering copy's duration enters its class's history, so a silent
// worker cannot stretch the threshold.
//
// A second, optional REP socket (BrokerOptions::status_endpoint) answers a "json" request
// (farm_status_json.h) with FarmStatusToJson(Status()), which `tg farm status --web` shows,
// and any other with FormatFarmStatus(Status()) as text: what `tg farm status --connect` prints.
//
// Example:
//   ASSIGN_OR_RETURN(std::unique_ptr<Broker> b, Broker::Start({.endpoint = "ipc:///run/x/farm"}));
//   FarmJob job{.device_class = dc.Digest(), .task = task, .candidates = cands, .options = o};
//   std::future<absl::StatusOr<JobResult>> f = b->Submit(std::move(job));
//   f.get()->batch.results
#ifndef AUTOTUNE_FARM_BROKER_H_
#define AUTOTUNE_FARM_BROKER_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "autotune/farm/job_deadline.h"
#include "autotune/measure/measurer.h"
#include "autotune/net/secure_endpoint.h"
#include "tinygrad/base/clock.h"
#include "tinygrad/codegen/opt/opt.h"

namespace tg::autotune::farm {

struct BrokerOptions {
  std::string endpoint;               // the ROUTER workers connect to ("tcp://*:5555", "ipc://...")
  net::SecurityOptions security;      // CURVE (+ ZAP on the same context), insecure, or ipc perms
  std::string status_endpoint;        // "": no status socket; same security as `endpoint`
  std::chrono::milliseconds heartbeat{1000};
  int dead_after = 5;                 // heartbeat ticks of silence that make a worker dead
  // The clock of heartbeats and liveness; null: the machine's. A test's FakeClock decides when
  // a silent worker is dead (the broker looks at the clock at least once per real interval).
  Clock* clock = nullptr;
  // Where the sockets live: a CURVE server's ZapHandler must run on this context. Null: the
  // broker makes its own.
  net::ZmqContext* context = nullptr;
  // Job deadlines (above): the limits the workers enforce, the slack on top of the bound (the
  // answer's way back, a busy worker's socket loop), and the misses that evict a worker.
  WorkerTimeLimits worker_limits;
  std::chrono::milliseconds job_slack{30000};
  int evict_after_misses = 3;
  // Backups (above): a job in flight longer than backup_after x its class's p90 per-candidate
  // duration x its candidates, and at least backup_floor_beats heartbeats, gets a copy on an
  // idle worker. 0: no backups.
  double backup_after = 3;
  int backup_floor_beats = 3;
};

// One batch of candidates of one kernel for one device class.
struct FarmJob {
  std::string device_class;           // DeviceClass::Digest(); only its workers get the job
  std::shared_ptr<const KernelTask> task;
  uint64_t search_id = 0;             // for the workers' logs
  std::vector<std::vector<Opt>> candidates;
  MeasureOptions options;
};

struct JobResult {
  MeasureBatch batch;                  // one result per candidate, in order
  std::vector<MeasuredBy> measured_by;  // per candidate (both fields "" for poison)
};

using JobCallback = std::function<void(absl::StatusOr<JobResult>)>;

struct WorkerStatus {
  std::string id;
  std::string host;                   // as announced in its Hello
  std::string device_class;           // digest
  std::string device;                 // DeviceClass::Describe()
  std::string build_id;
  int capacity = 0;
  int credits = 0;
  int in_flight = 0;
  double last_seen_s = 0;             // seconds since its last message
  int64_t jobs = 0;                   // results accepted
  int64_t errors = 0;                 // jobs that failed as a whole
  int64_t lost = 0;                   // jobs requeued because it died or restarted
  int64_t deadline_misses = 0;        // of its principal (key, else id): what eviction counts
  int overdue = 0;                    // jobs it holds past their deadline (requeued; its slots)
  bool unroutable = false;            // a send found its connection gone; its reconnect is awaited
};

// A worker evicted for missing deadlines (BrokerOptions::evict_after_misses).
struct EvictedWorker {
  std::string id;
  std::string host;
  std::string key;                    // its CURVE key (Z85); "" without CURVE
  int64_t deadline_misses = 0;
};

struct FarmStatus {
  std::vector<WorkerStatus> workers;  // alive ones, by id
  struct ClassQueue {
    std::string device_class;
    int workers = 0;
    int slots = 0;                    // sum of capacities
    int queued = 0;                   // jobs waiting for a worker of this class
    int in_flight = 0;
  };
  std::vector<ClassQueue> classes;    // every class with workers or queued jobs
  std::vector<EvictedWorker> evicted; // in the order they were evicted
  int64_t submitted = 0;              // FarmJobs submitted
  int64_t completed = 0;              // FarmJobs answered
  int64_t pending = 0;                // FarmJobs not answered yet
  int64_t jobs_sent = 0;              // MeasureRequests sent (resends included)
  int64_t results = 0;                // MeasureResults accepted
  int64_t dropped_results = 0;        // duplicates, late answers and results not expected from their sender
  int64_t requeued = 0;               // jobs requeued after a worker died or missed their deadline
  int64_t task_resends = 0;           // "unknown task" answers
  int64_t job_errors = 0;             // jobs that failed as a whole
  int64_t poisoned = 0;               // candidates quarantined as poison
  int64_t dead_workers = 0;           // workers declared dead
  int64_t rejected_hellos = 0;        // wrong protocol version
  int64_t revoked_messages = 0;       // from a peer whose key was revoked after its handshake
  int64_t reconnects = 0;             // Hellos of a known worker process on a new connection
  int64_t deadline_misses = 0;        // jobs a worker held past their deadline
  int64_t evicted_workers = 0;        // workers evicted for missing deadlines
  int64_t evicted_hellos = 0;         // Hellos from an evicted principal, answered with Bye
  int64_t backups_sent = 0;           // backup copies of jobs in flight sent to another worker
  int64_t backups_won = 0;            // jobs answered by their backup copy first
  int64_t speculative_losses = 0;     // answers of the copy that came second, dropped
  double broker_cpu_s = 0;            // CPU time of the broker thread so far (its overhead)
};

// Text for people (and the status socket): one line per worker and per class, then counters.
std::string FormatFarmStatus(const FarmStatus& s);

class Broker {
 public:
  // Binds and starts the broker thread. Errors: bad endpoint or security, address in use.
  static absl::StatusOr<std::unique_ptr<Broker>> Start(BrokerOptions options);
  ~Broker();  // Shutdown()
  Broker(const Broker&) = delete;
  Broker& operator=(const Broker&) = delete;

  // The bound endpoints ("tcp://0.0.0.0:41234" for "tcp://*:*").
  const std::string& endpoint() const { return endpoint_; }
  const std::string& status_endpoint() const { return status_endpoint_; }

  // Queues a job; `done` is called once, on the broker thread, with its results or the error
  // of the job as a whole (the task cannot run; kCancelled when the broker shut down first).
  void Submit(FarmJob job, JobCallback done);
  std::future<absl::StatusOr<JobResult>> Submit(FarmJob job);

  FarmStatus Status() const;
  // Job slots (capacity) of the alive workers of `device_class`.
  int Slots(const std::string& device_class) const;
  // Blocks until `n` workers of `device_class` ("" = any) are alive or `timeout` passes.
  bool WaitForWorkers(const std::string& device_class, int n, std::chrono::milliseconds timeout) const;

  // Sends Bye to every worker, answers pending jobs with kCancelled, stops the thread. Idempotent.
  void Shutdown();

  struct State;  // broker.cc

 private:
  Broker() = default;
  std::unique_ptr<State> st_;
  std::string endpoint_;
  std::string status_endpoint_;
};

}  // namespace tg::autotune::farm

#endif  // AUTOTUNE_FARM_BROKER_H_
