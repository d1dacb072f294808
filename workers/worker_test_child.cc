// File: workers/worker_test_child.cc
// The worker child (WorkerChildMain) for worker_test, which injects faults with
// --inject-fault; built as its own program so that ASan leaves the injected SIGSEGV alone (and
// lets the injected hog meet the memory limit rather than report it).
#include <string_view>
#include <vector>

#include "workers/worker_child.h"

// The crash must stay a real SIGSEGV under ASan (the pool reports the signal).
#if defined(__SANITIZE_ADDRESS__)
extern "C" const char* __asan_default_options() {
  return "handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0:handle_abort=0:allocator_may_return_null=1";
}
#endif

int main(int argc, char** argv) {
  std::vector<std::string_view> args(argv + 1, argv + argc);
  return tg::workers::WorkerChildMain(args);
}
