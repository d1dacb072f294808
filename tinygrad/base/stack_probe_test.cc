// File: tinygrad/base/stack_probe_test.cc
#include "tinygrad/base/stack_probe.h"

#include "gtest/gtest.h"

namespace tg {
namespace {

// Recurses `depth` times with a 1 KiB frame the compiler cannot drop.
__attribute__((noinline)) int Deep(int depth) {
  volatile char frame[1024];
  frame[0] = static_cast<char>(depth);
  if (depth == 0) return frame[0];
  return Deep(depth - 1) + frame[0];
}

TEST(StackProbe, MeasuresTheDeepestTheThreadWent) {
  int sum = 0;
  size_t shallow = RunOnSmallStack(size_t{1} << 20, [&] { sum += Deep(4); });
  size_t deep = RunOnSmallStack(size_t{1} << 20, [&] { sum += Deep(200); });
  EXPECT_GT(shallow, 4u << 10);
  EXPECT_GT(deep, shallow + (190u << 10)) << "200 frames of 1 KiB";
  EXPECT_LT(deep, size_t{1} << 20);
  EXPECT_GT(sum, 0);
}

TEST(StackProbe, RunsTheFunctionOnce) {
  int calls = 0;
  RunOnSmallStack(64 << 10, [&] { ++calls; });
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace tg
