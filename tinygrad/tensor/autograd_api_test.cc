// File: tinygrad/tensor/autograd_api_test.cc
// The autograd API's semantics, as tinygrad's: tri-state requires_grad, which tensors
// backward() gives a .grad (leaves, live intermediates, the loss itself), accumulation on a
// repeated backward, gradient() without .grad, detach, NoGradScope, and clear errors.
// Expected values were checked against tinygrad 35900290 (DEV=CPU) by hand.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/tensor/autograd.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

Tensor Vec(std::vector<float> v) { return Tensor::FromVector<float>(v); }

std::vector<float> Values(const std::optional<Tensor>& t) {
  EXPECT_TRUE(t.has_value());
  if (!t) return {};
  absl::StatusOr<std::vector<float>> v = t->to_vector<float>();
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : std::vector<float>{};
}

void ExpectError(const absl::Status& s, const std::string& part) {
  EXPECT_FALSE(s.ok());
  EXPECT_NE(std::string(s.message()).find(part), std::string::npos) << s;
}

TEST(RequiresGrad, IsTriStateAndPropagatesLikeApplyUop) {
  Tensor none = Vec({1});
  Tensor yes = Vec({2}).requires_grad_();
  Tensor no = Vec({3}).requires_grad_(false);
  EXPECT_EQ(none.requires_grad(), std::nullopt);
  EXPECT_EQ(yes.requires_grad(), true);
  EXPECT_EQ(no.requires_grad(), false);
  EXPECT_EQ((none + yes).requires_grad(), true);     // any true
  EXPECT_EQ((none + no).requires_grad(), std::nullopt);  // else any None
  EXPECT_EQ((no * no).requires_grad(), false);
  EXPECT_EQ((none + 2).requires_grad(), std::nullopt);  // a number counts as false
  EXPECT_EQ((no + 2).requires_grad(), false);
  EXPECT_EQ(yes.detach().requires_grad(), false);
  EXPECT_EQ(yes.reshape({1, 1}).sum().exp().requires_grad(), true);
  EXPECT_EQ(no.where(yes, 1.0).requires_grad(), true);
  // requires_grad_ sets it on the tensor, seen through every handle.
  Tensor alias = none;
  none.requires_grad_(true);
  EXPECT_EQ(alias.requires_grad(), true);
}

TEST(Backward, GivesGradToLeavesLiveIntermediatesAndTheLoss) {
  Tensor x = Vec({1, 2, 3}).requires_grad_();
  Tensor y = x * 2;  // live, derived: requires_grad true
  Tensor loss = (y * y).sum();
  ASSERT_TRUE(loss.backward().ok());
  EXPECT_EQ(Values(x.grad()), (std::vector<float>{8, 16, 24}));
  EXPECT_EQ(Values(y.grad()), (std::vector<float>{4, 8, 12}));
  EXPECT_EQ(Values(loss.grad()), (std::vector<float>{1}));
}

TEST(Backward, AccumulatesIntoTheSameGradUntilCleared) {
  Tensor x = Vec({1, 2, 3}).requires_grad_();
  ASSERT_TRUE((x * x).sum().backward().ok());
  Tensor g = *x.grad();
  EXPECT_EQ(Values(g), (std::vector<float>{2, 4, 6}));
  ASSERT_TRUE((x * x).sum().backward().ok());
  EXPECT_EQ(Values(g), (std::vector<float>{4, 8, 12}));  // the handle sees the sum (in place)
  x.clear_grad();
  EXPECT_FALSE(x.grad().has_value());
  ASSERT_TRUE((x * 5).sum().backward().ok());
  EXPECT_EQ(Values(x.grad()), (std::vector<float>{5, 5, 5}));
}

TEST(Backward, SkipsTensorsThatDoNotRequireGradOrAreNotInTheGraph) {
  Tensor x = Vec({1, 2}).requires_grad_();
  Tensor c = Vec({3, 4});                          // None: in the graph, no grad
  Tensor f = Vec({5, 6}).requires_grad_(false);    // false: no grad
  Tensor other = Vec({7, 8}).requires_grad_();     // not in the graph
  ASSERT_TRUE((x * c * f).sum().backward().ok());
  EXPECT_EQ(Values(x.grad()), (std::vector<float>{15, 24}));
  EXPECT_FALSE(c.grad().has_value());
  EXPECT_FALSE(f.grad().has_value());
  EXPECT_FALSE(other.grad().has_value());
}

TEST(Backward, ExplicitOutputGradientForANonScalar) {
  Tensor x = Vec({1, 2, 3}).requires_grad_();
  Tensor y = x * x;
  ExpectError(y.backward(), "must be called on a scalar tensor");
  EXPECT_FALSE(x.grad().has_value());  // nothing changed on error
  ExpectError(y.backward(Vec({1, 1})), "must have the shape, dtype and device");
  ExpectError(y.backward(Tensor::FromVector<double>({1, 1, 1})), "must have the shape, dtype and device");
  ASSERT_TRUE(y.backward(Vec({1, 0, 3})).ok());
  EXPECT_EQ(Values(x.grad()), (std::vector<float>{2, 0, 18}));
}

TEST(Gradient, ReturnsGradientsWithoutTouchingGrad) {
  Tensor w = Vec({1, 2, 3});  // requires_grad None: gradient() does not need it
  Tensor b = Vec({0.5});
  Tensor loss = (w * w + b).sum();
  std::vector<Tensor> g = loss.gradient({w, b});
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(Values(g[0]), (std::vector<float>{2, 4, 6}));
  EXPECT_EQ(Values(g[1]), (std::vector<float>{3}));  // b is broadcast to 3 elements
  EXPECT_FALSE(w.grad().has_value());
}

TEST(Gradient, ATargetNotInTheGraphIsAnErrorOrZeros) {
  Tensor x = Vec({1, 2}), y = Vec({3, 4, 5});
  Tensor loss = (x * x).sum();
  std::vector<Tensor> g = loss.gradient({x, y});
  EXPECT_TRUE(g[0].ok());
  ExpectError(g[1].status(), "target 1 <Tensor (3,) dtypes.float");
  ExpectError(g[1].status(), "is not in the graph");
  std::vector<Tensor> z = loss.gradient({y}, std::nullopt, /*materialize_grads=*/true);
  EXPECT_EQ(Values(z[0]), (std::vector<float>{0, 0, 0}));
  // A detached copy of x is another tensor: no path from the loss to it.
  ExpectError(loss.gradient({x.detach()})[0].status(), "is not in the graph");
}

TEST(Gradient, OnlyFloatTensorsHaveGradients) {
  Tensor i = Tensor::FromVector<int32_t>({1, 2, 3});
  ExpectError(i.sum().backward(), "only float Tensors have gradient");
  Tensor x = Vec({1, 2, 3});
  ExpectError((x * i).sum().gradient({i})[0].status(), "only float Tensors have gradient");
}

TEST(Gradient, APathThroughAnIntegerOpIsAnError) {
  Tensor x = Vec({1, 2, 3}).requires_grad_();
  Tensor loss = (x * 10).cast(dtypes::int32).floordiv(3).cast(dtypes::float32).sum();
  ExpectError(loss.backward(), "no gradient rule for");
  EXPECT_FALSE(x.grad().has_value());
}

TEST(Gradient, ErroredTensorsPassTheirError) {
  Tensor bad = Vec({1, 2}).reshape({3});
  ASSERT_FALSE(bad.ok());
  ExpectError(bad.backward(), "reshape");
  Tensor x = Vec({1});
  ExpectError(x.sum().gradient({bad})[0].status(), "reshape");
}

TEST(Detach, StopsTheGradient) {
  Tensor x = Vec({1, 2, 3}).requires_grad_();
  ASSERT_TRUE((x * x.detach()).sum().backward().ok());
  EXPECT_EQ(Values(x.grad()), (std::vector<float>{1, 2, 3}));  // not 2x
}

TEST(NoGradScope, ValuesComputedInsideAreConstantsToAutograd) {
  Tensor x = Vec({1, 2, 3}).requires_grad_();
  EXPECT_FALSE(NoGradScope::active());
  Tensor y = [&] {
    NoGradScope outer;
    NoGradScope inner;  // scopes nest
    EXPECT_TRUE(NoGradScope::active());
    return x * 2 + 1;
  }();
  EXPECT_FALSE(NoGradScope::active());
  EXPECT_EQ(y.requires_grad(), false);
  EXPECT_EQ(Values(y), (std::vector<float>{3, 5, 7}));
  ASSERT_TRUE((y * x).sum().backward().ok());
  EXPECT_EQ(Values(x.grad()), (std::vector<float>{3, 5, 7}));  // only the direct path
  EXPECT_FALSE(y.grad().has_value());
}

TEST(SetGrad, ChecksShapeDtypeAndDevice) {
  Tensor x = Vec({1, 2});
  ExpectError(x.set_grad(Vec({1, 2, 3})), "must have its shape, dtype and device");
  ExpectError(x.set_grad(Tensor::FromVector<double>({1, 2})), "must have its shape, dtype and device");
  ASSERT_TRUE(x.set_grad(Vec({5, 6})).ok());
  x.requires_grad_();
  ASSERT_TRUE((x * 3).sum().backward().ok());
  EXPECT_EQ(Values(x.grad()), (std::vector<float>{8, 9}));
}

TEST(Bitcast, OfATensorThatRequiresGradIsAnError) {
  Tensor x = Vec({1, 2}).requires_grad_();
  ExpectError(x.bitcast(dtypes::int32).status(), "can't backprop through bitcast");
  EXPECT_TRUE(x.detach().bitcast(dtypes::int32).ok());
}

TEST(Gradient, ThroughASymbolicShrink) {
  Variable pos("pos", 1, 4);
  Tensor x = Tensor::FromVector<float>({1, 2, 3, 4, 5, 6, 7, 8}, {4, 2}).requires_grad_();
  Tensor k = x.shrink({{0, pos.bind(3)}, {0, 2}});
  ASSERT_TRUE((k * k).sum().backward().ok());
  EXPECT_EQ(Values(x.grad()), (std::vector<float>{2, 4, 6, 8, 10, 12, 0, 0}));
}

}  // namespace
}  // namespace tg
