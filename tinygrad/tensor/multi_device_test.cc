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
#include "tinygrad/nn/linear.h"
#include "tinygrad/nn/module.h"
#include "tinygrad/nn/optim.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/tensor/tiny_jit.h"

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

// Tensors made straight onto several devices: constants and host data whole on each, and the
// *_like creators split as the tensor they copy (each device drawing its own random numbers,
// so a seed gives the reference's numbers). Realizing a constant needs no kernel.
TEST(MultiDeviceTest, CreatorsMatchTheReferencesValuesAndKernelCounts) {
  const std::string both = "(CPU, CPU:1)";
  std::vector<Case> cases = {
      {"full_on_two",
       [&] {
         return (Tensor::Full({2, 3}, 2.0, {.device = both}) + 1).contiguous();
       },
       both,
       std::nullopt,
       2,
       {3, 3, 3, 3, 3, 3}},
      {"data_on_two",
       [&] {
         return Tensor::FromVector(std::vector<float>{1, 2, 3, 4}, {4}, both) * 2;
       },
       both,
       std::nullopt,
       3,
       {2, 4, 6, 8}},
      {"zeros_like_axis0",
       [] {
         return Input({4, 2}).shard(kDevices, 0).zeros_like() + 3;
       },
       both,
       0,
       0,
       {3, 3, 3, 3, 3, 3, 3, 3}},
      {"full_like_whole",
       [] {
         return Input({4, 2}).shard(kDevices).full_like(5) * Input({4, 2}).shard(kDevices);
       },
       both,
       std::nullopt,
       4,
       {-15, -12.5, -10, -7.5, -5, -2.5, 0, 2.5}},
      {"ones_like_axis1",
       [] {
         Tensor x = Input({2, 4}).shard(kDevices, 1);
         return x.ones_like() + x;
       },
       both,
       1,
       5,
       {-2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5}},
      {"rand_like_axis0",
       [] {
         Tensor::ManualSeed(3);
         return Input({4, 2}).shard(kDevices, 0).rand_like();
       },
       both,
       0,
       2,
       {0.5326895713806152f, 0.03957939147949219f, 0.6189490556716919f, 0.32761430740356445f,
        0.9690960645675659f, 0.7542258501052856f, 0.5674442052841187f, 0.037876129150390625f}},
      {"rand_like_whole",
       [] {
         Tensor::ManualSeed(3);
         return Input({4, 2}).shard(kDevices).rand_like();
       },
       both,
       std::nullopt,
       2,
       {0.7884773015975952f, 0.9781513214111328f, 0.6941819190979004f, 0.1338258981704712f,
        0.4187335968017578f, 0.5249961614608765f, 0.23927390575408936f, 0.15861260890960693f}},
      {"randn_like_axis0",
       [] {
         Tensor::ManualSeed(3);
         return Input({4, 2}).shard(kDevices, 0).randn_like();
       },
       both,
       0,
       8,
       {0.24938994646072388f, 1.20871102809906f, -0.25409388542175293f, 0.39190295338630676f,
        -0.8626177906990051f, 1.1103811264038086f, 0.4272262752056122f, 1.0397148132324219f}},
      {"randn_like_axis1_half",
       [] {
         Tensor::ManualSeed(5);
         return Input({2, 4}).shard(kDevices, 1).randn_like(dtypes::float16).cast(dtypes::float32);
       },
       both,
       1,
       8,
       {0.720703125f, 0.239013671875f, 1.1025390625f, 0.342041015625f, -0.681640625f, -0.380859375f,
        -2.513671875f, -0.337890625f}},
      {"dropout_axis0",
       [] {
         Tensor::ManualSeed(7);
         Tensor::Train training;
         return Input({4, 4}).shard(kDevices, 0).dropout(0.5);
       },
       both,
       0,
       9,
       {0, 0, -4, 0, -2, -1, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0}},
  };
  for (const Case& c : cases) Check(c);

  // assigning a tensor split otherwise is an error (the reference's "multi assign axis mismatch")
  Tensor target = Input({4, 2}).shard(kDevices, 0);
  ASSERT_TRUE(target.realize().ok());
  Tensor mismatched = target.assign(Input({4, 2}).shard(kDevices, 1));
  ASSERT_FALSE(mismatched.ok());
  EXPECT_NE(mismatched.status().message().find("multi-device split mismatch: axis 0 != axis 1"), std::string::npos)
      << mismatched.status();

  // tinygrad's rand makes one device's numbers only
  Tensor r = Tensor::Rand({4}, {.device = both});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("one device"), std::string::npos) << r.status();
}

// Data-parallel training under TinyJit: a batch split over two devices, a weight whole on
// each, Adam. The reference's losses and weights (tinygrad 35900290, DEV=CPU, the same program
// with @TinyJit), bit for bit; replays schedule nothing.
TEST(MultiDeviceTest, TinyJitReplaysADataParallelTrainingStep) {
  Tensor w = (Tensor::Arange(6).cast(dtypes::float32) * 0.1 - 0.2).reshape({3, 2}).contiguous();
  ASSERT_TRUE(w.realize().ok());
  w = w.shard(kDevices).requires_grad_(true);
  absl::StatusOr<std::unique_ptr<Optimizer>> opt = Adam({w}, {.lr = 0.01});
  ASSERT_TRUE(opt.ok()) << opt.status();
  TinyJit step([&](std::span<const Tensor> in) -> absl::StatusOr<std::vector<Tensor>> {
    (*opt)->zero_grad();
    Tensor loss = (in[0].matmul(w) - in[1]).square().mean();
    if (absl::Status s = loss.backward(); !s.ok()) return s;
    absl::StatusOr<std::vector<Tensor>> out = (*opt)->schedule_step();
    if (!out.ok()) return out.status();
    out->insert(out->begin(), loss);
    return out;
  });
  const std::vector<float> losses = {0.012375001795589924f, 0.8344147205352783f, 3.037980556488037f,
                                     6.495181083679199f, 11.078888893127441f};
  const std::vector<float> last_w = {-0.15698884427547455f, -0.057983703911304474f,
                                     0.04293249174952507f,  0.14199119806289673f,
                                     0.24287712574005127f,  0.3419744372367859f};
  Tensor::Train train;
  for (int i = 0; i < 5; ++i) {
    SCOPED_TRACE(i);
    Tensor x = (Tensor::Arange(12).cast(dtypes::float32) * ((i + 1) * 0.1)).reshape({4, 3});
    Tensor y = (Tensor::Arange(8).cast(dtypes::float32) * 0.05 + i).reshape({4, 2});
    x = x.contiguous().shard(kDevices, 0);
    y = y.contiguous().shard(kDevices, 0);
    ASSERT_TRUE(Realize({x, y}).ok());
    const int64_t schedules = GetEngineStats().schedules;
    absl::StatusOr<std::vector<Tensor>> out = step({x, y});
    ASSERT_TRUE(out.ok()) << out.status();
    if (i >= 2) {
      EXPECT_EQ(GetEngineStats().schedules, schedules) << "a replay scheduled";
    }
    absl::StatusOr<float> loss = (*out)[0].item<float>();
    ASSERT_TRUE(loss.ok()) << loss.status();
    EXPECT_EQ(*loss, losses[i]);
  }
  absl::StatusOr<std::vector<float>> got = w.to_vector<float>();
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, last_w);
  // the replays launch each device's kernels between the all-reduce's copies as graphs
  EXPECT_GE(step.captured_graphs(), 2u);

  // inputs split otherwise than at the capture, or on one device: a mismatch, nothing run
  Tensor x = Input({4, 3}).shard(kDevices), y = Input({4, 2}).shard(kDevices, 0);
  absl::StatusOr<std::vector<Tensor>> bad = step({x, y});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(
      bad.status().message().find("args mismatch in JIT: input 0 was captured with split along "
                                  "axis 0, called whole on each device"),
      std::string::npos)
      << bad.status();
  bad = step({Input({4, 3}), y});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("args mismatch in JIT: input 0 was captured with device "
                                        "(CPU, CPU:1)"),
            std::string::npos)
      << bad.status();
  EXPECT_EQ(*w.to_vector<float>(), last_w);
}

// A model made on one device, its weights then copied to every device in place (shard_), trained
// data-parallel with SGD+momentum under TinyJit: the reference's losses and weights
// (tinygrad 35900290, DEV=CPU, the same program), bit for bit.
TEST(MultiDeviceTest, ShardingAModelInPlaceTrainsAsTheReference) {
  Tensor::ManualSeed(42);
  nn::Linear model(3, 2);
  for (const Tensor& p : nn::GetParameters(model)) ASSERT_TRUE(p.shard_(kDevices).ok());
  EXPECT_EQ(model.weight.device(), "(CPU, CPU:1)");
  absl::StatusOr<std::unique_ptr<Optimizer>> opt =
      SGD(nn::GetParameters(model), {.lr = 0.1, .momentum = 0.9});
  ASSERT_TRUE(opt.ok()) << opt.status();
  TinyJit step([&](std::span<const Tensor> in) -> absl::StatusOr<std::vector<Tensor>> {
    (*opt)->zero_grad();
    Tensor loss = (model(in[0]) - in[1]).square().mean();
    if (absl::Status s = loss.backward(); !s.ok()) return s;
    absl::StatusOr<std::vector<Tensor>> out = (*opt)->schedule_step();
    if (!out.ok()) return out.status();
    out->insert(out->begin(), loss);
    return out;
  });
  const std::vector<float> losses = {0.05359349399805069f, 0.3478326201438904f, 0.4506204426288605f,
                                     0.42758792638778687f};
  Tensor::Train train;
  for (int i = 0; i < 4; ++i) {
    Tensor x = (Tensor::Arange(12).cast(dtypes::float32) * ((i + 1) * 0.1)).reshape({4, 3});
    Tensor y = (Tensor::Arange(8).cast(dtypes::float32) * 0.05 + i * 0.1).reshape({4, 2});
    absl::StatusOr<std::vector<Tensor>> out =
        step({x.contiguous().shard(kDevices, 0), y.contiguous().shard(kDevices, 0)});
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ(*(*out)[0].item<float>(), losses[i]) << i;
  }
  EXPECT_EQ(
      *model.weight.to_vector<float>(),
      (std::vector<float>{0.5106415152549744f, 0.05449813976883888f, -0.3557475507259369f,
                          -0.08405055850744247f, 0.07474814355373383f, 0.01257653534412384f}));
  EXPECT_EQ(*model.bias->to_vector<float>(),
            (std::vector<float>{-0.004286698065698147f, -0.659872829914093f}));

  // shard_like follows another tensor's devices and split; a failed shard_ leaves the tensor
  Tensor a = Input({4, 3});
  EXPECT_EQ(a.shard_like(Input({4, 3}).shard(kDevices, 0)).shard_axis(), 0);
  EXPECT_EQ(a.shard_like(Input({4, 3}).to("CPU:1")).device(), "CPU:1");
  Tensor bad = a.shard_(kDevices, 1);  // 3 columns on 2 devices
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(a.device(), "CPU");
  EXPECT_TRUE(a.to_("CPU:1").ok());
  EXPECT_EQ(a.device(), "CPU:1");
  EXPECT_EQ(*a.to_vector<float>(), *Input({4, 3}).to_vector<float>());
}

// Dropout on shards under TinyJit: each replay draws each device's next numbers, as eager
// calls do.
TEST(MultiDeviceTest, TinyJitDrawsEachDevicesNextRandomNumbers) {
  Tensor::Train train;
  auto call = [](const Tensor& x) { return (x.dropout(0.5) * 2).sum(1); };
  Tensor::ManualSeed(11);
  std::vector<std::vector<float>> eager;
  for (int i = 0; i < 4; ++i)
    eager.push_back(*call(Input({4, 8}).shard(kDevices, 0)).to_vector<float>());
  Tensor::ManualSeed(11);
  TinyJit jit([&](std::span<const Tensor> in) -> absl::StatusOr<std::vector<Tensor>> {
    return std::vector<Tensor>{call(in[0])};
  });
  for (int i = 0; i < 4; ++i) {
    absl::StatusOr<std::vector<Tensor>> out = jit({Input({4, 8}).shard(kDevices, 0)});
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ(*(*out)[0].to_vector<float>(), eager[i]) << i;
  }
  EXPECT_NE(eager[2], eager[3]);
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
