// Tensor::custom_kernel: the kernels of tinygrad's test/test_custom_kernel.py written with
// uop/custom_kernel.h, checked as the reference checks them (against the same computation
// done with Tensor ops), on one device, on shards of two, and through backward; and the errors.
#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/tensor/tiny_jit.h"

namespace tg {
namespace {

using ::testing::Each;
using ::testing::HasSubstr;

// ** kernels (tinygrad's test_custom_kernel.py) **

UOp ArangeKernel(std::span<const UOp> p) {
  const UOp& c = p[0];
  UOp i = UOp::Range(ShapeSize(c), 0);
  return KernelSink({At(c, {i}).store(i.cast(c.dtype().base())).end({i})},
                    {.name = absl::StrCat("custom_arange_", ShapeSize(c))});
}

UOp EyeKernel(std::span<const UOp> p) {
  const UOp& c = p[0];
  UOp i = UOp::Range((*c.shape())[0].value(), 0), j = UOp::Range((*c.shape())[1].value(), 1);
  return KernelSink({At(c, {i, j}).store(i.eq(j).cast(c.dtype().base())).end({i, j})},
                    {.name = absl::StrCat("custom_eye_", ShapeSize(c))});
}

UOp AddOneKernel(std::span<const UOp> p) {
  UOp b = Flatten(p[0]), a = Flatten(p[1]);
  UOp i = UOp::Range(ShapeSize(a), 0);
  return KernelSink({At(b, {i}).store(At(a, {i}) + ConstValue(1.0)).end({i})},
                    {.name = absl::StrCat("add_one_", ShapeSize(a))});
}

UOp AddKernel(std::span<const UOp> p) {
  UOp c = Flatten(p[0]), a = Flatten(p[1]), b = Flatten(p[2]);
  UOp i = UOp::Range(ShapeSize(c), 0);
  return KernelSink({At(c, {i}).store(At(a, {i}) + At(b, {i})).end({i})},
                    {.name = absl::StrCat("custom_add_kernel_", ShapeSize(c))});
}

UOp AddMulKernel(std::span<const UOp> p) {
  UOp c = Flatten(p[0]), d = Flatten(p[1]), a = Flatten(p[2]), b = Flatten(p[3]);
  UOp i = UOp::Range(ShapeSize(c), 0);
  UOp store_c = At(c, {i}).store(At(a, {i}) + At(b, {i}));
  UOp store_d = At(d, {i}).store(At(a, {i}) * At(b, {i}));
  return KernelSink({Group({store_c, store_d}).end({i})},
                    {.name = absl::StrCat("custom_addmul_kernel_", ShapeSize(c))});
}

UOp GemmKernel(std::span<const UOp> p) {
  UOp c = p[0];
  const UOp &a = p[1], &b = p[2];
  const int64_t m = (*c.shape())[0].value(), n = (*c.shape())[1].value(),
                kk = (*a.shape())[1].value();
  UOp i = UOp::Range(m, 0), j = UOp::Range(n, 1), k = UOp::Range(kk, 2, AxisType::REDUCE);
  c = Set(At(c, {i, j}), 0.0);
  c = Set(At(c, {i, j}), At(c.after({k}), {i, j}) + At(a, {i, k}) * At(b, {k, j}), {k});
  KernelInfo info{.name = absl::StrCat("custom_gemm_", m, "_", n, "_", kk)};
  info.opts_to_apply = std::vector<Arg>{};
  return KernelSink({c.end({i, j})}, info);
}

UOp SumKernel(std::span<const UOp> p) {
  UOp b = p[0];
  const UOp& a = p[1];
  UOp i = UOp::Range(ShapeSize(a), 0, AxisType::REDUCE);
  b = Set(At(b, {0}), 0.0);
  b = Set(At(b, {0}), At(b.after({i}), {0}) + At(a, {i}), {i});
  KernelInfo info{.name = absl::StrCat("custom_sum_", ShapeSize(a))};
  info.opts_to_apply = std::vector<Arg>{};
  return KernelSink({b}, info);
}

UOp FlipContractKernel(std::span<const UOp> p) {
  const UOp &dest = p[0], &src = p[1];
  UOp i = UOp::Range((*dest.shape())[0].value(), 0);
  UOp j = UOp::Range((*dest.shape())[1].value(), 1, AxisType::UPCAST);
  UOp vec = Contract(At(src, {i, j}), {j});
  std::vector<UOp> stores;
  for (int k = 0; k < 4; ++k) stores.push_back(At(dest, {i, int64_t{k}}).store(vec.gep(3 - k)));
  KernelInfo info{.name = absl::StrCat("flip_contract_", ShapeSize(dest))};
  info.opts_to_apply = std::vector<Arg>{};
  return KernelSink({Group(stores).end({i})}, info);
}

UOp SliceSumKernel(std::span<const UOp> p) {
  const UOp &dest = p[0], &src = p[1];
  const int64_t rows = (*src.shape())[0].value(), cols = (*src.shape())[1].value();
  UOp g = UOp::Range(rows, 0);
  UOp slice = At(src, {g, Whole{}});
  UOp reg = Placeholder({1}, dest.dtype().base(), 0, AddrSpace::REG);
  reg = Set(At(reg.after({g}), {0}), 0.0);
  UOp r = UOp::Range(cols, 1, AxisType::REDUCE);
  reg = Set(At(reg, {0}), At(reg.after({r}), {0}) + At(slice, {r}), {r});
  UOp ast = Set(At(dest, {g}), At(reg, {0}), {g});
  KernelInfo info{.name = absl::StrCat("slice_sum_", rows, "_", cols)};
  info.opts_to_apply = std::vector<Arg>{};
  return KernelSink({ast}, info);
}

// attention without softmax: O = (Q K^T / sqrt(d)) V
UOp SimpleQkvKernel(std::span<const UOp> p) {
  const UOp &o = p[0], &q = p[1], &k = p[2], &v = p[3];
  const int64_t n = (*q.shape())[0].value(), d = (*q.shape())[1].value();
  UOp i = UOp::Range(n, 0), d_out = UOp::Range(d, 1);
  UOp j = UOp::Range(n, 2, AxisType::REDUCE), k_inner = UOp::Range(d, 3, AxisType::REDUCE);
  const DType dt = q.dtype().base();
  UOp qk = Placeholder({1}, dt, 0, AddrSpace::REG);
  qk = Set(At(qk.after({i, j}), {0}), 0.0);
  qk = Set(At(qk, {0}), At(qk.after({k_inner}), {0}) + At(q, {i, k_inner}) * At(k, {j, k_inner}),
           {k_inner});
  UOp score = At(qk, {0}) / UOp::Const(dt, std::sqrt(static_cast<double>(d)));
  UOp acc = Placeholder({1}, dt, 1, AddrSpace::REG);
  acc = Set(At(acc.after({i, d_out}), {0}), 0.0);
  acc = Set(At(acc, {0}), At(acc.after({j}), {0}) + score * At(v, {j, d_out}), {j});
  UOp store = At(o, {i, d_out}).store(At(acc, {0}));
  KernelInfo info{.name = absl::StrCat("simple_qkv_", n, "_", d)};
  info.opts_to_apply = std::vector<Arg>{};
  return KernelSink({store.end({d_out}).end({i})}, info);
}

// ** backward functions **

// The gemm's gradients with Tensor ops: dA = G B^T, dB = A^T G.
std::vector<UOp> GemmBackward(const UOp& grad, const UOp& kernel) {
  Tensor g(grad), a(kernel.src(1)), b(kernel.src(2));
  return {UOp(), g.matmul(b.transpose()).uop(), a.transpose().matmul(g).uop()};
}

// The same with the gemm kernel itself.
std::vector<UOp> GemmBackwardCustom(const UOp& grad, const UOp& kernel) {
  Tensor g(grad), a(kernel.src(1)), b(kernel.src(2));
  Tensor ga = a.empty_like().custom_kernel({g, b.transpose()}, GemmKernel)[0];
  Tensor gb = b.empty_like().custom_kernel({a.transpose(), g}, GemmKernel)[0];
  return {UOp(), ga.uop(), gb.uop()};
}

// Randn after ManualSeed(seed): the same draw on every run.
Tensor Seeded(uint64_t seed, const std::vector<int64_t>& shape) {
  Tensor::ManualSeed(seed);
  return Tensor::Randn(shape);
}

std::vector<float> Values(const Tensor& t) {
  absl::StatusOr<std::vector<float>> v = t.to_vector<float>();
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : std::vector<float>{};
}

// max((a - b)^2), as the reference's checks
float MaxSquaredError(const Tensor& a, const Tensor& b) {
  std::vector<float> v = Values((a - b).square().max());
  return v.empty() ? INFINITY : v[0];
}

const std::vector<std::string> kTwoDevices = {"CPU:0", "CPU:1"};

// ** tests (tinygrad's TestCustomKernel) **

TEST(CustomKernelTest, Empty) {
  Tensor a = Tensor::Empty({1});
  a = a.custom_kernel({}, [](std::span<const UOp>) { return UOp::Sink({}); })[0];
  EXPECT_TRUE(a.realize().ok());
}

TEST(CustomKernelTest, Simple) {
  Tensor a = Tensor::Ones({16, 16}).contiguous(), b = Tensor::Ones({16, 16}).contiguous();
  Tensor c = Tensor::Empty({16, 16}).custom_kernel({a, b}, AddKernel)[0];
  EXPECT_THAT(Values(c), Each(2.0f));
}

TEST(CustomKernelTest, SimpleSharded) {
  Tensor a = Tensor::Ones({16, 16}).contiguous().shard(kTwoDevices, 0);
  Tensor b = Tensor::Ones({16, 16}).contiguous().shard(kTwoDevices, 0);
  std::vector<Tensor> out = a.empty_like().custom_kernel({a, b}, AddKernel);
  EXPECT_EQ(out[0].devices(), a.devices());
  EXPECT_EQ(out[0].shard_axis(), 0);
  EXPECT_THAT(Values(out[0]), Each(2.0f));
}

TEST(CustomKernelTest, MultiOutput) {
  Tensor a = Tensor::Full({16, 16}, 3.0).contiguous(), b = Tensor::Full({16, 16}, 3.0).contiguous();
  std::vector<Tensor> out =
      Tensor::Empty({16, 16}).custom_kernel({Tensor::Empty({16, 16}), a, b}, AddMulKernel);
  ASSERT_EQ(out.size(), 4u);
  ASSERT_TRUE(Realize({out[0], out[1]}).ok());
  EXPECT_THAT(Values(out[0]), Each(6.0f));
  EXPECT_THAT(Values(out[1]), Each(9.0f));
}

TEST(CustomKernelTest, Arange) {
  Tensor ref = Tensor::Arange(100);
  Tensor tst = ref.empty_like().custom_kernel({}, ArangeKernel)[0];
  EXPECT_EQ(Values(tst), Values(ref));
}

TEST(CustomKernelTest, Eye) {
  Tensor ref = Tensor::Eye(64).contiguous();
  Tensor tst = ref.empty_like().custom_kernel({}, EyeKernel)[0];
  EXPECT_EQ(Values(tst), Values(ref));
}

TEST(CustomKernelTest, FlipContract) {
  Tensor a = Seeded(1, {10, 4});
  Tensor b = a.empty_like().custom_kernel({a}, FlipContractKernel)[0];
  EXPECT_EQ(Values(b), Values(a.flip({1})));
}

TEST(CustomKernelTest, NonContiguousSource) {
  Tensor a = Tensor::Ones({16, 16}).contiguous();
  Tensor out = a.empty_like().custom_kernel({a + 1}, AddOneKernel)[0];
  EXPECT_THAT(Values(out), Each(3.0f));
}

TEST(CustomKernelTest, Sum) {
  Tensor a = Tensor::FromVector(std::vector<float>{1, 2, 3, 4, 5}, {5});
  Tensor b = Tensor::Empty({1}).custom_kernel({a}, SumKernel)[0];
  EXPECT_EQ(Values(b), std::vector<float>{15});
}

TEST(CustomKernelTest, SumInt) {
  Tensor a = Tensor::FromVector(std::vector<int32_t>{1, 2, 3, 4, 5}, {5});
  Tensor b = Tensor::Empty({1}, {.dtype = a.dtype()}).custom_kernel({a}, SumKernel)[0];
  absl::StatusOr<std::vector<int32_t>> v = b.to_vector<int32_t>();
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(*v, std::vector<int32_t>{15});
}

TEST(CustomKernelTest, SliceSum) {
  Tensor a = Seeded(2, {16, 16}).contiguous();
  Tensor b = Tensor::Empty({16}).custom_kernel({a}, SliceSumKernel)[0];
  EXPECT_LT(MaxSquaredError(b, a.sum(1)), 1e-10f);
}

TEST(CustomKernelTest, Gemm) {
  Tensor a = Seeded(3, {16, 16}), b = Seeded(4, {16, 16});
  Tensor tst = Tensor::Empty({16, 16}).custom_kernel({a, b}, GemmKernel)[0];
  EXPECT_LT(MaxSquaredError(tst, a.matmul(b)), 1e-6f);
}

TEST(CustomKernelTest, GemmSharded) {
  Tensor a = Seeded(3, {16, 16}).shard_(kTwoDevices, 0);
  Tensor b = Seeded(4, {16, 16}).shard(kTwoDevices);
  Tensor tst = a.empty_like().custom_kernel({a, b}, GemmKernel)[0];
  EXPECT_LT(MaxSquaredError(tst, a.matmul(b)), 1e-6f);
}

void CheckGemmBackward(const CustomGradFn& grad_fxn) {
  Tensor a_rand = Seeded(5, {4, 8}), b_rand = Seeded(6, {8, 4});
  ASSERT_TRUE(Realize({a_rand, b_rand}).ok());
  Tensor a = a_rand.clone().requires_grad_(), b = b_rand.clone().requires_grad_();
  Tensor tst = Tensor::Empty({4, 4}).custom_kernel({a, b}, GemmKernel, grad_fxn)[0];
  ASSERT_TRUE(tst.sum().backward().ok());
  Tensor grad_a = *a.grad(), grad_b = *b.grad();

  Tensor ra = a_rand.clone().requires_grad_(), rb = b_rand.clone().requires_grad_();
  Tensor ref = ra.matmul(rb);
  ASSERT_TRUE(ref.sum().backward().ok());
  EXPECT_LT(MaxSquaredError(tst, ref), 1e-6f);
  EXPECT_LT(MaxSquaredError(grad_a, *ra.grad()), 1e-6f);
  EXPECT_LT(MaxSquaredError(grad_b, *rb.grad()), 1e-6f);
}

TEST(CustomKernelTest, GemmBackward) { CheckGemmBackward(GemmBackward); }
TEST(CustomKernelTest, GemmBackwardCustom) { CheckGemmBackward(GemmBackwardCustom); }

TEST(CustomKernelTest, SimpleQkv) {
  const int64_t n = 8, d = 4;
  Tensor q = Seeded(7, {n, d}), k = Seeded(8, {n, d});
  Tensor v = Seeded(9, {n, d});
  Tensor o = Tensor::Empty({n, d}).custom_kernel({q, k, v}, SimpleQkvKernel)[0];
  Tensor ref = (q.matmul(k.transpose()) / std::sqrt(static_cast<double>(d))).matmul(v);
  EXPECT_LT(MaxSquaredError(o, ref), 1e-6f);
}

// A step with a custom kernel replays under TinyJit: the kernel is captured like any other.
TEST(CustomKernelTest, ReplaysUnderTinyJit) {
  TinyJit step([](std::span<const Tensor> in) -> absl::StatusOr<std::vector<Tensor>> {
    return std::vector<Tensor>{in[0].empty_like().custom_kernel({in[0], in[1]}, GemmKernel)[0]};
  });
  for (int call = 0; call < 4; ++call) {
    SCOPED_TRACE(call);
    Tensor a = Seeded(30 + call, {8, 8}).contiguous(), b = Seeded(40 + call, {8, 8}).contiguous();
    ASSERT_TRUE(Realize({a, b}).ok());
    absl::StatusOr<std::vector<Tensor>> out = step({a, b});
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_LT(MaxSquaredError((*out)[0], a.matmul(b)), 1e-6f);
  }
  EXPECT_EQ(step.calls(), 4);
  EXPECT_GE(step.captured_size(), 1u);  // calls 2 and 3 replayed the captured kernel
}

// ** errors: a clear message, never an abort **

TEST(CustomKernelTest, SourcesOnDifferentDevicesAreAnError) {
  std::vector<Tensor> out =
      Tensor::Empty({4}, {.device = "CPU:0"})
          .custom_kernel({Tensor::Ones({4}, {.device = "CPU:1"})}, AddOneKernel);
  ASSERT_EQ(out.size(), 2u);
  for (const Tensor& t : out) {
    ASSERT_FALSE(t.ok());
    EXPECT_THAT(std::string(t.status().message()), HasSubstr("source 1 is on CPU:1"));
  }
}

TEST(CustomKernelTest, AnErroredSourceOrNoFunctionIsAnError) {
  Tensor bad = Tensor::Ones({2}).reshape({3});
  ASSERT_FALSE(bad.ok());
  EXPECT_FALSE(Tensor::Empty({2}).custom_kernel({bad}, AddOneKernel)[0].ok());
  std::vector<Tensor> out = Tensor::Empty({2}).custom_kernel({}, nullptr);
  ASSERT_FALSE(out[0].ok());
  EXPECT_THAT(std::string(out[0].status().message()), HasSubstr("no function"));
}

// What a kernel function can get wrong fails the realize, naming the kernel and what is wrong.
TEST(CustomKernelTest, ABadAstFailsTheRealize) {
  struct Case {
    std::string name;
    CustomKernelFn fxn;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"null", [](std::span<const UOp>) { return UOp(); }, "returned no AST"},
      {"not a sink",
       [](std::span<const UOp> p) { return At(p[0], {0}).store(UOp::Const(dtypes::float32, 1.0)); },
       "not a SINK"},
      {"tensor op",
       [](std::span<const UOp>) { return UOp::Sink({UOp::NewBuffer("CPU", 4, dtypes::float32)}); },
       "tensor-graph op"},
      {"fails the kernel spec",
       [](std::span<const UOp> p) {  // a store of a float into an int buffer's element
         return UOp::Sink(
             {UOp::Make(Ops::STORE, dtypes::void_, {p[0], UOp::Const(dtypes::float32, 1.0)})});
       },
       "kernel_spec"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Tensor out = Tensor::Empty({4}).custom_kernel({}, c.fxn)[0];
    absl::Status st = out.realize();
    ASSERT_FALSE(st.ok());
    EXPECT_THAT(std::string(st.message()), HasSubstr("custom kernel over [(4,)]"));
    EXPECT_THAT(std::string(st.message()), HasSubstr(c.message));
  }
}

TEST(CustomKernelTest, BackwardWithoutAGradFunctionIsAnError) {
  Tensor a = Seeded(1, {4, 4}).requires_grad_();
  Tensor b = Seeded(2, {4, 4});
  Tensor tst = Tensor::Empty({4, 4}).custom_kernel({a, b}, GemmKernel)[0];
  absl::Status st = tst.sum().backward();
  ASSERT_FALSE(st.ok());
  EXPECT_THAT(std::string(st.message()), HasSubstr("custom kernel without a grad function"));
}

TEST(CustomKernelTest, AGradFunctionGivingTheWrongCountIsAnError) {
  Tensor a = Seeded(1, {4, 4}).requires_grad_();
  Tensor b = Seeded(2, {4, 4});
  auto one_grad = [](const UOp& grad, const UOp&) { return std::vector<UOp>{grad}; };
  Tensor tst = Tensor::Empty({4, 4}).custom_kernel({a, b}, GemmKernel, one_grad)[0];
  absl::Status st = tst.sum().backward();
  ASSERT_FALSE(st.ok());
  EXPECT_THAT(std::string(st.message()), HasSubstr("gave 1 gradients for its 3 sources"));
}

// The reference asserts here; this is an error.
TEST(CustomKernelTest, UsingAComputedSourceAfterTheKernelIsAnError) {
  Tensor a = Tensor::Ones({16, 16}).contiguous();
  std::vector<Tensor> out = (a * 5.0).custom_kernel({a + 1}, AddOneKernel);
  absl::Status st = out[0].realize();
  ASSERT_FALSE(st.ok());
  EXPECT_THAT(std::string(st.message()), HasSubstr("a computed value (MUL), not a buffer"));
  // the computed input alone is fine (tinygrad's test_noncontig)
  EXPECT_THAT(Values(a.empty_like().custom_kernel({a * 5.0}, AddOneKernel)[0]), Each(6.0f));
}

}  // namespace
}  // namespace tg
