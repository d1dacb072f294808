#include "tinygrad/uop/shape.h"

#include <limits>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tg {
namespace {

using ::testing::HasSubstr;

UOp Buf(int64_t n, DType dt = dtypes::float32) { return UOp::NewBuffer("CPU", n, dt); }

TEST(ShapeTest, BufferAndMovementShapes) {
  UOp b = Buf(12);
  EXPECT_EQ(ShapeRepr(*b.shape()), "(12,)");
  EXPECT_EQ(b.device(), Arg("CPU"));
  UOp r = b.reshape({3, 4});
  EXPECT_EQ(ShapeRepr(*r.shape()), "(3, 4)");
  EXPECT_EQ(ShapeRepr(*r.permute({1, 0}).shape()), "(4, 3)");
  EXPECT_EQ(ShapeRepr(*r.pad({{1, 2}, {0, 1}}).shape()), "(6, 5)");
  EXPECT_EQ(ShapeRepr(*r.shrink({{1, 3}, {0, 2}}).shape()), "(2, 2)");
  EXPECT_EQ(ShapeRepr(*r.flip({true, false}).shape()), "(3, 4)");
  UOp e = r.reshape({3, 1, 4}).expand({3, 5, 4});
  EXPECT_EQ(ShapeRepr(*e.shape()), "(3, 5, 4)");
  EXPECT_EQ(e.base(), b);
  EXPECT_EQ(e.device(), Arg("CPU"));
  EXPECT_EQ(ShapeRepr(*e.r(Ops::ADD, std::vector<int64_t>{1}).shape()), "(3, 1, 4)");
}

TEST(ShapeTest, ScalarReshapeUsesEmptyVector) {
  UOp one = Buf(1).reshape(Shape{});
  ASSERT_NE(one.shape(), nullptr);
  EXPECT_TRUE(one.shape()->empty());
  EXPECT_EQ(one.src(1).dtype().count(), 0);
  EXPECT_EQ(ShapeRepr(*one.reshape({1, 1}).shape()), "(1, 1)");
}

TEST(ShapeTest, NoOpMovementsReturnThis) {
  UOp r = Buf(12).reshape({3, 4});
  EXPECT_EQ(r.reshape({3, 4}), r);
  EXPECT_EQ(r.expand({3, 4}), r);
  EXPECT_EQ(r.permute({0, 1}), r);
  EXPECT_EQ(r.flip({false, false}), r);
  EXPECT_EQ(r.pad({{0, 0}, {0, 0}}), r);
  EXPECT_EQ(r.shrink({{0, 3}, {0, 4}}), r);
  EXPECT_NE(r.forced_reshape({3, 4}), r);
  EXPECT_EQ(r.r(Ops::ADD, std::vector<int64_t>{}), r);
}

TEST(ShapeTest, ElementwiseAndConsts) {
  UOp r = Buf(12).reshape({3, 4});
  Shape s{3, 4};
  UOp c = UOp::ConstOn(dtypes::float32, 2.0, "CPU", &s);
  EXPECT_EQ(ShapeRepr(*c.shape()), "(3, 4)");
  EXPECT_EQ(ShapeRepr(*(r + c).shape()), "(3, 4)");
  EXPECT_EQ(ShapeRepr(*UOp::ConstOn(dtypes::float32, 1.0, "CPU").shape()), "()");
  EXPECT_EQ(UOp::Const(dtypes::float32, 1.0).shape(), nullptr) << "no device, no shape";
  EXPECT_EQ(ShapeRepr(*r.cast(dtypes::int32).shape()), "(3, 4)");
}

TEST(ShapeTest, InvalidNodesReportWhy) {
  UOp a = Buf(12).reshape({3, 4});
  UOp b = Buf(4);
  auto bad = InferShape(Ops::ADD, dtypes::float32, std::vector<UOp>{a, b}, Arg());
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()),
              HasSubstr("shape mismatch at ADD: (3, 4) vs (4,)"));
  // Interning such a node does not abort: it just has no shape.
  EXPECT_EQ(UOp::Make(Ops::ADD, dtypes::float32, {a, b}).shape(), nullptr);
  UOp target = UOp::VConst(dtypes::index.vec(2), std::vector<ConstValue>{5, 5});
  auto reshape = InferShape(Ops::RESHAPE, dtypes::float32, std::vector<UOp>{a, target}, Arg());
  ASSERT_FALSE(reshape.ok());
  EXPECT_THAT(std::string(reshape.status().message()), HasSubstr("bad reshape: (3, 4) -> (5, 5)"));
  EXPECT_DEATH(a.reshape({5, 5}), "bad reshape");
  EXPECT_DEATH(a.expand({3, 5}), "bad expand");
  EXPECT_DEATH(a.permute({0, 0}), "invalid permutation");
  EXPECT_DEATH(a.shrink({{0, 4}, {0, 4}}), "invalid shrink");
}

TEST(ShapeTest, SymbolicDims) {
  UOp n = UOp::Variable("n", 1, 10);
  SInt d(n);
  EXPECT_FALSE(d.is_int());
  EXPECT_EQ(d + 0, d);
  EXPECT_EQ(d * 1, d);
  EXPECT_EQ((d + 2) + 3, d + 5);
  EXPECT_EQ(SInt(UOp::Const(dtypes::index, 7)), SInt(7));
  EXPECT_EQ(FloorDiv(-7, 2), SInt(-4));
  UOp b = Buf(40).reshape({4, 10}).shrink({{0, 4}, {SInt(0), d}});
  EXPECT_EQ(ShapeRepr(*b.shape()), "(4, n)");
  EXPECT_EQ(ShapeRepr(*b.pad({{0, 0}, {1, 2}}).shape()), "(4, (n+3))");
  EXPECT_EQ(Prod(*b.shape()).vmax(), 40);
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(Prod(Shape{4, kMax, 4, 0}), SInt(0)) << "a 0 before the product can overflow";
  EXPECT_EQ(Prod(Shape{d, 0}), SInt(0));
}

// SInt arithmetic folds linear forms as tinygrad's ssimplify does on shapes; a pad to
// `10 - n` of an (n,) dim must come out as 10, or the scheduler's ranges (built from the
// simplified shape) stop matching it.
TEST(ShapeTest, SymbolicDimsFoldLinearForms) {
  SInt n(UOp::Variable("n", 1, 10)), m(UOp::Variable("m", 1, 10));
  EXPECT_EQ(n + (SInt(10) - n), SInt(10));
  EXPECT_EQ(n + n, n * 2);
  EXPECT_EQ((n * 2) * 2, n * 4);
  EXPECT_EQ((n + 1) * 2, n * 2 + 2);
  EXPECT_EQ(n - n, SInt(0));
  EXPECT_EQ((n + m) - n, m);
  EXPECT_EQ((n + 2) + m, (n + m) + 2);
  EXPECT_EQ(n + m, m + n);  // one term order (a cat of (n,) and (m,) pads both to it)
  EXPECT_EQ((m + n).repr(), "(m+n)");
  EXPECT_EQ((n * 2).repr(), "(n*2)");
  EXPECT_EQ((n * 2 + 2).repr(), "(n*2+2)");
  UOp b = Buf(40).reshape({4, 10}).shrink({{0, 4}, {SInt(0), n}});
  EXPECT_EQ(ShapeRepr(*b.pad({{0, 0}, {SInt(0), SInt(10) - n}}).shape()), "(4, 10)");
  EXPECT_EQ(ShapeRepr(*b.pad({{0, 0}, {SInt(0), n}}).shape()), "(4, (n*2))");
}

TEST(ShapeTest, BitcastRescalesLastDim) {
  UOp b = Buf(8, dtypes::float32).reshape({2, 4});
  EXPECT_EQ(ShapeRepr(*b.bitcast(dtypes::float16).shape()), "(2, 8)");
  EXPECT_EQ(ShapeRepr(*b.bitcast(dtypes::int32).shape()), "(2, 4)");
}

TEST(ShapeTest, MovementArgsRoundTrip) {
  UOp r = Buf(12).reshape({3, 4});
  EXPECT_EQ(r.marg_shape(), (Shape{3, 4}));
  PadArg p = r.pad({{1, 2}, {0, 1}}).marg_pairs();
  EXPECT_EQ(p, (PadArg{{1, 2}, {0, 1}}));
}

TEST(ShapeTest, ShapesAreFreedWithTheirNodes) {
  size_t before = LiveUOpCount();
  for (int i = 0; i < 1000; ++i) {
    UOp n = UOp::Variable("n", 1, 10 + i);
    UOp b = Buf(4 * (10 + i)).reshape({4, 10 + i}).shrink({{0, 4}, {SInt(0), SInt(n)}});
    UOp p = b.pad({{0, 0}, {1, 2}});
    ASSERT_NE(p.shape(), nullptr);
  }
  EXPECT_EQ(LiveUOpCount(), before);
}

}  // namespace
}  // namespace tg
