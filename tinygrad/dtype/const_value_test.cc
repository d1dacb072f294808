// File: tinygrad/dtype/const_value_test.cc
// ConstValue and the value helpers against the reference: truncate, fp8 conversion, float repr
// and Python number ops are golden tables from tinygrad (tools/golden/gen_dtype_golden.py);
// the float formats are also checked exhaustively against their own bit patterns.
#include "tinygrad/dtype/const_value.h"

#include <bit>
#include <cmath>
#include <limits>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "gtest/gtest.h"
#include "tinygrad/dtype/golden_test_util.h"

namespace tg {
namespace {

using golden::ParsePyValue;
using golden::ParseSpec;
using golden::ReadTable;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double FromBits(const std::string& hex) {
  return std::bit_cast<double>(std::stoull(hex, nullptr, 16));
}

// ---- golden tables ----

TEST(ConstValueGoldenTest, Truncate) {
  int checked = 0, type_errors = 0;
  for (const auto& r : ReadTable("truncate.txt")) {
    ASSERT_EQ(r.size(), 3u);
    DType d = ParseSpec(r[0]);
    ConstValue in = ParsePyValue(r[1]);
    if (r[2] == "TypeError") {
      // ctypes rejects a float for an int dtype; we CHECK-fail (death-tested below).
      EXPECT_TRUE(dtypes::is_int(d) && in.is_float()) << r[0] << " " << r[1];
      ++type_errors;
      continue;
    }
    EXPECT_EQ(Truncate(in, d).repr(), r[2]) << "truncate[" << r[0] << "](" << r[1] << ")";
    // Vectors truncate lane-wise.
    if (d != dtypes::index) {
      EXPECT_EQ(Truncate(in, d.vec(4)).repr(), r[2]);
    }
    ++checked;
  }
  EXPECT_GT(checked, 1500);
  EXPECT_EQ(type_errors, 8 * 141);
}

TEST(ConstValueGoldenTest, Fp8) {
  int to_float = 0, from_float = 0;
  for (const auto& r : ReadTable("fp8.txt")) {
    ASSERT_EQ(r.size(), 4u);
    DType fp8 = ParseSpec(r[1]);
    if (r[0] == "to_float") {
      EXPECT_EQ(ConstValue(Fp8ToFloat(std::stoi(r[2]), fp8)).repr(), r[3]) << r[1] << " " << r[2];
      ++to_float;
    } else {
      double x = FromBits(r[2]);
      EXPECT_EQ(std::to_string(FloatToFp8(x, fp8)), r[3]) << r[1] << " " << x;
      ++from_float;
    }
  }
  EXPECT_EQ(to_float, 2 * 256);
  EXPECT_GT(from_float, 200);
}

TEST(ConstValueGoldenTest, FloatRepr) {
  int n = 0;
  for (const auto& r : ReadTable("float_repr.txt")) {
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(ConstValue(FromBits(r[0])).repr(), r[1]) << r[0];
    ++n;
  }
  EXPECT_GT(n, 800);
}

std::string Apply(const std::string& op, const ConstValue& a, const ConstValue& b) {
  if (op == "neg") return (-a).repr();
  if (op == "+") return (a + b).repr();
  if (op == "-") return (a - b).repr();
  if (op == "*") return (a * b).repr();
  if (op == "<") return NumLess(a, b) ? "True" : "False";
  if (op == "==") return NumEq(a, b) ? "True" : "False";
  if (op == "min") return NumMin(a, b).repr();
  if (op == "max") return NumMax(a, b).repr();
  if (op == "cdiv") return ConstValue(CDiv(a.to_int(), b.to_int())).repr();
  if (op == "cmod") return ConstValue(CMod(a.to_int(), b.to_int())).repr();
  ADD_FAILURE() << "unknown op " << op;
  return "";
}

TEST(ConstValueGoldenTest, PythonNumberOps) {
  int n = 0;
  for (const auto& r : ReadTable("const_ops.txt")) {
    ASSERT_EQ(r.size(), 4u);
    ConstValue a = ParsePyValue(r[0]);
    ConstValue b = r[2] == "-" ? ConstValue() : ParsePyValue(r[2]);
    EXPECT_EQ(Apply(r[1], a, b), r[3]) << r[0] << " " << r[1] << " " << r[2];
    ++n;
  }
  EXPECT_GT(n, 3500);
}

// ---- float formats, exhaustively ----

double HalfToDouble(uint16_t h) {
  int exp = (h >> 10) & 0x1F, mant = h & 0x3FF;
  double mag = exp == 0 ? std::ldexp(mant, -24) : std::ldexp(mant | 0x400, exp - 25);
  return (h & 0x8000) ? -mag : mag;
}

// Every finite half is fixed by the rounding; every midpoint of two neighbours rounds to the
// one with an even mantissa; just past it, rounds away.
TEST(FloatFormatTest, Float16AllValuesAndMidpoints) {
  for (uint32_t h = 0; h < 0x7C00; ++h) {
    for (double sign : {1.0, -1.0}) {
      double x = sign * HalfToDouble(h);
      ASSERT_EQ(std::bit_cast<uint64_t>(RoundToFloat16(x)), std::bit_cast<uint64_t>(x)) << h;
      double next = h + 1 < 0x7C00 ? sign * HalfToDouble(h + 1) : sign * 65536.0;
      double mid = (x + next) / 2;
      double even = (h & 1) ? next : x;
      if (h + 1 == 0x7C00) even = sign * kInf;  // 65520 and up overflow
      ASSERT_EQ(RoundToFloat16(mid), even) << h;
      ASSERT_EQ(RoundToFloat16(std::nextafter(mid, next)), h + 1 == 0x7C00 ? sign * kInf : next)
          << h;
    }
  }
  EXPECT_EQ(RoundToFloat16(kInf), kInf);
  EXPECT_TRUE(std::isnan(RoundToFloat16(kNaN)));
  EXPECT_EQ(RoundToFloat16(1e-300), 0.0);
  EXPECT_TRUE(std::signbit(RoundToFloat16(-1e-300)));
}

TEST(FloatFormatTest, BFloat16AllValues) {
  for (uint32_t b = 0; b < 0x10000; ++b) {
    float f = std::bit_cast<float>(b << 16);
    if (!std::isfinite(f)) continue;
    ASSERT_EQ(std::bit_cast<uint64_t>(RoundToBFloat16(f)), std::bit_cast<uint64_t>(double{f})) << b;
  }
  EXPECT_EQ(RoundToBFloat16(1.0 + std::ldexp(1, -8)), 1.0);                          // tie: even
  EXPECT_EQ(RoundToBFloat16(1.0 + 3 * std::ldexp(1, -8)), 1.0 + std::ldexp(1, -6));  // tie: even
  EXPECT_EQ(RoundToBFloat16(1e39), kInf);
}

TEST(FloatFormatTest, Fp8RoundTripsEveryByte) {
  for (DType fp8 : {dtypes::fp8e4m3, dtypes::fp8e5m2}) {
    for (int b = 0; b < 256; ++b) {
      double x = Fp8ToFloat(static_cast<uint8_t>(b), fp8);
      if (std::isnan(x)) continue;
      EXPECT_EQ(FloatToFp8(x, fp8), b) << fp8 << " " << b;
    }
  }
  // e4m3 has no inf: inf and nan become its nan (0x7f, sign kept), max normal is 448.
  EXPECT_EQ(FloatToFp8(kInf, dtypes::fp8e4m3), 0x7f);
  EXPECT_EQ(FloatToFp8(-kInf, dtypes::fp8e4m3), 0xff);
  EXPECT_EQ(Fp8ToFloat(0x7e, dtypes::fp8e4m3), 448.0);
  EXPECT_EQ(FloatToFp8(1e6, dtypes::fp8e4m3), 0x7e);  // saturates
  EXPECT_EQ(FloatToFp8(kInf, dtypes::fp8e5m2), 0x7c);
  EXPECT_EQ(Fp8ToFloat(0x7c, dtypes::fp8e5m2), kInf);
  EXPECT_EQ(FloatToFp8(1e6, dtypes::fp8e5m2), 0x7b);  // saturates to 57344, not inf
}

// ---- ConstValue semantics ----

TEST(ConstValueTest, EqualityIsKindSensitiveAndBitwise) {
  EXPECT_NE(ConstValue(1), ConstValue(1.0));
  EXPECT_NE(ConstValue(1), ConstValue(true));
  EXPECT_NE(ConstValue(1.0), ConstValue(true));
  EXPECT_TRUE(NumEq(ConstValue(1), ConstValue(1.0)));
  EXPECT_TRUE(NumEq(ConstValue(true), ConstValue(1.0)));
  EXPECT_EQ(ConstValue(kNaN), ConstValue(-kNaN));  // canonical NaN
  EXPECT_EQ(ConstValue(-kNaN).repr(), "nan");
  EXPECT_NE(ConstValue(0.0), ConstValue(-0.0));
  EXPECT_EQ(ConstValue::Invalid(), ConstValue::Invalid());
  EXPECT_NE(ConstValue::Invalid(), ConstValue(0));
  EXPECT_TRUE(NumEq(ConstValue::Invalid(), ConstValue::Invalid()));
  EXPECT_FALSE(NumEq(ConstValue::Invalid(), ConstValue(0)));
  EXPECT_EQ(ConstValue(int64_t{5}), ConstValue(5));
  EXPECT_EQ(ConstValue(i128{5}), ConstValue(5));
  EXPECT_EQ(ConstValue(), ConstValue(0));
}

TEST(ConstValueTest, IntsSaturateAtIntInf) {
  ConstValue big(int64_t{1} << 62);
  EXPECT_EQ(big * big * big, ConstValue(kIntInf));
  EXPECT_EQ(-(big * big * big), ConstValue(-kIntInf));
  EXPECT_EQ(ConstValue(kIntInf) + ConstValue(1), ConstValue(kIntInf));
  EXPECT_EQ(ConstValue(-kIntInf) - ConstValue(1), ConstValue(-kIntInf));
  EXPECT_EQ(ConstValue(std::numeric_limits<i128>::max()), ConstValue(kIntInf));
  EXPECT_EQ(ConstValue(kIntInf) * ConstValue(kIntInf), ConstValue(kIntInf));
  EXPECT_EQ(ConstValue(kIntInf) * ConstValue(-kIntInf), ConstValue(-kIntInf));
  // int64 sums and int32 products are exact; the product of two int64 bounds (2**126) is not.
  ConstValue lo = dtypes::min(dtypes::int64), hi = dtypes::max(dtypes::int64);
  EXPECT_EQ((lo + lo).repr(), "-18446744073709551616");
  EXPECT_EQ((hi - lo).repr(), "18446744073709551615");
  ConstValue lo32 = dtypes::min(dtypes::int32), hi32 = dtypes::max(dtypes::uint32);
  EXPECT_EQ((lo32 * hi32).repr(), "-9223372034707292160");
  EXPECT_EQ((lo * ConstValue(int64_t{1} << 56)).repr(), "-664613997892457936451903530140172288");
  EXPECT_EQ(lo * lo, ConstValue(kIntInf));
}

TEST(ConstValueTest, Conversions) {
  EXPECT_EQ(ConstValue(2.9).to_int(), 2);
  EXPECT_EQ(ConstValue(-2.9).to_int(), -2);
  EXPECT_EQ(ConstValue(kInf).to_int(), kIntInf);
  EXPECT_EQ(ConstValue(-1e300).to_int(), -kIntInf);
  EXPECT_EQ(ConstValue(true).to_int(), 1);
  EXPECT_EQ(ConstValue(7).to_float(), 7.0);
  EXPECT_TRUE(ConstValue(kNaN).to_bool());
  EXPECT_FALSE(ConstValue(-0.0).to_bool());
  EXPECT_TRUE(ConstValue::Invalid().to_bool());
  EXPECT_EQ(ConstValue(int64_t{-5}).to_int64(), -5);
  EXPECT_EQ(ConstValue::Invalid().repr(), "Invalid");
  EXPECT_EQ(I128ToString(std::numeric_limits<i128>::min()),
            "-170141183460469231731687303715884105728");
  EXPECT_EQ(I128ToString(0), "0");
  EXPECT_EQ(I128ToString(kIntInf), "1329227995784915872903807060280344576");
}

TEST(ConstValueTest, CDivCModTruncate) {
  EXPECT_EQ(CDiv(-7, 2), -3);
  EXPECT_EQ(CMod(-7, 2), -1);
  EXPECT_EQ(CDiv(7, -2), -3);
  EXPECT_EQ(CMod(7, -2), 1);
  EXPECT_EQ(CDiv(5, 0), 0);  // tinygrad's cdiv: y == 0 gives 0
  EXPECT_EQ(CMod(5, 0), 5);
  EXPECT_EQ(CDiv(std::numeric_limits<i128>::min(), -1), kIntInf);  // no UB
}

TEST(ConstValueTest, AsConstMinMax) {
  EXPECT_EQ(dtypes::as_const(ConstValue(2.7), dtypes::int32), ConstValue(2));
  EXPECT_EQ(dtypes::as_const(ConstValue(3), dtypes::float16), ConstValue(3.0));
  EXPECT_EQ(dtypes::as_const(ConstValue(3), dtypes::bool_), ConstValue(true));
  EXPECT_EQ(dtypes::as_const(ConstValue(0.0), dtypes::bool_), ConstValue(false));
  EXPECT_EQ(dtypes::as_const(ConstValue(true), dtypes::index), ConstValue(1));
  EXPECT_EQ(dtypes::as_const(ConstValue(5), dtypes::float32.vec(4)), ConstValue(5.0));
  EXPECT_EQ(dtypes::as_const(ConstValue(5), dtypes::void_), ConstValue(true));
  EXPECT_EQ(dtypes::as_const(ConstValue(-kNaN), dtypes::float32), ConstValue(kNaN));
  EXPECT_EQ(dtypes::as_const(ConstValue::Invalid(), dtypes::index), ConstValue::Invalid());
  EXPECT_EQ(dtypes::min(dtypes::index), ConstValue(-kIntInf));
  EXPECT_EQ(dtypes::max(dtypes::index), ConstValue(kIntInf));
  EXPECT_EQ(dtypes::min(dtypes::int8.vec(4)), ConstValue(-128));
  EXPECT_EQ(dtypes::max(dtypes::uint64), ConstValue(i128{~uint64_t{0}}));
}

// min/max against the reference for every golden dtype (index saturates, see the header).
TEST(ConstValueGoldenTest, DtypeMinMax) {
  for (const auto& r : ReadTable("dtype_props.txt")) {
    DType d = ParseSpec(r[0]);
    if (d.scalar_type() == ScalarType::kIndex && !d.is_ptr()) {
      EXPECT_EQ(r[13].size(), 242u);  // -2**799: 241 digits
      EXPECT_EQ(r[14].size(), 241u);  // 2**799-1
      EXPECT_EQ(dtypes::min(d), ConstValue(-kIntInf));
      EXPECT_EQ(dtypes::max(d), ConstValue(kIntInf));
      continue;
    }
    EXPECT_EQ(dtypes::min(d).repr(), r[13]) << r[0];
    EXPECT_EQ(dtypes::max(d).repr(), r[14]) << r[0];
  }
}

TEST(ConstValueTest, TruncatePassThrough) {
  EXPECT_EQ(Truncate(ConstValue::Invalid(), dtypes::int32), ConstValue::Invalid());
  EXPECT_EQ(Truncate(ConstValue(kIntInf), dtypes::index), ConstValue(kIntInf));
  EXPECT_EQ(Truncate(ConstValue(1.5), dtypes::index), ConstValue(1.5));
}

TEST(ConstValueTest, StableHashIsPinned) {
  // Changing these invalidates every tuning database: update only on purpose.
  EXPECT_EQ(ConstValue(1).StableHash(), 0xb32757219750e6d3ULL);
  EXPECT_EQ(ConstValue(1.0).StableHash(), 0x641b07f8bf863377ULL);
  EXPECT_EQ(ConstValue(true).StableHash(), 0x20f645fd3858ca8cULL);
  EXPECT_EQ(ConstValue(-kIntInf).StableHash(), 0xce55c068d6f48045ULL);
  EXPECT_EQ(ConstValue::Invalid().StableHash(), 0xd37aef9b316f9b35ULL);
}

TEST(ConstValueTest, HashesSeparateKinds) {
  std::vector<ConstValue> vals = {ConstValue(0),    ConstValue(false),   ConstValue(0.0),
                                  ConstValue(-0.0), ConstValue(1),       ConstValue(true),
                                  ConstValue(1.0),  ConstValue(kNaN),    ConstValue::Invalid(),
                                  ConstValue(-1),   ConstValue(kIntInf), ConstValue(-kIntInf)};
  absl::flat_hash_set<uint64_t> stable;
  absl::flat_hash_set<ConstValue> set(vals.begin(), vals.end());
  for (const ConstValue& v : vals) stable.insert(v.StableHash());
  EXPECT_EQ(stable.size(), vals.size());
  EXPECT_EQ(set.size(), vals.size());
  EXPECT_TRUE(set.contains(ConstValue(-kNaN)));
}

// ---- programming errors CHECK-fail with a message ----

TEST(ConstValueDeathTest, BadUses) {
  EXPECT_DEATH(ConstValue(kNaN).to_int(), "int\\(\\) of nan");
  EXPECT_DEATH(ConstValue::Invalid().to_int(), "int\\(\\) of Invalid");
  EXPECT_DEATH(ConstValue::Invalid().to_float(), "float\\(\\) of Invalid");
  EXPECT_DEATH(ConstValue(kIntInf).to_int64(), "does not fit in int64");
  EXPECT_DEATH(ConstValue::Invalid() + ConstValue(1), "with Invalid");
  EXPECT_DEATH(NumLess(ConstValue(1), ConstValue::Invalid()), "with Invalid");
  EXPECT_DEATH(Truncate(ConstValue(1.5), dtypes::int8), "truncate of float 1.5");
  EXPECT_DEATH(Truncate(ConstValue(1), dtypes::void_), "no truncate for dtypes.void");
  EXPECT_DEATH(Truncate(ConstValue(1), dtypes::int32.ptr()), "no truncate for");
  EXPECT_DEATH(FloatToFp8(1.0, dtypes::float16), "only for fp8s");
  EXPECT_DEATH(Fp8ToFloat(1, dtypes::int8), "only for fp8s");
}

}  // namespace
}  // namespace tg
