// File: tinygrad/tensor/autograd_golden_test.cc
// Gradients of random programs and kernel counts of backward passes against the reference
// (testdata/autograd_golden.txt, written by tools/golden/gen_autograd_golden.py running
// tinygrad 35900290 with DEV=CPU). The programs are drawn from the same seeds with the same
// splitmix64 stream; the inputs come from Tensor::ManualSeed + Randn, bit-exact with tinygrad.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/tensor/autograd.h"
#include "tinygrad/tensor/naive_test_util.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

using Row = std::vector<std::string>;

std::vector<Row> Golden() {
  std::ifstream f("tinygrad/tensor/testdata/autograd_golden.txt");
  EXPECT_TRUE(f.good()) << "run from the workspace root";
  std::vector<Row> out;
  std::string line;
  while (std::getline(f, line))
    if (!line.empty() && line[0] != '#') out.push_back(absl::StrSplit(line, '|'));
  return out;
}

// The generator's splitmix64.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : s_(seed) {}
  uint64_t Next() {
    uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  int64_t Below(int64_t n) { return static_cast<int64_t>(Next() % static_cast<uint64_t>(n)); }

 private:
  uint64_t s_;
};

using OpFn = std::function<Tensor(const Tensor&, const Tensor&, int64_t, int64_t)>;
// The generator's OPS, in its order, op for op.
const std::vector<std::pair<std::string, OpFn>>& Ops() {
  using T = const Tensor&;
  static const auto* ops = new std::vector<std::pair<std::string, OpFn>>{
      {"add", [](T a, T b, int64_t, int64_t) { return a + b; }},
      {"mul", [](T a, T b, int64_t, int64_t) { return a * b; }},
      {"sub", [](T a, T b, int64_t, int64_t) { return a - b; }},
      {"div", [](T a, T b, int64_t, int64_t) { return a / (b.abs() + 1); }},
      {"maximum", [](T a, T b, int64_t, int64_t) { return a.maximum(b); }},
      {"exp", [](T a, T, int64_t, int64_t) { return (a * 0.5).exp(); }},
      {"sin", [](T a, T, int64_t, int64_t) { return a.sin(); }},
      {"relu", [](T a, T, int64_t, int64_t) { return a.relu(); }},
      {"sigmoid", [](T a, T, int64_t, int64_t) { return a.sigmoid(); }},
      {"tanh", [](T a, T, int64_t, int64_t) { return a.tanh(); }},
      {"log", [](T a, T, int64_t, int64_t) { return (a * a + 1).log(); }},
      {"sqrt", [](T a, T, int64_t, int64_t) { return (a * a + 1).sqrt(); }},
      {"reciprocal", [](T a, T, int64_t, int64_t) { return (a * a + 1).reciprocal(); }},
      {"pow", [](T a, T b, int64_t, int64_t) { return (a.abs() + 0.5).pow(b * 0.5); }},
      {"where", [](T a, T b, int64_t, int64_t) { return (a > b).where(a, b * 2); }},
      {"softmax", [](T a, T, int64_t, int64_t) { return a.softmax(1); }},
      {"log_softmax", [](T a, T, int64_t, int64_t) { return a.log_softmax(0); }},
      {"sub_rowsum", [](T a, T, int64_t, int64_t) { return a - a.sum(1, true) * 0.1; }},
      {"sub_colmax", [](T a, T, int64_t, int64_t) { return a - a.max(0, true); }},
      {"flip_mul", [](T a, T b, int64_t, int64_t) { return a.flip(0) * b; }},
      {"transpose_reshape", [](T a, T, int64_t r, int64_t c) { return a.T().reshape({r, c}); }},
      {"pad_shrink",
       [](T a, T, int64_t r, int64_t c) {
         return a.pad({{1, 0}, {0, 2}}).shrink({{0, r}, {2, c + 2}});
       }},
      {"matmul", [](T a, T b, int64_t, int64_t) { return a.matmul(b.T()).matmul(b) * 0.1; }},
      {"conv2d",
       [](T a, T b, int64_t r, int64_t c) {
         Tensor w = b.shrink({{0, 3}, {0, 3}}).reshape({1, 1, 3, 3});
         return a.reshape({1, 1, r, c}).conv2d(w, std::nullopt, {.padding = {1}}).reshape({r, c});
       }},
      {"mul_mean", [](T a, T b, int64_t, int64_t) { return a * b.mean(); }},
      {"cast_half",
       [](T a, T b, int64_t, int64_t) { return a.cast(dtypes::float16).cast(dtypes::float32) * b; }},
      {"cumsum", [](T a, T, int64_t, int64_t) { return a.cumsum(1); }},
      {"mul_max", [](T a, T, int64_t, int64_t) { return a * a.max(); }},
      {"clip", [](T a, T, int64_t, int64_t) { return a.clip(-0.5, 0.5); }},
      {"gelu", [](T a, T, int64_t, int64_t) { return a.gelu(); }},
  };
  return *ops;
}

struct Program {
  int64_t rows, cols, inputs;
  std::vector<std::string> names;
  std::vector<Tensor> pool;  // inputs, then each op's result
  Tensor loss;
};

Program Build(uint64_t seed) {
  SplitMix64 rng(seed);
  Program p{.rows = 3 + rng.Below(4), .cols = 3 + rng.Below(5), .inputs = 2 + rng.Below(2),
            .loss = Tensor::Error(absl::UnknownError("unset"))};
  int64_t nops = 5 + rng.Below(4);
  Tensor::ManualSeed(seed);
  for (int64_t i = 0; i < p.inputs; ++i) p.pool.push_back(Tensor::Randn({p.rows, p.cols}).requires_grad_());
  EXPECT_TRUE(Realize(p.pool).ok());
  for (int64_t i = 0; i < nops; ++i) {
    const auto& [name, fn] = Ops()[rng.Below(static_cast<int64_t>(Ops().size()))];
    // Drawn as separate statements: the generator draws a before b.
    const Tensor& a = p.pool[rng.Below(static_cast<int64_t>(p.pool.size()))];
    const Tensor& b = p.pool[rng.Below(static_cast<int64_t>(p.pool.size()))];
    p.names.push_back(name);
    Tensor r = fn(a, b, p.rows, p.cols);
    p.pool.push_back(r);
  }
  p.loss = p.pool[p.inputs].sum();
  for (size_t i = p.inputs + 1; i < p.pool.size(); ++i) p.loss = p.loss + p.pool[i].sum();
  return p;
}

// Kernels run to realize `ts` together (tinygrad's GlobalCounters.kernel_count delta).
int64_t KernelsToRealize(const std::vector<Tensor>& ts) {
  int64_t before = GetEngineStats().kernel_count;
  absl::Status s = Realize(ts);
  EXPECT_TRUE(s.ok()) << s;
  return GetEngineStats().kernel_count - before;
}

double Parse(const std::string& s) {
  double v = 0;
  EXPECT_TRUE(absl::SimpleAtod(s, &v)) << s;
  return v;
}

// The records of one program (P, H, C, L, G), in the file's order.
std::vector<Row> ProgramRecords(const std::string& seed) {
  std::vector<Row> out;
  for (const Row& r : Golden())
    if (r[0] != "K" && r[1] == seed) out.push_back(r);
  return out;
}

std::vector<std::string> Seeds() {
  std::vector<std::string> out;
  for (const Row& r : Golden())
    if (r[0] == "P") out.push_back(r[1]);
  return out;
}

class RandomProgram : public testing::TestWithParam<std::string> {};

TEST_P(RandomProgram, GradientsGraphsAndKernelsMatchTheReference) {
  std::vector<Row> rows = ProgramRecords(GetParam());
  ASSERT_FALSE(rows.empty());
  const Row& head = rows[0];
  ASSERT_EQ(head[0], "P") << "the program record comes first";
  Program p = Build(std::stoull(head[1]));
  EXPECT_EQ(std::to_string(p.rows), head[2]);
  EXPECT_EQ(std::to_string(p.cols), head[3]);
  EXPECT_EQ(std::to_string(p.inputs), head[4]);
  ASSERT_EQ(absl::StrJoin(p.names, ","), head[5]) << "the op tables are out of sync";
  ASSERT_TRUE(p.loss.ok()) << p.loss.status();
  ASSERT_TRUE(p.loss.backward().ok());
  int grads = 0;
  for (const Row& r : rows) {
    SCOPED_TRACE(absl::StrJoin(r, "|").substr(0, 80));
    if (r[0] == "H") {  // the backward graph, before anything of it is realized
      std::optional<Tensor> g = p.pool.at(std::stoi(r[2])).grad();
      ASSERT_TRUE(g.has_value());
      EXPECT_EQ(naive::OpHistogram(*g), r[3]);
    } else if (r[0] == "C") {  // the loss and every grad in one schedule, as the generator
      std::vector<Tensor> outs{p.loss};
      for (const Tensor& t : p.pool)
        if (std::optional<Tensor> g = t.grad()) outs.push_back(*g);
      EXPECT_EQ(KernelsToRealize(outs), std::stoi(r[2]));
    } else if (r[0] == "L") {
      absl::StatusOr<float> loss = p.loss.item<float>();
      ASSERT_TRUE(loss.ok()) << loss.status();
      EXPECT_NEAR(*loss, Parse(r[2]), 1e-5 * std::max(1.0, std::abs(Parse(r[2]))));
    } else if (r[0] == "G") {
      ++grads;
      std::optional<Tensor> g = p.pool.at(std::stoi(r[2])).grad();
      if (r[3] == "none") {
        EXPECT_FALSE(g.has_value());
        continue;
      }
      ASSERT_TRUE(g.has_value());
      std::vector<double> got = naive::Values(*g);
      std::vector<std::string> want = absl::StrSplit(r[3], ',');
      ASSERT_EQ(got.size(), want.size());
      for (size_t j = 0; j < got.size(); ++j) {
        double w = Parse(want[j]);
        // Not bit-exact: the graphs are the reference's (the H records), but the kernels are
        // rendered and compiled by a different code path (operation order in reductions after
        // opts, FMA contraction, transcendental lowering), so float32 results differ in the
        // last bits; 1e-5 relative bounds that across ~10 chained ops (seen: 3.7e-8).
        EXPECT_LE(std::abs(got[j] - w) / std::max(1.0, std::abs(w)), 1e-5)
            << "element " << j << ": " << got[j] << " vs " << w;
      }
    }
  }
  EXPECT_EQ(grads, static_cast<int>(p.pool.size()));  // a G record for every pool tensor
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomProgram, testing::ValuesIn(Seeds()));

// The generator's fixed backward passes: parameters (and data) realized first, then
// loss.backward() and one realize of the loss with every grad.
struct FixedProgram {
  std::vector<Tensor> params;  // data too; those with requires_grad get a grad
  std::function<Tensor()> loss;
};

FixedProgram MlpMse() {
  Tensor x = Tensor::Randn({16, 8}), t = Tensor::Randn({16, 4});
  Tensor w1 = Tensor::Randn({8, 32}).requires_grad_(), b1 = Tensor::Randn({32}).requires_grad_();
  Tensor w2 = Tensor::Randn({32, 4}).requires_grad_(), b2 = Tensor::Randn({4}).requires_grad_();
  return {{x, t, w1, b1, w2, b2},
          [=] { return (x.linear(w1, b1).relu().linear(w2, b2) - t).square().mean(); }};
}

FixedProgram MlpLogSoftmax() {
  Tensor x = Tensor::Randn({16, 8}), y = Tensor::Randint({16}, 0, 4);
  Tensor w1 = Tensor::Randn({8, 32}).requires_grad_(), w2 = Tensor::Randn({32, 4}).requires_grad_();
  return {{x, y, w1, w2}, [=] {
            return -(x.matmul(w1).relu().matmul(w2).log_softmax(1) * y.one_hot(4)).sum(1).mean();
          }};
}

FixedProgram ConvReluMean() {
  Tensor x = Tensor::Randn({2, 3, 8, 8}), w = Tensor::Randn({4, 3, 3, 3}).requires_grad_();
  return {{x, w}, [=] { return x.conv2d(w, std::nullopt, {.padding = {1}}).relu().mean(); }};
}

TEST(AutogradGolden, BackwardKernelCounts) {
  const std::map<std::string, std::function<FixedProgram()>> programs{
      {"mlp_mse", MlpMse}, {"mlp_logsoftmax", MlpLogSoftmax}, {"conv_relu_mean", ConvReluMean}};
  int checked = 0;
  for (const Row& r : Golden()) {
    if (r[0] != "K") continue;
    SCOPED_TRACE(r[1]);
    ASSERT_TRUE(programs.contains(r[1])) << "no C++ program " << r[1];
    Tensor::ManualSeed(0);
    FixedProgram p = programs.at(r[1])();
    ASSERT_TRUE(Realize(p.params).ok());
    Tensor loss = p.loss();
    ASSERT_TRUE(loss.backward().ok());
    std::vector<Tensor> outs{loss};
    for (const Tensor& t : p.params)
      if (t.requires_grad() == true) outs.push_back(*t.grad());
    EXPECT_EQ(KernelsToRealize(outs), std::stoi(r[2]));
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(programs.size()));
}

}  // namespace
}  // namespace tg
