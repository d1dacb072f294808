// File: workers/child_main.h
// The child side of the worker's process isolation: a loop that reads jobs from the parent
// (a ChildPool), runs a handler on each, and sends the response back. A candidate kernel runs
// inside this process, so when it crashes or hangs only the child dies.
//
// The handler lowers and compiles freely (children do that in parallel), and brackets its
// device work with DeviceGate::Acquire()/Release(): the parent grants the device to one child
// at a time, and its run deadline counts from the grant (and again from each Progress()).
// Returning the response while holding the device releases it.
//
// Example (a child binary's main):
//   int main() {
//     return tg::workers::RunChildLoop([](std::string_view request, DeviceGate& gate) {
//       Prepared p = Compile(request);      // in parallel with other children
//       gate.Acquire();                     // waits for the device
//       std::string timings = Time(p);      // alone on the device
//       gate.Release();
//       return timings;
//     });
//   }
#ifndef WORKERS_CHILD_MAIN_H_
#define WORKERS_CHILD_MAIN_H_

#include <cstddef>
#include <functional>
#include <limits>
#include <string>
#include <string_view>

#include "workers/frame.h"

namespace tg::workers {

// Exit codes of RunChildLoop (besides 0: the parent closed the connection).
inline constexpr int kChildExitProtocol = 70;    // the parent sent something unexpected
inline constexpr int kChildExitParentGone = 71;  // the connection to the parent broke
inline constexpr int kChildExitRetired = 72;     // the handler retired the process (Retire)

class DeviceGate;
using Handler = std::function<std::string(std::string_view request, DeviceGate& gate)>;

struct ChildLoopOptions {
  size_t max_frame_bytes = kDefaultMaxFrameBytes;  // largest job accepted
  int fd = kChildFd;  // the connection to the parent
  // Runs once, after the process set-up and before the child says it is ready: where a child
  // prepares what its jobs need and closes its sandbox (workers/sandbox.h) behind it. Its
  // outcome is the handler's business (a child that could not set up answers every job with
  // the error rather than exiting, which would only make the pool start it again).
  std::function<void()> on_start;
};

// The device handshake of the job being run. Only valid inside the handler call.
class DeviceGate {
 public:
  DeviceGate(int fd, size_t max_frame) : fd_(fd), max_(max_frame) {}
  DeviceGate(const DeviceGate&) = delete;
  DeviceGate& operator=(const DeviceGate&) = delete;

  // Blocks until the parent grants the device. Acquire while holding is a bug (TG_CHECK).
  void Acquire();
  // Gives the device back; a no-op when not held.
  void Release();
  // While holding: a run starts. The parent's run deadline counts from here again, so it
  // bounds each run rather than the whole hold; `limit_s` (when finite), the time at which the
  // child stops this run itself, tightens it (JobLimits). A no-op when not held.
  void Progress(double limit_s = std::numeric_limits<double>::infinity());
  bool held() const { return held_; }
  // Before the device phase: hands `request` to the daemon's relay (ChildPoolOptions::relay;
  // a sandboxed child has no sockets of its own) and waits for its answer, "" for none.
  std::string AskRelay(std::string_view request);
  // This process can serve no more jobs (a GPU kernel faulted and poisoned the context every
  // later job would need): once the response of this job is sent, the loop ends with
  // kChildExitRetired, and the pool starts a fresh child in its place.
  void Retire() { retire_ = true; }

 private:
  friend int RunChildLoop(const Handler& handler, const ChildLoopOptions& options);
  int fd_;
  size_t max_;
  bool held_ = false;
  bool retire_ = false;
};

// Holds the device for a scope.
class ScopedDevice {
 public:
  explicit ScopedDevice(DeviceGate& gate) : gate_(gate) { gate_.Acquire(); }
  ~ScopedDevice() { gate_.Release(); }
  ScopedDevice(const ScopedDevice&) = delete;
  ScopedDevice& operator=(const ScopedDevice&) = delete;

 private:
  DeviceGate& gate_;
};

// Sets the child up (dies with its parent: PR_SET_PDEATHSIG=SIGKILL; no core dumps; first in
// line for the OOM killer; its socket closes on exec, so compilers it starts do not hold it),
// runs options.on_start, says kReady, then serves jobs until EOF. Returns the process exit code (0 at EOF,
// kChildExitRetired after the response of a job whose handler called Retire); a broken
// connection inside the handler's DeviceGate calls exits with kChildExitParentGone.
int RunChildLoop(const Handler& handler, const ChildLoopOptions& options = {});

}  // namespace tg::workers

#endif  // WORKERS_CHILD_MAIN_H_
