// Tensor ops given sizes whose arithmetic passes int64: each is an errored tensor naming what
// overflowed (tinygrad's Python ints never overflow; signed overflow in C++ is undefined, and
// UBSan found each of these computing a wrong shape silently), or, where the reference's
// answer fits, that answer.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kBig = 3037000500;  // its square passes int64

void ExpectError(const Tensor& t, const std::string& want) {
  ASSERT_FALSE(t.ok()) << want;
  EXPECT_NE(t.status().message().find(want), std::string::npos) << t.status();
}

TEST(HugeSizesTest, MovementOps) {
  ExpectError(Tensor::Empty({4}).repeat({kMax}), "repeat: 9223372036854775807 repeats of dim 0 (4) overflow an int64");
  ExpectError(Tensor::Empty({kBig, 2}).repeat_interleave(kBig), "repeat_interleave: 3037000500 repeats of dim 0");
  ExpectError(Tensor::Cat({Tensor::Empty({kMax / 2 + 1}), Tensor::Empty({kMax / 2 + 1})}),
              "cat: the sizes of dim 0 add up past an int64");
  ExpectError(Tensor::Empty({4}).reshape({16, kMax}), "reshape: shape (16, 9223372036854775807) has more elements");
  ExpectError(Tensor::Empty({4}).pad({{-kMax, 0}}), "pad: shape (-9223372036854775803,) has a negative dimension");
  EXPECT_TRUE(Tensor::Empty({0}).reshape({4, kMax, 4, 0}).ok()) << "no elements, whatever the others multiply to";
}

TEST(HugeSizesTest, SlicesWithHugeStepsTakeOneElement) {
  Tensor x = Tensor::FromVector<float>({1, 2, 3, 4, 5, 6, 7, 8});
  EXPECT_EQ(x.slice({Slice(std::nullopt, std::nullopt, kMax)}).to_vector<float>().value_or(std::vector<float>{}), std::vector<float>{1});
  EXPECT_EQ(x.slice({Slice(std::nullopt, std::nullopt, kMin)}).to_vector<float>().value_or(std::vector<float>{}), std::vector<float>{8});
  EXPECT_EQ(x.slice({Slice(kMax, -kMax, -kMax)}).to_vector<float>().value_or(std::vector<float>{}), std::vector<float>{8});
  EXPECT_EQ(x.slice({Slice(-kMax, kMax, kMax)}).to_vector<float>().value_or(std::vector<float>{}), std::vector<float>{1});
  EXPECT_EQ(x.slice({Slice(1, std::nullopt, 3)}).to_vector<float>().value_or(std::vector<float>{}), (std::vector<float>{2, 5, 8}));
  ExpectError(x[kMin], "slice: index -9223372036854775808 is out of bounds for dim 0 with size 8");
}

TEST(HugeSizesTest, PoolsAndConvolutions) {
  Tensor x = Tensor::Empty({1, 1, 8, 8}), w = Tensor::Empty({1, 1, 3, 3});
  ExpectError(x.conv2d(w, std::nullopt, {.stride = {kMax}}), "pool: the windows of kernel (3, 3) over (1, 1, 8, 8) have sizes past an int64");
  ExpectError(x.conv2d(w, std::nullopt, {.dilation = {kMax}}), "pool: kernel size (3, 3) cannot be greater than input");
  ExpectError(x.conv2d(w, std::nullopt, {.padding = {kMax / 2}}), "pad: padding (4611686018427387903, 4611686018427387903) of dim 2");
  ExpectError(x.max_pool2d({.kernel = {kMax, kMax}}), "pool: kernel size (9223372036854775807, 9223372036854775807) cannot be greater");
  ExpectError(x.max_pool2d({.kernel = {2, 2}, .stride = {kMax}, .ceil_mode = true}), "pool: the windows of kernel (2, 2)");
  ExpectError(x.avg_pool2d({.kernel = {3, 3}, .dilation = {kMax / 2}}), "pool: kernel size (3, 3) cannot be greater");
  // Arange is a cumsum, a pool whose window is the whole length: n * 2n elements of view
  ExpectError(Tensor::Empty({kBig}, {.dtype = dtypes::int32}).one_hot(kBig), "pool: the windows of kernel (3037000500,)");
  ExpectError(Tensor::Arange(0, kMax, 1), "arange: [0, 9223372036854775807) is not representable in dtype dtypes.int");
}

}  // namespace
}  // namespace tg
