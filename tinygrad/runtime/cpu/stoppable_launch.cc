// File: tinygrad/runtime/cpu/stoppable_launch.cc
#include "tinygrad/runtime/cpu/stoppable_launch.h"

#include <setjmp.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmath>
#include <mutex>

#include "tinygrad/base/check.h"

namespace tg {
namespace {

// glibc reserves the first real-time signals for itself (SIGRTMIN accounts for that); nothing
// else in our processes uses real-time signals.
int StopSignalNumber() { return SIGRTMIN + 6; }

// What the handler needs of the thread it interrupts. Plain data, so the handler's access is a
// TLS read (our code is linked into the executable: no lazy TLS allocation).
struct ThreadSlot {
  StoppableLaunch* launch = nullptr;  // the launch this thread takes part in (launcher: until Finish)
  sigjmp_buf env;
  volatile sig_atomic_t inside = 0;   // inside the kernel: the handler may jump out
};
thread_local ThreadSlot tl_slot;

std::atomic<uint64_t> g_next_generation{1};

void* GenerationValue(uint64_t g) { return reinterpret_cast<void*>(static_cast<uintptr_t>(g)); }

}  // namespace

struct StopSignal {
  static void Handler(int, siginfo_t* info, void*) {
    ThreadSlot& t = tl_slot;
    StoppableLaunch* l = t.launch;
    if (l == nullptr || info->si_value.sival_ptr != GenerationValue(l->generation_)) return;  // stale
    if (!l->deadline_passed_.exchange(true)) Forward(*l);
    if (t.inside) {
      t.inside = 0;
      siglongjmp(t.env, 1);
    }
  }

  // Every other thread inside the launch's kernel gets the signal too (async-signal-safe calls only).
  static void Forward(const StoppableLaunch& l) {
    const pid_t pid = getpid(), self = static_cast<pid_t>(syscall(SYS_gettid));
    for (int i = 0; i < l.threads_; ++i) {
      const pid_t tid = l.tids_[i].load();
      if (tid == 0 || tid == self) continue;
      siginfo_t si{};
      si.si_signo = StopSignalNumber();
      si.si_code = SI_QUEUE;
      si.si_pid = pid;
      si.si_uid = getuid();
      si.si_value.sival_ptr = GenerationValue(l.generation_);
      syscall(SYS_rt_tgsigqueueinfo, pid, tid, si.si_signo, &si);
    }
  }

  static void Install() {
    static std::once_flag once;
    std::call_once(once, [] {
      struct sigaction sa {};
      sa.sa_sigaction = Handler;
      sa.sa_flags = SA_SIGINFO | SA_RESTART;  // a thread waiting for the others keeps waiting
      sigemptyset(&sa.sa_mask);
      TG_CHECK(sigaction(StopSignalNumber(), &sa, nullptr) == 0) << "sigaction for the kernel stop signal";
    });
  }
};

StoppableLaunch::StoppableLaunch(int threads, double stop_after_s)
    : generation_(g_next_generation.fetch_add(1)), threads_(threads) {
  TG_CHECK(threads >= 1) << "StoppableLaunch of " << threads << " threads";
  if (!(stop_after_s > 0) || !std::isfinite(stop_after_s)) return;
  tids_.reset(new std::atomic<pid_t>[threads]());
  StopSignal::Install();
  sigevent sev{};
  sev.sigev_notify = SIGEV_THREAD_ID;
  sev.sigev_signo = StopSignalNumber();
  sev.sigev_value.sival_ptr = GenerationValue(generation_);
  sev._sigev_un._tid = static_cast<pid_t>(syscall(SYS_gettid));
  // Without a timer (a resource limit) the launch runs to its end, as an unstoppable one.
  if (timer_create(CLOCK_MONOTONIC, &sev, &timer_) != 0) return;
  tl_slot.launch = this;
  itimerspec when{};
  const double whole = std::floor(stop_after_s);
  when.it_value.tv_sec = static_cast<time_t>(whole);
  when.it_value.tv_nsec = static_cast<long>((stop_after_s - whole) * 1e9);
  if (when.it_value.tv_sec == 0 && when.it_value.tv_nsec == 0) when.it_value.tv_nsec = 1;
  armed_ = true;
  if (timer_settime(timer_, 0, &when, nullptr) != 0) Finish();
}

StoppableLaunch::~StoppableLaunch() { Finish(); }

void StoppableLaunch::Call(EntryFn fn, void** bufs, const int32_t* vars, int32_t core_id) {
  if (!armed_) {
    fn(bufs, vars, core_id);
    return;
  }
  ThreadSlot& t = tl_slot;
  t.launch = this;
  tids_[core_id].store(static_cast<pid_t>(syscall(SYS_gettid)));
  if (sigsetjmp(t.env, 1) == 0) {
    t.inside = 1;
    // set inside before reading deadline_passed_: a stop either is seen here or finds us inside
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (!deadline_passed_.load())
      fn(bufs, vars, core_id);
    else
      stopped_.store(true);  // this call's share of the work is never done
    t.inside = 0;
  } else {
    stopped_.store(true);  // jumped out of the kernel
  }
  tids_[core_id].store(0);
  if (t.launch == this && core_id != 0) t.launch = nullptr;  // the launcher keeps it until Finish
}

void StoppableLaunch::Finish() {
  if (!armed_) return;
  armed_ = false;
  timer_delete(timer_);
  tl_slot.launch = nullptr;
}

}  // namespace tg
