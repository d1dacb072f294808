// File: workers/test_child.cc
// A child program for ChildPool tests and benchmarks: each request names a behavior, good or
// bad, that a candidate kernel might show.
//
// Run with `--never-ready` it never sends its ready frame (it waits to be killed).
//
// Requests ("name[:arg][@device]"; "@device" does the bad thing while holding the device):
//   echo:TEXT     responds TEXT (no device)
//   relay:TEXT    asks the pool's relay with TEXT (DeviceGate::AskRelay); responds its answer
//                 in brackets, "[...]"
//   relay2:TEXT   asks the relay twice without waiting (a protocol error), then sleeps
//   retire:TEXT   responds TEXT, then retires (DeviceGate::Retire: exits after the response)
//   pid           responds the child's pid
//   big:N         responds N bytes of 'x'
//   prep:MS       sleeps MS ms before a short device hold; responds "t0 t1" (the sleep, in ns
//                 of CLOCK_MONOTONIC, which all processes share)
//   run:MS        holds the device MS ms; responds "t0 t1" (the hold)
//   twice:MS      holds the device twice, then works MS ms after the release
//   steps:MS      holds the device for 4 runs of MS ms, reporting the start of each
//   paced:DIR     holds the device for 4 runs, reporting the start of each; run k ends when
//                 the file DIR/k exists (a test on a scripted clock moves it, then says go on)
//   limit:MS      holds the device for a run it says stops at 10 ms, and runs MS ms
//   bad_progress  holds the device and reports a run with a malformed limit, then sleeps
//   segv, abort, fpe, exit:CODE, loop   crash / exit / spin forever (in prepare, or @device)
//   cpu:S         spins forever under a CPU time limit of S s from now (resource_limits.h)
//   garbage       writes junk to the protocol socket, then sleeps
//   huge          writes a frame header claiming 2 GiB, then sleeps
//   bad_order     sends device_done without holding the device, then sleeps
//   close         closes the protocol socket, then sleeps
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "workers/child_main.h"
#include "workers/frame.h"
#include "workers/resource_limits.h"

// Under a sanitizer the crashes must stay real signals (ASan and TSan would turn SIGSEGV and
// SIGFPE into their report and an exit status), since the pool reports the signal.
#if defined(__SANITIZE_ADDRESS__)
extern "C" const char* __asan_default_options() {
  return "handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0:handle_abort=0";
}
#endif
#if defined(__SANITIZE_THREAD__)
extern "C" const char* __tsan_default_options() {
  return "handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0:handle_abort=0";
}
#endif

namespace {

using tg::workers::DeviceGate;

int64_t NowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec;
}

void SleepMs(int64_t ms) { usleep(static_cast<useconds_t>(ms * 1000)); }

[[noreturn]] void SleepForever() {
  while (true) pause();
}

// The compiler must not see through these: each is a real fault at run time (and not one
// UBSan reports and exits on: the tests want the signal).
[[noreturn]] __attribute__((no_sanitize("undefined"))) void Misbehave(std::string_view what, int64_t arg) {
  if (what == "segv") {
    volatile int* volatile p = nullptr;
    *p = 1;
  } else if (what == "abort") {
    std::abort();
  } else if (what == "fpe") {
    volatile int one = 1, zero = 0;
    volatile int q = one / zero;
    (void)q;
  } else if (what == "exit") {
    std::exit(static_cast<int>(arg));
  } else if (what == "loop") {
    volatile uint64_t spins = 0;
    while (true) spins = spins + 1;
  }
  std::abort();  // unknown behavior, or a fault that did not fault
}

std::string Handle(std::string_view request, DeviceGate& gate) {
  bool on_device = false;
  if (request.size() > 7 && request.substr(request.size() - 7) == "@device") {
    on_device = true;
    request.remove_suffix(7);
  }
  std::string_view name = request, arg;
  if (size_t c = request.find(':'); c != std::string_view::npos) {
    name = request.substr(0, c);
    arg = request.substr(c + 1);
  }
  int64_t n = 0;
  if (!arg.empty() && !absl::SimpleAtoi(std::string(arg), &n)) n = 0;

  if (name == "echo") return std::string(arg);
  if (name == "relay") return absl::StrCat("[", gate.AskRelay(arg), "]");
  if (name == "relay2") {
    tg::workers::WriteFrame(tg::workers::kChildFd, tg::workers::FrameType::kRelay, arg).IgnoreError();
    tg::workers::WriteFrame(tg::workers::kChildFd, tg::workers::FrameType::kRelay, arg).IgnoreError();
    for (;;) pause();
  }
  if (name == "retire") {
    gate.Retire();
    return std::string(arg);
  }
  if (name == "pid") return absl::StrCat(getpid());
  if (name == "big") return std::string(static_cast<size_t>(n), 'x');
  if (name == "prep") {
    int64_t t0 = NowNs();
    SleepMs(n);
    int64_t t1 = NowNs();
    gate.Acquire();
    gate.Release();
    return absl::StrCat(t0, " ", t1);
  }
  if (name == "twice") {  // two device holds, MS ms of work after the last
    gate.Acquire();
    gate.Release();
    gate.Acquire();
    gate.Release();
    SleepMs(n);
    return "twice";
  }
  if (name == "steps") {  // one device hold of 4 runs of MS ms, reporting the start of each
    tg::workers::ScopedDevice device(gate);
    for (int i = 0; i < 4; ++i) {
      gate.Progress();
      SleepMs(n);
    }
    return "steps";
  }
  if (name == "paced") {
    tg::workers::ScopedDevice device(gate);
    for (int i = 1; i <= 4; ++i) {
      gate.Progress();
      const std::string go = std::string(arg) + "/" + std::to_string(i);
      while (access(go.c_str(), F_OK) != 0) SleepMs(1);
    }
    return "paced";
  }
  if (name == "limit") {  // a run that should have stopped at 10 ms
    tg::workers::ScopedDevice device(gate);
    gate.Progress(0.01);
    SleepMs(n);
    return "limit";
  }
  if (name == "bad_progress") {
    gate.Acquire();
    std::string f = tg::workers::EncodeFrame(tg::workers::FrameType::kProgress, "3 bytes");
    (void)!write(tg::workers::kChildFd, f.data(), f.size());
    SleepForever();
  }
  if (name == "run") {
    tg::workers::ScopedDevice device(gate);
    int64_t t0 = NowNs();
    SleepMs(n);
    int64_t t1 = NowNs();
    return absl::StrCat(t0, " ", t1);
  }
  int fd = tg::workers::kChildFd;
  if (name == "garbage") {
    std::string junk = "this is not a frame, just text a kernel printed\n";
    (void)!write(fd, junk.data(), junk.size());
    SleepForever();
  }
  if (name == "huge") {
    std::string h = tg::workers::EncodeFrame(tg::workers::FrameType::kResponse);
    h[7] = static_cast<char>(0x80);  // payload length 0x80000000
    (void)!write(fd, h.data(), h.size());
    SleepForever();
  }
  if (name == "bad_order") {
    std::string f = tg::workers::EncodeFrame(tg::workers::FrameType::kDeviceDone);
    (void)!write(fd, f.data(), f.size());
    SleepForever();
  }
  if (name == "close") {
    close(fd);
    SleepForever();
  }
  if (name == "cpu") {  // spins under a CPU time limit of S s from now
    tg::workers::InstallLimitHandlers();
    if (!tg::workers::LimitCpuTimeFromNow(static_cast<double>(n)).ok()) std::abort();
    name = "loop";
  }
  if (on_device) gate.Acquire();
  Misbehave(name, n);
}

}  // namespace

// `--never-ready`: starts but never says ready (the pool's startup timeout), until killed.
int main(int argc, char** argv) {
  if (argc > 1 && std::string_view(argv[1]) == "--never-ready")
    while (true) pause();
  return tg::workers::RunChildLoop(Handle);
}
