// File: workers/thread_priority.h
// The scheduling priority of the calling thread. A worker's child lowers and compiles
// candidates on threads below its daemon's priority and times them on a thread at it, so a
// compile never delays the daemon's heartbeats and a timed run is no noisier than before.
// Linux schedules threads, not processes: these calls change the calling thread only.
//
// Example:
//   std::thread compile([] {
//     (void)LowerThisThreadPriority(2);  // SCHED_BATCH, nice +2
//     ...
//   });
#ifndef WORKERS_THREAD_PRIORITY_H_
#define WORKERS_THREAD_PRIORITY_H_

#include "absl/status/statusor.h"

namespace tg::workers {

struct ThreadPriority {
  int policy = 0;  // SCHED_OTHER, SCHED_BATCH, ...
  int nice = 0;    // -20..19
};

// The calling thread's policy and nice value.
absl::StatusOr<ThreadPriority> CurrentThreadPriority();

// Makes the calling thread SCHED_BATCH (CPU-bound: it preempts nobody when it wakes) with
// `nice_increment` (>= 0) more nice, at most 19. Only ever lowers, so it needs no privilege;
// what it cannot undo is the point (a lowered thread cannot raise itself again without
// CAP_SYS_NICE), so call it on threads that only prepare.
absl::Status LowerThisThreadPriority(int nice_increment);

}  // namespace tg::workers

#endif  // WORKERS_THREAD_PRIORITY_H_
