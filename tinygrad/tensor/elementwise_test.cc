// File: tinygrad/tensor/elementwise_test.cc
// Numeric tests of elementwise ops against the naive reference: float unary ops on odd sizes,
// broadcasting binary ops on views (permuted, flipped, padded, sliced), integer semantics
// (Python floor division and modulo for every divisor sign, division by zero, wraparound),
// NaN/inf propagation, casts and bitcasts. Port of the numeric side of tinygrad's
// test/test_ops.py and test/test_dtype_alu.py.
//
// Tolerances: float32 transcendentals use tinygrad's own decompositions (and the C compiler
// may fuse multiply-adds): atol 1e-5 / rtol 1e-5 for exp/log/sin-based ops, 1e-6 for exact ops
// (+, *, max, comparisons are exact: atol 0). Integer and bool results are compared exactly.
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/tensor/naive_test_util.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

using naive::ExpectClose;
using naive::Map;
using naive::Nd;
using naive::Random;
using naive::ToTensor;
using naive::Zip;

constexpr int64_t kSizes[] = {1, 3, 7, 33, 257, 1023};

TEST(Elementwise, UnaryFloat) {
  struct U {
    const char* name;
    std::function<Tensor(const Tensor&)> f;
    std::function<double(double)> ref;
    double lo, hi, atol;
  };
  std::vector<U> ops = {
      {"exp", [](const Tensor& t) { return t.exp(); }, [](double x) { return std::exp(x); }, -5, 5, 1e-5},
      {"log", [](const Tensor& t) { return t.log(); }, [](double x) { return std::log(x); }, 0.01, 50, 1e-5},
      {"sqrt", [](const Tensor& t) { return t.sqrt(); }, [](double x) { return std::sqrt(x); }, 0, 50, 1e-6},
      {"sin", [](const Tensor& t) { return t.sin(); }, [](double x) { return std::sin(x); }, -10, 10, 1e-5},
      {"cos", [](const Tensor& t) { return t.cos(); }, [](double x) { return std::cos(x); }, -10, 10, 1e-5},
      {"tan", [](const Tensor& t) { return t.tan(); }, [](double x) { return std::tan(x); }, -1.2, 1.2, 1e-4},
      {"sigmoid", [](const Tensor& t) { return t.sigmoid(); }, [](double x) { return 1 / (1 + std::exp(-x)); }, -8, 8, 1e-6},
      {"tanh", [](const Tensor& t) { return t.tanh(); }, [](double x) { return std::tanh(x); }, -4, 4, 1e-5},
      {"gelu", [](const Tensor& t) { return t.gelu(); },
       [](double x) { return 0.5 * x * (1 + std::tanh(std::sqrt(2 / std::numbers::pi) * (x + 0.044715 * x * x * x))); }, -4, 4, 1e-5},
      {"silu", [](const Tensor& t) { return t.silu(); }, [](double x) { return x / (1 + std::exp(-x)); }, -6, 6, 1e-5},
      {"relu", [](const Tensor& t) { return t.relu(); }, [](double x) { return x > 0 ? x : 0; }, -3, 3, 0},
      {"leaky_relu", [](const Tensor& t) { return t.leaky_relu(0.1); }, [](double x) { return x < 0 ? 0.1 * x : x; }, -3, 3, 1e-7},
      {"erf", [](const Tensor& t) { return t.erf(); }, [](double x) { return std::erf(x); }, -3, 3, 2e-6},
      {"softplus", [](const Tensor& t) { return t.softplus(); }, [](double x) { return std::log1p(std::exp(x)); }, -5, 5, 1e-5},
      {"abs", [](const Tensor& t) { return t.abs(); }, [](double x) { return std::abs(x); }, -3, 3, 0},
      {"neg", [](const Tensor& t) { return -t; }, [](double x) { return -x; }, -3, 3, 0},
      {"reciprocal", [](const Tensor& t) { return t.reciprocal(); }, [](double x) { return 1 / x; }, 0.1, 5, 1e-6},
      {"rsqrt", [](const Tensor& t) { return t.rsqrt(); }, [](double x) { return 1 / std::sqrt(x); }, 0.1, 5, 1e-6},
      {"exp2", [](const Tensor& t) { return t.exp2(); }, [](double x) { return std::exp2(x); }, -5, 5, 1e-5},
      {"log2", [](const Tensor& t) { return t.log2(); }, [](double x) { return std::log2(x); }, 0.01, 50, 1e-5},
      {"floor", [](const Tensor& t) { return t.floor(); }, [](double x) { return std::floor(x); }, -5, 5, 0},
      {"ceil", [](const Tensor& t) { return t.ceil(); }, [](double x) { return std::ceil(x); }, -5, 5, 0},
      {"round", [](const Tensor& t) { return t.round(); }, [](double x) { return std::nearbyint(x); }, -5, 5, 0},
      {"trunc", [](const Tensor& t) { return t.trunc(); }, [](double x) { return std::trunc(x); }, -5, 5, 0},
      {"square", [](const Tensor& t) { return t.square(); }, [](double x) { return x * x; }, -3, 3, 1e-6},
      {"log_via_exp", [](const Tensor& t) { return t.exp().log(); }, [](double x) { return x; }, -3, 3, 1e-5},
  };
  for (size_t i = 0; i < ops.size(); ++i) {
    const U& u = ops[i];
    int64_t n = kSizes[i % std::size(kSizes)];
    Nd a = Random({n}, 100 + i, u.lo, u.hi);
    if (std::string(u.name) == "round") a.v[0] = 2.5;  // half to even
    ExpectClose(u.f(ToTensor(a)), Map(a, u.ref), u.atol, u.atol, u.name);
  }
}

TEST(Elementwise, BroadcastBinaryOnViews) {
  Nd a = Random({3, 1}, 1), b = Random({1, 7}, 2), c = Random({7}, 3);
  ExpectClose(ToTensor(a) + ToTensor(b), Zip(a, b, [](double x, double y) { return x + y; }), 1e-6, 0, "add");
  ExpectClose(ToTensor(a) * ToTensor(c), Zip(a, c, [](double x, double y) { return x * y; }), 1e-6, 0, "mul");
  ExpectClose(ToTensor(c) - ToTensor(a), Zip(c, a, [](double x, double y) { return x - y; }), 1e-6, 0, "sub");
  ExpectClose(ToTensor(a) / ToTensor(b), Zip(a, b, [](double x, double y) { return x / y; }), 1e-5, 1e-5, "div");
  ExpectClose(ToTensor(a).maximum(ToTensor(b)), Zip(a, b, [](double x, double y) { return std::max(x, y); }), 0, 0, "max");
  ExpectClose(ToTensor(a).minimum(ToTensor(b)), Zip(a, b, [](double x, double y) { return std::min(x, y); }), 0, 0, "min");
  ExpectClose((ToTensor(a) < ToTensor(b)).cast(dtypes::float32),
              Zip(a, b, [](double x, double y) { return double(x < y); }), 0, 0, "lt");
  ExpectClose(2.5 - ToTensor(c), Map(c, [](double x) { return 2.5 - x; }), 1e-6, 0, "rsub");
  ExpectClose(ToTensor(c).pow(2.0), Map(c, [](double x) { return x * x; }), 1e-5, 1e-5, "pow");
  // Views: permuted, flipped, padded, sliced inputs feed elementwise ops.
  Nd m = Random({5, 6}, 4);
  Tensor t = ToTensor(m);
  Nd mt = naive::Permute(m, {1, 0});
  ExpectClose(t.T() * 2, Map(mt, [](double x) { return 2 * x; }), 1e-6, 0, "permuted");
  Nd flipped({5, 6});
  for (int64_t i = 0; i < 5; ++i)
    for (int64_t j = 0; j < 6; ++j) flipped.at({i, j}) = m.at({4 - i, j});
  ExpectClose(t.flip(0) + 1, Map(flipped, [](double x) { return x + 1; }), 1e-6, 0, "flipped");
  Nd padded({7, 6}, 0);
  for (int64_t i = 0; i < 5; ++i)
    for (int64_t j = 0; j < 6; ++j) padded.at({i + 1, j}) = m.at({i, j}) + 3;
  Tensor tp = t.pad({{1, 1}, {0, 0}}) + 3;
  Nd want_pad = padded;
  for (int64_t j = 0; j < 6; ++j) want_pad.at({0, j}) = want_pad.at({6, j}) = 3;
  ExpectClose(tp, want_pad, 1e-6, 0, "padded");
  Nd sliced({2, 3});
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 3; ++j) sliced.at({i, j}) = m.at({1 + 2 * i, 5 - 2 * j}) * 2;
  ExpectClose(t.slice({Slice(1, 4, 2), Slice(std::nullopt, std::nullopt, -2)}) * 2, sliced, 1e-6, 0, "sliced");
}

// Python's floor division and modulo on ints, as the reference for every sign combination.
int64_t PyFloorDiv(int64_t a, int64_t b) {
  if (b == 0) return 0;  // our defined result (the reference traps)
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
int64_t PyMod(int64_t a, int64_t b) { return b == 0 ? a : a - PyFloorDiv(a, b) * b; }

// Also a regression test: `a % 1` reads no input after simplification, and its output buffer
// once took the dropped input's number in the schedule cache, so the kernel overwrote `a` with
// zeros and the next `a.idiv(1)` read them.
TEST(Elementwise, IntegerFloorDivModAllSigns) {
  std::vector<int32_t> a = {7, -7, 5, 0, -3, 9, -9, 1, -1, 100, -100, 6};
  Tensor ta = Tensor::FromVector<int32_t>(a);
  for (int32_t c : {3, -3, 1, -1, 7, -2, 0}) {
    SCOPED_TRACE(c);
    auto q = ta.floordiv(c).to_vector<int32_t>();
    auto r = (ta % c).to_vector<int32_t>();
    auto tq = ta.idiv(c).to_vector<int32_t>();
    ASSERT_TRUE(q.ok() && r.ok() && tq.ok()) << q.status() << r.status() << tq.status();
    for (size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ((*q)[i], PyFloorDiv(a[i], c)) << a[i] << " // " << c;
      EXPECT_EQ((*r)[i], PyMod(a[i], c)) << a[i] << " % " << c;
      EXPECT_EQ((*tq)[i], c == 0 ? 0 : a[i] / c) << a[i] << " idiv " << c;
    }
  }
  // Tensor divisors, including zeros and -1 (no trap).
  std::vector<int32_t> d = {2, -2, 3, 5, 0, -4, 4, -1, 1, 0, 7, -7};
  auto q = ta.floordiv(Tensor::FromVector<int32_t>(d)).to_vector<int32_t>();
  auto r = (ta % Tensor::FromVector<int32_t>(d)).to_vector<int32_t>();
  ASSERT_TRUE(q.ok() && r.ok());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ((*q)[i], PyFloorDiv(a[i], d[i])) << a[i] << " // " << d[i];
    EXPECT_EQ((*r)[i], PyMod(a[i], d[i])) << a[i] << " % " << d[i];
  }
  auto mn = Tensor::FromVector<int32_t>({std::numeric_limits<int32_t>::min()})
                .idiv(Tensor::FromVector<int32_t>({-1}))
                .to_vector<int32_t>();
  ASSERT_TRUE(mn.ok());
  EXPECT_EQ((*mn)[0], std::numeric_limits<int32_t>::min());  // wraps, no SIGFPE
}

TEST(Elementwise, IntegerWraparoundAndPromotion) {
  auto v = (Tensor::FromVector<int32_t>({std::numeric_limits<int32_t>::max()}) + 1).to_vector<int32_t>();
  ASSERT_TRUE(v.ok());
  EXPECT_EQ((*v)[0], std::numeric_limits<int32_t>::min());
  auto i8 = (Tensor::FromVector<int8_t>({100, -100}) * 3).to_vector<int8_t>();
  ASSERT_TRUE(i8.ok());
  EXPECT_EQ((*i8)[0], 44);  // as the reference: 300 wraps to 44
  EXPECT_EQ((*i8)[1], -44);
  Tensor u8 = Tensor::FromVector<uint8_t>({250, 3});
  auto s = (u8 + 10).to_vector<uint8_t>();
  ASSERT_TRUE(s.ok());
  EXPECT_EQ((*s)[0], 4);  // wraps when stored as uint8
  EXPECT_EQ((*s)[1], 13);
  // The reference's semantics: a cast fused into the same kernel sees C's promoted int value,
  // so (uint8 250 + 10).cast(int64) is 260 there too (checked against tinygrad 35900290).
  auto wide = (u8 + 10).to_vector<int64_t>();
  ASSERT_TRUE(wide.ok());
  EXPECT_EQ((*wide)[0], 260);
  // int / int is true division; int * 1.5 promotes to float.
  auto f = (Tensor::FromVector<int32_t>({7, -7}) / 2).to_vector<float>();
  ASSERT_TRUE(f.ok());
  EXPECT_EQ((*f)[0], 3.5f);
  EXPECT_EQ((*f)[1], -3.5f);
  EXPECT_EQ((Tensor::FromVector<int32_t>({1}) * 1.5).dtype(), dtypes::float32);
  auto bsum = (Tensor::FromVector<bool>({true, true, false}).sum()).item<int32_t>();
  ASSERT_TRUE(bsum.ok());
  EXPECT_EQ(*bsum, 2);
}

TEST(Elementwise, FloatSpecialValues) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  Nd a({6});
  a.v = {1.0, -1.0, 0.0, inf, -inf, nan};
  Tensor t = ToTensor(a);
  ExpectClose(t / 0.0, Map(a, [](double x) { return x / 0.0; }), 0, 0, "div by zero");
  ExpectClose(t * 2, Map(a, [](double x) { return x * 2; }), 0, 0, "nan/inf propagate");
  ExpectClose(t.isnan().cast(dtypes::float32), Map(a, [](double x) { return double(std::isnan(x)); }), 0, 0, "isnan");
  ExpectClose(t.isinf().cast(dtypes::float32), Map(a, [](double x) { return double(std::isinf(x)); }), 0, 0, "isinf");
  Nd e({4});
  e.v = {-inf, 0, 1, inf};
  ExpectClose(ToTensor(e).exp(), Map(e, [](double x) { return std::exp(x); }), 1e-6, 1e-6, "exp inf");
  Nd l({3});
  l.v = {0, -1, inf};
  ExpectClose(ToTensor(l).log(), Map(l, [](double x) { return std::log(x); }), 0, 0, "log edge");
}

// NaN semantics of the reference (tinygrad 35900290 on CPU): elementwise MAX is
// `a < b ? b : a`, so a NaN wins only as the first operand; comparisons with NaN are false
// (relu(NaN) == 0); sums and inf - inf give NaN; softmax over [0, inf] is NaN everywhere.
TEST(Elementwise, NanSemanticsOfTheReference) {
  const float nan = std::nanf(""), inf = INFINITY;
  auto v = [](const Tensor& t) { return *t.to_vector<float>(); };
  std::vector<float> m = v(Tensor::FromVector<float>({1, nan}).maximum(Tensor::FromVector<float>({nan, 1})));
  EXPECT_EQ(m[0], 1.f);
  EXPECT_TRUE(std::isnan(m[1]));
  std::vector<float> r = v(Tensor::FromVector<float>({1, nan, 3}).relu());
  EXPECT_EQ(r, (std::vector<float>{1, 0, 3}));
  EXPECT_TRUE(std::isnan(*Tensor::FromVector<float>({1, nan, 2}).sum().item<float>()));
  EXPECT_TRUE(std::isnan(*Tensor::FromVector<float>({1, inf, -inf}).sum().item<float>()));
  EXPECT_EQ(*Tensor::FromVector<float>({1, inf}).sum().item<float>(), inf);
  for (float x : v(Tensor::FromVector<float>({0, inf}).softmax())) EXPECT_TRUE(std::isnan(x));
  // Not asserted: NaN inside a max *reduce* depends on the kernel's reduce order (the reference
  // unrolls [nan, 1, 2] to max(max(nan, 1), 2) = nan; an accumulator from -inf gives 2).
}

TEST(Elementwise, LogicAndWhere) {
  Nd a = Random({4, 5}, 7), b = Random({5}, 8);
  Tensor ta = ToTensor(a), tb = ToTensor(b);
  ExpectClose((ta > tb).where(ta, tb), Zip(a, b, [](double x, double y) { return x > y ? x : y; }), 0, 0, "where");
  ExpectClose((ta > 0).where(1.0, -1.0), Map(a, [](double x) { return x > 0 ? 1.0 : -1.0; }), 0, 0, "where scalars");
  ExpectClose(((ta > 0).logical_and(tb < 0)).cast(dtypes::int32),
              Zip(a, b, [](double x, double y) { return double(x > 0 && y < 0); }), 0, 0, "and");
  ExpectClose(((ta > 0).logical_xor(tb < 0)).cast(dtypes::float32),
              Zip(a, b, [](double x, double y) { return double((x > 0) != (y < 0)); }), 0, 0, "xor");
  ExpectClose((ta >= 0).logical_not().cast(dtypes::float32), Map(a, [](double x) { return double(!(x >= 0)); }), 0, 0, "not");
  ExpectClose(ta.clip(-0.5, 0.5), Map(a, [](double x) { return std::clamp(x, -0.5, 0.5); }), 0, 0, "clip");
  auto bits = (Tensor::FromVector<int32_t>({12, -1}) & 10).to_vector<int32_t>();
  ASSERT_TRUE(bits.ok());
  EXPECT_EQ((*bits)[0], 8);
  EXPECT_EQ((*bits)[1], 10);
  auto nt = (~Tensor::FromVector<int32_t>({0, 5})).to_vector<int32_t>();
  ASSERT_TRUE(nt.ok());
  EXPECT_EQ((*nt)[0], -1);
  EXPECT_EQ((*nt)[1], -6);
}

TEST(Elementwise, CastAndBitcast) {
  // float -> uint8 goes through int32 and wraps, like the reference.
  auto u = Tensor::FromVector<float>({300.7f, -1.2f, 5.9f}).cast(dtypes::uint8).to_vector<int32_t>();
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(*u, (std::vector<int32_t>{44, 255, 5}));
  auto b = Tensor::FromVector<float>({1.0f, -2.0f}).bitcast(dtypes::uint32).to_vector<uint32_t>();
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(*b, (std::vector<uint32_t>{0x3f800000u, 0xc0000000u}));
  auto split = Tensor::FromVector<uint32_t>({0x04030201u}).bitcast(dtypes::uint8).to_vector<int32_t>();
  ASSERT_TRUE(split.ok());
  EXPECT_EQ(*split, (std::vector<int32_t>{1, 2, 3, 4}));
  auto merge = Tensor::FromVector<uint8_t>({1, 2, 3, 4}).bitcast(dtypes::uint16).to_vector<int32_t>();
  ASSERT_TRUE(merge.ok());
  EXPECT_EQ(*merge, (std::vector<int32_t>{0x0201, 0x0403}));
  auto h = Tensor::FromVector<float>({0.1f, 65504.f, 1e6f}).cast(dtypes::float16).to_vector<float>();
  ASSERT_TRUE(h.ok());
  EXPECT_NEAR((*h)[0], 0.1f, 1e-4);
  EXPECT_EQ((*h)[1], 65504.f);
  EXPECT_TRUE(std::isinf((*h)[2]));
}

TEST(Elementwise, OtherDtypes) {
  // float16: computed in float32 where tinygrad does (exp), stored as half: rtol 1e-3.
  Nd a = Random({33}, 120, -3, 3);
  Tensor h = ToTensor(a).cast(dtypes::float16);
  EXPECT_EQ(h.exp().dtype(), dtypes::float16);
  ExpectClose(h.exp(), Map(a, [](double x) { return std::exp(RoundToFloat16(x)); }), 1e-3, 1e-3, "half exp");
  ExpectClose((h * h + 1).sum(), naive::Reduce(Map(a, [](double x) { return x * x + 1; }), {}, false, 0,
                                                [](double x, double y) { return x + y; }),
              0.1, 2e-3, "half sum (float32 accumulate)");
  // int16 / uint32 / int64 arithmetic is exact.
  Nd i = Random({7}, 121, -1000, 1000, true);
  ExpectClose(naive::ToTensor<int16_t>(i) * 3 - 7, Map(i, [](double x) { return 3 * x - 7; }), 0, 0, "int16");
  Nd u = Random({7}, 122, 0, 1e9, true);
  ExpectClose(naive::ToTensor<uint32_t>(u).idiv(1000) + 1, Map(u, [](double x) { return std::floor(x / 1000) + 1; }), 0, 0,
              "uint32");
  Nd l = Random({7}, 123, -1e12, 1e12, true);
  ExpectClose(naive::ToTensor<int64_t>(l) + 1, Map(l, [](double x) { return x + 1; }), 0, 0, "int64");
  // float64 keeps double precision.
  auto d = (Tensor::FromVector<double>({1.0, 3.0}) / 3).to_vector<double>();
  ASSERT_TRUE(d.ok());
  EXPECT_EQ((*d)[0], 1.0 / 3);
  // 0-d tensors and scalars.
  auto s = (Tensor::Scalar(2.5) * Tensor::Full({}, 4)).item<float>();
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(*s, 10.f);
  auto bo = (Tensor::FromVector<bool>(std::vector<bool>{true, false}, {2}) + true).to_vector<int32_t>();
  ASSERT_TRUE(bo.ok());
  EXPECT_EQ(*bo, (std::vector<int32_t>{1, 1}));  // bool + bool is OR-like (max) in bool
}

}  // namespace
}  // namespace tg
