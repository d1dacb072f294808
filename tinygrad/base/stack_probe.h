// File: tinygrad/base/stack_probe.h
// For tests of code that must not recurse with the size of its input: run it on a thread with
// a small stack of known size, and learn how much of that stack it used.
//
// The stack is painted with a pattern before the thread starts; afterwards the lowest byte
// that no longer holds it is the deepest the thread reached (its high-water mark). Below the
// stack sits an inaccessible guard page, so a thread that overflows dies with SIGSEGV instead
// of writing over other memory: a test of "this does not overflow a 256 KiB stack" fails by
// crashing, which is what it would do in a program.
//
// Example:
//   size_t used = RunOnSmallStack(256 << 10, [&] { matched = pat.Match(huge, m, k); });
//   EXPECT_LT(used, 64 << 10);
#ifndef TINYGRAD_BASE_STACK_PROBE_H_
#define TINYGRAD_BASE_STACK_PROBE_H_

#include <cstddef>
#include <functional>

namespace tg {

// Runs `fn` on a new thread whose stack is `stack_bytes` (rounded up to pages) and waits for
// it. Returns the bytes of that stack the thread touched, counting what the C library keeps at
// its top (the thread's descriptor and TLS, a few KiB).
size_t RunOnSmallStack(size_t stack_bytes, const std::function<void()>& fn);

}  // namespace tg

#endif  // TINYGRAD_BASE_STACK_PROBE_H_
