// File: workers/test_pool_parent.cc
// A worker stand-in for the parent-death test: starts a ChildPool of `test_child` processes,
// keeps one of them spinning on the device, prints the pids of its processes (2 children, 1
// spare) on stdout once that one holds the device, and waits to be killed. Its children must die with it.
//
// Usage: test_pool_parent CHILD_PROGRAM
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>

#include "absl/status/statusor.h"
#include "tinygrad/base/wait_until.h"
#include "workers/child_pool.h"

int main(int argc, char** argv) {
  using namespace std::chrono_literals;
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s CHILD_PROGRAM\n", argv[0]);
    return 2;
  }
  absl::StatusOr<std::unique_ptr<tg::workers::ChildPool>> pool =
      tg::workers::ChildPool::Create({.argv = {argv[1]}, .children = 2});
  if (!pool.ok()) {
    std::fprintf(stderr, "%s\n", pool.status().ToString().c_str());
    return 1;
  }
  // A child stuck in a loop on the device cannot read its socket: only its death signal
  // can end it.
  (*pool)->Submit("loop@device", {.prepare_timeout = 1e6s, .run_deadline = 1e6s},
                  [](tg::workers::JobOutcome) {});
  if (!tg::WaitUntil([&] { return (*pool)->stats().device_grants == 1; })) {
    std::fprintf(stderr, "the loop job never got the device\n");
    return 1;
  }
  for (pid_t pid : (*pool)->ChildPids()) std::printf("%d ", static_cast<int>(pid));
  std::printf("\n");
  std::fflush(stdout);
  while (true) pause();
}
