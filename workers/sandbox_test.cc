// File: workers/sandbox_test.cc
// The candidate sandbox, each case in a forked child (gtest death tests: a filter cannot be
// taken off again): what it kills, what it refuses, and that computing still works.
#include "workers/sandbox.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tinygrad/runtime/cuda/library_search.h"
#include "tinygrad/runtime/cuda/nvrtc_api.h"
#include "tinygrad/runtime/cuda/nvrtc_compiler.h"
#include "workers/thread_priority.h"

extern char** environ;

namespace tg::workers {
namespace {

// In the death test's child: the sandbox, or exit 99 (which no test expects).
void Enter() {
  if (!EnterSandbox().ok()) _exit(99);
}

void SpawnTrue() {
  pid_t pid;
  char* argv[] = {const_cast<char*>("true"), nullptr};
  posix_spawn(&pid, "/bin/true", nullptr, nullptr, argv, environ);
}

void LimitParent() {
  rlimit r{0, 0};
  prlimit(getppid(), RLIMIT_NOFILE, &r, nullptr);
}

// What measuring a candidate does, all of which must work in the sandbox.
bool Compute(const int pair[2]) {
  bool ok = true;
  std::atomic<int> sum{0};
  std::vector<std::thread> threads;
  for (int i = 1; i <= 4; ++i) threads.emplace_back([&sum, i] { sum += i; });
  for (std::thread& t : threads) t.join();
  ok = ok && sum == 10;
  std::vector<char> big(64 << 20, 1);
  ok = ok && big.back() == 1;
  void* page = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ok = ok && page != MAP_FAILED && mprotect(page, 4096, PROT_READ | PROT_EXEC) == 0;
  const int mem = memfd_create("kernel", MFD_CLOEXEC);
  ok = ok && mem >= 0 && write(mem, "abc", 3) == 3;
  ok = ok && mmap(nullptr, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, mem, 0) != MAP_FAILED;
  ok = ok && write(pair[0], "x", 1) == 1;
  char c = 0;
  ok = ok && read(pair[1], &c, 1) == 1 && c == 'x';
  signal(SIGUSR1, SIG_IGN);
  ok = ok && raise(SIGUSR1) == 0 && kill(getpid(), SIGUSR1) == 0;
  rlimit r{0, 0};
  ok = ok && setrlimit(RLIMIT_CORE, &r) == 0 && getrlimit(RLIMIT_STACK, &r) == 0;
  return ok;
}

class SandboxTest : public ::testing::Test {
 protected:
  void SetUp() override {
    GTEST_FLAG_SET(death_test_style, "threadsafe");  // a fresh process per case
    if (absl::Status s = SandboxSupported(); !s.ok()) GTEST_SKIP() << s;
  }
};

using ::testing::ExitedWithCode;
using ::testing::KilledBySignal;

TEST_F(SandboxTest, ExecIsKilledAndNamed) {
  EXPECT_EXIT(
      {
        Enter();
        execl("/bin/true", "true", static_cast<char*>(nullptr));
        _exit(0);
      },
      KilledBySignal(SIGSYS), "worker child [0-9]+: sandbox: forbidden syscall execve\n");
}

TEST_F(SandboxTest, NewProcessesAreKilled) {
  EXPECT_EXIT(
      {
        Enter();
        if (fork() == 0) _exit(0);
        _exit(0);
      },
      KilledBySignal(SIGSYS), "sandbox: forbidden syscall clone");
  // posix_spawn tries clone3 (ENOSYS here), then clone with CLONE_VM|CLONE_VFORK, with every
  // signal blocked: the kernel then kills without running the handler, so nothing is named.
  EXPECT_EXIT(
      {
        Enter();
        SpawnTrue();
        _exit(0);
      },
      KilledBySignal(SIGSYS), "");
}

TEST_F(SandboxTest, NetworkIsKilled) {
  EXPECT_EXIT(
      {
        Enter();
        socket(AF_INET, SOCK_STREAM, 0);
        _exit(0);
      },
      KilledBySignal(SIGSYS), "sandbox: forbidden syscall socket");
  EXPECT_EXIT(
      {
        Enter();
        socket(AF_UNIX, SOCK_STREAM, 0);
        _exit(0);
      },
      KilledBySignal(SIGSYS), "sandbox: forbidden syscall socket");
}

TEST_F(SandboxTest, OtherProcessesAreOutOfReach) {
  EXPECT_EXIT(
      {
        Enter();
        ptrace(PTRACE_ATTACH, getppid(), nullptr, nullptr);
        _exit(0);
      },
      KilledBySignal(SIGSYS), "sandbox: forbidden syscall ptrace");
  EXPECT_EXIT(
      {
        Enter();
        kill(getppid(), 0);
        _exit(0);
      },
      KilledBySignal(SIGSYS), "sandbox: forbidden syscall kill");
  EXPECT_EXIT(
      {
        Enter();
        kill(-1, SIGKILL);  // every process of this user
        _exit(0);
      },
      KilledBySignal(SIGSYS), "sandbox: forbidden syscall kill");
  EXPECT_EXIT(
      {
        Enter();
        LimitParent();
        _exit(0);
      },
      KilledBySignal(SIGSYS), "sandbox: forbidden syscall prlimit64");
}

// The memory limit stays as the child set it before (resource_limits.h); its CPU time limit
// it raises itself before each job, in the sandbox.
void RaiseDataLimit() {
  const rlimit r = {.rlim_cur = RLIM_INFINITY, .rlim_max = RLIM_INFINITY};
  setrlimit(RLIMIT_DATA, &r);
}

bool ReadLimitsAndRaiseCpuLimit() {
  rlimit r{};
  const bool read = getrlimit(RLIMIT_DATA, &r) == 0 && prlimit(0, RLIMIT_DATA, nullptr, &r) == 0;
  getrlimit(RLIMIT_CPU, &r);
  const rlimit cpu = {.rlim_cur = std::min<rlim_t>(1000000, r.rlim_max), .rlim_max = r.rlim_max};
  return read && setrlimit(RLIMIT_CPU, &cpu) == 0;
}

TEST_F(SandboxTest, TheMemoryLimitIsFixedAndTheCpuLimitTheChildsOwn) {
  EXPECT_EXIT(
      {
        Enter();
        RaiseDataLimit();
        _exit(0);
      },
      KilledBySignal(SIGSYS), "sandbox: forbidden syscall prlimit64");
  EXPECT_EXIT(
      {
        Enter();
        _exit(ReadLimitsAndRaiseCpuLimit() ? 0 : 1);
      },
      ExitedWithCode(0), "");
}

// A thread may lower its own priority (the child's compile threads do), nobody else's: the
// daemon's heartbeats cannot be starved from inside.
TEST_F(SandboxTest, SchedulingIsForTheCallingThreadOnly) {
  EXPECT_EXIT(
      {
        Enter();
        auto refused = [](int rc) { return rc == -1 && errno == EPERM; };
        sched_param idle{};
        bool ok = refused(setpriority(PRIO_PROCESS, getppid(), 19));
        ok = ok && refused(setpriority(PRIO_USER, 0, 19));  // every process of this user
        ok = ok && refused(setpriority(PRIO_PGRP, 0, 19));
        ok = ok && refused(setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 19));
        ok = ok && refused(sched_setscheduler(getppid(), SCHED_IDLE, &idle));
        ok = ok && refused(sched_setparam(getppid(), &idle));
        // its own, as 0: allowed (what LowerThisThreadPriority does)
        ok = ok && LowerThisThreadPriority(1).ok();
        ok = ok && sched_getscheduler(0) == SCHED_BATCH;
        _exit(ok ? 0 : 1);
      },
      ExitedWithCode(0), "");
}

// The kernel code's own SIGSYS handler cannot keep the call from being refused: the syscall
// never runs, whatever the handler does after.
TEST_F(SandboxTest, ReplacingTheHandlerDoesNotLetTheCallThrough) {
  EXPECT_EXIT(
      {
        Enter();
        signal(SIGSYS, SIG_IGN);  // ignored: the kernel forces the default, death
        const int fd = socket(AF_INET, SOCK_STREAM, 0);
        _exit(fd >= 0 ? 3 : 4);
      },
      KilledBySignal(SIGSYS), "");
}

TEST_F(SandboxTest, PathsAreRefused) {
  const std::string dir = ::testing::TempDir();
  const std::string existing = dir + "/sandbox_existing";
  close(open(existing.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600));
  EXPECT_EXIT(
      {
        Enter();
        auto refused = [](int rc) { return rc == -1 && errno == EACCES; };
        const std::string fresh = ::testing::TempDir() + "/sandbox_fresh";
        bool ok = refused(open("/etc/passwd", O_RDONLY));
        ok = ok && refused(open(existing.c_str(), O_RDONLY));
        ok = ok && refused(open(fresh.c_str(), O_WRONLY | O_CREAT, 0600));
        ok = ok && refused(openat(AT_FDCWD, "/proc/self/status", O_RDONLY));
        ok = ok && refused(unlink(existing.c_str()));
        ok = ok && refused(rename(existing.c_str(), fresh.c_str()));
        ok = ok && refused(mkdir(fresh.c_str(), 0700));
        ok = ok && refused(chmod(existing.c_str(), 0777));
        ok = ok && refused(truncate(existing.c_str(), 0));
        ok = ok && refused(symlink(existing.c_str(), fresh.c_str()));
        ok = ok && fopen("/proc/self/maps", "r") == nullptr;
        _exit(ok ? 0 : 1);
      },
      ExitedWithCode(0), "");
  struct stat st;
  EXPECT_EQ(stat(existing.c_str(), &st), 0) << "the refused unlink removed it";
}

// What measuring a candidate needs keeps working: threads, memory, executable mappings,
// in-memory files, the connection to the parent, signals to itself, its own limits.
TEST_F(SandboxTest, ComputingStillWorks) {
  int pair[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, pair), 0);
  EXPECT_EXIT(
      {
        Enter();
        _exit(Compute(pair) ? 0 : 1);
      },
      ExitedWithCode(0), "");
  close(pair[0]);
  close(pair[1]);
}

// A CUDA candidate compiles in the sandbox, half/bfloat16/fp8 kernels too, whose headers NVRTC
// gets from memory (nvrtc_headers.h; with -I alone it failed to open cuda_fp16.h in here); on two
// threads at once, each on an instance of NVRTC of its own (NvrtcCompiler::ReserveInstances:
// private copies of the library, made before the sandbox closes, as a worker child's measurer does).
TEST_F(SandboxTest, NvrtcCompilesKernelsThatIncludeCudaHeaders) {
  const CudaLibraryOptions libs = CudaLibraryOptions::FromEnvironment();
  absl::StatusOr<std::shared_ptr<const NvrtcApi>> api = NvrtcApi::Load(libs);
  if (!api.ok()) GTEST_SKIP() << "NVRTC is not available here: " << api.status();
  if (CudaIncludeDirs(libs).empty()) GTEST_SKIP() << "no CUDA include dir found (set CUDA_PATH)";
  EXPECT_EXIT(
      {
        absl::StatusOr<std::unique_ptr<NvrtcCompiler>> compiler = NvrtcCompiler::Create(
            *api, {.arch = "sm_90", .include_dirs = CudaIncludeDirs(libs), .cachelevel = 0});
        if (!compiler.ok()) _exit(98);
        // the worker child's warm-up: a first compile loads NVRTC's built-ins library
        if (!(*compiler)->Compile("extern \"C\" __global__ void w() {}").ok()) _exit(97);
        if (absl::Status s = (*compiler)->ReserveInstances(2, testing::TempDir()); !s.ok()) {
          std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
          _exit(96);
        }
        Enter();
        std::atomic<int> failed{0};
        auto compile = [&] {
          for (int i = 0; i < 2; ++i) {
            absl::StatusOr<std::string> ptx = (*compiler)->CompileUncached(
                "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n#include <cuda_fp8.h>\n"
                "extern \"C\" __global__ void k(half* a, __nv_bfloat16* b) { a[0] = a[1]; b[0] = b[1]; }\n");
            if (!ptx.ok()) {
              std::fprintf(stderr, "%s\n", std::string(ptx.status().message()).c_str());
              failed++;
            }
          }
        };
        std::thread other(compile);
        compile();
        other.join();
        _exit(failed == 0 ? 0 : 1);
      },
      ExitedWithCode(0), "");
}

// Every thread is filtered, the ones started before the sandbox too; one thread's forbidden
// call takes the whole process.
TEST_F(SandboxTest, ThreadsThatAlreadyRanAreFilteredToo) {
  EXPECT_EXIT(
      {
        std::atomic<bool> go{false};
        std::thread early([&go] {
          while (!go.load()) usleep(1000);
          socket(AF_INET, SOCK_DGRAM, 0);
        });
        Enter();
        go = true;
        early.join();
        _exit(0);
      },
      KilledBySignal(SIGSYS), "sandbox: forbidden syscall socket");
}

TEST(SandboxSupportTest, SaysWhatTheKernelLacks) {
  EXPECT_TRUE(SandboxSupportedAt(3).ok());
  EXPECT_TRUE(SandboxSupportedAt(6).ok());
  for (int level : {0, 1, 2}) {
    absl::Status s = SandboxSupportedAt(level);
    EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
    EXPECT_TRUE(absl::StrContains(s.message(), "CONFIG_SECCOMP_FILTER")) << s;
    EXPECT_TRUE(absl::StrContains(s.message(), absl::StrCat("API level ", level))) << s;
  }
}

}  // namespace
}  // namespace tg::workers
