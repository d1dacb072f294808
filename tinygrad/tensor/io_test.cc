// File: tinygrad/tensor/io_test.cc
// Realization and host IO: reading results (to_vector with a cast, item, to_bytes), realize
// replacing the realized graph in every live tensor (tinygrad's _apply_map_to_tensors), errors
// surfacing from the readers, and random numbers bit-exact with the reference for a seed.
// Port of tinygrad's test/unit/test_tensor_data.py and the rand parts of test/test_randomness.py.
#include <cmath>
#include <cstring>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

TEST(TensorIO, RoundTripTypes) {
  auto f = Tensor::FromVector<float>({1.5f, -2.f, 3.f, 4.f}, {2, 2}).to_vector<float>();
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(*f, (std::vector<float>{1.5f, -2.f, 3.f, 4.f}));
  auto i = Tensor::FromVector<int64_t>({1, -(int64_t{1} << 40)}).to_vector<int64_t>();
  ASSERT_TRUE(i.ok());
  EXPECT_EQ((*i)[1], -(int64_t{1} << 40));
  auto b = Tensor::FromVector<bool>(std::vector<bool>{true, false, true}, {3}).to_vector<bool>();
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(*b, (std::vector<bool>{true, false, true}));
  auto cast = Tensor::FromVector<float>({1.9f, -1.9f}).to_vector<int32_t>();  // astype: truncates
  ASSERT_TRUE(cast.ok());
  EXPECT_EQ(*cast, (std::vector<int32_t>{1, -1}));
  auto d = Tensor::FromVector<double>({0.1, 1e300}).mul(2.0).to_vector<double>();
  ASSERT_TRUE(d.ok());
  EXPECT_EQ((*d)[0], 0.2);
  EXPECT_EQ((*d)[1], 2e300);
  auto item = Tensor::FromVector<float>(std::vector<float>(20, 0.5f)).sum().item<float>();
  ASSERT_TRUE(item.ok()) << item.status();
  EXPECT_EQ(*item, 10.f);
  auto bytes = Tensor::FromVector<uint16_t>({0x0102}).to_bytes();
  ASSERT_TRUE(bytes.ok());
  ASSERT_EQ(bytes->size(), 2u);
  uint16_t back;
  std::memcpy(&back, bytes->data(), 2);
  EXPECT_EQ(back, 0x0102);
}

// A full reduce followed by an elementwise op (once lost its buffer index in run_rangeify; see
// RunRangeifyTest in schedule/indexing_test.cc).
TEST(TensorIO, TwoElementSum) {
  auto item = (Tensor::FromVector<float>({2.f, 3.f}).sum() * 2).item<float>();
  ASSERT_TRUE(item.ok()) << item.status();
  EXPECT_EQ(*item, 10.f);
}

TEST(TensorIO, ErrorsSurfaceFromReaders) {
  Tensor bad = Tensor::FromVector<float>({1, 2, 3}).reshape({2, 2});
  EXPECT_FALSE(bad.realize().ok());
  EXPECT_EQ(bad.to_vector<float>().status(), bad.status());
  EXPECT_EQ(bad.item<float>().status(), bad.status());
  auto two = Tensor::FromVector<float>({1, 2}).item<float>();
  EXPECT_FALSE(two.ok());
  Tensor short_data = Tensor::FromVector<float>({1, 2, 3}, {2, 2});
  EXPECT_FALSE(short_data.ok());
  EXPECT_EQ(short_data.status().message(), "from_data: 12 bytes do not fill shape (2, 2) of dtypes.float");
}

TEST(TensorIO, RealizeUpdatesLiveTensors) {
  Tensor a = Tensor::FromVector<float>({1, 2, 3});
  Tensor b = (a + 1) * 2;
  Tensor c = b.sum();  // built on b before b is realized
  ASSERT_TRUE(b.realize().ok());
  // b is now a buffer (maybe reshaped), and c's graph reads that buffer instead of recomputing.
  UOp bb = b.uop();
  while (bb.op() == Ops::RESHAPE) bb = bb.src(0);
  EXPECT_EQ(bb.op(), Ops::BUFFER);
  bool reads_b = false;
  for (const UOp& u : c.uop().toposort()) reads_b |= u == bb;
  EXPECT_TRUE(reads_b);
  auto v = c.item<float>();
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, 18.f);
  // Realizing twice is a no-op; values stay.
  ASSERT_TRUE(b.realize().ok());
  auto bv = b.to_vector<float>();
  ASSERT_TRUE(bv.ok());
  EXPECT_EQ(*bv, (std::vector<float>{4, 6, 8}));
  // Several tensors in one schedule.
  Tensor x = a * 3, y = a - 1;
  ASSERT_TRUE(Realize({x, y}).ok());
  EXPECT_EQ(*x.to_vector<float>(), (std::vector<float>{3, 6, 9}));
  EXPECT_EQ(*y.to_vector<float>(), (std::vector<float>{0, 1, 2}));
}

// Values printed by the reference: Tensor.manual_seed(42); Tensor.rand(5); Tensor.rand(2, 3);
// Tensor.randn(7); Tensor.randint(6, low=-3, high=5); Tensor.rand(3, dtype=dtypes.float16)
// (float.hex of each element; see tools/golden/gen_tensor_graph.py's header for the setup).
// The counter and key reach the kernel as data, so the same shape is the same kernel: the
// second call compiles nothing and still draws new numbers.
TEST(TensorIO, RepeatedRandReusesOneProgram) {
  Tensor::ManualSeed(7);
  auto first = Tensor::Rand({5, 7}).to_vector<float>();
  ASSERT_TRUE(first.ok()) << first.status();
  int64_t built = GetEngineStats().programs_built;
  auto second = Tensor::Rand({5, 7}).to_vector<float>();
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(GetEngineStats().programs_built, built);
  EXPECT_NE(*first, *second);
  for (float v : *second) {
    EXPECT_GE(v, 0.0f);
    EXPECT_LT(v, 1.0f);
  }
}

TEST(TensorIO, RandTooLargeForItsCounterIsAnErroredTensor) {
  // 2^35 numbers: more than the uint32 counter of the generator can index
  Tensor r = Tensor::Rand({100000000, 512});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("more than the generator's uint32 counter can count"), std::string::npos)
      << r.status();
  EXPECT_FALSE((r + 1).realize().ok());
}

TEST(TensorIO, ShapesWithMoreElementsThanAnInt64CountsAreErroredTensors) {
  auto expect_error = [](const Tensor& t, const std::string& want) {
    ASSERT_FALSE(t.ok()) << want;
    EXPECT_NE(t.status().message().find(want), std::string::npos) << t.status();
  };
  const int64_t big = 3037000500;  // big * big > INT64_MAX
  expect_error(Tensor::Rand({4, 4, big, big}), "rand: shape (4, 4, 3037000500, 3037000500) has more elements than an int64 counts");
  expect_error(Tensor::Empty({big, big}), "empty: shape (3037000500, 3037000500) has more elements");
  expect_error(Tensor::Zeros({big, big}), "full: shape (3037000500, 3037000500) has more elements");
  expect_error(Tensor::Empty({big, 1}).expand({big, big}), "expand: shape (3037000500, 3037000500) has more elements");
  expect_error(Tensor::Empty({big, 2}).pad({{0, 0}, {0, big}}), "pad: shape (3037000500, 3037000502) has more elements");
  expect_error(Tensor::Empty({2}).pad({{0, INT64_MAX}}), "pad: padding (0, 9223372036854775807) of dim 0 of (2,) overflows an int64");
  expect_error(Tensor::Rand({int64_t{1} << 62, 4}, {.dtype = dtypes::float64}), "rand: shape");
  // a reshape's target shape, -1 counted as 1 (found by UBSan: the product overflowed)
  expect_error(Tensor::Empty({4}).reshape({16, INT64_MAX}), "reshape: shape (16, 9223372036854775807) has more elements");
  expect_error(Tensor::Empty({4}).reshape({-1, big, big}), "reshape: shape (1, 3037000500, 3037000500) has more elements");
  EXPECT_TRUE(Tensor::Empty({big, 0, big}).ok()) << "no elements at all";
  EXPECT_TRUE(Tensor::Empty({0}).reshape({4, INT64_MAX, 4, 0}).ok()) << "no elements, whatever the others multiply to";
  EXPECT_TRUE(Tensor::Empty({big, big / 2}).ok()) << "fits";
}

TEST(TensorIO, RandomMatchesReferenceForSeed) {
  Tensor::ManualSeed(42);
  auto r5 = Tensor::Rand({5}).to_vector<float>();
  auto r23 = Tensor::Rand({2, 3}).to_vector<float>();
  auto rn = Tensor::Randn({7}).to_vector<float>();
  auto ri = Tensor::Randint({6}, -3, 5).to_vector<int32_t>();
  ASSERT_TRUE(r5.ok() && r23.ok() && rn.ok() && ri.ok())
      << r5.status() << r23.status() << rn.status() << ri.status();
  EXPECT_EQ(*r5, (std::vector<float>{0x1.fe7b24p-1f, 0x1.2e0984p-1f, 0x1.c7c74p-3f, 0x1.82962cp-1f, 0x1.cfb168p-1f}));
  EXPECT_EQ(*r23, (std::vector<float>{0x1.3b7bbp-1f, 0x1.3e1fd8p-1f, 0x1.f54a5p-1f, 0x1.91fb2p-1f, 0x1.abcdb8p-2f,
                                      0x1.4447d4p-1f}));
  std::vector<float> want_n = {0x1.0c32d8p+0f, 0x1.8c748ap-1f, 0x1.b988a2p-1f, -0x1.482328p-4f,
                               0x1.60a268p+0f, -0x1.fae9c2p+0f, -0x1.9d8f56p-1f};
  for (size_t i = 0; i < want_n.size(); ++i) EXPECT_NEAR((*rn)[i], want_n[i], 2e-6) << i;  // cos/log/sqrt decompositions
  EXPECT_EQ(*ri, (std::vector<int32_t>{-1, -1, 4, 4, 2, -2}));
  // Same seed, same numbers; the counter advances between calls.
  Tensor::ManualSeed(42);
  auto again = Tensor::Rand({5}).to_vector<float>();
  auto next = Tensor::Rand({5}).to_vector<float>();
  ASSERT_TRUE(again.ok() && next.ok());
  EXPECT_EQ(*again, *r5);
  EXPECT_NE(*next, *r5);
  auto big = Tensor::Rand({1023}).to_vector<float>();
  ASSERT_TRUE(big.ok());
  double mean = 0;
  for (float x : *big) {
    EXPECT_GE(x, 0.f);
    EXPECT_LT(x, 1.f);
    mean += x / 1023;
  }
  EXPECT_NEAR(mean, 0.5, 0.05);
}

// Rand({3}, float16) has a threefry of consts that folds completely (once to un-wrapped uint32
// literals of 2**120 that clang rejects; see ConstFoldTest in uop/symbolic/symbolic_test.cc).
TEST(TensorIO, RandomHalfMatchesReference) {
  Tensor::ManualSeed(42);
  for (int64_t n : {5, 6, 14, 6}) (void)Tensor::Rand({n});  // the counter after the calls above
  auto rh = Tensor::Rand({3}, {.dtype = dtypes::float16}).to_vector<float>();
  ASSERT_TRUE(rh.ok()) << rh.status();
  EXPECT_EQ(*rh, (std::vector<float>{0x1.eap-2f, 0x1.e88p-1f, 0x1.08p-4f}));
}

}  // namespace
}  // namespace tg
