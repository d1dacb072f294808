// Tests of Render (tinygrad's UOp.render(simplify=False)) and SymInfer (sym_infer).
// Expected strings and values are the reference's, run with
//   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU python3 -c '...'
// on the same graphs (built node for node) at the pinned commit.
#include "tinygrad/uop/render.h"

#include <limits>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace tg {
namespace {

UOp V(const std::string& name, int64_t lo, int64_t hi, DType dt = dtypes::index) {
  return UOp::Variable(name, lo, hi, dt);
}
UOp C(int64_t v) { return UOp::Const(dtypes::index, v); }

struct RenderTest : ::testing::Test {
  UOp a = V("a", 0, 10), b = V("b", 0, 10), c = V("c", -3, 10), f = V("f", 0, 10, dtypes::float32);
};

TEST_F(RenderTest, BinaryOpsDropRedundantParens) {
  EXPECT_EQ(Render((a + b) + c), "(a+b+c)");
  EXPECT_EQ(Render(a + (b + c)), "(a+(b+c))");
  EXPECT_EQ(Render(a * 3 + b), "(a*3+b)");
  EXPECT_EQ(Render((a + b) * c), "((a+b)*c)");
  EXPECT_EQ(Render(a * (b * c)), "(a*(b*c))");
  EXPECT_EQ(Render((a * 3).idiv(4)), "(a*3//4)");
  EXPECT_EQ(Render(a * b.idiv(4)), "(a*(b//4))");
  EXPECT_EQ(Render(a % 4 % 3), "(a%4%3)");
  EXPECT_EQ(Render(a % (b % 3)), "(a%(b%3))");
  EXPECT_EQ(Render((a + b) * (c + a)), "((a+b)*(c+a))");
  EXPECT_EQ(Render(a.idiv(-1)), "(a//-1)");
}

TEST_F(RenderTest, SubtractionIsAddOfNegation) {
  EXPECT_EQ(Render(a - b), "(a+b*-1)");
  EXPECT_EQ(Render(3 - a), "(3+a*-1)");
  EXPECT_EQ(Render(a - (b - c)), "(a+(b+c*-1)*-1)");
  EXPECT_EQ(Render(C(-5) + a), "(-5+a)");
}

TEST_F(RenderTest, ShiftsAndBitwisePrecedence) {
  EXPECT_EQ(Render((a << b) + a), "((a<<b)+a)");
  EXPECT_EQ(Render((a + b) << c), "(a+b<<c)");
  EXPECT_EQ(Render((a ^ b) | c), "(a^b|c)");
  EXPECT_EQ(Render(a | (b ^ c)), "(a|b^c)");
  EXPECT_EQ(Render((a | b) & c), "((a|b)&c)");
}

TEST_F(RenderTest, ComparisonsKeepTheirParens) {
  EXPECT_EQ(Render(a.lt(b)), "(a<b)");
  EXPECT_EQ(Render((a + b).lt(c * 2)), "((a+b)<(c*2))");
  EXPECT_EQ(Render(a.ne(b)), "(a!=b)");
  EXPECT_EQ(Render(a.lt(b).ne(true)), "((a<b)!=True)");
}

TEST_F(RenderTest, FunctionLikeOps) {
  EXPECT_EQ(Render(a.lt(b).where(a, b)), "(a if (a<b) else b)");
  EXPECT_EQ(Render(a.maximum(b)), "max(a, b)");
  EXPECT_EQ(Render(UOp::Make(Ops::NEG, dtypes::index, {a})), "(-a)");
  EXPECT_EQ(Render(f.reciprocal()), "(1/f)");
  EXPECT_EQ(Render(UOp::Make(Ops::MULACC, dtypes::index, {a, b, c})), "(a*b+c)");
}

TEST_F(RenderTest, CastsUseTheDtypeRepr) {
  EXPECT_EQ(Render(a.cast(dtypes::int32)), "(int)(a)");
  EXPECT_EQ(Render(a.cast(dtypes::uint8)), "(uchar)(a)");
  EXPECT_EQ(Render(f.cast(dtypes::float16)), "(half)(f)");
  UOp vec = UOp::Make(Ops::VECTORIZE, dtypes::index.vec(2), {a, b});
  EXPECT_EQ(Render(UOp::Make(Ops::CAST, dtypes::float32.vec(2), {vec})), "(float.vec(2))({a,b})");
}

TEST_F(RenderTest, Leaves) {
  EXPECT_EQ(Render(UOp::Range(10, 3)), "r3");
  EXPECT_EQ(Render(UOp::Range(10, -2)), "rm2");
  EXPECT_EQ(
      Render(UOp::Make(Ops::RANGE, dtypes::index, {C(4)}, Arg::Tuple({1, 0, AxisType::LOOP}))),
      "r1_0");
  EXPECT_EQ(Render(UOp::Special(C(16), "gidx0")), "gidx0");
  EXPECT_EQ(Render(a.bind(3) + 1), "(a+1)");
  EXPECT_EQ(Render(UOp::Const(dtypes::float32, 1e-05)), "1e-05");
  EXPECT_EQ(Render(UOp::Const(dtypes::float32, std::numeric_limits<double>::infinity())), "inf");
  EXPECT_EQ(Render(UOp::Const(dtypes::float32, 1.5) + UOp::Const(dtypes::float32, 2.0)),
            "(1.5+2.0)");
  EXPECT_EQ(Render(UOp::Const(dtypes::bool_, true)), "True");
  EXPECT_EQ(Render(UOp::Invalid()), "Invalid");
  std::vector<ConstValue> lanes{1, 2, 3};
  EXPECT_EQ(Render(UOp::VConst(dtypes::int32.vec(3), lanes)), "(1, 2, 3)");
}

TEST_F(RenderTest, VectorsAndIndexing) {
  EXPECT_EQ(Render(UOp::Make(Ops::VECTORIZE, dtypes::index.vec(3), {a, b, c})), "{a,b,c}");
  EXPECT_EQ(Render(UOp::Make(Ops::VECTORIZE, dtypes::index.vec(2), {a, a})), "{a, ...}");
  UOp buf = UOp::Make(Ops::DEFINE_GLOBAL, dtypes::float32.ptr(), {}, 0);
  EXPECT_EQ(Render(buf.index(std::vector<UOp>{a + b, a.lt(b)})), "[a+b][a<b]");
}

TEST(SymInferTest, CDivisionSemantics) {
  UOp x = V("x", -10, 10), y = V("y", -10, 10);
  absl::flat_hash_map<std::string, ConstValue> vars{{"x", -7}, {"y", 2}};
  EXPECT_EQ(SymInfer(x.idiv(y), vars)->repr(), "-3");
  EXPECT_EQ(SymInfer(x % y, vars)->repr(), "-1");
  EXPECT_EQ(SymInfer((x * 3 + y).idiv(4), {{"x", 5}, {"y", 2}})->repr(), "4");
}

TEST(SymInferTest, WhereIsLazyMaxAndCasts) {
  UOp x = V("x", -10, 10), y = V("y", -10, 10);
  // the untaken branch divides by zero, as Python's `a if c else b` never evaluates it
  EXPECT_EQ(SymInfer(y.ne(0).where(x.idiv(y), C(0)), {{"x", 5}, {"y", 0}})->repr(), "0");
  EXPECT_EQ(SymInfer(x.lt(y).where(x, y).maximum(3), {{"x", 1}, {"y", 2}})->repr(), "3");
  EXPECT_EQ(SymInfer(x.cast(dtypes::float32), {{"x", 3}})->repr(), "3.0");
}

TEST(SymInferTest, Errors) {
  UOp x = V("x", -10, 10), y = V("y", -10, 10);
  absl::StatusOr<ConstValue> missing = SymInfer(x + y, {{"x", 1}});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("'y'"), std::string::npos) << missing.status();
  absl::StatusOr<ConstValue> div0 = SymInfer(x.idiv(y), {{"x", 1}, {"y", 0}});
  ASSERT_FALSE(div0.ok());
  EXPECT_NE(div0.status().message().find("division by zero"), std::string::npos) << div0.status();
}

}  // namespace
}  // namespace tg
