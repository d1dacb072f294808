// File: tinygrad/gradient/gradient_test.cc
// The gradient rules and compute_gradient on UOp graphs: every rule gives one gradient per
// source with that source's shape and dtype, gradients of shared nodes add up in tinygrad's
// order, DETACH stops the flow, and what cannot be differentiated is an error, not an abort.
// (The values are checked against finite differences in tinygrad/tensor/autograd_test.cc.)
#include "tinygrad/gradient/gradient.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/uop/shape.h"

namespace tg {
namespace {

UOp Buf(std::vector<SInt> shape, DType dt = dtypes::float32) {
  return UOp::NewBuffer("CPU", Prod(shape).value(), dt).reshape(shape);
}
UOp Dev() { return UOp::Make(Ops::DEVICE, dtypes::void_, {}, "CPU"); }

struct Case {
  std::string name;
  UOp node;
};

// One node per op that has a rule, built on (2, 3) float buffers.
std::vector<Case> RuleCases() {
  UOp x = Buf({2, 3}), y = Buf({2, 3});
  UOp b = Buf({2, 3}, dtypes::bool_);
  UOp col = Buf({2, 1});
  return {
      {"cast", x.cast(dtypes::float16)},
      {"reciprocal", x.reciprocal()},
      {"sin", x.sin()},
      {"log2", x.log2()},
      {"exp2", x.exp2()},
      {"sqrt", x.sqrt()},
      {"cmplt", x.lt(y)},
      {"cmpne", x.ne(y)},
      {"add", x + y},
      {"pow", x.pow(y)},
      {"max", x.maximum(y)},
      {"mul", x * y},
      {"where", b.where(x, y)},
      {"sum", x.r(Ops::ADD, std::vector<int64_t>{1})},
      {"max_reduce", x.r(Ops::MAX, std::vector<int64_t>{0, 1})},
      {"prod", x.r(Ops::MUL, std::vector<int64_t>{0})},
      {"contiguous", UOp::Make(Ops::CONTIGUOUS, dtypes::float32, {x})},
      {"contiguous_backward", UOp::Make(Ops::CONTIGUOUS_BACKWARD, dtypes::float32, {x})},
      {"reshape", x.reshape({3, 2})},
      {"expand", col.expand({2, 5})},
      {"pad", x.pad({{1, 0}, {2, 3}})},
      {"shrink", x.shrink({{1, 2}, {0, 2}})},
      {"permute", x.permute({1, 0})},
      {"flip", x.flip({true, false})},
      {"copy", UOp::Make(Ops::COPY, dtypes::float32, {x, Dev()})},
      {"bitcast", x.bitcast(dtypes::int32)},
  };
}

TEST(GradientRules, OneGradientPerSourceWithItsShapeAndDtype) {
  for (const Case& c : RuleCases()) {
    SCOPED_TRACE(c.name);
    GradCtx ctx{Buf(*c.node.shape(), c.node.dtype())};
    UOp out = GradientRules().Rewrite(c.node, RewriteCtx::Of(ctx));
    ASSERT_TRUE(out);
    ASSERT_EQ(out.op(), Ops::SINK);
    ASSERT_EQ(out.src().size(), c.node.src().size());
    int given = 0;
    for (size_t i = 0; i < out.src().size(); ++i) {
      const UOp& g = out.src(i);
      if (g.op() == Ops::NOOP) continue;
      ++given;
      ASSERT_NE(g.shape(), nullptr) << i;
      EXPECT_EQ(ShapeRepr(*g.shape()), ShapeRepr(*c.node.src(i).shape())) << i;
      EXPECT_EQ(g.dtype(), c.node.src(i).dtype()) << i;
    }
    bool flat = c.name == "cmplt" || c.name == "cmpne" || c.name == "bitcast";
    EXPECT_EQ(given == 0, flat);
  }
}

TEST(GradientRules, IntegerOpsHaveNoRule) {
  UOp i = Buf({4}, dtypes::int32);
  GradCtx ctx{Buf({4}, dtypes::int32)};
  EXPECT_FALSE(GradientRules().Rewrite(i.idiv(i), RewriteCtx::Of(ctx)));
  EXPECT_FALSE(GradientRules().Rewrite(i % i, RewriteCtx::Of(ctx)));
}

TEST(ComputeGradient, SharedNodesAddInTinygradsOrder) {
  UOp x = Buf({2, 3}), y = Buf({2, 3}), g = Buf({2, 3});
  UOp root = x * y + x;
  absl::StatusOr<GradientMap> grads = ComputeGradient(root, g, {x, y});
  ASSERT_TRUE(grads.ok()) << grads.status();
  // ADD gives x its first gradient g; MUL then adds y*g to it.
  EXPECT_EQ(grads->at(x), g + y * g);
  EXPECT_EQ(grads->at(y), x * g);
  EXPECT_EQ(grads->at(root), g);
}

TEST(ComputeGradient, DetachStopsTheFlow) {
  UOp x = Buf({3}), g = Buf({3});
  UOp d = UOp::Make(Ops::DETACH, dtypes::float32, {x});
  absl::StatusOr<GradientMap> grads = ComputeGradient(x * d, g, {x});
  ASSERT_TRUE(grads.ok()) << grads.status();
  EXPECT_EQ(grads->at(x), d * g);  // only the path that does not go through DETACH
}

TEST(ComputeGradient, TargetsNotReachedAreAbsent) {
  UOp x = Buf({3}), y = Buf({3}), g = Buf({3});
  absl::StatusOr<GradientMap> grads = ComputeGradient(x * x, g, {y});
  ASSERT_TRUE(grads.ok()) << grads.status();
  EXPECT_FALSE(grads->contains(y));
  EXPECT_FALSE(grads->contains(x));  // not on a path to a target: never visited
}

TEST(ComputeGradient, APathThroughAnIntegerOpIsAnError) {
  UOp x = Buf({3}), g = Buf({3});
  UOp root = x.cast(dtypes::int32).idiv(Buf({3}, dtypes::int32)).cast(dtypes::float32);
  absl::StatusOr<GradientMap> grads = ComputeGradient(root, g, {x});
  ASSERT_FALSE(grads.ok());
  EXPECT_NE(std::string(grads.status().message()).find("no gradient rule for IDIV"), std::string::npos)
      << grads.status();
}

TEST(ComputeGradient, TheRootGradientMustMatchTheRoot) {
  UOp x = Buf({3});
  absl::StatusOr<GradientMap> bad_shape = ComputeGradient(x * x, Buf({4}), {x});
  ASSERT_FALSE(bad_shape.ok());
  EXPECT_NE(std::string(bad_shape.status().message()).find("(4,)"), std::string::npos);
  EXPECT_FALSE(ComputeGradient(x * x, Buf({3}, dtypes::float16), {x}).ok());
}

}  // namespace
}  // namespace tg
