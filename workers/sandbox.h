// File: workers/sandbox.h
// The candidate sandbox: a seccomp filter (libseccomp) that a worker's child process installs
// on itself once it has set up what it needs (its device, its compilers, a first kernel run),
// after which the process, every thread of it, can compute and talk to its parent over the
// connection it holds, and little else. A candidate kernel runs inside it, so a kernel that
// misbehaves (or a hostile job that got past the codec's checks) cannot reach further.
//
// Killed on the spot (SIGSYS: the process dies, with "sandbox: forbidden syscall <name>" on
// stderr unless the thread had SIGSYS blocked, and its pool reports the crash):
//   - new processes: execve, execveat, fork, vfork, clone without CLONE_THREAD. Threads stay
//     allowed (the compile and run thread pools). clone3 fails with ENOSYS instead: its flags
//     sit behind a pointer a filter cannot read, and glibc then makes threads with clone;
//   - the network: socket, socketpair, connect, bind, listen, accept, accept4 (the inherited
//     connection to the parent keeps working);
//   - other processes: ptrace, process_vm_readv/writev, pidfd_*, kcmp, tkill, and kill,
//     tgkill, rt_(tg)sigqueueinfo and prlimit64 aimed at another process;
//   - a new memory limit (setrlimit or prlimit64 of RLIMIT_DATA: the child set its own before,
//     resource_limits.h); other limits of its own, the CPU time's included, stay allowed;
//   - the kernel's wider doors: io_uring (it opens files and sockets past the filter), bpf,
//     perf_event_open, userfaultfd, namespaces and mounts, keys, modules, reboot, changing
//     identity (setuid, capset, ...), clocks, ioctl TIOCSTI (typing into a terminal).
// Refused with EACCES (the call fails, nothing dies: a library that tries degrades):
//   - opening any path (open, openat, openat2, creat, open_by_handle_at), and changing the
//     file system (unlink, rename, mkdir, chmod, truncate, xattrs, ...). So a kernel can
//     neither read the worker's keys (or /proc/<parent>/mem) nor leave files behind, such as a
//     poisoned entry in a compile cache that other processes load.
// Refused with EPERM: scheduling other than the calling thread's own, named as 0
//   (setpriority other than PRIO_PROCESS 0, sched_setscheduler/setparam/setattr of a pid), so
//   a kernel cannot renice or deschedule the worker daemon (its heartbeats) or the user's
//   other processes. A child lowering its own compile threads (workers/thread_priority.h)
//   does so as 0.
// Everything else is allowed: memory and executable mappings (loading a compiled kernel),
// threads, futexes, reading and writing the fds the process holds, clocks, signals to itself.
// It is a list of what to forbid rather than of what to allow because the libraries that run
// inside (libclang, libLLVM, a GPU driver) use syscalls that change with their versions.
//
// Example (a child, after its set-up):
//   RETURN_IF_ERROR(EnterSandbox());    // from here on, for good
#ifndef WORKERS_SANDBOX_H_
#define WORKERS_SANDBOX_H_

#include "absl/status/status.h"

namespace tg::workers {

// OK when this kernel can run the sandbox (seccomp filters with the trap and kill actions,
// Linux 4.14 or later built with CONFIG_SECCOMP_FILTER); otherwise FailedPrecondition saying
// what is missing. Installs nothing.
absl::Status SandboxSupported();
// What SandboxSupported says of a kernel at libseccomp's API level `level` (seccomp_api_get():
// 0 no filters at all, 1 filters, 2 for every thread, 3 the kill-process action).
absl::Status SandboxSupportedAt(int level);

// Installs the sandbox on this process, every thread of it (those running now too), for the
// rest of its life; sets no_new_privs and a SIGSYS handler that names the forbidden syscall.
// Errors: FailedPrecondition when the kernel cannot (SandboxSupported), Internal when the
// filter cannot be built.
absl::Status EnterSandbox();

}  // namespace tg::workers

#endif  // WORKERS_SANDBOX_H_
