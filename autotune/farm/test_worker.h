// File: autotune/farm/test_worker.h
// A scripted in-process farm worker for broker tests and benchmarks: a DEALER thread that
// speaks the worker side of the farm protocol (Hello, Ready, Heartbeat, results, re-Hello after
// 5 silent coordinator intervals) and can misbehave on request: go silent (as SIGSTOP), die
// without a word (as SIGKILL) and come back under its old id, answer every job twice, forget
// its tasks, die on a poisonous candidate, or keep heartbeating while it holds every answer
// back (a worker that never answers; or, released in time, an honest slow one).
//
// Not a port: test scaffolding for autotune/farm.
#ifndef AUTOTUNE_FARM_TEST_WORKER_H_
#define AUTOTUNE_FARM_TEST_WORKER_H_

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "autotune/key/device_class.h"
#include "autotune/measure/measurer.h"
#include "autotune/net/secure_endpoint.h"
#include "autotune/net/zmq_socket.h"
#include "tinygrad/base/clock.h"

namespace tg::autotune::farm {

using MeasureFn = std::function<absl::StatusOr<MeasureBatch>(const KernelTask&, std::span<const std::vector<Opt>>,
                                                             const MeasureOptions&)>;

struct TestWorkerOptions {
  std::string endpoint;
  std::string id;
  DeviceClass device;
  int capacity = 2;
  std::chrono::milliseconds heartbeat{100};
  int dead_after = 5;
  // The clock of heartbeats and of the coordinator's silence; null: the machine's. (The
  // simulated device's delay_s is real time.)
  Clock* clock = nullptr;
  // Seconds of "device" time per candidate (slept, one job at a time).
  double delay_s = 0;
  // Default: every candidate kOk with FakeCandidateTime(opts).
  MeasureFn measure;
  // A candidate this says yes to kills the worker (it reconnects as if restarted).
  std::function<bool(const std::vector<Opt>&)> poison;
  bool duplicate_results = false;  // answer every job twice
  // Answers are held back (heartbeats go on) until SetHolding(false).
  bool hold_answers = false;
  uint32_t protocol_version = 0;   // 0: the right one
  net::SecurityOptions security;   // default: none (ipc:// in a private directory)
};

// The default fake measurement: a deterministic time from the opts, program hash = opts hash.
CandidateResult FakeCandidate(const std::vector<Opt>& opts);

class TestWorker {
 public:
  TestWorker(net::ZmqContext& ctx, TestWorkerOptions o);
  ~TestWorker();  // Stop()

  void Freeze();       // stop reading and writing (SIGSTOP); returns once the thread has stopped
  void Thaw();         // go on (SIGCONT): late results are sent, then re-Hello on silence
  void Kill();         // close the socket without Bye and stop (SIGKILL)
  void Restart();      // after Kill: a new connection under the same id, Hello again
  void ForgetTasks();  // drop the task cache (next job by digest gets "unknown task")
  // Holds answers back from now on (true), or sends those held and answers again (false).
  void SetHolding(bool hold) { holding_ = hold; }
  void Stop();         // Bye and stop

  int64_t jobs() const { return jobs_.load(); }  // answers sent
  int64_t received() const { return received_.load(); }  // jobs received
  int64_t hellos() const { return hellos_.load(); }
  int64_t byes_received() const { return byes_.load(); }
  int64_t refused_byes() const { return refused_byes_.load(); }  // Byes that said `refused`
  int64_t unknown_task_answers() const { return unknown_.load(); }
  const std::string& id() const { return o_.id; }

 private:
  void Run();
  void Start();
  net::ZmqContext& ctx_;
  TestWorkerOptions o_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> frozen_{false};
  std::atomic<bool> parked_{false};  // the thread saw frozen_ and sends nothing until thawed
  std::atomic<bool> forget_{false};
  std::atomic<bool> holding_{false};
  std::atomic<int64_t> jobs_{0}, hellos_{0}, byes_{0}, refused_byes_{0}, unknown_{0}, received_{0};
  bool killed_ = false;
};

}  // namespace tg::autotune::farm

#endif  // AUTOTUNE_FARM_TEST_WORKER_H_
