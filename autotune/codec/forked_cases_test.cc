// File: autotune/codec/forked_cases_test.cc
#include "autotune/codec/forked_cases.h"

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "gtest/gtest.h"

namespace tg::autotune::codec {
namespace {

TEST(ForkedCasesTest, CasesThatReturnAreNotReported) {
  EXPECT_TRUE(RunCasesForked(100, [](size_t) {}).empty());
  EXPECT_TRUE(RunCasesForked(0, [](size_t) {}).empty());
}

TEST(ForkedCasesTest, EachDeathNamesItsCaseAndTheRestStillRun) {
  std::vector<CaseDeath> deaths = RunCasesForked(10, [](size_t i) {
    if (i == 3 || i == 4) {
      std::fprintf(stderr, "case %zu gives up\n", i);
      std::abort();
    }
    if (i == 7) raise(SIGSEGV);
    if (i == 9) _exit(5);  // (std::exit would run LeakSanitizer's exit check under ASan)
  });
  ASSERT_EQ(deaths.size(), 4u);
  EXPECT_EQ(deaths[0].index, 3u);
  EXPECT_EQ(deaths[1].index, 4u);
  EXPECT_EQ(deaths[2].index, 7u);
  EXPECT_EQ(deaths[3].index, 9u);
  EXPECT_EQ(deaths[0].how, "killed by signal 6 (Aborted)");
  EXPECT_EQ(deaths[0].output, "case 3 gives up\n");  // only its own case's output
  EXPECT_EQ(deaths[1].output, "case 4 gives up\n");
#if defined(__SANITIZE_ADDRESS__)
  EXPECT_EQ(deaths[2].how, "exit 1");  // ASan reports the SIGSEGV itself and exits 1
#else
  EXPECT_EQ(deaths[2].how, "killed by signal 11 (Segmentation fault)");
#endif
  EXPECT_EQ(deaths[3].how, "exit 5");
}

TEST(ForkedCasesTest, SeveralChildrenReportTheSameDeaths) {
  auto fn = [](size_t i) {
    if (i % 10 == 3) std::abort();
  };
  for (size_t children : {2, 3}) {
    std::vector<CaseDeath> deaths = RunCasesForked(100, fn, {.children = children});
    ASSERT_EQ(deaths.size(), 10u) << children;
    for (size_t k = 0; k < deaths.size(); ++k) EXPECT_EQ(deaths[k].index, 10 * k + 3);
  }
}

TEST(ForkedCasesTest, ACaseOverTheMemoryLimitDies) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "no memory limit under ASan";
#endif
  std::vector<CaseDeath> deaths = RunCasesForked(2, [](size_t i) {
    if (i == 1) {
      std::vector<char> big(size_t{8} << 30, 1);  // 8 GiB
      std::printf("%d\n", big[12345]);
    }
  }, {.memory_limit_bytes = uint64_t{2} << 30});
  ASSERT_EQ(deaths.size(), 1u);
  EXPECT_EQ(deaths[0].index, 1u);
  EXPECT_EQ(deaths[0].how, "killed by signal 6 (Aborted)");  // std::bad_alloc, uncaught
}

TEST(ForkedCasesTest, StopsAfterMaxDeaths) {
  std::vector<CaseDeath> deaths = RunCasesForked(50, [](size_t) { std::abort(); }, {.max_deaths = 3});
  ASSERT_EQ(deaths.size(), 3u);
  EXPECT_EQ(deaths[2].index, 2u);
}

TEST(ForkedCasesTest, ACaseThatHangsIsKilled) {
  std::vector<CaseDeath> deaths = RunCasesForked(3, [](size_t i) {
    if (i == 1) {
      volatile bool forever = true;
      while (forever) {
      }
    }
  }, {.hang_after = std::chrono::seconds(1)});
  ASSERT_EQ(deaths.size(), 1u);
  EXPECT_EQ(deaths[0].index, 1u);
  EXPECT_EQ(deaths[0].how, "no progress for 1 s: killed");
}

}  // namespace
}  // namespace tg::autotune::codec
