// Every op on shards (split along axis 0, axis 1, or whole on each of two CPU devices) gives the
// op's values on one device, or, where the split cannot do it, the reference's refusal as an
// InvalidArgument naming it (tinygrad 35900290 raises on exactly these: padding, flipping or
// shrinking the split axis, a reshape that moves items between shards). Operands besides the
// sharded one are copied to its devices (`to(t.device())`).
#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "gtest/gtest.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

const std::vector<std::string> kDevices = {"CPU", "CPU:1"};

// 3 sin(0.37 i) of `shape`, realized on the CPU.
Tensor In(std::vector<int64_t> shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  Tensor a =
      ((Tensor::Arange(n).cast(dtypes::float32) * 0.37).sin() * 3).reshape(shape).contiguous();
  EXPECT_TRUE(a.realize().ok());
  return a;
}

using Op = std::function<Tensor(const Tensor&)>;

// What the split refuses, by "op@axis": the start of the error.
const absl::flat_hash_map<std::string, std::string>& Refused() {
  static const auto* const kRefused = new absl::flat_hash_map<std::string, std::string>{
      {"cumsum0@0", "padding not supported on the sharded axis"},
      {"cumsum1@1", "padding not supported on the sharded axis"},
      {"cummax0@0", "padding not supported on the sharded axis"},
      {"flip0@0", "flipping not supported on the sharded axis"},
      {"flip1@1", "flipping not supported on the sharded axis"},
      {"pad@0", "padding not supported on the sharded axis"},
      {"pad@1", "padding not supported on the sharded axis"},
      {"shrink@0", "shrinking not supported on the sharded axis"},
      {"shrink@1", "shrinking not supported on the sharded axis"},
      {"slice@0", "shrinking not supported on the sharded axis"},
      {"cat0@0", "padding not supported on the sharded axis"},
      {"cat1@1", "padding not supported on the sharded axis"},
      {"reshape@1", "reshape cannot move items between shards"},
      {"reshape2@1", "reshape cannot move items between shards"},
      {"flatten@1", "reshape cannot move items between shards"},
      {"repeat@0", "reshape cannot move items between shards"},
  };
  return *kRefused;
}

void CheckOnShards(const std::string& name, const std::vector<int64_t>& shape, const Op& op) {
  absl::StatusOr<std::vector<float>> want = op(In(shape)).cast(dtypes::float32).to_vector<float>();
  ASSERT_TRUE(want.ok()) << name << ": " << want.status();
  for (std::optional<int64_t> axis :
       {std::optional<int64_t>(0), std::optional<int64_t>(1), std::optional<int64_t>()}) {
    const std::string tag = name + "@" + (axis ? std::to_string(*axis) : "None");
    SCOPED_TRACE(tag);
    Tensor r = op(In(shape).shard(kDevices, axis));
    absl::StatusOr<std::vector<float>> got = r.ok()
                                                 ? r.cast(dtypes::float32).to_vector<float>()
                                                 : absl::StatusOr<std::vector<float>>(r.status());
    if (auto it = Refused().find(tag); it != Refused().end()) {
      ASSERT_FALSE(got.ok());
      EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument);
      EXPECT_NE(got.status().message().find(it->second), std::string::npos) << got.status();
      continue;
    }
    ASSERT_TRUE(got.ok()) << got.status();
    ASSERT_EQ(got->size(), want->size());
    for (size_t i = 0; i < got->size(); ++i) {
      const float a = (*got)[i], b = (*want)[i];
      if (std::isnan(a) && std::isnan(b)) continue;
      // sums over the split axis add the devices' partial sums: another order of the adds
      EXPECT_NEAR(a, b, 1e-4 * (1 + std::fabs(b))) << i;
    }
  }
}

TEST(MultiDeviceOpsTest, TwoDimensionalOps) {
  const std::vector<std::pair<std::string, Op>> ops2 = {
      {"exp", [](const Tensor& t) { return t.exp(); }},
      {"add_bcast",
       [](const Tensor& t) {
         return t + In({1, 6}).to(t.device());
       }},
      {"add_bcast0",
       [](const Tensor& t) {
         return t + In({4, 1}).to(t.device());
       }},
      {"sum0", [](const Tensor& t) { return t.sum(0); }},
      {"sum1", [](const Tensor& t) { return t.sum(1); }},
      {"sumall", [](const Tensor& t) { return t.sum(); }},
      {"mean", [](const Tensor& t) { return t.mean(1); }},
      {"var", [](const Tensor& t) { return t.var(0); }},
      {"max0", [](const Tensor& t) { return t.max(0); }},
      {"argmax0", [](const Tensor& t) { return t.argmax(0); }},
      {"argmax1", [](const Tensor& t) { return t.argmax(1); }},
      {"softmax0", [](const Tensor& t) { return t.softmax(0); }},
      {"logsumexp1", [](const Tensor& t) { return t.logsumexp(1); }},
      {"cumsum0", [](const Tensor& t) { return t.cumsum(0); }},
      {"cumsum1", [](const Tensor& t) { return t.cumsum(1); }},
      {"cummax0", [](const Tensor& t) { return t.cummax(0); }},
      {"transpose", [](const Tensor& t) { return t.transpose(0, 1); }},
      {"flip0", [](const Tensor& t) { return t.flip(0); }},
      {"flip1", [](const Tensor& t) { return t.flip(1); }},
      {"pad",
       [](const Tensor& t) {
         return t.pad({{1, 1}, {2, 0}});
       }},
      {"shrink",
       [](const Tensor& t) {
         return t.shrink({{1, 3}, {0, 4}});
       }},
      {"reshape",
       [](const Tensor& t) {
         return t.reshape({2, 12});
       }},
      {"reshape2", [](const Tensor& t) { return t.reshape({24}); }},
      {"reshape3",
       [](const Tensor& t) {
         return t.reshape({4, 2, 3});
       }},
      {"flatten", [](const Tensor& t) { return t.flatten(); }},
      {"unsqueeze", [](const Tensor& t) { return t.unsqueeze(1); }},
      {"expand",
       [](const Tensor& t) {
         return t.unsqueeze(0).expand({3, 4, 6});
       }},
      {"repeat",
       [](const Tensor& t) {
         return t.repeat({2, 1});
       }},
      {"matmul",
       [](const Tensor& t) {
         return t.matmul(In({6, 5}).to(t.device()));
       }},
      {"matmulT",
       [](const Tensor& t) {
         return In({3, 4}).to(t.device()).matmul(t);
       }},
      {"dot_self", [](const Tensor& t) { return t.matmul(t.transpose(0, 1)); }},
      {"where", [](const Tensor& t) { return t.gt(0).where(t, t * 2); }},
      {"cat0", [](const Tensor& t) { return t.cat({t}, 0); }},
      {"cat1", [](const Tensor& t) { return t.cat({t}, 1); }},
      {"stack",
       [](const Tensor& t) {
         return Tensor::Stack({t, t}, 0);
       }},
      {"slice", [](const Tensor& t) { return t.slice({Slice(1, 3)}); }},
      {"gather1",
       [](const Tensor& t) {
         return t.gather(
             1, Tensor::FromVector(std::vector<int32_t>{0, 1, 2, 3, 4, 5, 5, 4, 3, 2, 1, 0,
                                                        1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0},
                                   {4, 6})
                    .to(t.device()));
       }},
      {"one_hot", [](const Tensor& t) { return (t.abs().cast(dtypes::int32)).one_hot(4); }},
      {"layernorm", [](const Tensor& t) { return t.layernorm(); }},
      {"tril", [](const Tensor& t) { return t.tril(); }},
      {"pow", [](const Tensor& t) { return t.abs().pow(1.5); }},
      {"cast_half", [](const Tensor& t) { return t.cast(dtypes::float16) * 2; }},
      {"int_ops",
       [](const Tensor& t) {
         return t.cast(dtypes::int32).idiv(2) + t.cast(dtypes::int32).mod(3);
       }},
      {"assign",
       [](const Tensor& t) {
         Tensor c = (t + 0).contiguous();
         (void)c.realize();
         Tensor r = c.assign(c * 2 + 1);
         (void)r.realize();
         return c;
       }},
      {"contig_realize",
       [](const Tensor& t) {
         Tensor c = (t * 3).contiguous();
         (void)c.realize();
         return c - 1;
       }},
      {"to_cpu", [](const Tensor& t) { return t.to("CPU") + 1; }},
      {"to_cpu1", [](const Tensor& t) { return (t + 1).to("CPU:1"); }},
      {"mix_single",
       [](const Tensor& t) {
         return t + In({4, 6}).to(t.device());
       }},
  };
  for (const auto& [name, op] : ops2) CheckOnShards(name, {4, 6}, op);
}

TEST(MultiDeviceOpsTest, ImageOps) {
  const std::vector<std::pair<std::string, Op>> ops4 = {
      {"conv2d",
       [](const Tensor& t) {
         return t.conv2d(In({3, 2, 3, 3}).to(t.device()));
       }},
      {"conv2d_pad",
       [](const Tensor& t) {
         return t.conv2d(In({3, 2, 3, 3}).to(t.device()), std::nullopt, {.padding = {1}});
       }},
      {"maxpool", [](const Tensor& t) { return t.max_pool2d(); }},
      {"avgpool", [](const Tensor& t) { return t.avg_pool2d(); }},
      {"batchnorm_stats",
       [](const Tensor& t) {
         return t.mean({0, 2, 3});
       }},
  };
  for (const auto& [name, op] : ops4) CheckOnShards(name, {4, 2, 6, 6}, op);
}

}  // namespace
}  // namespace tg
