// File: autotune/codec/forked_cases.h (testonly)
// Runs many test cases that may abort (a TG_CHECK, a signal) in forked children, cheaply: one
// child runs case after case and tells the parent through a pipe which one it is starting;
// when it dies, the parent notes that case, with how it died and what it wrote to stderr, and
// forks a fresh child for the next case. A few forks for thousands of cases, where a fork per
// case (or a gtest death test per case, which also re-runs the binary) costs more than most
// cases do.
//
// Example:
//   std::vector<CaseDeath> deaths = RunCasesForked(cases.size(), [&](size_t i) { Lower(cases[i]); });
//   for (const CaseDeath& d : deaths) ADD_FAILURE() << "case " << d.index << " " << d.how << "\n" << d.output;
#ifndef AUTOTUNE_CODEC_FORKED_CASES_H_
#define AUTOTUNE_CODEC_FORKED_CASES_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"

namespace tg::autotune::codec {

struct CaseDeath {
  size_t index;
  std::string how;     // "killed by signal 6 (Aborted)", "exit 3", "no progress for 120 s"
  std::string output;  // the tail of what the case wrote to stderr
};

struct ForkedCasesOptions {
  // Stop after this many deaths: the first ones are what a reader needs.
  size_t max_deaths = 20;
  // A case that runs this long is killed and reported as hanging. Far beyond any case's cost:
  // it is there so that an endless loop fails the test instead of timing it out.
  std::chrono::seconds hang_after{120};
  size_t output_tail_bytes = 4000;
  // Fork servers run at once (cases are dealt out round-robin).
  size_t children = 1;
  // Each child's address space (RLIMIT_AS; 0: unlimited; not under ASan, which reserves its
  // shadow up front): a case that blows up dies of an allocation failure instead of taking the
  // machine's memory.
  uint64_t memory_limit_bytes = 0;
};

// fn(0), ..., fn(n - 1), each in a forked child (several per child); the cases that killed
// their child, by index (at most max_deaths). `fn` must not report through gtest (the child's
// results are lost): it aborts, or returns. With several children it runs concurrently with
// itself in separate processes.
std::vector<CaseDeath> RunCasesForked(size_t n, absl::FunctionRef<void(size_t)> fn,
                                      const ForkedCasesOptions& options = {});

}  // namespace tg::autotune::codec

#endif  // AUTOTUNE_CODEC_FORKED_CASES_H_
