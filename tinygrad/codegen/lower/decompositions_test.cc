// File: tinygrad/codegen/lower/decompositions_test.cc
// Tests of get_late_rewrite_patterns' rule selection and results (mirrors tinygrad's
// test/test_uops.py TestFastIdiv / test_uop_graph.py decomposition cases) and an exhaustive
// check of fast integer division: (x*m) >> s == x // d.
#include "tinygrad/codegen/lower/decompositions.h"

#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/codegen/lower/graph_eval.h"
#include "tinygrad/codegen/lower/transcendental.h"
#include "tinygrad/uop/graph_rewrite.h"

namespace tg {
namespace {

using testing::ScalarGraph;

UOp Lower(const UOp& u, OpSet ops, bool disable_fast_idiv = false) {
  return GraphRewrite(UOp::Sink({u}), GetLateRewritePatterns(ops, false, disable_fast_idiv)).src(0);
}

bool HasOp(const UOp& u, Ops op) {
  for (const UOp& x : u.toposort())
    if (x.op() == op) return true;
  return false;
}

const OpSet kClang{Ops::EXP2, Ops::LOG2, Ops::SIN, Ops::SQRT, Ops::NEG, Ops::TRUNC, Ops::ADD,
                   Ops::SUB, Ops::MUL, Ops::IDIV, Ops::MOD, Ops::MAX, Ops::CMPLT, Ops::CMPNE,
                   Ops::CMPEQ, Ops::XOR, Ops::OR, Ops::AND, Ops::SHL, Ops::SHR, Ops::WHERE,
                   Ops::RECIPROCAL};

TEST(DecompositionsTest, MaxToWhere) {
  UOp a = UOp::Variable("a", 0, 10, dtypes::int32), b = UOp::Variable("b", 0, 10, dtypes::int32);
  EXPECT_EQ(Lower(a.maximum(b), OpSet{Ops::CMPLT}), a.lt(b).where(b, a));
  EXPECT_EQ(Lower(a.maximum(b), OpSet{Ops::CMPLT, Ops::MAX}), a.maximum(b));
  EXPECT_EQ(Lower(a.maximum(b), OpSet{}), a.maximum(b));  // no CMPLT: nothing to lower to
}

TEST(DecompositionsTest, ModPowerOfTwoToAnd) {
  UOp x = UOp::Variable("x", 0, 100, dtypes::int32);
  EXPECT_EQ(Lower(x % 8, OpSet{Ops::AND}), x & 7);
  EXPECT_EQ(Lower(x % 6, OpSet{Ops::AND}), x % 6);
  EXPECT_EQ(Lower(x % 8, OpSet{}), x % 8);
}

TEST(DecompositionsTest, MulPowerOfTwoToShl) {
  UOp x = UOp::Variable("x", 0, 100, dtypes::int32);
  EXPECT_EQ(Lower(x * 8, OpSet{Ops::SHL}), x << 3);
  EXPECT_EQ(Lower(x * 1, OpSet{Ops::SHL}), x * 1);  // 2**0: not a shift
  EXPECT_EQ(Lower(x * 6, OpSet{Ops::SHL}), x * 6);
}

TEST(DecompositionsTest, DivPowerOfTwoToShr) {
  UOp u = UOp::Variable("u", 0, 100, dtypes::uint32);
  EXPECT_EQ(Lower(u.idiv(ConstValue(8)), OpSet{Ops::SHR}), u >> 3);
  // signed: (x + (x<0).where(c-1, 0)) >> v; x<0 is known False when x >= 0
  UOp x = UOp::Variable("x", -100, 100, dtypes::int32);
  UOp c = x.const_like(8);
  EXPECT_EQ(Lower(x.idiv(c), OpSet{Ops::SHR}), (x + x.lt(ConstValue(0)).where(c - ConstValue(1), ConstValue(0))) >> 3);
  UOp p = UOp::Variable("p", 0, 100, dtypes::int32);
  UOp cp = p.const_like(8);
  UOp f = UOp::Const(dtypes::bool_, false);
  EXPECT_EQ(Lower(p.idiv(cp), OpSet{Ops::SHR}), (p + f.where(cp - ConstValue(1), ConstValue(0))) >> 3);
}

TEST(DecompositionsTest, FastIdivRule) {
  UOp x = UOp::Variable("x", 0, 1000, dtypes::int32);
  UOp out = Lower(x.idiv(ConstValue(7)), OpSet{Ops::SHR});
  EXPECT_FALSE(HasOp(out, Ops::IDIV)) << out;
  EXPECT_TRUE(HasOp(out, Ops::SHR));
  EXPECT_EQ(Lower(x.idiv(ConstValue(7)), OpSet{Ops::SHR}, /*disable_fast_idiv=*/true), x.idiv(ConstValue(7)));
  // x % d -> x - d*(x//d), then the division is fast
  UOp m = Lower(x % 7, OpSet{Ops::SHR});
  EXPECT_FALSE(HasOp(m, Ops::MOD)) << m;
  EXPECT_FALSE(HasOp(m, Ops::IDIV)) << m;
  ScalarGraph g(m);
  for (int v = 0; v <= 1000; ++v) EXPECT_EQ(g.Eval("x", ConstValue(v)).to_int(), v % 7) << v;
}

TEST(DecompositionsTest, NegAndSub) {
  UOp x = UOp::Variable("x", 0, 10, dtypes::int32), y = UOp::Variable("y", 0, 10, dtypes::int32);
  EXPECT_EQ(Lower(x * -1, OpSet{Ops::NEG}), x.alu(Ops::NEG));
  EXPECT_EQ(Lower(x - y, OpSet{Ops::NEG, Ops::SUB}), x.alu(Ops::SUB, {y}));
  EXPECT_EQ(Lower(x - y, OpSet{Ops::NEG}), x + y.alu(Ops::NEG));
}

TEST(DecompositionsTest, Comparisons) {
  UOp x = UOp::Variable("x", -10, 10, dtypes::int32), y = UOp::Variable("y", -10, 10, dtypes::int32);
  OpSet ops{Ops::CMPLT};
  // !(x < 3) -> 2 < x ; !(3 < x) -> x < 4
  EXPECT_EQ(Lower(x.lt(ConstValue(3)).logical_not(), ops), x.const_like(3).alu(Ops::ADD, {x.const_like(-1)}).lt(x));
  EXPECT_EQ(Lower(x.gt(ConstValue(3)).logical_not(), ops), x.lt(x.const_like(3) + ConstValue(1)));
  // -x < y*3 -> y*-3 < x
  EXPECT_EQ(Lower((x * -1).lt(y * 3), ops), (y * (-x.const_like(3))).lt(x));
  // -x < 3 -> -3 < x
  EXPECT_EQ(Lower((x * -1).lt(ConstValue(3)), ops), (-x.const_like(3)).lt(x));
  // 2<x & x<4 -> x==3
  UOp both = x.const_like(2).lt(x) & x.lt(ConstValue(4));
  EXPECT_EQ(Lower(both, ops), x.eq(x.const_like(2) + ConstValue(1)));
  EXPECT_EQ(Lower(both, OpSet{Ops::CMPLT, Ops::CMPEQ}), x.alu(Ops::CMPEQ, {x.const_like(2) + ConstValue(1)}));
  UOp wide = x.const_like(2).lt(x) & x.lt(ConstValue(5));
  EXPECT_EQ(Lower(wide, ops), wide);
}

TEST(DecompositionsTest, OrOfNots) {
  UOp a = UOp::Variable("a", false, true, dtypes::bool_), b = UOp::Variable("b", false, true, dtypes::bool_);
  EXPECT_EQ(Lower(a.logical_not() & b.logical_not(), OpSet{Ops::OR}), (a | b).logical_not());
}

TEST(DecompositionsTest, MulaccAndFdiv) {
  UOp a = UOp::Variable("a", 0.0, 1.0, dtypes::float32), b = UOp::Variable("b", 0.0, 1.0, dtypes::float32);
  UOp c = UOp::Variable("c", 0.0, 1.0, dtypes::float32);
  EXPECT_EQ(Lower(a * b + c, OpSet{Ops::MULACC}), a.alu(Ops::MULACC, {b, c}));
  EXPECT_EQ(Lower(b.reciprocal(), OpSet{Ops::FDIV}), b.const_like(1).alu(Ops::FDIV, {b}));
  EXPECT_EQ(Lower(a / b, OpSet{Ops::FDIV}), a.alu(Ops::FDIV, {b}));
}

TEST(DecompositionsTest, ClangKeepsNativeOps) {
  UOp a = UOp::Variable("a", 0.0, 1.0, dtypes::float32);
  UOp e = a.exp2() + a.log2() * a.sin();
  EXPECT_EQ(Lower(e, kClang), e);
}

// ** fast integer division **

TEST(FastIdivTest, MagicGu) {
  // Hacker's Delight: x//3 for 32-bit x is (x*0xAAAAAAAB) >> 33
  auto [m, s] = MagicGu((i128{1} << 32) - 1, 3);
  EXPECT_EQ(m, i128{0xAAAAAAAB});
  EXPECT_EQ(s, 33);
  auto [m7, s7] = MagicGu(1000, 7);
  for (i128 x = 0; x <= 1000; ++x) ASSERT_EQ((x * m7) >> s7, x / 7) << static_cast<int64_t>(x);
}

// Every x in [lo, hi] (a window, stepping through the rest) divides correctly. Returns whether
// a fast form exists (none may, when the product overflows even the wider dtype).
bool CheckRange(DType dt, int64_t lo, int64_t hi, int64_t d, bool expect_fast = true) {
  UOp x = UOp::Variable("x", lo, hi, dt);
  UOp q = FastIdiv(x, d);
  if (!q && lo < 0 && (d & (d - 1)) == 0) return false;  // signed power of two: declined
  if (!q) {
    EXPECT_FALSE(expect_fast) << "no fast idiv for " << dt << " [" << lo << "," << hi << "] / " << d;
    return false;
  }
  // only the power-of-two part of d may stay an IDIV (the SHR rule turns it into a shift)
  for (const UOp& u : q.toposort()) {
    if (u.op() != Ops::IDIV) continue;
    i128 c = u.src(1).op() == Ops::CONST ? u.src(1).arg().number().to_int() : 0;
    EXPECT_TRUE(c > 0 && (c & (c - 1)) == 0) << q;
  }
  ScalarGraph g(q);
  int bad = 0;
  auto check = [&](int64_t v) {
    if (bad > 5) return;
    i128 got = g.Eval("x", ConstValue(v)).to_int();
    EXPECT_EQ(got, CDiv(v, d)) << dt << " " << v << " // " << d;
    bad += got != CDiv(v, d);
  };
  if (hi - lo <= 20000) {
    for (int64_t v = lo; v <= hi; ++v) check(v);
    return true;
  }
  for (int64_t v = lo; v <= lo + 5000; ++v) check(v);
  for (int64_t v = hi - 5000; v <= hi; ++v) check(v);
  for (int64_t v = -5000; v <= 5000; ++v)
    if (v >= lo && v <= hi) check(v);
  std::mt19937_64 rng(static_cast<uint64_t>(d));
  std::uniform_int_distribution<int64_t> uni(lo, hi);
  for (int i = 0; i < 5000; ++i) check(uni(rng));
  return true;
}

std::vector<int64_t> Divisors() {
  std::vector<int64_t> ds;
  for (int64_t d = 1; d <= 100; ++d) ds.push_back(d);
  for (int64_t d : {127, 128, 255, 256, 641, 1000, 1024, 4095, 6700417, 65535, 65536, 1000000007,
                    2147483647})
    ds.push_back(d);
  return ds;
}

TEST(FastIdivTest, Int32Small) {
  for (int64_t d : Divisors()) CheckRange(dtypes::int32, -3000, 3000, d);
}
TEST(FastIdivTest, UInt32Small) {
  for (int64_t d : Divisors()) CheckRange(dtypes::uint32, 0, 10000, d);
}
TEST(FastIdivTest, Int8AndUInt8Full) {
  // the 9-bit multipliers of some divisors overflow even 16 bits: those keep the IDIV
  int fast = 0;
  for (int64_t d = 1; d <= 130; ++d) {
    fast += CheckRange(dtypes::int8, -128, 127, d, false);
    fast += CheckRange(dtypes::uint8, 0, 255, d, false);
  }
  EXPECT_GT(fast, 200);
}
TEST(FastIdivTest, Int16Full) {
  int fast = 0;
  for (int64_t d : {3, 5, 6, 7, 9, 10, 11, 13, 100, 641, 1000, 32767}) {
    fast += CheckRange(dtypes::int16, -32768, 32767, d, false);
    fast += CheckRange(dtypes::uint16, 0, 65535, d, false);
  }
  EXPECT_GT(fast, 16);
}
TEST(FastIdivTest, Int32Full) {
  // the product needs int64: widened and cast back
  int fast = 0;
  for (int64_t d : {3, 7, 10, 12, 641, 1000, 6700417, 2147483647}) {
    fast += CheckRange(dtypes::int32, INT32_MIN, INT32_MAX, d, false);
    fast += CheckRange(dtypes::uint32, 0, UINT32_MAX, d, false);
  }
  EXPECT_GT(fast, 10);
}
TEST(FastIdivTest, Int64FullHasNoWiderDtype) {
  // int64 promotes to floats: no fast form (unless a power of two shrinks x enough)
  UOp x = UOp::Variable("x", INT64_MIN, INT64_MAX, dtypes::int64);
  EXPECT_FALSE(FastIdiv(x, 7));
  CheckRange(dtypes::int64, -1000000, 1000000, 7);
}
// tinygrad's fast_idiv gives x+1 for x//1 with negative x (and is wrong for every power of
// two); ours declines.
TEST(FastIdivTest, SignedPowerOfTwoDeclined) {
  UOp x = UOp::Variable("x", -100, 100, dtypes::int32);
  EXPECT_FALSE(FastIdiv(x, 1));
  EXPECT_FALSE(FastIdiv(x, 64));
  EXPECT_TRUE(FastIdiv(UOp::Variable("p", 0, 100, dtypes::int32), 64));
}

TEST(FastIdivTest, NoWideningWhenForbidden) {
  UOp x = UOp::Variable("x", INT32_MIN, INT32_MAX, dtypes::int32);
  EXPECT_FALSE(FastIdiv(x, 7, /*allow_wider_dtype=*/false));
  EXPECT_TRUE(FastIdiv(x, 7));
}

}  // namespace
}  // namespace tg
