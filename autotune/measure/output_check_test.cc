// File: autotune/measure/output_check_test.cc
// The measurer's result check: tolerances per dtype, the decoding of half and bfloat16 (every
// bit pattern), NaN and infinities, what a mismatch message says.
#include "autotune/measure/output_check.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tg::autotune {
namespace {

using ::testing::HasSubstr;

template <typename T>
std::string Bytes(const std::vector<T>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

// The value of a half by its definition, in double.
double HalfValue(uint16_t h) {
  const int exp = (h >> 10) & 0x1F, mant = h & 0x3FF;
  const double sign = (h & 0x8000) != 0 ? -1.0 : 1.0;
  if (exp == 0) return sign * std::ldexp(mant, -24);
  if (exp == 31) return mant != 0 ? NAN : sign * INFINITY;
  return sign * std::ldexp(1024 + mant, exp - 25);
}

uint16_t HalfBits(double v) {  // exact values only, found by search: test data, not speed
  for (uint32_t h = 0; h < 0x7C00; ++h)
    if (HalfValue(static_cast<uint16_t>(h)) == std::fabs(v)) return static_cast<uint16_t>(h | (v < 0 ? 0x8000 : 0));
  ADD_FAILURE() << v << " is not a half";
  return 0;
}

// Every half bit pattern decodes to its value: a pattern compares equal to a float32 of that
// value within the half tolerance only when the values agree, seen through a mismatch's text.
TEST(CompareOutputTest, EveryHalfDecodesToItsValue) {
  for (uint32_t a = 0; a < 0x10000; ++a) {
    const uint16_t h = static_cast<uint16_t>(a);
    const double v = HalfValue(h);
    // a half 0x3C00 (1.0) against h: the message names the decoded value of h
    const std::vector<uint16_t> got = {h}, one = {0x3C00};
    const std::string why = CompareOutput(dtypes::float16, Bytes(got), Bytes(one));
    const bool near_one = !std::isnan(v) && std::fabs(v - 1.0) <= 1e-2 + 1e-2;
    EXPECT_EQ(why.empty(), near_one) << std::hex << a << ": " << why;
    if (!why.empty() && !std::isnan(v)) {
      EXPECT_THAT(why, HasSubstr(absl::StrCat(": ", v, " != 1"))) << std::hex << a;
    }
  }
}

TEST(CompareOutputTest, HalfWithinTolerance) {
  const std::vector<uint16_t> want = {HalfBits(1.0), HalfBits(0.5), HalfBits(-2.0), HalfBits(0.0)};
  // one unit of the last place up: 2^-10 relative, inside 1e-2
  std::vector<uint16_t> got = {static_cast<uint16_t>(want[0] + 1), static_cast<uint16_t>(want[1] + 1),
                               static_cast<uint16_t>(want[2] + 1), 0x8000 /* -0 */};
  EXPECT_EQ(CompareOutput(dtypes::float16, Bytes(got), Bytes(want)), "");
  got[2] = HalfBits(-2.5);
  EXPECT_EQ(CompareOutput(dtypes::float16, Bytes(got), Bytes(want)),
            "1 of 4 elements differ, first at 2: -2.5 != -2");
  // subnormals decode exactly: the smallest against zero is within the absolute tolerance
  const std::vector<uint16_t> tiny = {0x0001}, zero = {0x0000};
  EXPECT_EQ(CompareOutput(dtypes::float16, Bytes(tiny), Bytes(zero)), "");
}

TEST(CompareOutputTest, NanMatchesNanAndInfinitiesMatchBySign) {
  const uint16_t nan_a = 0x7E00, nan_b = 0xFC01, inf = 0x7C00, ninf = 0xFC00;
  EXPECT_EQ(CompareOutput(dtypes::float16, Bytes(std::vector<uint16_t>{nan_a}), Bytes(std::vector<uint16_t>{nan_b})), "");
  EXPECT_NE(CompareOutput(dtypes::float16, Bytes(std::vector<uint16_t>{nan_a}), Bytes(std::vector<uint16_t>{inf})), "");
  EXPECT_NE(CompareOutput(dtypes::float16, Bytes(std::vector<uint16_t>{inf}), Bytes(std::vector<uint16_t>{ninf})), "");
  EXPECT_NE(CompareOutput(dtypes::float16, Bytes(std::vector<uint16_t>{0x7BFF}), Bytes(std::vector<uint16_t>{inf})), "");
  const std::vector<float> f_nan = {NAN}, f_one = {1.0f}, f_inf = {INFINITY};
  EXPECT_NE(CompareOutput(dtypes::float32, Bytes(f_nan), Bytes(f_one)), "");
  EXPECT_EQ(CompareOutput(dtypes::float32, Bytes(f_inf), Bytes(f_inf)), "");
}

TEST(CompareOutputTest, BFloat16AndWiderFloatsUseTheirTolerance) {
  auto bf = [](float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return static_cast<uint16_t>(b >> 16);
  };
  EXPECT_EQ(CompareOutput(dtypes::bfloat16, Bytes(std::vector<uint16_t>{bf(1.0f)}),
                          Bytes(std::vector<uint16_t>{static_cast<uint16_t>(bf(1.0f) + 1)})), "");
  EXPECT_THAT(CompareOutput(dtypes::bfloat16, Bytes(std::vector<uint16_t>{bf(1.5f)}), Bytes(std::vector<uint16_t>{bf(1.0f)})),
              HasSubstr("1.5 != 1"));
  EXPECT_EQ(CompareOutput(dtypes::float32, Bytes(std::vector<float>{1.0005f}), Bytes(std::vector<float>{1.0f})), "");
  EXPECT_NE(CompareOutput(dtypes::float32, Bytes(std::vector<float>{1.01f}), Bytes(std::vector<float>{1.0f})), "");
  EXPECT_EQ(CompareOutput(dtypes::float64, Bytes(std::vector<double>{1.0 + 1e-7}), Bytes(std::vector<double>{1.0})), "");
  EXPECT_NE(CompareOutput(dtypes::float64, Bytes(std::vector<double>{1.0 + 1e-5}), Bytes(std::vector<double>{1.0})), "");
}

TEST(CompareOutputTest, IntsAndBoolsAreBitExactAndMismatchesAreCounted) {
  const std::vector<int32_t> want = {1, 2, 3, 4, 5};
  const std::vector<int32_t> got = {1, 9, 3, 9, 5};
  EXPECT_EQ(CompareOutput(dtypes::int32, Bytes(got), Bytes(want)), "2 of 5 elements differ, first at 1: bytes differ");
  const std::vector<uint8_t> b0 = {0, 1, 1}, b1 = {0, 1, 0};
  EXPECT_EQ(CompareOutput(dtypes::bool_, Bytes(b0), Bytes(b1)), "1 of 3 elements differ, first at 2: bytes differ");
  const std::vector<int64_t> l0 = {1, 2}, l1 = {1, 3};
  EXPECT_NE(CompareOutput(dtypes::int64, Bytes(l0), Bytes(l1)), "");
}

// Millions of elements are counted in chunks on several threads: the same answer as one.
TEST(CompareOutputTest, ThreadsGiveTheSameAnswer) {
  std::vector<float> want(3 << 20, 1.0f), got = want;
  for (size_t i = 12345; i < got.size(); i += 100003) got[i] = 2.0f;
  const std::string one = CompareOutput(dtypes::float32, Bytes(got), Bytes(want), 1);
  EXPECT_EQ(one, "32 of 3145728 elements differ, first at 12345: 2 != 1");
  for (int threads : {2, 3, 8}) EXPECT_EQ(CompareOutput(dtypes::float32, Bytes(got), Bytes(want), threads), one);
}

TEST(CountDifferingItemsTest, CountsItemsNotBytes) {
  const std::vector<uint32_t> a = {1, 2, 3, 0x01010101}, b = {1, 9, 3, 0x02020202};
  EXPECT_EQ(CountDifferingItems(4, Bytes(a), Bytes(b)), 2u);
  EXPECT_EQ(CountDifferingItems(2, Bytes(a), Bytes(b)), 3u);  // the low half of 2 vs 9, both halves of the last
  EXPECT_EQ(CountDifferingItems(1, Bytes(a), Bytes(b)), 5u);
  EXPECT_EQ(CountDifferingItems(16, Bytes(a), Bytes(b)), 1u);  // an item size with no integer type
  EXPECT_EQ(CountDifferingItems(4, Bytes(a), Bytes(a)), 0u);
}

TEST(CompareOutputTest, SizesMustAgree) {
  EXPECT_EQ(CompareOutput(dtypes::float32, std::string(8, '\0'), std::string(4, '\0')), "size 8 bytes, expected 4");
}

}  // namespace
}  // namespace tg::autotune
