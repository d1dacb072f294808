// Tensors on several devices (tinygrad's shard, test/test_multitensor.py): values and kernel
// counts against the reference's on two CPU devices ("CPU" and "CPU:1", each with buffers and
// kernels of its own). Expected values and counts were produced by running tinygrad 35900290
// with DEV=CPU on the same programs (schedule() of a fresh copy: kernels and copies; tolist()).
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/engine/engine_stats.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

const std::vector<std::string> kDevices = {"CPU", "CPU:1"};

// (arange(n) * 0.5 - 3) of `shape` on the CPU, realized.
Tensor Input(std::vector<int64_t> shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  Tensor a = (Tensor::Arange(n).cast(dtypes::float32) * 0.5 - 3).reshape(shape).contiguous();
  EXPECT_TRUE(a.realize().ok());
  return a;
}

struct Case {
  std::string name;
  std::function<Tensor()> make;
  std::string device;
  std::optional<int64_t> axis;
  int64_t kernels;  // the reference's, copies not counted
  std::vector<float> values;
};

void Check(const Case& c) {
  SCOPED_TRACE(c.name);
  Tensor t = c.make();
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t.device(), c.device);
  const int64_t before = GetEngineStats().kernel_count;
  absl::Status realized = t.realize();
  ASSERT_TRUE(realized.ok()) << realized;
  EXPECT_EQ(GetEngineStats().kernel_count - before, c.kernels);
  EXPECT_EQ(t.shard_axis(), c.axis) << "after realize";
  absl::StatusOr<std::vector<float>> v = t.to_vector<float>();
  ASSERT_TRUE(v.ok()) << v.status();
  ASSERT_EQ(v->size(), c.values.size());
  for (size_t i = 0; i < v->size(); ++i) EXPECT_FLOAT_EQ((*v)[i], c.values[i]) << i;
}

TEST(MultiDeviceTest, OpsMatchTheReferencesValuesAndKernelCounts) {
  const std::string both = "(CPU, CPU:1)";
  std::vector<Case> cases = {
      {"ew_axis0",
       [] {
         return Input({4, 4}).shard(kDevices, 0) * 2 + 1;
       },
       both,
       0,
       5,
       {-5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
      {"ew_axis1",
       [] {
         return Input({4, 4}).shard(kDevices, 1) * 2 + 1;
       },
       both,
       1,
       5,
       {-5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
      {"sum_split_axis",
       [] {
         return Input({4, 4}).shard(kDevices, 0).sum(0);
       },
       both,
       std::nullopt,
       9,
       {0, 2, 4, 6}},
      {"sum_other_axis",
       [] {
         return Input({4, 4}).shard(kDevices, 0).sum(1);
       },
       both,
       0,
       5,
       {-9, -1, 7, 15}},
      {"gather",
       [] {
         return Input({4, 4}).shard(kDevices, 0).to("CPU");
       },
       "CPU",
       std::nullopt,
       6,
       {-3, -2.5, -2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5}},
      {"replicated",
       [] {
         return (Input({4, 4}).shard(kDevices) * 3).to("CPU:1");
       },
       "CPU:1",
       std::nullopt,
       4,
       {-9, -7.5, -6, -4.5, -3, -1.5, 0, 1.5, 3, 4.5, 6, 7.5, 9, 10.5, 12, 13.5}},
      {"matmul_dp",
       [] {
         return Input({4, 3}).shard(kDevices, 0).matmul(Input({3, 2}).shard(kDevices));
       },
       both,
       0,
       7,
       {16, 12.25, 7, 5.5, -2, -1.25, -11, -8}},
      {"mixed_axes",
       [] {
         return Input({4, 4}).shard(kDevices, 0) + Input({4, 4}).shard(kDevices, 1);
       },
       both,
       1,
       12,
       {-6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
      {"shrink_one_shard",
       [] {
         return Input({4, 4}).shard(kDevices, 0).shrink({{2, 4}, {0, 4}});
       },
       both,
       std::nullopt,
       2,
       {1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5}},
      {"pad_expand",
       [] {
         return Input({4, 1}).shard(kDevices, 0).expand({4, 3}).pad({{0, 0}, {1, 1}});
       },
       both,
       0,
       3,
       {0, -3, -3, -3, 0, 0, -2.5, -2.5, -2.5, 0, 0, -2, -2, -2, 0, 0, -1.5, -1.5, -1.5, 0}},
      {"max_split",
       [] {
         return Input({6, 2}).shard(kDevices, 0).max(0);
       },
       both,
       std::nullopt,
       9,
       {2, 2.5}},
      {"cast",
       [] {
         return Input({4, 4}).shard(kDevices, 1).cast(dtypes::int32) + 1;
       },
       both,
       1,
       5,
       {-2, -1, -1, 0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5}},
  };
  for (const Case& c : cases) Check(c);
}

}  // namespace
}  // namespace tg
