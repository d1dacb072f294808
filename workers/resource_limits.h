// File: workers/resource_limits.h
// The resource limits a worker's child puts on itself, beside the sandbox (sandbox.h) and the
// pool's wall-clock deadlines (child_pool.h): CPU time per job, and memory for its life.
//
// CPU time (RLIMIT_CPU, soft): a child serves many jobs, and the kernel counts a process's CPU
// time from its start, so a fixed limit would fill up over jobs. Before each job the child
// raises its soft limit to the CPU time it has used so far plus the job's budget
// (LimitCpuTimeFromNow). A process past its soft limit gets SIGXCPU, which kills it (the
// handler of InstallLimitHandlers says why on stderr first); the pool reports the job as
// kCpuLimit and starts a fresh child. The wall-clock deadlines stop a job that runs too long;
// the CPU limit catches what they do not see: a job burning many cores at once, and threads a
// kernel leaves spinning after its job answered (the limit stays while the child is idle). A
// kernel can raise its own soft limit again (the child must be able to, so the sandbox allows
// it); the deadlines still bound its job.
//
// Memory (RLIMIT_DATA, set once before the sandbox closes; the sandbox then kills a change):
// counts private writable mappings (heap, anonymous mmap, thread stacks; Linux >= 4.7 also
// checks mprotect making a mapping writable). Not RLIMIT_AS: that counts every reserved
// address range, and a GPU driver reserves huge ones it never backs (CUDA's unified address
// space: tens of GiB and more of inaccessible reservations), so any useful RLIMIT_AS breaks
// CUDA; ASan's shadow (terabytes of never-touched memory) likewise. RLIMIT_DATA counts
// ASan's shadow too, so the limit counts from what the process holds when it is set (a few
// MiB at a child's start, or the shadow): LimitDataFromNow. An allocation past it fails (mmap,
// brk: ENOMEM); operator new then calls the handler of InstallLimitHandlers, which exits with
// kChildExitOutOfMemory and the pool reports the job as kMemoryLimit. (Under ASan, its
// operator new reports and exits 1 without calling the handler: a crash to the pool.)
//
// Example (a child's set-up, then each job):
//   RETURN_IF_ERROR(LimitDataFromNow(4ull << 30));
//   InstallLimitHandlers();
//   ...
//   ASSIGN_OR_RETURN(double limit_s, LimitCpuTimeFromNow(job_budget_s));
#ifndef WORKERS_RESOURCE_LIMITS_H_
#define WORKERS_RESOURCE_LIMITS_H_

#include <cstdint>

#include "absl/status/statusor.h"

namespace tg::workers {

// The exit status of a child whose allocation failed under its memory limit (beside
// child_main.h's kChildExit* codes); the pool reports its job as kMemoryLimit.
inline constexpr int kChildExitOutOfMemory = 73;

// CPU time (user + system, every thread) this process has used, in seconds.
double ProcessCpuSeconds();

// Sets this process's soft RLIMIT_CPU to ProcessCpuSeconds() + budget_s, rounded up to whole
// seconds (the limit's unit) and at most the hard limit; an infinite or absurd (> 1e9 s)
// budget: no limit. Returns the limit set, in seconds (infinity: none). Errors: a budget <= 0
// or NaN (InvalidArgument), setrlimit failing (Internal).
absl::StatusOr<double> LimitCpuTimeFromNow(double budget_s);

// Private writable memory this process holds now (VmData of /proc/self/status), in bytes.
// Errors: the file cannot be read or has no VmData line.
absl::StatusOr<uint64_t> DataBytesNow();

// Sets RLIMIT_DATA (soft and hard) to DataBytesNow() + bytes: from now on the process can map
// `bytes` more private writable memory. 0: leaves the limit alone. Returns the limit set
// (0: none). Errors: DataBytesNow's, setrlimit failing.
absl::StatusOr<uint64_t> LimitDataFromNow(uint64_t bytes);

// SIGXCPU: writes "worker child <pid>: over its CPU time limit" to stderr, then dies of
// SIGXCPU. operator new failing: writes "worker child <pid>: out of memory (over its memory
// limit)" to stderr and exits with kChildExitOutOfMemory. Call after loading libraries that
// install a new-handler of their own (LLVM's aborts).
void InstallLimitHandlers();

// A child's default memory limit: the machine's RAM shared evenly by `processes` children, at
// least 1 GiB (a compiler's needs). 0 when the RAM cannot be read.
uint64_t DefaultChildMemoryLimit(int processes);

}  // namespace tg::workers

#endif  // WORKERS_RESOURCE_LIMITS_H_
