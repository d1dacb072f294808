// File: autotune/search/search_test_util.h (testonly)
// Helpers the search's tests share: which actions GetKernelActions lets through, a CPU device
// compiling for a given x86-64 level, and candidates checked against the unoptimized kernel.
#ifndef AUTOTUNE_SEARCH_SEARCH_TEST_UTIL_H_
#define AUTOTUNE_SEARCH_SEARCH_TEST_UTIL_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "autotune/key/search_settings.h"
#include "autotune/key/vector_isa.h"
#include "tinygrad/codegen/opt/opt.h"
#include "tinygrad/codegen/opt/scheduler.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/uop/uop.h"

namespace tg::autotune {

// The int args of the `actions` GetKernelActions lets through from `s`, in order.
std::vector<int64_t> AmountsTried(const Scheduler& s, const std::vector<Opt>& actions, const SearchSettings& settings,
                                  const VectorIsa& isa);

// The CPU device compiling for `target` (x86-64-v3, ...) without on-disk caches; callers check
// CheckCpuTarget(target) first (a test skips where the host cannot run the level).
Device* CpuDeviceFor(const char* target);

// Each candidate of `ast` runs on `dev` and matches the unoptimized kernel (or is a duplicate,
// or slow enough to be stopped): gtest failures name the ones that do not.
void ExpectCandidatesCorrect(Device* dev, const UOp& ast, const std::vector<std::vector<Opt>>& candidates);

}  // namespace tg::autotune

#endif  // AUTOTUNE_SEARCH_SEARCH_TEST_UTIL_H_
