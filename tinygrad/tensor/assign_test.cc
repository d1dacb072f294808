// File: tinygrad/tensor/assign_test.cc
// Tensor::assign, training mode and dropout, as tinygrad's. The expected values and kernel
// counts are those of tinygrad 35900290 for the same programs (run by hand with
// PYTHONPATH=<tinygrad checkout> DEV=CPU python3; GlobalCounters.kernel_count around realize).
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/tensor/autograd.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

Tensor Vec(std::vector<float> v) { return Tensor::FromVector<float>(v); }

std::vector<float> Values(const Tensor& t) {
  absl::StatusOr<std::vector<float>> v = t.to_vector<float>();
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : std::vector<float>{};
}

// Kernels run by realizing `ts` together.
int64_t KernelsFor(const std::vector<Tensor>& ts) {
  int64_t before = GetEngineStats().kernel_count;
  absl::Status s = Realize(ts);
  EXPECT_TRUE(s.ok()) << s;
  return GetEngineStats().kernel_count - before;
}

void ExpectError(const Tensor& t, const std::string& part) {
  EXPECT_FALSE(t.ok());
  EXPECT_NE(std::string(t.status().message()).find(part), std::string::npos) << t.status();
}

UOp BufferOf(const Tensor& t) { return t.uop().base(); }

TEST(Assign, WritesIntoTheRealizedBuffer) {
  Tensor a = Vec({1, 2, 3});
  ASSERT_TRUE(a.realize().ok());
  UOp buf = BufferOf(a);
  Tensor handle = a;  // another handle sees the assign too
  Tensor r = a.assign(a * 2);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(KernelsFor({a}), 1);
  EXPECT_EQ(BufferOf(a), buf);  // the same buffer, written in place
  EXPECT_EQ(Values(handle), (std::vector<float>{2, 4, 6}));
}

TEST(Assign, KernelBuiltBeforeAndRealizedTogetherReadsOldValues) {
  Tensor a = Vec({2, 4, 6});
  ASSERT_TRUE(a.realize().ok());
  Tensor b = a + 1;
  ASSERT_TRUE(a.assign(a * 10).ok());
  EXPECT_EQ(KernelsFor({b, a}), 2);  // the read runs before the write
  EXPECT_EQ(Values(b), (std::vector<float>{3, 5, 7}));
  EXPECT_EQ(Values(a), (std::vector<float>{20, 40, 60}));
}

TEST(Assign, LaterKernelsReadTheNewValues) {
  Tensor a = Vec({20, 40, 60});
  ASSERT_TRUE(a.realize().ok());
  Tensor c = a + 1;  // lazy: reads a's buffer when realized, after the assign
  ASSERT_TRUE(a.assign(a + 1).realize().ok());
  EXPECT_EQ(Values(c), (std::vector<float>{22, 42, 62}));
  EXPECT_EQ(Values(a), (std::vector<float>{21, 41, 61}));
}

TEST(Assign, ToAnUnrealizedTensorAndBroadcastScalar) {
  Tensor z = Tensor::Zeros({4}).contiguous();
  ASSERT_TRUE(z.assign(z + 1).ok());
  EXPECT_EQ(KernelsFor({z}), 2);
  EXPECT_EQ(Values(z), (std::vector<float>{1, 1, 1, 1}));
  Tensor z2 = Tensor::Zeros({4}).contiguous();
  ASSERT_TRUE(z2.realize().ok());
  ASSERT_TRUE(z2.assign(5).ok());  // a number broadcasts
  EXPECT_EQ(KernelsFor({z2}), 1);
  EXPECT_EQ(Values(z2), (std::vector<float>{5, 5, 5, 5}));
  ASSERT_TRUE(z2.assign(Tensor::FromVector<int32_t>({7})).ok());  // int promotes to float
  EXPECT_EQ(Values(z2), (std::vector<float>{7, 7, 7, 7}));
}

TEST(Assign, ToAViewWritesIntoTheBaseBuffer) {
  Tensor a = Vec({1, 2, 3, 4});
  ASSERT_TRUE(a.realize().ok());
  Tensor v = a.slice({Slice(1, 3)});
  Tensor src = Vec({10, 20});
  ASSERT_TRUE(src.realize().ok());
  ASSERT_TRUE(v.assign(src).ok());
  EXPECT_EQ(KernelsFor({v}), 1);  // tinygrad: 1
  EXPECT_EQ(Values(a), (std::vector<float>{1, 10, 20, 4}));
  EXPECT_EQ(Values(v), (std::vector<float>{10, 20}));
}

TEST(Assign, ChainedAssignsBeforeARealize) {
  Tensor x = Vec({1, 2, 3});
  ASSERT_TRUE(x.realize().ok());
  ASSERT_TRUE(x.assign(x + 1).ok());
  ASSERT_TRUE(x.assign(x * 2).ok());
  EXPECT_EQ(KernelsFor({x}), 2);  // tinygrad: 2
  EXPECT_EQ(Values(x), (std::vector<float>{4, 6, 8}));
}

TEST(Assign, SelfAssignIsANoOp) {
  Tensor a = Vec({1, 2});
  ASSERT_TRUE(a.realize().ok());
  UOp before = a.uop();
  ASSERT_TRUE(a.assign(a).ok());
  EXPECT_EQ(a.uop(), before);
}

TEST(Assign, KeepsRequiresGradAndGrad) {
  Tensor w = Vec({1, 2}).requires_grad_();
  ASSERT_TRUE((w * w).sum().backward().ok());
  ASSERT_TRUE(w.assign(w.detach() * 3).ok());
  EXPECT_EQ(w.requires_grad(), true);
  ASSERT_TRUE(w.grad().has_value());
  EXPECT_EQ(Values(w), (std::vector<float>{3, 6}));
}

TEST(Assign, MismatchesAreClearErrorsAndLeaveTheTensorAlone) {
  Tensor a = Vec({1, 2, 3});
  ASSERT_TRUE(a.realize().ok());
  UOp before = a.uop();
  ExpectError(a.assign(Vec({1, 2})), "assign: shape mismatch (3,) != (2,)");
  ExpectError(a.assign(Tensor::FromVector<double>({1, 2, 3})), "assign: dtype mismatch");
  Tensor i = Tensor::FromVector<int32_t>({1, 2, 3});
  ExpectError(i.assign(Vec({1, 2, 3})), "assign: dtype mismatch dtypes.int != dtypes.float");
  ExpectError(a.assign(Tensor::Error(absl::InvalidArgumentError("boom"))), "boom");
  ExpectError(a.assign(Vec({1, 2, 3}).to("CPU:1")), "assign: device mismatch CPU != CPU:1");
  EXPECT_EQ(a.uop(), before);
  EXPECT_EQ(Values(a), (std::vector<float>{1, 2, 3}));
}

TEST(Assign, GradAccumulationWritesIntoTheGradBuffer) {
  Tensor w = Vec({1, 2, 3}).requires_grad_();
  ASSERT_TRUE((w * w).sum().backward().ok());
  ASSERT_TRUE(w.grad()->realize().ok());
  UOp buf = BufferOf(*w.grad());
  ASSERT_TRUE((w * w).sum().backward().ok());
  EXPECT_EQ(KernelsFor({*w.grad()}), 1);  // tinygrad: 1 (grad + g assigned in place)
  EXPECT_EQ(BufferOf(*w.grad()), buf);
  EXPECT_EQ(Values(*w.grad()), (std::vector<float>{4, 8, 12}));
}

TEST(Train, IsAScopedSetting) {
  EXPECT_FALSE(Tensor::training());
  {
    Tensor::Train on;
    EXPECT_TRUE(Tensor::training());
    {
      Tensor::Train off(false);
      EXPECT_FALSE(Tensor::training());
    }
    EXPECT_TRUE(Tensor::training());
  }
  EXPECT_FALSE(Tensor::training());
}

TEST(Dropout, MatchesTheReferenceForTheSameSeed) {
  Tensor::ManualSeed(42);
  Tensor t = Tensor::Randn({3, 5});
  ASSERT_TRUE(t.realize().ok());
  EXPECT_EQ(t.dropout(0.3).uop(), t.uop());  // not training: the tensor itself
  Tensor::Train train;
  std::vector<float> got = Values(t.dropout(0.3).flatten());
  // tinygrad: Tensor.manual_seed(42); t = Tensor.randn(3,5).realize();
  // with Tensor.train(): t.dropout(0.3)
  std::vector<float> want = {0.5505160093307495f, 0.7583132386207581f, 1.82481050491333f,
                             0.4606516659259796f, 0.0f, 1.2339285612106323f, -1.6172935962677002f,
                             0.6512701511383057f, -2.081920862197876f, 0.8240780234336853f,
                             0.4497945010662079f, -0.5393044948577881f, 1.372707724571228f,
                             -3.578003168106079f, 0.0f};
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_FLOAT_EQ(got[i], want[i]) << i;
  EXPECT_EQ(Values(t.dropout(0)), Values(t));
  EXPECT_EQ(Values(t.dropout(1)), std::vector<float>(15, 0.0f));
  ExpectError(t.dropout(1.5), "dropout: p=1.5 is out of range [0, 1]");
  ExpectError(t.dropout(-0.1), "out of range");
}

TEST(Dropout, GradientFlowsThroughTheKeptElementsOnly) {
  Tensor::ManualSeed(7);
  Tensor x = Tensor::Ones({64}).contiguous().requires_grad_();
  Tensor::Train train;
  Tensor y = x.dropout(0.5);
  ASSERT_TRUE(y.sum().backward().ok());
  std::vector<float> yv = Values(y), g = Values(*x.grad());
  ASSERT_EQ(g.size(), 64u);
  int kept = 0;
  for (size_t i = 0; i < g.size(); ++i) {
    EXPECT_TRUE(g[i] == 0.0f || g[i] == 2.0f) << g[i];
    EXPECT_EQ(g[i], yv[i]);  // x is 1: the output is the mask scaled by 1/(1-p), so is the grad
    kept += g[i] != 0;
  }
  EXPECT_GT(kept, 16);
  EXPECT_LT(kept, 48);
}

}  // namespace
}  // namespace tg
