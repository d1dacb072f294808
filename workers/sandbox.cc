// File: workers/sandbox.cc
// The candidate sandbox's seccomp filter (see sandbox.h for what it forbids and why).
#include "workers/sandbox.h"

#include <fcntl.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"

namespace tg::workers {
namespace {

// Syscalls that kill the process, with no condition on their arguments.
constexpr const char* kKilled[] = {
    // new processes
    "execve", "execveat", "fork", "vfork",
    // the network, new connections
    "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4",
    // other processes
    "ptrace", "process_vm_readv", "process_vm_writev", "pidfd_open", "pidfd_getfd",
    "pidfd_send_signal", "kcmp", "tkill", "process_madvise", "process_mrelease",
    // io_uring does opens and sockets the filter never sees; the kernel's other wide doors
    "io_uring_setup", "io_uring_enter", "io_uring_register", "bpf", "perf_event_open",
    "userfaultfd", "fanotify_init", "unshare", "setns", "mount", "umount2", "pivot_root",
    "chroot", "move_mount", "open_tree", "fsopen", "fsmount", "fsconfig", "fspick",
    "mount_setattr", "keyctl", "add_key", "request_key", "init_module", "finit_module",
    "delete_module", "kexec_load", "kexec_file_load", "reboot", "swapon", "swapoff", "acct",
    "quotactl", "syslog", "vhangup", "iopl", "ioperm",
    // identity, clocks, names
    "setuid", "setgid", "setreuid", "setregid", "setresuid", "setresgid", "setfsuid",
    "setfsgid", "setgroups", "capset", "settimeofday", "clock_settime", "clock_adjtime",
    "adjtimex", "sethostname", "setdomainname",
};

// Syscalls that fail with EACCES: opening a path, changing the file system.
constexpr const char* kRefused[] = {
    "open", "openat", "openat2", "creat", "open_by_handle_at", "name_to_handle_at",
    "unlink", "unlinkat", "rename", "renameat", "renameat2", "mkdir", "mkdirat", "rmdir",
    "link", "linkat", "symlink", "symlinkat", "chmod", "fchmod", "fchmodat", "chown",
    "fchown", "lchown", "fchownat", "truncate", "mknod", "mknodat", "utime", "utimes",
    "utimensat", "futimesat", "setxattr", "lsetxattr", "fsetxattr", "removexattr",
    "lremovexattr", "fremovexattr",
};

// What the SIGSYS handler reads: filled before the filter is loaded, constant after.
struct TrapNames {
  struct Entry {
    int nr;
    char name[32];
  };
  Entry entries[sizeof(kKilled) / sizeof(kKilled[0]) + 16];
  int size = 0;
  char prefix[64];  // "worker child <pid>: "
  size_t prefix_len = 0;
};
TrapNames g_trap_names;

void WriteAll(const char* s, size_t n) {
  while (n > 0) {
    ssize_t w = write(STDERR_FILENO, s, n);
    if (w <= 0) return;
    s += w;
    n -= static_cast<size_t>(w);
  }
}

// Async-signal-safe: writes the syscall's name, then dies of SIGSYS (as the kernel's own kill
// action would), so the parent sees a crash whatever the kernel code does with signals after.
void OnForbiddenSyscall(int, siginfo_t* info, void*) {
  WriteAll(g_trap_names.prefix, g_trap_names.prefix_len);
  static constexpr char kWhat[] = "sandbox: forbidden syscall ";
  WriteAll(kWhat, sizeof(kWhat) - 1);
  const char* name = nullptr;
  for (int i = 0; i < g_trap_names.size; ++i)
    if (g_trap_names.entries[i].nr == info->si_syscall) name = g_trap_names.entries[i].name;
  if (name != nullptr) {
    WriteAll(name, strlen(name));
  } else {
    char digits[16];
    int n = 0;
    for (unsigned v = static_cast<unsigned>(info->si_syscall); n == 0 || v != 0; v /= 10)
      digits[n++] = static_cast<char>('0' + v % 10);
    WriteAll("number ", 7);
    while (n > 0) WriteAll(&digits[--n], 1);
  }
  WriteAll("\n", 1);
  // SA_RESETHAND made the action the default again; SA_NODEFER left SIGSYS unblocked.
  raise(SIGSYS);
  _exit(128 + SIGSYS);  // not reached
}

class Filter {
 public:
  Filter() : ctx_(seccomp_init(SCMP_ACT_ALLOW)) {}
  ~Filter() {
    if (ctx_ != nullptr) seccomp_release(ctx_);
  }
  Filter(const Filter&) = delete;
  Filter& operator=(const Filter&) = delete;
  scmp_filter_ctx get() const { return ctx_; }

  // A rule for `name` on this architecture (none where it has no such syscall).
  absl::Status Add(uint32_t action, const char* name, std::initializer_list<scmp_arg_cmp> args = {}) {
    const int nr = seccomp_syscall_resolve_name(name);
    if (nr == __NR_SCMP_ERROR) return absl::OkStatus();
    const int rc = seccomp_rule_add_array(ctx_, action, nr, static_cast<unsigned>(args.size()), args.begin());
    if (rc != 0) return absl::InternalError(absl::StrCat("sandbox: seccomp rule for ", name, ": ", strerror(-rc)));
    if (action == SCMP_ACT_TRAP) Remember(nr, name);
    return absl::OkStatus();
  }

 private:
  static void Remember(int nr, const char* name) {
    constexpr int kCapacity = sizeof(g_trap_names.entries) / sizeof(g_trap_names.entries[0]);
    for (int i = 0; i < g_trap_names.size; ++i)
      if (g_trap_names.entries[i].nr == nr) return;
    if (g_trap_names.size == kCapacity) return;
    TrapNames::Entry& e = g_trap_names.entries[g_trap_names.size++];
    e.nr = nr;
    std::strncpy(e.name, name, sizeof(e.name) - 1);
    e.name[sizeof(e.name) - 1] = '\0';
  }

  scmp_filter_ctx ctx_;
};

absl::Status BuildRules(Filter& f, pid_t self) {
  const uint32_t kill = SCMP_ACT_TRAP;  // the handler names the syscall, then dies of SIGSYS
  const uint32_t refuse = SCMP_ACT_ERRNO(EACCES);
  const auto me = static_cast<scmp_datum_t>(self);
  for (const char* name : kKilled) RETURN_IF_ERROR(f.Add(kill, name));
  for (const char* name : kRefused) RETURN_IF_ERROR(f.Add(refuse, name));
  // A new thread shares this process (and this filter); anything else is a new process.
  RETURN_IF_ERROR(f.Add(kill, "clone", {SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0)}));
  // clone3's flags are behind a pointer: ENOSYS makes glibc fall back to clone.
  RETURN_IF_ERROR(f.Add(SCMP_ACT_ERRNO(ENOSYS), "clone3"));
  // Signals and limits for itself only (raise and abort use tgkill on their own process;
  // glibc's getrlimit/setrlimit are prlimit64 of pid 0).
  RETURN_IF_ERROR(f.Add(kill, "kill", {SCMP_A0(SCMP_CMP_NE, me)}));
  RETURN_IF_ERROR(f.Add(kill, "tgkill", {SCMP_A0(SCMP_CMP_NE, me)}));
  RETURN_IF_ERROR(f.Add(kill, "rt_sigqueueinfo", {SCMP_A0(SCMP_CMP_NE, me)}));
  RETURN_IF_ERROR(f.Add(kill, "rt_tgsigqueueinfo", {SCMP_A0(SCMP_CMP_NE, me)}));
  RETURN_IF_ERROR(f.Add(kill, "prlimit64", {SCMP_A0(SCMP_CMP_NE, 0)}));
  // The memory limit (resource_limits.h) was set before, for good: a new one kills. The CPU
  // time limit stays the child's own to raise before each job. The resource is 32 bits to the
  // kernel: the mask keeps high garbage from slipping past the compare.
  const auto data = static_cast<scmp_datum_t>(RLIMIT_DATA);
  RETURN_IF_ERROR(f.Add(kill, "setrlimit", {SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, data)}));
  RETURN_IF_ERROR(
      f.Add(kill, "prlimit64", {SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, data), SCMP_A2(SCMP_CMP_NE, 0)}));
  RETURN_IF_ERROR(f.Add(kill, "migrate_pages", {SCMP_A0(SCMP_CMP_NE, 0)}));
  RETURN_IF_ERROR(f.Add(kill, "move_pages", {SCMP_A0(SCMP_CMP_NE, 0)}));
  // Scheduling for the calling thread only, named as 0 (a child lowers its compile threads so:
  // workers/thread_priority.h). Another process's, or every process of the user's
  // (setpriority PRIO_USER), would let a kernel starve the worker daemon's heartbeats: refused,
  // not killed, as a library asking for a priority it may not have is refused anyway.
  const uint32_t not_permitted = SCMP_ACT_ERRNO(EPERM);
  RETURN_IF_ERROR(f.Add(not_permitted, "setpriority", {SCMP_A0(SCMP_CMP_NE, PRIO_PROCESS)}));
  RETURN_IF_ERROR(f.Add(not_permitted, "setpriority", {SCMP_A1(SCMP_CMP_NE, 0)}));
  for (const char* name : {"sched_setscheduler", "sched_setparam", "sched_setattr"})
    RETURN_IF_ERROR(f.Add(not_permitted, name, {SCMP_A0(SCMP_CMP_NE, 0)}));
  // Typing into a terminal the worker was started from. The kernel reads the command as 32
  // bits: the mask keeps high garbage from slipping past the compare.
  for (unsigned long cmd : {static_cast<unsigned long>(TIOCSTI), static_cast<unsigned long>(TIOCLINUX)})
    RETURN_IF_ERROR(f.Add(kill, "ioctl", {SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, cmd)}));
  return absl::OkStatus();
}

}  // namespace

absl::Status SandboxSupported() { return SandboxSupportedAt(static_cast<int>(seccomp_api_get())); }

absl::Status SandboxSupportedAt(int level) {
  if (level >= 3) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(
      "the candidate sandbox needs seccomp filters that apply to every thread (Linux 4.14 or "
      "later, built with CONFIG_SECCOMP_FILTER); this kernel offers libseccomp API level ",
      level, " of the 3 needed"));
}

absl::Status EnterSandbox() {
  RETURN_IF_ERROR(SandboxSupported());
  const pid_t self = getpid();
  Filter f;
  if (f.get() == nullptr) return absl::InternalError("sandbox: seccomp_init failed");
  // Threads that already run (compile pools, a GPU driver's) get the filter too; an
  // instruction of another architecture's syscall ABI (int 0x80 on x86-64) kills.
  if (int rc = seccomp_attr_set(f.get(), SCMP_FLTATR_CTL_TSYNC, 1); rc != 0)
    return absl::InternalError(absl::StrCat("sandbox: thread sync: ", strerror(-rc)));
  if (int rc = seccomp_attr_set(f.get(), SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS); rc != 0)
    return absl::InternalError(absl::StrCat("sandbox: bad-architecture action: ", strerror(-rc)));
  std::string prefix = absl::StrCat("worker child ", self, ": ");
  prefix.resize(std::min(prefix.size(), sizeof(g_trap_names.prefix)));
  std::memcpy(g_trap_names.prefix, prefix.data(), prefix.size());
  g_trap_names.prefix_len = prefix.size();
  RETURN_IF_ERROR(BuildRules(f, self));
  struct sigaction sa = {};
  sa.sa_sigaction = OnForbiddenSyscall;
  sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGSYS, &sa, nullptr) != 0)
    return absl::InternalError(absl::StrCat("sandbox: SIGSYS handler: ", strerror(errno)));
  // seccomp_load sets no_new_privs first (the default SCMP_FLTATR_CTL_NNP).
  if (int rc = seccomp_load(f.get()); rc != 0)
    return absl::InternalError(absl::StrCat("sandbox: loading the seccomp filter: ", strerror(-rc)));
  return absl::OkStatus();
}

}  // namespace tg::workers
