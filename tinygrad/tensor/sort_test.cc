// File: tinygrad/tensor/sort_test.cc
// sort, argsort, topk, Randperm and multinomial against the reference. The expected values were
// produced by running tinygrad 35900290 with DEV=CPU on the same programs
// (tools/golden/gen_sort_golden.py prints them); the random ones follow Tensor.manual_seed, so
// they check that the same seed gives the reference's permutation and samples.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

template <typename T>
std::vector<T> Read(const Tensor& t) {
  absl::StatusOr<std::vector<T>> v = t.to_vector<T>();
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : std::vector<T>{};
}

// sort(dim, descending) of `in` gives values `v` (dtype `vdt`, shape of `in`) and int32 indices.
template <typename T>
void ExpectSort(const Tensor& in, int64_t dim, bool descending, const std::vector<T>& v,
                const std::vector<int32_t>& idx, DType vdt) {
  ASSERT_TRUE(in.ok()) << in.status();
  auto [values, indices] = in.sort(dim, descending);
  ASSERT_TRUE(values.ok()) << values.status();
  ASSERT_TRUE(indices.ok()) << indices.status();
  EXPECT_EQ(values.shape(), in.shape());
  EXPECT_EQ(indices.shape(), in.shape());
  EXPECT_EQ(values.dtype(), vdt);
  EXPECT_EQ(indices.dtype(), dtypes::int32);
  EXPECT_EQ(Read<T>(values), v);
  EXPECT_EQ(Read<int32_t>(indices), idx);
  // argsort is sort's indices
  EXPECT_EQ(Read<int32_t>(in.argsort(dim, descending)), idx);
}

const std::vector<float> kF1 = {3, 1, 2, 1, 5, 2, -1};
const std::vector<float> kF2 = {0.1f, 0.5f, 1.2f, 3.4f,  2.1f, 2.2f, 1.9f, 0.3f,
                                4.5f, 0.8f, 2.2f, -1.0f, 0.3f, 0.3f, 7.0f};
const std::vector<int32_t> kI3 = {5, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3,
                                  8, 4, 6, 2, 6, 4, 3, 3, 8, 3, 2, 7, 9, 5, 0, 2, 8, 8};

TEST(Sort, Float1DOddSizeWithTies) {
  Tensor t = Tensor::FromVector(kF1, {7});
  ExpectSort<float>(t, -1, false, {-1, 1, 1, 2, 2, 3, 5}, {6, 1, 3, 2, 5, 0, 4}, dtypes::float32);
  ExpectSort<float>(t, 0, true, {5, 3, 2, 2, 1, 1, -1}, {4, 0, 2, 5, 1, 3, 6}, dtypes::float32);
}

TEST(Sort, Float2DEachDim) {
  Tensor t = Tensor::FromVector(kF2, {3, 5});
  ExpectSort<float>(
      t, 1, false,
      {0.1f, 0.5f, 1.2f, 2.1f, 3.4f, 0.3f, 0.8f, 1.9f, 2.2f, 4.5f, -1.0f, 0.3f, 0.3f, 2.2f, 7.0f},
      {0, 1, 2, 4, 3, 2, 4, 1, 0, 3, 1, 2, 3, 0, 4}, dtypes::float32);
  ExpectSort<float>(
      t, 0, false,
      {0.1f, -1.0f, 0.3f, 0.3f, 0.8f, 2.2f, 0.5f, 0.3f, 3.4f, 2.1f, 2.2f, 1.9f, 1.2f, 4.5f, 7.0f},
      {0, 2, 1, 2, 1, 1, 0, 2, 0, 0, 2, 1, 0, 1, 2}, dtypes::float32);
  ExpectSort<float>(
      t, -2, true,
      {2.2f, 1.9f, 1.2f, 4.5f, 7.0f, 2.2f, 0.5f, 0.3f, 3.4f, 2.1f, 0.1f, -1.0f, 0.3f, 0.3f, 0.8f},
      {1, 1, 0, 1, 2, 2, 0, 1, 0, 0, 0, 2, 2, 2, 1}, dtypes::float32);
}

TEST(Sort, Int3DMiddleLastAndFirstDim) {
  Tensor t = Tensor::FromVector(kI3, {2, 3, 6});
  ExpectSort<int32_t>(t, 1, false, {2, 1, 4, 1, 2, 3, 5, 6, 5, 3, 5, 8, 9, 7, 9, 3, 5, 9,
                                    3, 3, 0, 2, 2, 4, 8, 4, 6, 2, 6, 7, 9, 5, 8, 3, 8, 8},
                      {1, 0, 0, 0, 2, 2, 0, 1, 1, 1, 0, 1, 2, 2, 2, 2, 1, 0,
                       1, 1, 2, 0, 1, 0, 0, 0, 0, 2, 0, 1, 2, 2, 1, 1, 2, 2},
                      dtypes::int32);
  ExpectSort<int32_t>(t, -1, true, {9, 5, 5, 4, 1, 1, 8, 6, 5, 5, 3, 2, 9, 9, 7, 3, 3, 2,
                                    8, 6, 6, 4, 4, 2, 8, 7, 3, 3, 3, 2, 9, 8, 8, 5, 2, 0},
                      {5, 0, 4, 2, 1, 3, 5, 1, 2, 4, 3, 0, 0, 2, 1, 3, 5, 4,
                       0, 2, 4, 1, 5, 3, 2, 5, 0, 1, 3, 4, 0, 4, 5, 1, 3, 2},
                      dtypes::int32);
  ExpectSort<int32_t>(t, 0, true, {8, 4, 6, 2, 6, 9, 3, 6, 8, 3, 5, 8, 9, 7, 9, 3, 8, 8,
                                   5, 1, 4, 1, 5, 4, 2, 3, 5, 3, 2, 7, 9, 5, 0, 2, 2, 3},
                      {1, 1, 1, 1, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1,
                       0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 0, 0},
                      dtypes::int32);
}

TEST(Sort, Int32PowerOfTwoWithExtremes) {
  // the extremes equal the padding values, which must not disturb the result
  Tensor t = Tensor::FromVector<int32_t>({7, -3, 7, 0, 2147483647, -2147483647 - 1, 7, 1}, {8});
  ExpectSort<int32_t>(t, -1, false, {-2147483647 - 1, -3, 0, 1, 7, 7, 7, 2147483647},
                      {5, 1, 3, 7, 0, 2, 6, 4}, dtypes::int32);
  ExpectSort<int32_t>(t, -1, true, {2147483647, 7, 7, 7, 1, 0, -3, -2147483647 - 1},
                      {4, 0, 2, 6, 7, 3, 1, 5}, dtypes::int32);
}

TEST(Sort, Int64AndUint8) {
  const int64_t kMax = INT64_MAX, kMin = INT64_MIN;
  Tensor a = Tensor::FromVector<int64_t>({kMax, -5, 3, kMin, 3}, {5});
  ExpectSort<int64_t>(a, 0, false, {kMin, -5, 3, 3, kMax}, {3, 1, 2, 4, 0}, dtypes::int64);
  ExpectSort<int64_t>(a, 0, true, {kMax, 3, 3, -5, kMin}, {0, 2, 4, 1, 3}, dtypes::int64);
  Tensor b = Tensor::FromVector<uint8_t>({200, 3, 255, 0, 3, 17}, {6});
  ExpectSort<uint8_t>(b, 0, false, {0, 3, 3, 17, 200, 255}, {3, 1, 4, 5, 0, 2}, dtypes::uint8);
  ExpectSort<uint8_t>(b, 0, true, {255, 200, 17, 3, 3, 0}, {2, 0, 5, 1, 4, 3}, dtypes::uint8);
}

TEST(Sort, Float16AndThirteen) {
  Tensor h = Tensor::FromVector<float>({0.5f, -2.0f, 1.5f, 0.5f, 3.25f, -2.0f, 0.0f}, {7})
                 .cast(dtypes::float16);
  ExpectSort<float>(h, 0, true, {3.25f, 1.5f, 0.5f, 0.5f, 0.0f, -2.0f, -2.0f},
                    {4, 2, 0, 3, 6, 1, 5}, dtypes::float16);
  std::vector<float> f13;
  for (int i = 0; i < 13; ++i) f13.push_back(static_cast<float>((i * 7) % 13) - 6.5f);
  ExpectSort<float>(
      Tensor::FromVector(f13, {13}), 0, false,
      {-6.5f, -5.5f, -4.5f, -3.5f, -2.5f, -1.5f, -0.5f, 0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f},
      {0, 2, 4, 6, 8, 10, 12, 1, 3, 5, 7, 9, 11}, dtypes::float32);
}

TEST(Sort, SmallAndEmptyDims) {
  ExpectSort<float>(Tensor::FromVector<float>({4}, {1}), 0, false, {4}, {0}, dtypes::float32);
  ExpectSort<int32_t>(Tensor::FromVector<int32_t>({4, 3}, {2}), 0, false, {3, 4}, {1, 0},
                      dtypes::int32);
  auto [v0, i0] = Tensor::Zeros({0, 3}).sort(1);
  ASSERT_TRUE(i0.ok()) << i0.status();
  EXPECT_EQ(i0.shape(), (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(i0.dtype(), dtypes::int32);
  auto [v1, i1] = Tensor::Zeros({2, 0}).sort(1);
  ASSERT_TRUE(i1.ok()) << i1.status();
  EXPECT_EQ(i1.shape(), (std::vector<int64_t>{2, 0}));
}

TEST(Sort, BoolDescending) {
  Tensor t = Tensor::FromVector<bool>(std::vector<bool>{true, false, true, false, false}, {5});
  auto [v, i] = t.sort(0, true);
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v.dtype(), dtypes::bool_);
  EXPECT_EQ(Read<int32_t>(v), (std::vector<int32_t>{1, 1, 0, 0, 0}));
  EXPECT_EQ(Read<int32_t>(i), (std::vector<int32_t>{0, 2, 1, 3, 4}));
  // ascending: the reference pads with True by adding, which makes the values int32
  auto [va, ia] = t.sort(0, false);
  ASSERT_TRUE(va.ok()) << va.status();
  EXPECT_EQ(va.dtype(), dtypes::int32);
  EXPECT_EQ(Read<int32_t>(va), (std::vector<int32_t>{0, 0, 0, 1, 1}));
  EXPECT_EQ(Read<int32_t>(ia), (std::vector<int32_t>{1, 3, 4, 0, 2}));
}

// A (3, 37) int tensor with many ties: the reference gives the indices of a stable sort along
// either dim, in both directions (gen_sort_golden.py checks that against Python's sorted).
TEST(Sort, LongRowsAreStable) {
  const int64_t rows = 3, cols = 37;
  std::vector<int32_t> data;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t i = 0; i < cols; ++i)
      data.push_back(static_cast<int32_t>((i * i * 7 + 3 * r) % 5));
  Tensor t = Tensor::FromVector(data, {rows, cols});
  std::vector<int32_t> want1, want0(rows * cols);
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<int32_t> order(cols);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int32_t a, int32_t b) { return data[r * cols + a] > data[r * cols + b]; });
    want1.insert(want1.end(), order.begin(), order.end());
  }
  for (int64_t c = 0; c < cols; ++c) {
    std::vector<int32_t> order(rows);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int32_t a, int32_t b) { return data[a * cols + c] < data[b * cols + c]; });
    for (int64_t r = 0; r < rows; ++r) want0[r * cols + c] = order[r];
  }
  // the reference's first row, descending
  const std::vector<int32_t> ref_row0 = {2,  3,  7,  8, 12, 13, 17, 18, 22, 23, 27, 28, 32,
                                         33, 1,  4,  6, 9,  11, 14, 16, 19, 21, 24, 26, 29,
                                         31, 34, 36, 0, 5,  10, 15, 20, 25, 30, 35};
  EXPECT_EQ(std::vector<int32_t>(want1.begin(), want1.begin() + cols), ref_row0);
  EXPECT_EQ(Read<int32_t>(t.argsort(1, true)), want1);
  EXPECT_EQ(Read<int32_t>(t.argsort(-2)), want0);
}

TEST(Argsort, Int2D) {
  Tensor t = Tensor::FromVector<int32_t>({2, 3, 4, 1, 1, 4, 3, 2}, {2, 4});
  EXPECT_EQ(Read<int32_t>(t.argsort()), (std::vector<int32_t>{3, 0, 1, 2, 0, 3, 2, 1}));
  Tensor u = Tensor::FromVector<int32_t>({2, 3, 4, 1, 1, 4, 3, 2, 1, 1, 5, 2}, {3, 4});
  Tensor a = u.argsort(0, true);
  EXPECT_EQ(a.dtype(), dtypes::int32);
  EXPECT_EQ(Read<int32_t>(a), (std::vector<int32_t>{0, 1, 2, 1, 1, 0, 0, 2, 2, 2, 1, 0}));
}

TEST(Topk, LargestSmallestAndAll) {
  Tensor f = Tensor::FromVector(kF2, {3, 5});
  auto [v, i] = f.topk(2, 1);
  EXPECT_EQ(v.shape(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(Read<float>(v), (std::vector<float>{3.4f, 2.1f, 4.5f, 2.2f, 7.0f, 2.2f}));
  EXPECT_EQ(Read<int32_t>(i), (std::vector<int32_t>{3, 4, 3, 0, 4, 0}));
  auto [vs, is] = f.topk(2, 0, /*largest=*/false);
  EXPECT_EQ(vs.shape(), (std::vector<int64_t>{2, 5}));
  EXPECT_EQ(Read<float>(vs),
            (std::vector<float>{0.1f, -1.0f, 0.3f, 0.3f, 0.8f, 2.2f, 0.5f, 0.3f, 3.4f, 2.1f}));
  EXPECT_EQ(Read<int32_t>(is), (std::vector<int32_t>{0, 2, 1, 2, 1, 1, 0, 2, 0, 0}));
  auto [vi, ii] = Tensor::FromVector(kI3, {2, 3, 6}).topk(3);
  EXPECT_EQ(vi.dtype(), dtypes::int32);
  EXPECT_EQ(Read<int32_t>(vi),
            (std::vector<int32_t>{9, 5, 5, 8, 6, 5, 9, 9, 7, 8, 6, 6, 8, 7, 3, 9, 8, 8}));
  EXPECT_EQ(Read<int32_t>(ii),
            (std::vector<int32_t>{5, 0, 4, 5, 1, 2, 0, 2, 1, 0, 2, 4, 2, 5, 0, 0, 4, 5}));
  auto [va, ia] = Tensor::FromVector(kF1, {7}).topk(7, -1, false);
  EXPECT_EQ(Read<float>(va), (std::vector<float>{-1, 1, 1, 2, 2, 3, 5}));
  EXPECT_EQ(Read<int32_t>(ia), (std::vector<int32_t>{6, 1, 3, 2, 5, 0, 4}));
  auto [v0, i0] = Tensor::FromVector(kF1, {7}).topk(0);
  ASSERT_TRUE(i0.ok()) << i0.status();
  EXPECT_EQ(i0.shape(), (std::vector<int64_t>{0}));
}

TEST(Randperm, MatchesReferenceForSeed) {
  Tensor::ManualSeed(42);
  Tensor p10 = Tensor::Randperm(10);
  EXPECT_EQ(p10.dtype(), dtypes::int32);
  EXPECT_EQ(Read<int32_t>(p10), (std::vector<int32_t>{9, 4, 1, 0, 8, 7, 6, 5, 2, 3}));
  EXPECT_EQ(Read<int32_t>(Tensor::Randperm(7)), (std::vector<int32_t>{0, 3, 6, 5, 2, 4, 1}));
  EXPECT_EQ(Read<int32_t>(Tensor::Randperm(1)), (std::vector<int32_t>{0}));
  Tensor::ManualSeed(0);
  Tensor p33 = Tensor::Randperm(33, {.dtype = dtypes::int64});
  EXPECT_EQ(p33.dtype(), dtypes::int64);
  EXPECT_EQ(Read<int64_t>(p33), (std::vector<int64_t>{0,  30, 7,  8,  15, 4,  19, 9,  12, 26, 22,
                                                      3,  18, 14, 6,  13, 31, 23, 2,  21, 29, 5,
                                                      11, 20, 24, 17, 27, 28, 16, 10, 25, 32, 1}));
  Tensor p0 = Tensor::Randperm(0);
  ASSERT_TRUE(p0.ok()) << p0.status();
  EXPECT_EQ(p0.shape(), (std::vector<int64_t>{0}));
}

TEST(Multinomial, MatchesReferenceForSeed) {
  Tensor::ManualSeed(42);
  Tensor m20 = Tensor::FromVector<int32_t>({1, 2, 3, 4}, {4}).multinomial(20, true);
  EXPECT_EQ(m20.dtype(), dtypes::int32);
  EXPECT_EQ(m20.shape(), (std::vector<int64_t>{20}));
  EXPECT_EQ(Read<int32_t>(m20),
            (std::vector<int32_t>{2, 1, 3, 2, 3, 1, 2, 2, 3, 3, 3, 3, 3, 3, 2, 3, 2, 3, 3, 3}));
  Tensor m1 = Tensor::FromVector<float>({0.1f, 0.0f, 0.6f, 0.3f}, {4}).multinomial();
  EXPECT_EQ(Read<int32_t>(m1), (std::vector<int32_t>{2}));
  Tensor w = Tensor::FromVector<float>({1, 0, 3, 0, 5, 1}, {2, 3});
  Tensor m2 = w.multinomial(6, true);
  EXPECT_EQ(m2.shape(), (std::vector<int64_t>{2, 6}));
  EXPECT_EQ(Read<int32_t>(m2), (std::vector<int32_t>{2, 2, 2, 2, 0, 2, 1, 1, 1, 1, 2, 1}));
  Tensor m3 = Tensor::FromVector<int32_t>({1, 0, 3, 0, 5, 1}, {2, 3}).multinomial();
  EXPECT_EQ(m3.shape(), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(Read<int32_t>(m3), (std::vector<int32_t>{0, 1}));
}

void ExpectError(const Tensor& t, const std::string& starts) {
  ASSERT_FALSE(t.ok()) << starts;
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(t.status().message()).rfind(starts, 0), 0u) << t.status();
}

TEST(SortErrors, BadInput) {
  Tensor f = Tensor::FromVector(kF1, {7});
  auto [sv, si] = f.sort(1);
  ExpectError(sv, "sort: ");
  ExpectError(si, "sort: ");
  ExpectError(f.sort(-2).second, "sort: ");
  ExpectError(Tensor::Scalar(3.0).sort().first, "sort: a 0-d tensor");
  ExpectError(f.argsort(3), "argsort: ");
  ExpectError(f.topk(8).first, "topk: k=8 is out of range");
  ExpectError(f.topk(-1).second, "topk: k=-1 is out of range");
  ExpectError(f.topk(2, 0, true, /*sorted=*/false).first, "topk: sorted=false");
  ExpectError(f.topk(2, 5).first, "topk: ");
  ExpectError(Tensor::Randperm(-1), "randperm: n must be non-negative");
  ExpectError(Tensor::FromVector<float>({1, 2}, {2}).multinomial(2),
              "multinomial: without replacement");
  ExpectError(Tensor::FromVector<float>({1}, {1}).multinomial(0, true),
              "multinomial: num_samples must be positive");
  ExpectError(Tensor::Ones({1, 1, 1}).multinomial(), "multinomial: weights must be 1-d or 2-d");
  ExpectError(Tensor::Scalar(1.0).multinomial(), "multinomial: weights must be 1-d or 2-d");
  Variable pos("pos", 1, 7);
  ExpectError(f.shrink({{0, pos.bind(3)}}).sort().first, "sort: does not support symbolic");
  // errors pass through
  ExpectError(Tensor::Error(absl::InvalidArgumentError("x: bad")).sort().second, "x: bad");
}

}  // namespace
}  // namespace tg
