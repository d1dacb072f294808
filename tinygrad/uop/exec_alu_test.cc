// Tests of ExecAlu (tinygrad's exec_alu / python_alu).
// Expected values are the reference's: `exec_alu(op, dtype, operands[, False])` run with
//   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU python3 -c '...'
// at the pinned commit, and compared by Python repr (so 3 != 3.0 != True).
#include "tinygrad/uop/exec_alu.h"

#include <limits>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace tg {
namespace {

std::string Exec(Ops op, DType dtype, std::vector<ConstValue> operands, bool truncate = true) {
  return ExecAlu(op, dtype, operands, truncate).repr();
}

TEST(ExecAluTest, IntArithmeticWrapsToTheDtype) {
  EXPECT_EQ(Exec(Ops::ADD, dtypes::int32, {2147483647, 1}), "-2147483648");
  EXPECT_EQ(Exec(Ops::MUL, dtypes::uint8, {16, 17}), "16");
  EXPECT_EQ(Exec(Ops::SHL, dtypes::int32, {1, 31}), "-2147483648");
  EXPECT_EQ(Exec(Ops::SHR, dtypes::int32, {-8, 1}), "-4");
  EXPECT_EQ(Exec(Ops::NEG, dtypes::int8, {-128}), "-128");
}

TEST(ExecAluTest, WithoutTruncationIntsAreExact) {
  EXPECT_EQ(Exec(Ops::ADD, dtypes::int32, {2147483647, 1}, false), "2147483648");
  EXPECT_EQ(Exec(Ops::ADD, dtypes::bool_, {true, true}, false), "2");
  EXPECT_EQ(Exec(Ops::ADD, dtypes::bool_, {true, true}), "True");
}

// Products and shifts past 128 bits still wrap exactly in 64-bit dtypes.
TEST(ExecAluTest, WideProductsWrapExactly) {
  i128 big = (i128{1} << 62) + 1;
  EXPECT_EQ(Exec(Ops::MUL, dtypes::int64, {ConstValue(big), ConstValue(big)}),
            "-9223372036854775807");
  i128 umax = (i128{1} << 64) - 1;
  EXPECT_EQ(Exec(Ops::MUL, dtypes::uint64, {ConstValue(umax), ConstValue(umax)}), "1");
  EXPECT_EQ(Exec(Ops::SHL, dtypes::uint64, {3, 70}), "0");
}

TEST(ExecAluTest, DivisionTruncatesTowardZero) {
  EXPECT_EQ(Exec(Ops::IDIV, dtypes::int32, {-7, 2}), "-3");
  EXPECT_EQ(Exec(Ops::MOD, dtypes::int32, {-7, 2}), "-1");
  EXPECT_EQ(Exec(Ops::IDIV, dtypes::int32, {7, -2}), "-3");
  EXPECT_EQ(Exec(Ops::MOD, dtypes::int32, {7, -2}), "1");
  // tinygrad's cdiv(x, 0) is 0 and cmod(x, 0) is x
  EXPECT_EQ(Exec(Ops::IDIV, dtypes::int32, {7, 0}), "0");
  EXPECT_EQ(Exec(Ops::MOD, dtypes::int32, {7, 0}), "7");
}

TEST(ExecAluTest, TranscendentalEdgeCases) {
  EXPECT_EQ(Exec(Ops::LOG2, dtypes::float32, {0.0}), "-inf");
  EXPECT_EQ(Exec(Ops::LOG2, dtypes::float32, {-1.0}), "nan");
  EXPECT_EQ(Exec(Ops::LOG2, dtypes::float32, {8}), "3.0");
  EXPECT_EQ(Exec(Ops::SQRT, dtypes::float32, {-4.0}), "nan");
  EXPECT_EQ(Exec(Ops::SQRT, dtypes::float32, {2.0}), "1.4142135381698608");
  EXPECT_EQ(Exec(Ops::RECIPROCAL, dtypes::float32, {0.0}), "inf");
  EXPECT_EQ(Exec(Ops::RECIPROCAL, dtypes::float32, {-0.0}), "-inf");
  EXPECT_EQ(Exec(Ops::RECIPROCAL, dtypes::float32, {3.0}), "0.3333333432674408");
  EXPECT_EQ(Exec(Ops::SIN, dtypes::float32, {std::numeric_limits<double>::infinity()}), "nan");
}

TEST(ExecAluTest, Exp2AndPow) {
  EXPECT_EQ(Exec(Ops::EXP2, dtypes::float32, {3}), "8.0");
  EXPECT_EQ(Exec(Ops::EXP2, dtypes::int32, {3}), "8");
  EXPECT_EQ(Exec(Ops::EXP2, dtypes::float32, {-1}), "0.5");
  EXPECT_EQ(Exec(Ops::EXP2, dtypes::float32, {2000.0}), "inf");
  EXPECT_EQ(Exec(Ops::POW, dtypes::float32, {-8.0, 0.5}), "nan");
  EXPECT_EQ(Exec(Ops::POW, dtypes::float32, {0.0, -1.0}), "inf");
  EXPECT_EQ(Exec(Ops::POW, dtypes::int32, {3, 4}), "81");
  EXPECT_EQ(Exec(Ops::POW, dtypes::float32, {2.0, -1}), "0.5");
  EXPECT_EQ(Exec(Ops::TRUNC, dtypes::float32, {-2.5}), "-2.0");
}

TEST(ExecAluTest, ComparisonsAndBitwise) {
  EXPECT_EQ(Exec(Ops::CMPLT, dtypes::bool_, {1, 2}), "True");
  EXPECT_EQ(Exec(Ops::CMPNE, dtypes::bool_, {1.0, 1}), "False");
  EXPECT_EQ(Exec(Ops::CMPEQ, dtypes::bool_, {2, 2}), "True");
  EXPECT_EQ(Exec(Ops::XOR, dtypes::bool_, {true, true}), "False");
  EXPECT_EQ(Exec(Ops::OR, dtypes::int32, {5, 2}), "7");
  EXPECT_EQ(Exec(Ops::AND, dtypes::int32, {6, 3}), "2");
  EXPECT_EQ(Exec(Ops::MAX, dtypes::int32, {3, 7}), "7");
}

TEST(ExecAluTest, Ternary) {
  EXPECT_EQ(Exec(Ops::WHERE, dtypes::int32, {true, 1, 2}), "1");
  EXPECT_EQ(Exec(Ops::WHERE, dtypes::int32, {0, 1, 2}), "2");
  EXPECT_EQ(Exec(Ops::MULACC, dtypes::int32, {3, 4, 5}), "17");
}

TEST(ExecAluTest, FloatResultsRoundToTheDtype) {
  EXPECT_EQ(Exec(Ops::MUL, dtypes::float32, {0.1, 3.0}), "0.30000001192092896");
  EXPECT_EQ(Exec(Ops::ADD, dtypes::float16, {1.0, 0.0001}), "1.0");
  EXPECT_EQ(Exec(Ops::ADD, dtypes::bfloat16, {1.0, 0.00390625}), "1.0");
}

TEST(ExecAluTest, Invalid) {
  // an index binary op with Invalid is Invalid
  EXPECT_EQ(Exec(Ops::ADD, dtypes::index, {ConstValue::Invalid(), 3}), "Invalid");
  // elsewhere Python's InvalidType decides: it orders against anything
  EXPECT_EQ(Exec(Ops::CMPLT, dtypes::bool_, {ConstValue::Invalid(), 3}), "True");
}

}  // namespace
}  // namespace tg
