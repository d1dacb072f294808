// File: workers/resource_limits_test.cc
// The child's own limits, each case in a forked child (gtest death tests: the limits and
// handlers are the process's): a spin stopped by the CPU limit counted from now, allocations
// refused past the memory limit counted from now, and the defaults.
#include "workers/resource_limits.h"

#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <vector>

#include "gtest/gtest.h"

// The hog below must meet the limit, not ASan's own out-of-memory report.
#if defined(__SANITIZE_ADDRESS__)
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }
#endif

namespace tg::workers {
namespace {

using ::testing::ExitedWithCode;
using ::testing::KilledBySignal;

class ResourceLimitsTest : public ::testing::Test {
 protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

// Burns CPU until something stops it.
[[noreturn]] void Spin() {
  volatile uint64_t spins = 0;
  while (true) spins = spins + 1;
}

// Maps `chunks` x 64 MiB (never touched: the limit counts mappings, not what is resident);
// the number it got before the first refusal.
int Hog(int chunks) {
  static std::vector<void*> kept;
  for (int i = 0; i < chunks; ++i) {
    void* p = ::operator new(size_t{64} << 20, std::nothrow);
    if (p == nullptr) return i;
    kept.push_back(p);
  }
  return chunks;
}

TEST_F(ResourceLimitsTest, ASpinIsStoppedByTheCpuLimitCountedFromNow) {
  EXPECT_EXIT(
      {
        InstallLimitHandlers();
        // time already used does not count against the budget: burn some first
        const double start = ProcessCpuSeconds();
        while (ProcessCpuSeconds() - start < 0.3) {
        }
        if (!LimitCpuTimeFromNow(1).ok()) _exit(99);
        Spin();
      },
      KilledBySignal(SIGXCPU), "worker child [0-9]+: over its CPU time limit for this job\n");
}

TEST_F(ResourceLimitsTest, TheCpuLimitIsRaisedForEachJob) {
  EXPECT_EXIT(
      {
        absl::StatusOr<double> first = LimitCpuTimeFromNow(1000);
        absl::StatusOr<double> second = LimitCpuTimeFromNow(2000);
        rlimit r{};
        getrlimit(RLIMIT_CPU, &r);
        const bool ok = first.ok() && second.ok() && *first >= 1000 && *second >= 2000 && *second > *first &&
                        static_cast<double>(r.rlim_cur) == *second && *first == std::ceil(*first);
        _exit(ok ? 0 : 1);
      },
      ExitedWithCode(0), "");
  EXPECT_EXIT(
      {
        absl::StatusOr<double> none = LimitCpuTimeFromNow(INFINITY);
        rlimit r{};
        getrlimit(RLIMIT_CPU, &r);
        _exit(none.ok() && std::isinf(*none) && r.rlim_cur == RLIM_INFINITY ? 0 : 1);
      },
      ExitedWithCode(0), "");
  EXPECT_FALSE(LimitCpuTimeFromNow(0).ok());
  EXPECT_FALSE(LimitCpuTimeFromNow(-1).ok());
  EXPECT_FALSE(LimitCpuTimeFromNow(NAN).ok());
}

TEST_F(ResourceLimitsTest, AllocationsPastTheMemoryLimitAreRefused) {
  EXPECT_EXIT(
      {
        absl::StatusOr<uint64_t> limit = LimitDataFromNow(uint64_t{512} << 20);
        if (!limit.ok()) _exit(98);
        // 512 MiB more: 64 MiB chunks until the 8th or so (malloc's own bookkeeping counts too)
        const int got = Hog(64);
        _exit(got >= 4 && got < 9 ? 0 : 1);
      },
      ExitedWithCode(0), "");
  // operator new that throws calls the handler: exit kChildExitOutOfMemory, saying why (ASan's
  // operator new reports and exits 1 instead, calling no handler)
#if !defined(__SANITIZE_ADDRESS__)
  EXPECT_EXIT(
      {
        if (!LimitDataFromNow(uint64_t{256} << 20).ok()) _exit(98);
        InstallLimitHandlers();
        std::vector<char*> kept;
        for (int i = 0; i < 64; ++i) kept.push_back(new char[size_t{64} << 20]);
        _exit(0);
      },
      ExitedWithCode(kChildExitOutOfMemory), "worker child [0-9]+: out of memory \\(over its memory limit\\)\n");
#endif
}

TEST_F(ResourceLimitsTest, NoMemoryLimitLeavesItAlone) {
  EXPECT_EXIT(
      {
        rlimit before{};
        rlimit after{};
        getrlimit(RLIMIT_DATA, &before);
        absl::StatusOr<uint64_t> limit = LimitDataFromNow(0);
        getrlimit(RLIMIT_DATA, &after);
        _exit(limit.ok() && *limit == 0 && before.rlim_cur == after.rlim_cur ? 0 : 1);
      },
      ExitedWithCode(0), "");
}

TEST(ResourceLimitsDefaultsTest, DataAndDefaultLimit) {
  absl::StatusOr<uint64_t> data = DataBytesNow();
  ASSERT_TRUE(data.ok()) << data.status();
  EXPECT_GT(*data, 0u);
  const uint64_t one = DefaultChildMemoryLimit(1), many = DefaultChildMemoryLimit(1000000);
  EXPECT_GT(one, uint64_t{1} << 30);  // a test machine has more than 1 GiB
  EXPECT_EQ(many, uint64_t{1} << 30);  // the floor
  EXPECT_EQ(DefaultChildMemoryLimit(0), one);
  EXPECT_GE(DefaultChildMemoryLimit(3), one / 3);
}

}  // namespace
}  // namespace tg::workers
