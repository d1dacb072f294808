// File: tinygrad/tensor/scatter_test.cc
// scatter, scatter_reduce, masked_fill, masked_select and max_unpool2d against the reference.
// The expected values (and dtypes and shapes) were produced by running tinygrad 35900290 with
// DEV=CPU on the same programs: tools/golden/gen_scatter_golden.py prints them, one line per
// case, under the names used below. Error cases check that the ops the reference refuses give
// an errored tensor whose message names the op and the problem.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

using SR = Tensor::ScatterReduce;

template <typename T>
Tensor T_(const std::vector<T>& v, const std::vector<int64_t>& shape) {
  return Tensor::FromVector<T>(v, shape);
}
Tensor F(const std::vector<float>& v, const std::vector<int64_t>& shape) { return T_(v, shape); }
Tensor I(const std::vector<int32_t>& v, const std::vector<int64_t>& shape) { return T_(v, shape); }

// `t` has the reference's dtype, shape and values (floats to 1e-6 relative; the reference's
// float32 values printed as doubles).
template <typename E>
void Expect(const std::string& name, const Tensor& t, DType dt, const std::vector<int64_t>& shape,
            const std::vector<E>& want) {
  SCOPED_TRACE(name);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t.dtype(), dt) << t.dtype().repr();
  EXPECT_EQ(t.shape(), shape);
  absl::StatusOr<std::vector<E>> got = t.to_vector<E>();
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_EQ(got->size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    if constexpr (std::is_floating_point_v<E>) {
      EXPECT_NEAR((*got)[i], want[i], 1e-6 * std::max<double>(1.0, std::fabs(want[i])))
          << "at " << i;
    } else {
      EXPECT_EQ((*got)[i], want[i]) << "at " << i;
    }
  }
}

void ExpectError(const Tensor& t, const std::string& message) {
  ASSERT_FALSE(t.ok()) << "expected an error containing: " << message;
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(t.status().message()).find(message), std::string::npos) << t.status();
}

Tensor Src25() { return Tensor::Arange(1, 11).reshape(std::vector<int64_t>{2, 5}); }

TEST(Scatter, Values) {
  const auto zeros35 = [] {
    return Tensor::Zeros(std::vector<int64_t>{3, 5}, {.dtype = dtypes::int32});
  };
  Expect<int32_t>("scatter_dim0", zeros35().scatter(0, I({0, 1, 2, 0}, {1, 4}), Src25()),
                  dtypes::int32, {3, 5}, {1, 0, 0, 4, 0, 0, 2, 0, 0, 0, 0, 0, 3, 0, 0});
  Expect<int32_t>("scatter_dim1", zeros35().scatter(1, I({0, 1, 2, 0, 1, 4}, {2, 3}), Src25()),
                  dtypes::int32, {3, 5}, {1, 2, 3, 0, 0, 6, 7, 0, 0, 8, 0, 0, 0, 0, 0});
  // repeated positions: the last one wins
  Tensor self = Tensor::Arange(12).cast(dtypes::float32).reshape(std::vector<int64_t>{3, 4});
  Tensor src =
      (Tensor::Arange(9).cast(dtypes::float32).reshape(std::vector<int64_t>{3, 3}) + 0.5) * -1;
  Expect<float>("scatter_dups", self.scatter(1, I({1, 1, 0, 3, 3, 3, 0, 2, 2}, {3, 3}), src),
                dtypes::float32, {3, 4},
                {-2.5, -1.5, 2.0, 3.0, 4.0, 5.0, 6.0, -5.5, -6.5, 9.0, -8.5, 11.0});
  Tensor src3 = Tensor::Arange(24).cast(dtypes::float32).reshape(std::vector<int64_t>{2, 3, 4}) / 4;
  Expect<float>("scatter_3d_neg_dim",
                Tensor::Ones(std::vector<int64_t>{2, 3, 4})
                    .scatter(-2, I({2, 0, 1, 0, 0, 2, 1, 1, 1, 2, 1, 0}, {2, 2, 3}), src3),
                dtypes::float32, {2, 3, 4},
                {1.0, 1.25, 1.0, 1.0, 1.0, 1.0,  0.5, 1.0, 0.0, 1.0, 1.5, 1.0,
                 1.0, 1.0,  4.5, 1.0, 3.0, 4.25, 3.5, 1.0, 4.0, 1.0, 1.0, 1.0});
  // out of range values (3 and -1 along a dim of 3) write nothing
  Expect<float>("scatter_out_of_range",
                Tensor::Zeros(std::vector<int64_t>{3, 2})
                    .scatter(0, I({3, 0, -1, 2}, {2, 2}), F({1, 2, 3, 4}, {2, 2})),
                dtypes::float32, {3, 2}, {0.0, 2.0, 0.0, 0.0, 0.0, 4.0});
  Expect<bool>("scatter_int64_index",
               T_<bool>({true, false, false, true}, {4})
                   .scatter(0, T_<int64_t>({1, 2}, {2}), T_<bool>({true, true}, {2})),
               dtypes::bool_, {4}, {true, true, true, true});
}

// An empty index: the reference's scatter_reduce keeps self; its scatter fails in broadcasting
// (an error here too, never a crash).
TEST(Scatter, EmptyIndex) {
  const Tensor x = F({1, 2, 3, 4}, {2, 2});
  Expect<float>(
      "empty_scatter_reduce",
      x.scatter_reduce(1, Tensor::Zeros(std::vector<int64_t>{2, 0}, {.dtype = dtypes::int32}),
                       Tensor::Ones(std::vector<int64_t>{2, 0}), SR::kAmax),
      dtypes::float32, {2, 2}, {1, 2, 3, 4});
  ExpectError(x.scatter(0, Tensor::Zeros(std::vector<int64_t>{0, 2}, {.dtype = dtypes::int32}),
                        Tensor::Ones(std::vector<int64_t>{0, 2})),
              "scatter: where: shapes (2, 2, 0) and (2, 2) cannot be broadcast");
}

TEST(Scatter, ScalarSrcAndReduce) {
  const auto full = [] { return Tensor::Full(std::vector<int64_t>{2, 4}, 2.0); };
  Expect<float>("scatter_scalar", full().scatter(1, I({2, 3}, {2, 1}), 1.25), dtypes::float32,
                {2, 4}, {2.0, 2.0, 1.25, 2.0, 2.0, 2.0, 2.0, 1.25});
  Expect<float>("scatter_scalar_multiply",
                full().scatter(1, I({2, 2, 3, 0}, {2, 2}), 1.25, Tensor::ScatterMode::kMultiply),
                dtypes::float32, {2, 4}, {2.0, 2.0, 3.125, 2.0, 2.5, 2.0, 2.0, 2.5});
  Expect<float>("scatter_scalar_add",
                full().scatter(1, I({2, 2, 3, 0}, {2, 2}), 1.25, Tensor::ScatterMode::kAdd),
                dtypes::float32, {2, 4}, {2.0, 2.0, 4.5, 2.0, 3.25, 2.0, 2.0, 3.25});
}

struct ReduceCase {
  SR reduce;
  bool include_self;
  std::vector<float> want;
};

TEST(ScatterReduce, Float32EveryReduceWithDuplicates) {
  const Tensor self = F({1, -2, 3, 4, 5, 6, -7, 8, 9, 10, 11, -12}, {3, 4});
  const Tensor src = F({0.5, 1.5, -2.5, 3.5, 4.5, -5.5, 6.5, 7.5, -8.5, 9.5, 10.5, 0.25}, {3, 4});
  const Tensor index = I({0, 0, 2, 1, 0, 2, 2, 1, 2, 0, 2, 0}, {3, 4});
  const std::vector<ReduceCase> cases = {
      {SR::kSum, true, {6.0, 9.0, 3.0, 4.25, 5.0, 6.0, -7.0, 19.0, 0.5, 4.5, 25.5, -12.0}},
      {SR::kSum, false, {5.0, 11.0, 3.0, 0.25, 5.0, 6.0, -7.0, 11.0, -8.5, -5.5, 14.5, -12.0}},
      {SR::kProd,
       true,
       {2.25, -28.5, 3.0, 1.0, 5.0, 6.0, -7.0, 210.0, -76.5, -55.0, -1876.875, -12.0}},
      {SR::kProd,
       false,
       {2.25, 14.25, 3.0, 0.25, 5.0, 6.0, -7.0, 26.25, -8.5, -5.5, -170.625, -12.0}},
      {SR::kMean,
       true,
       {2.0, 3.0, 3.0, 2.125, 5.0, 6.0, -7.0, 6.333333492279053, 0.25, 2.25, 6.375, -12.0}},
      {SR::kMean,
       false,
       {2.5, 5.5, 3.0, 0.25, 5.0, 6.0, -7.0, 5.5, -8.5, -5.5, 4.833333492279053, -12.0}},
      {SR::kAmax, true, {4.5, 9.5, 3.0, 4.0, 5.0, 6.0, -7.0, 8.0, 9.0, 10.0, 11.0, -12.0}},
      {SR::kAmax, false, {4.5, 9.5, 3.0, 0.25, 5.0, 6.0, -7.0, 7.5, -8.5, -5.5, 10.5, -12.0}},
      {SR::kAmin, true, {0.5, -2.0, 3.0, 0.25, 5.0, 6.0, -7.0, 3.5, -8.5, -5.5, -2.5, -12.0}},
      {SR::kAmin, false, {0.5, 1.5, 3.0, 0.25, 5.0, 6.0, -7.0, 3.5, -8.5, -5.5, -2.5, -12.0}},
  };
  for (const ReduceCase& c : cases)
    Expect<float>("sr_f32_" + std::to_string(static_cast<int>(c.reduce)) +
                      (c.include_self ? "_True" : "_False"),
                  self.scatter_reduce(0, index, src, c.reduce, c.include_self), dtypes::float32,
                  {3, 4}, c.want);
}

TEST(ScatterReduce, Int32EveryReduceAlongDim1) {
  const Tensor self = I({3, -1, 4, 1, -5, 9}, {2, 3});
  const Tensor src = I({2, 7, -1, 8, -2, 8, 1, 8}, {2, 4});
  const Tensor index = I({0, 2, 0, 1, 1, 1}, {2, 3});
  struct IntCase {
    SR reduce;
    bool include_self;
    std::vector<int32_t> want;
  };
  const std::vector<IntCase> cases = {
      {SR::kSum, true, {4, -1, 11, 1, 2, 9}},    {SR::kSum, false, {1, -1, 7, 1, 7, 9}},
      {SR::kProd, true, {-6, -1, 28, 1, 80, 9}}, {SR::kProd, false, {-2, -1, 7, 1, -16, 9}},
      {SR::kAmax, true, {3, -1, 7, 1, 8, 9}},    {SR::kAmax, false, {2, -1, 7, 1, 8, 9}},
      {SR::kAmin, true, {-1, -1, 4, 1, -5, 9}},  {SR::kAmin, false, {-1, -1, 7, 1, -2, 9}},
  };
  for (const IntCase& c : cases)
    Expect<int32_t>("sr_i32_" + std::to_string(static_cast<int>(c.reduce)) +
                        (c.include_self ? "_True" : "_False"),
                    self.scatter_reduce(1, index, src, c.reduce, c.include_self), dtypes::int32,
                    {2, 3}, c.want);
  // mean divides: a float result
  Expect<float>("sr_i32_mean_True", self.scatter_reduce(1, index, src, SR::kMean, true),
                dtypes::float32, {2, 3}, {1.3333333730697632, -1.0, 5.5, 1.0, 0.5, 9.0});
  Expect<float>("sr_i32_mean_False", self.scatter_reduce(1, index, src, SR::kMean, false),
                dtypes::float32, {2, 3}, {0.5, -1.0, 7.0, 1.0, 2.3333332538604736, 9.0});
}

TEST(ScatterReduce, SmallIntsAnd3d) {
  // sum accumulates int8 in int32 (no wrap at 127); amax keeps int8
  Expect<int32_t>(
      "sr_i8_sum",
      T_<int8_t>({1, 2, 3}, {3})
          .scatter_reduce(0, I({0, 0, 2}, {3}), T_<int8_t>({100, 100, -4}, {3}), SR::kSum),
      dtypes::int32, {3}, {201, 2, -1});
  Expect<int8_t>(
      "sr_i8_amax",
      T_<int8_t>({1, 2, 3}, {3})
          .scatter_reduce(0, I({0, 0, 2}, {3}), T_<int8_t>({100, 50, -4}, {3}), SR::kAmax, false),
      dtypes::int8, {3}, {100, 2, -4});
  Tensor self = Tensor::Arange(24).cast(dtypes::float32).reshape(std::vector<int64_t>{2, 3, 4});
  Tensor src = Tensor::Arange(12).cast(dtypes::float32).reshape(std::vector<int64_t>{2, 3, 2}) - 6;
  Expect<float>(
      "sr_3d_dim2_amin",
      self.scatter_reduce(2, I({3, 3, 0, 1, 2, 2, 1, 1}, {2, 2, 2}), src, SR::kAmin, false),
      dtypes::float32, {2, 3, 4},
      {0.0,  1.0,  2.0, -6.0, -4.0, -3.0, 6.0,  7.0,  8.0,  9.0,  10.0, 11.0,
       12.0, 13.0, 0.0, 15.0, 16.0, 2.0,  18.0, 19.0, 20.0, 21.0, 22.0, 23.0});
}

TEST(Masked, Fill) {
  const Tensor x = F({1, 2, 3, 4, 5, 6}, {2, 3});
  Expect<float>("masked_fill_scalar",
                x.masked_fill(T_<bool>({true, false, true, false, false, true}, {2, 3}), -12.0),
                dtypes::float32, {2, 3}, {-12.0, 2.0, -12.0, 4.0, 5.0, -12.0});
  Expect<float>("masked_fill_broadcast",
                x.masked_fill(T_<bool>({false, true, false}, {1, 3}), F({-1, -2, -3}, {3})),
                dtypes::float32, {2, 3}, {1.0, -2.0, 3.0, 4.0, -2.0, 6.0});
  Expect<int32_t>(
      "masked_fill_int",
      I({1, 2, 3, 4, 5}, {5}).masked_fill(T_<bool>({true, false, true, false, false}, {5}), 7),
      dtypes::int32, {5}, {7, 2, 7, 4, 5});
}

TEST(Masked, Select) {
  Expect<int32_t>("masked_select",
                  I({0, 1, 2, 3, 4, 5, 6, 7, 8}, {3, 3})
                      .masked_select(T_<bool>(
                          {true, false, true, false, true, false, false, false, true}, {3, 3})),
                  dtypes::int32, {4}, {0, 2, 4, 8});
  Expect<float>("masked_select_broadcast",
                Tensor::Arange(6)
                    .cast(dtypes::float32)
                    .reshape(std::vector<int64_t>{2, 3})
                    .masked_select(T_<bool>({false, true, true}, {3})),
                dtypes::float32, {4}, {1.0, 2.0, 4.0, 5.0});
  Expect<float>("masked_select_none",
                F({1, 2, 3}, {3}).masked_select(T_<bool>({false, false, false}, {3})),
                dtypes::float32, {0}, {});
}

TEST(MaxUnpool2d, Values) {
  // max_pool2d(return_indices=True) of arange(1, 17).reshape(1, 1, 4, 4): values and indices
  const Tensor out = F({6, 8, 14, 16}, {1, 1, 2, 2});
  const Tensor ind = I({5, 7, 13, 15}, {1, 1, 2, 2});
  Expect<float>("unpool_default", out.max_unpool2d(ind), dtypes::float32, {1, 1, 4, 4},
                {0, 0, 0, 0, 0, 6, 0, 8, 0, 0, 0, 0, 0, 14, 0, 16});
  Expect<float>("unpool_output_size",
                out.max_unpool2d(ind, {2, 2}, {}, {1}, {0}, std::vector<int64_t>{5, 5}),
                dtypes::float32, {1, 1, 5, 5},
                {0, 0, 0, 0, 0, 6, 0, 8, 0, 0, 0, 0, 0, 14, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  // kernel 2, stride 1, padding 1 over a (1, 1, 3, 5) input; repeated indices add up
  const Tensor out2 =
      F({3, 3, 4, 4, 5, 5, 9, 9, 6, 6, 5, 5, 9, 9, 9, 9, 9, 9, 5, 8, 9, 9, 9, 9}, {1, 1, 4, 6});
  const Tensor ind2 =
      I({0, 0, 2, 2, 4, 4, 5, 5, 7, 7, 4, 4, 5, 5, 12, 12, 14, 14, 10, 11, 12, 12, 14, 14},
        {1, 1, 4, 6});
  Expect<float>("unpool2", out2.max_unpool2d(ind2, {2, 2}, {1}, {1}, {1}), dtypes::float32,
                {1, 1, 3, 5}, {6, 0, 8, 0, 20, 36, 0, 12, 0, 0, 5, 8, 36, 0, 36});
}

// Gradients through the ops (d/dx of (op(x, src) * w).sum()).
TEST(Scatter, Gradients) {
  const Tensor w = F({1, 2, 3, -1, 0.5, 2, 4, -3, 1.5}, {3, 3});
  {
    Tensor x = F({1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3}).requires_grad_();
    Tensor s = F({0.5, -1, 2, 3, 0.25, -4}, {2, 3}).requires_grad_();
    ASSERT_TRUE((x.scatter_reduce(0, I({2, 0, 2, 2, 1, 0}, {2, 3}), s, SR::kSum, false) * w)
                    .sum()
                    .backward()
                    .ok());
    Expect<float>("grad_sum_x", *x.grad(), dtypes::float32, {3, 3}, {1, 0, 0, -1, 0, 2, 0, -3, 0});
    Expect<float>("grad_sum_src", *s.grad(), dtypes::float32, {2, 3}, {4, 2, 1.5, 4, 0.5, 3});
  }
  {
    Tensor x = F({1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3}).requires_grad_();
    Tensor s = F({0.5, -1, 2, 3, 0.25, -4}, {2, 3}).requires_grad_();
    ASSERT_TRUE((x.scatter_reduce(1, I({2, 2, 0, 1, 1, 1}, {2, 3}), s, SR::kMean) * w)
                    .sum()
                    .backward()
                    .ok());
    Expect<float>("grad_mean_x", *x.grad(), dtypes::float32, {3, 3},
                  {0.5, 2, 1, -1, 0.125, 2, 4, -3, 1.5});
    Expect<float>("grad_mean_src", *s.grad(), dtypes::float32, {2, 3},
                  {1, 1, 0.5, 0.125, 0.125, 0.125});
  }
  {
    Tensor x = F({1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3}).requires_grad_();
    Tensor s = F({0.5, -1, 2, 3, 0.25, -4}, {2, 3}).requires_grad_();
    ASSERT_TRUE((x.scatter(0, I({2, 0, 2, 2, 1, 0}, {2, 3}), s) * w).sum().backward().ok());
    Expect<float>("grad_scatter_x", *x.grad(), dtypes::float32, {3, 3},
                  {1, 0, 0, -1, 0, 2, 0, -3, 0});
    Expect<float>("grad_scatter_src", *s.grad(), dtypes::float32, {2, 3}, {0, 2, 1.5, 4, 0.5, 3});
  }
  {
    Tensor x = F({1, 2, 3, 4, 5, 6}, {2, 3}).requires_grad_();
    Tensor v = F({10, 20, 30}, {3}).requires_grad_();
    Tensor mask = T_<bool>({true, false, true, false, false, true}, {2, 3});
    ASSERT_TRUE((x.masked_fill(mask, v) * F({1, 2, 3, 4, 5, 6}, {2, 3})).sum().backward().ok());
    Expect<float>("grad_mf_x", *x.grad(), dtypes::float32, {2, 3}, {0, 2, 0, 4, 5, 0});
    Expect<float>("grad_mf_v", *v.grad(), dtypes::float32, {3}, {1, 0, 9});
  }
}

TEST(Scatter, Errors) {
  const Tensor z = Tensor::Zeros(std::vector<int64_t>{3, 4});
  const Tensor ones12 = Tensor::Ones(std::vector<int64_t>{1, 2});
  ExpectError(z.scatter(0, I({0, 1}, {2}), Tensor::Ones(std::vector<int64_t>{2})),
              "scatter: self, index and src must have the same rank, got 2, 1 and 1");
  ExpectError(
      z.scatter(0, I({0, 1, 2, 0, 1}, {1, 5}), Tensor::Ones(std::vector<int64_t>{1, 5})),
      "scatter: index (1, 5) must be no larger than src (1, 5) in every dim and than self (3, 4)");
  ExpectError(z.scatter(0, I({0, 1, 2}, {1, 3}), ones12),
              "scatter: index (1, 3) must be no larger than src (1, 2)");
  ExpectError(z.scatter(0, I({0, 1}, {1, 2}),
                        Tensor::Ones(std::vector<int64_t>{1, 2}, {.dtype = dtypes::int32})),
              "scatter: src dtype dtypes.int must equal self dtype dtypes.float");
  ExpectError(z.scatter(0, F({0, 1}, {1, 2}), ones12),
              "scatter: index must be an int tensor, got dtypes.float");
  ExpectError(z.scatter(2, I({0, 1}, {1, 2}), ones12), "scatter");
  ExpectError(z.scatter(2, I({0, 1}, {1, 2}), ones12), "out of range");
  ExpectError(z.scatter(-3, I({0, 1}, {1, 2}), 1.0, Tensor::ScatterMode::kAdd), "scatter");
  ExpectError(z.scatter_reduce(0, F({0, 1}, {1, 2}), ones12, SR::kAmax),
              "scatter_reduce: index must be an int");
  ExpectError(z.scatter_reduce(0, I({0, 1}, {1, 2}), ones12.cast(dtypes::float16), SR::kSum),
              "scatter_reduce: src dtype dtypes.half must equal self dtype dtypes.float");
  ExpectError(Tensor::Scalar(1.0).scatter(0, I({0}, {}), Tensor::Scalar(2.0)), "scatter");
  ExpectError(Tensor::Zeros(std::vector<int64_t>{3}).masked_select(I({1, 0, 1}, {3})),
              "masked_select: expects a bool mask tensor, got dtypes.int");
  ExpectError(Tensor::Zeros(std::vector<int64_t>{3}).masked_select(T_<bool>({true, false}, {2})),
              "masked_select: expand: cannot broadcast (2,) to (3,)");
  ExpectError(Tensor::Zeros(std::vector<int64_t>{3}).masked_fill(T_<bool>({true, false}, {2}), 1.0),
              "masked_fill");
  ExpectError(F({1, 2}, {2}).max_unpool2d(I({0, 1}, {2})),
              "max_unpool2d: expects (batch, channel, *spatial)");
  ExpectError(F({6, 8, 14, 16}, {1, 1, 2, 2}).max_unpool2d(F({5, 7, 13, 15}, {1, 1, 2, 2})),
              "max_unpool2d: indices must be an int tensor");
  ExpectError(F({6, 8, 14, 16}, {1, 1, 2, 2})
                  .max_unpool2d(I({5, 7, 13, 15}, {1, 1, 2, 2}), {2, 2}, {}, {1}, {1, 2, 3}),
              "max_unpool2d: padding must be an int or a sequence of length 2 or 4");
  // an errored input passes its error on
  const Tensor bad = Tensor::Error(absl::InvalidArgumentError("earlier: failure"));
  ExpectError(z.scatter(0, bad, ones12), "earlier: failure");
  ExpectError(bad.masked_select(T_<bool>({true}, {1})), "earlier: failure");
}

}  // namespace
}  // namespace tg
