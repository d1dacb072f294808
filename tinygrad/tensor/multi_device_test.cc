// Tensors on several devices (tinygrad's shard, test/test_multitensor.py): values and kernel
// counts against the reference's on two CPU devices ("CPU" and "CPU:1", each with buffers and
// kernels of its own; four for the all-reduces). Expected values and kernel counts were produced
// by running tinygrad 35900290 with DEV=CPU on the same programs (the SINK items of schedule()
// of a fresh copy; tolist()), one process per RING/ALL2ALL setting.
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/base/config.h"
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

// exp of (arange(24) * 0.5 - 3) as (4, 6), transposed
std::vector<float> ExpOfTransposed() {
  std::vector<float> out;
  for (int c = 0; c < 6; ++c)
    for (int r = 0; r < 4; ++r) out.push_back(std::exp((r * 6 + c) * 0.5f - 3));
  return out;
}

// every row of (arange(32) * 0.5 - 3) as (4, 8) is softmax([0, 0.5, ..., 3.5]) shifted
std::vector<float> SoftmaxRows() {
  std::vector<float> row;
  float total = 0;
  for (int c = 0; c < 8; ++c) total += std::exp(c * 0.5f);
  for (int c = 0; c < 8; ++c) row.push_back(std::exp(c * 0.5f) / total);
  std::vector<float> out;
  for (int r = 0; r < 4; ++r) out.insert(out.end(), row.begin(), row.end());
  return out;
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
      {"reshape_permute",
       [] {
         return Input({4, 2, 3}).shard(kDevices, 0).reshape({4, 6}).permute({1, 0}).exp();
       },
       both, 1, 5, ExpOfTransposed()},
      {"softmax",
       [] {
         return Input({4, 8}).shard(kDevices, 0).softmax(1);
       },
       both, 0, 9, SoftmaxRows()},
  };
  for (const Case& c : cases) Check(c);
}

// A sum over the split axis of 4 devices' shards: each device adds every device's partial sum.
// Past RING_ALLREDUCE_THRESHOLD elements the reference sends chunks around a ring (more kernels,
// each device moving 1/4 of the data per step); RING=0 copies everything to everyone; ALL2ALL=1
// sends each chunk straight to its owner. Same values every way.
struct AllreduceCase {
  std::string setting;
  int ring, all2all;
  int64_t kernels;
};

TEST(MultiDeviceTest, AllreduceAcrossFourDevicesRingNaiveAndAllToAll) {
  const std::vector<std::string> four = {"CPU", "CPU:1", "CPU:2", "CPU:3"};
  const int64_t cols = 262200;  // the reduced row has more elements than the threshold (256000)
  for (const AllreduceCase& c :
       {AllreduceCase{"RING=1", 1, 0, 45}, AllreduceCase{"RING=0", 0, 0, 17},
        AllreduceCase{"ALL2ALL=1", 1, 1, 41}, AllreduceCase{"RING=2", 2, 0, 45}}) {
    SCOPED_TRACE(c.setting);
    Config cfg = GetConfig();
    cfg.ring = c.ring;
    cfg.all2all = c.all2all;
    ScopedConfig scoped(cfg);
    Tensor t = Input({8, cols}).shard(four, 0).sum(0);
    const int64_t before = GetEngineStats().kernel_count;
    ASSERT_TRUE(t.realize().ok());
    EXPECT_EQ(GetEngineStats().kernel_count - before, c.kernels);
    absl::StatusOr<std::vector<float>> v = t.to_vector<float>();
    ASSERT_TRUE(v.ok()) << v.status();
    ASSERT_EQ(v->size(), static_cast<size_t>(cols));
    // column j: sum over rows r of (r * cols + j) * 0.5 - 3 (the reference's tolist)
    EXPECT_FLOAT_EQ((*v)[0], 3670776.0f);
    EXPECT_FLOAT_EQ((*v)[1], 3670780.0f);
    EXPECT_FLOAT_EQ((*v)[cols - 1], 4719572.0f);
  }
}

// Data parallelism: a replicated weight's gradient sums the devices' parts of the batch; a
// split input's gradient stays split.
TEST(MultiDeviceTest, GradientsThroughShards) {
  {
    Tensor x = Input({4, 3}).shard(kDevices, 0);
    Tensor w = Input({3, 2}).shard(kDevices).requires_grad_();
    ASSERT_TRUE(x.matmul(w).sum().backward().ok());
    ASSERT_TRUE(w.grad().has_value());
    Tensor g = *w.grad();
    const int64_t before = GetEngineStats().kernel_count;
    ASSERT_TRUE(g.realize().ok());
    EXPECT_EQ(GetEngineStats().kernel_count - before, 9);
    EXPECT_EQ(g.device(), "(CPU, CPU:1)");
    EXPECT_EQ(g.shard_axis(), std::nullopt);
    EXPECT_EQ(*g.to_vector<float>(), (std::vector<float>{-3, -3, -1, -1, 1, 1}));
  }
  {
    Tensor x = Input({4, 3}).shard(kDevices, 0).requires_grad_();
    Tensor w = Input({3, 2}).shard(kDevices);
    ASSERT_TRUE(x.matmul(w).relu().sum().backward().ok());
    Tensor g = *x.grad();
    const int64_t before = GetEngineStats().kernel_count;
    ASSERT_TRUE(g.realize().ok());
    EXPECT_EQ(GetEngineStats().kernel_count - before, 9);
    EXPECT_EQ(g.shard_axis(), 0);
    EXPECT_EQ(*g.to_vector<float>(),
              (std::vector<float>{-5.5, -3.5, -1.5, -5.5, -3.5, -1.5, 0, 0, 0, 0, 0, 0}));
  }
}

// What the split cannot do is an error naming it (the reference raises), never an abort; the
// tensors it came from still work.
TEST(MultiDeviceTest, WhatTheSplitCannotDoIsAnError) {
  Tensor a = Input({4, 4});
  Tensor uneven = Input({3, 4}).shard(kDevices, 0);
  EXPECT_FALSE(uneven.ok());
  EXPECT_NE(uneven.status().message().find("uneven"), std::string::npos) << uneven.status();
  Tensor twice = a.shard(kDevices, 0).shard(kDevices, 0);
  EXPECT_FALSE(twice.ok());
  EXPECT_NE(twice.status().message().find("multi-device"), std::string::npos) << twice.status();
  EXPECT_FALSE(a.shard(kDevices, 2).ok()) << "no axis 2";

  absl::Status moved = a.shard(kDevices, 1).reshape({16}).realize();
  EXPECT_FALSE(moved.ok());
  EXPECT_NE(moved.message().find("between shards"), std::string::npos) << moved;
  absl::Status padded = a.shard(kDevices, 0).pad({{1, 1}, {0, 0}}).realize();
  EXPECT_FALSE(padded.ok());
  EXPECT_NE(padded.message().find("padding"), std::string::npos) << padded;
  absl::Status flipped = a.shard(kDevices, 0).flip({0}).realize();
  EXPECT_FALSE(flipped.ok());
  absl::Status shrunk = a.shard(kDevices, 0).shrink({{1, 3}, {0, 4}}).realize();
  EXPECT_FALSE(shrunk.ok());
  EXPECT_NE(shrunk.message().find("shrinking"), std::string::npos) << shrunk;

  absl::StatusOr<std::vector<float>> still = (a.shard(kDevices, 0) + 1).to_vector<float>();
  ASSERT_TRUE(still.ok()) << still.status();
  EXPECT_FLOAT_EQ((*still)[15], 5.5f);
}

}  // namespace
}  // namespace tg
