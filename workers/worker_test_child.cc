// File: workers/worker_test_child.cc
// A worker child (WorkerChildMain) with injected faults, for worker_test only. Holding the
// device, it misbehaves when one of the job's candidates contains a marker opt that no real
// search produces (UPCAST by a prime that divides no test kernel's axis):
//   Opt{UPCAST, 0, 13}  SIGSEGV (a null pointer write)
//   Opt{UPCAST, 0, 17}  loops forever (the run deadline kills it)
#include <span>
#include <string_view>
#include <vector>

#include "tinygrad/codegen/opt/opt.h"
#include "workers/worker_child.h"

// The crash must stay a real SIGSEGV under ASan (the pool reports the signal).
#if defined(__SANITIZE_ADDRESS__)
extern "C" const char* __asan_default_options() {
  return "handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0:handle_abort=0";
}
#endif

namespace {

bool Has(std::span<const std::vector<tg::Opt>> candidates, int64_t arg) {
  const tg::Opt marker{tg::OptOps::UPCAST, 0, arg};
  for (const std::vector<tg::Opt>& c : candidates) {
    for (const tg::Opt& o : c) {
      if (o == marker) return true;
    }
  }
  return false;
}

void Misbehave(std::span<const std::vector<tg::Opt>> candidates) {
  if (Has(candidates, 13)) {
    volatile int* volatile p = nullptr;
    *p = 1;
  }
  if (Has(candidates, 17)) {
    volatile uint64_t spins = 0;
    while (true) spins = spins + 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string_view> args(argv + 1, argv + argc);
  return tg::workers::WorkerChildMain(args, {.on_device = Misbehave});
}
