// File: tinygrad/base/wait_until.h
// For tests that wait on another thread or process: poll a condition until it holds, with a
// deadline, so that a bug shows up as a failed assertion with a message instead of a hang
// until Bazel's timeout. The deadline is generous on purpose: a test asserts that something
// happens, never how fast, so a fast machine returns at once and a slow or loaded one still
// passes.
//
// Example:
//   ASSERT_TRUE(WaitUntil([&] { return broker.Status().jobs_sent >= 4; }))
//       << "the broker never sent 4 jobs";
#ifndef TINYGRAD_BASE_WAIT_UNTIL_H_
#define TINYGRAD_BASE_WAIT_UNTIL_H_

#include <chrono>
#include <thread>

namespace tg {

// How long a test waits for something that should happen "soon" before calling it a failure.
inline constexpr std::chrono::seconds kTestWaitLimit{60};

// Polls `done` every `poll` until it returns true (then true) or `limit` has passed on the
// machine's steady clock (then false, after one last look).
template <typename Done>
bool WaitUntil(Done&& done, std::chrono::steady_clock::duration limit = kTestWaitLimit,
               std::chrono::steady_clock::duration poll = std::chrono::milliseconds(2)) {
  const auto give_up = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= give_up) return done();
    std::this_thread::sleep_for(poll);
  }
  return true;
}

}  // namespace tg

#endif  // TINYGRAD_BASE_WAIT_UNTIL_H_
