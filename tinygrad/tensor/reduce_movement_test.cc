// File: tinygrad/tensor/reduce_movement_test.cc
// Numeric tests of reductions and movement ops against the naive reference: sum/prod/max/min/
// mean/var/std over axes with keepdim, argmax/argmin ties, softmax family, cumsum (one- and
// two-stage), slicing with steps, cat/stack/split/chunk/repeat, zero-size tensors.
// Tolerances: float32 sums over <= 1023 elements: atol 1e-4, rtol 1e-5; max/min/argmax and
// all movement ops are exact.
#include <cmath>
#include <limits>
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
using naive::Reduce;
using naive::ToTensor;
using naive::Zip;

double Add(double a, double b) { return a + b; }
double Mul(double a, double b) { return a * b; }
double Max(double a, double b) { return std::max(a, b); }
double Min(double a, double b) { return std::min(a, b); }
const double kInf = std::numeric_limits<double>::infinity();

TEST(Reduce, SumProdMaxMinMean) {
  Nd a = Random({3, 7, 33}, 11);
  Tensor t = ToTensor(a);
  ExpectClose(t.sum(), Reduce(a, {}, false, 0, Add), 1e-4, 1e-5, "sum all");
  ExpectClose(t.sum(1), Reduce(a, {1}, false, 0, Add), 1e-5, 1e-5, "sum 1");
  ExpectClose(t.sum({0, 2}, true), Reduce(a, {0, 2}, true, 0, Add), 1e-4, 1e-5, "sum 0,2 keepdim");
  ExpectClose(t.max(-1), Reduce(a, {2}, false, -kInf, Max), 0, 0, "max");
  ExpectClose(t.min({0, 1}, true), Reduce(a, {0, 1}, true, kInf, Min), 0, 0, "min");
  Nd small = Random({4, 3}, 12, 0.5, 1.5);
  ExpectClose(ToTensor(small).prod(0), Reduce(small, {0}, false, 1, Mul), 1e-6, 1e-5, "prod");
  Nd mean = Map(Reduce(a, {1}, false, 0, Add), [](double x) { return x / 7; });
  ExpectClose(t.mean(1), mean, 1e-5, 1e-5, "mean");
  // var/std with correction, against two-pass loops.
  Nd m = Reduce(a, {2}, true, 0, Add);
  for (double& x : m.v) x /= 33;
  Nd sq = Zip(a, m, [](double x, double y) { return (x - y) * (x - y); });
  Nd var = Map(Reduce(sq, {2}, false, 0, Add), [](double x) { return x / 32; });
  ExpectClose(t.var(2), var, 1e-5, 1e-4, "var");
  ExpectClose(t.stddev(2, false, 0),
              Map(Reduce(sq, {2}, false, 0, Add), [](double x) { return std::sqrt(x / 33); }), 1e-5,
              1e-4, "std correction 0");
  // Integer sums accumulate in int32 and are exact.
  Nd ia = Random({257}, 13, -100, 100, true);
  ExpectClose(naive::ToTensor<int8_t>(ia).sum(), Reduce(ia, {}, false, 0, Add), 0, 0, "int8 sum");
  ExpectClose(naive::ToTensor<int32_t>(ia).mean(),
              Map(Reduce(ia, {}, false, 0, Add), [](double x) { return x / 257; }), 1e-4, 1e-5,
              "int mean");
  ExpectClose((t > 1.5).any(2).cast(dtypes::int32),
              Reduce(Map(a, [](double x) { return double(x > 1.5); }), {2}, false, 0, Max), 0, 0,
              "any");
  ExpectClose((t > -1.9).all(2).cast(dtypes::int32),
              Reduce(Map(a, [](double x) { return double(x > -1.9); }), {2}, false, 1, Min), 0, 0,
              "all");
}

TEST(Reduce, OddSizes) {
  for (int64_t n : {1, 3, 7, 33, 257, 1023}) {
    SCOPED_TRACE(n);
    Nd a = Random({3, n}, 200 + n);
    Tensor t = ToTensor(a);
    ExpectClose(t.sum(1, true), Reduce(a, {1}, true, 0, Add), 1e-4, 1e-5, "sum");
    ExpectClose(t.max(), Reduce(a, {}, false, -kInf, Max), 0, 0, "max");
    Nd am({3});
    for (int64_t r = 0; r < 3; ++r) {
      int64_t best = 0;
      for (int64_t i = 1; i < n; ++i)
        if (a.at({r, i}) > a.at({r, best})) best = i;
      am.v[r] = best;
    }
    ExpectClose(t.argmax(1), am, 0, 0, "argmax");
  }
}

TEST(Reduce, ArgmaxArgminFirstOfTies) {
  Nd a({3, 4});
  a.v = {1, 5, 5, 2, -1, -1, -3, -3, 7, 7, 7, 7};
  auto am = ToTensor(a).argmax(1).to_vector<int32_t>();
  auto an = ToTensor(a).argmin(1).to_vector<int32_t>();
  auto all = ToTensor(a).argmax().item<int32_t>();
  ASSERT_TRUE(am.ok() && an.ok() && all.ok());
  EXPECT_EQ(*am, (std::vector<int32_t>{1, 0, 0}));
  EXPECT_EQ(*an, (std::vector<int32_t>{0, 2, 0}));
  EXPECT_EQ(*all, 8);
  auto col = ToTensor(a).argmax(0, true);
  ASSERT_EQ(col.shape(), (std::vector<int64_t>{1, 4}));
  auto colv = col.to_vector<int32_t>();
  ASSERT_TRUE(colv.ok());
  EXPECT_EQ(*colv, (std::vector<int32_t>{2, 2, 2, 2}));
}

TEST(Reduce, SoftmaxFamily) {
  Nd a = Random({5, 33}, 14, -10, 10);
  Nd mx = Reduce(a, {1}, true, -kInf, Max);
  Nd e = Zip(a, mx, [](double x, double m) { return std::exp(x - m); });
  Nd s = Reduce(e, {1}, true, 0, Add);
  Nd sm = Zip(e, s, [](double x, double y) { return x / y; });
  Tensor t = ToTensor(a);
  ExpectClose(t.softmax(), sm, 1e-6, 1e-5, "softmax");
  Nd lsm = Zip(Zip(a, mx, [](double x, double m) { return x - m; }), s,
               [](double x, double y) { return x - std::log(y); });
  ExpectClose(t.log_softmax(), lsm, 1e-5, 1e-5, "log_softmax");
  Nd lse = Zip(Map(Reduce(e, {1}, false, 0, Add), [](double x) { return std::log(x); }),
               Reduce(a, {1}, false, -kInf, Max), [](double x, double y) { return x + y; });
  ExpectClose(t.logsumexp(1), lse, 1e-5, 1e-5, "logsumexp");
}

TEST(Reduce, Cumsum) {
  for (int64_t n : {1, 7, 257, 1023}) {  // 1023 > 512 takes the two-stage path
    Nd a = Random({2, n}, 15 + n);
    Nd want = a;
    for (int64_t r = 0; r < 2; ++r)
      for (int64_t i = 1; i < n; ++i) want.at({r, i}) += want.at({r, i - 1});
    ExpectClose(ToTensor(a).cumsum(1), want, 1e-4, 1e-5, "cumsum " + std::to_string(n));
  }
  Nd a = Random({6, 3}, 16);
  Nd want = a;
  for (int64_t i = 1; i < 6; ++i)
    for (int64_t j = 0; j < 3; ++j)
      want.at({i, j}) = std::max(want.at({i, j}), want.at({i - 1, j}));
  ExpectClose(ToTensor(a).cummax(0), want, 0, 0, "cummax");
}

TEST(Movement, SlicesAndViews) {
  Nd a = Random({7, 9}, 17);
  Tensor t = ToTensor(a);
  auto pick = [&](std::vector<int64_t> rows, std::vector<int64_t> cols) {
    Nd r({static_cast<int64_t>(rows.size()), static_cast<int64_t>(cols.size())});
    for (size_t i = 0; i < rows.size(); ++i)
      for (size_t j = 0; j < cols.size(); ++j)
        r.at({int64_t(i), int64_t(j)}) = a.at({rows[i], cols[j]});
    return r;
  };
  ExpectClose(t.slice({Slice(1, 6, 2), Slice(-3)}), pick({1, 3, 5}, {6, 7, 8}), 0, 0, "step");
  ExpectClose(t.slice({Slice(std::nullopt, std::nullopt, -3), Slice(7, 1, -2)}),
              pick({6, 3, 0}, {7, 5, 3}), 0, 0, "negative step");
  Nd row({9});
  for (int64_t j = 0; j < 9; ++j) row.v[j] = a.at({5, j});
  ExpectClose(t[-2], row, 0, 0, "index -2");
  Nd row1 = row;
  row1.shape = {1, 9};
  ExpectClose(t.slice({NewAxis{}, Index{5}}), row1, 0, 0, "newaxis");
  ExpectClose(t.slice({Slice(3, 3)}), Nd({0, 9}), 0, 0, "empty slice");
  Nd a337 = a;
  a337.shape = {3, 3, 7};
  ExpectClose(t.reshape({3, -1, 7}).permute({2, 0, 1}), naive::Permute(a337, {2, 0, 1}), 0, 0,
              "reshape+permute");
  Nd shr = pick({2, 3}, {1, 2, 3, 4});
  ExpectClose(t.shrink({{2, 4}, {1, 5}}), shr, 0, 0, "shrink");
  Nd padv({4, 6}, -1);
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 4; ++j) padv.at({i + 1, j + 2}) = shr.at({i, j});
  ExpectClose(t.shrink({{2, 4}, {1, 5}}).pad({{1, 1}, {2, 0}}, -1.0), padv, 0, 0, "pad value");
  ExpectClose(t.pad({{-2, -3}, {-1, -4}}), shr, 0, 0, "negative pad");
}

TEST(Movement, CatStackSplitRepeat) {
  Nd a = Random({2, 3}, 18), b = Random({4, 3}, 19);
  Nd ab({6, 3});
  for (int64_t i = 0; i < 6; ++i)
    for (int64_t j = 0; j < 3; ++j) ab.at({i, j}) = i < 2 ? a.at({i, j}) : b.at({i - 2, j});
  Tensor c = ToTensor(a).cat({ToTensor(b)});
  ExpectClose(c, ab, 0, 0, "cat");
  std::vector<Tensor> parts = c.split(std::vector<int64_t>{2, 4});
  ASSERT_EQ(parts.size(), 2u);
  ExpectClose(parts[0], a, 0, 0, "split 0");
  ExpectClose(parts[1], b, 0, 0, "split 1");
  std::vector<Tensor> ch = c.chunk(4);  // ceil(6/4) = 2 rows each: 3 chunks
  ASSERT_EQ(ch.size(), 3u);
  Nd last({2, 3});
  for (int i = 0; i < 6; ++i) last.v[i] = b.v[6 + i];
  ExpectClose(ch[2], last, 0, 0, "chunk");
  Nd st({2, 2, 3});
  for (int64_t i = 0; i < 6; ++i) {
    st.v[i] = a.v[i];
    st.v[6 + i] = a.v[i] * 2;
  }
  ExpectClose(Tensor::Stack({ToTensor(a), ToTensor(a) * 2}), st, 1e-6, 0, "stack");
  Nd rep({4, 6});
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 6; ++j) rep.at({i, j}) = a.at({i % 2, j % 3});
  ExpectClose(ToTensor(a).repeat({2, 2}), rep, 0, 0, "repeat");
  Nd ri({2, 6});
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 6; ++j) ri.at({i, j}) = a.at({i, j / 2});
  ExpectClose(ToTensor(a).repeat_interleave(2, 1), ri, 0, 0, "repeat_interleave");
  Nd tri = a;
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 3; ++j)
      if (j > i) tri.at({i, j}) = 0;
  ExpectClose(ToTensor(a).tril(), tri, 0, 0, "tril");
  ExpectClose(ToTensor(a).unsqueeze(1).expand({2, 4, 3}).sum(1),
              Map(a, [](double x) { return 4 * x; }), 1e-6, 0, "expand");
}

TEST(Movement, GatherOneHot) {
  Nd a = Random({4, 5}, 300);
  Nd idx = Random({3, 2}, 301, 0, 4.99, true);  // gather along dim 1: ids < 5
  Nd want({3, 2});
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 2; ++j)
      want.at({i, j}) = a.at({i, static_cast<int64_t>(idx.at({i, j}))});
  ExpectClose(ToTensor(a).gather(1, naive::ToTensor<int32_t>(idx)), want, 0, 0, "gather dim 1");
  Nd idx0 = Random({2, 5}, 302, 0, 3.99, true);  // dim 0: ids < 4
  Nd want0({2, 5});
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 5; ++j)
      want0.at({i, j}) = a.at({static_cast<int64_t>(idx0.at({i, j})), j});
  ExpectClose(ToTensor(a).gather(0, naive::ToTensor<int32_t>(idx0)), want0, 0, 0, "gather dim 0");
  auto oh = Tensor::FromVector<int32_t>({2, 0, 3}).one_hot(4).to_vector<int32_t>();
  ASSERT_TRUE(oh.ok());
  EXPECT_EQ(*oh, (std::vector<int32_t>{0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1}));
  EXPECT_EQ(ToTensor(a).one_hot(3).status().message(),
            "one_hot: expects an int tensor, got dtypes.float");
}

TEST(Movement, ZeroSize) {
  Tensor z = Tensor::Empty({0, 4});
  auto v = (z + 1).to_vector<float>();
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->empty());
  ExpectClose(z.sum(0), Nd({4}, 0), 0, 0, "sum over empty axis");
  ExpectClose(Tensor::Zeros({3, 0}).sum(1), Nd({3}, 0), 0, 0, "sum of empty rows");
  auto ar = Tensor::Arange(5, 2).to_vector<int32_t>();
  ASSERT_TRUE(ar.ok());
  EXPECT_TRUE(ar->empty());
}

TEST(Creation, ArangeEyeFullLinspace) {
  auto a = Tensor::Arange(2, 11, 3).to_vector<int32_t>();
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(*a, (std::vector<int32_t>{2, 5, 8}));
  auto d = Tensor::Arange(10, 0, -3).to_vector<int32_t>();
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(*d, (std::vector<int32_t>{10, 7, 4, 1}));
  auto f = Tensor::Arange(0.5, 2.0, 0.5).to_vector<float>();
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(*f, (std::vector<float>{0.5f, 1.0f, 1.5f}));
  auto e = Tensor::Eye(2, 3).to_vector<float>();
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(*e, (std::vector<float>{1, 0, 0, 0, 1, 0}));
  auto full = Tensor::Full({2, 2}, 7, {.dtype = dtypes::int16}).to_vector<int16_t>();
  ASSERT_TRUE(full.ok());
  EXPECT_EQ(*full, (std::vector<int16_t>{7, 7, 7, 7}));
  Nd lin({5});
  lin.v = {0, 0.25, 0.5, 0.75, 1};
  ExpectClose(Tensor::Linspace(0, 1, 5), lin, 1e-7, 0, "linspace");
}

// Tensor indices (tinygrad's tensor indexing in _getitem): shapes and values as the reference's
// (tinygrad 35900290 with DEV=CPU, the same programs), including mixed with slices, ints and
// None, broadcast index tensors, dims apart (moved first), negative and out-of-range positions.
TEST(Movement, TensorIndicesAsTheReference) {
  auto x = [] { return Tensor::Arange(24).reshape({2, 3, 4}).cast(dtypes::float32) * 0.5 - 3; };
  auto ints = [](std::vector<int32_t> v, std::vector<int64_t> shape) {
    return Tensor::FromVector(v, shape);
  };
  struct Case {
    const char* name;
    Tensor got;
    std::vector<int64_t> shape;
    std::vector<float> values;
  };
  const std::vector<Case> cases = {
      {"a", x()[ints({1, 0, 1}, {3})], {3, 3, 4}, {3,   3.5, 4,   4.5, 5,    5.5, 6,    6.5, 7,
                                                   7.5, 8,   8.5, -3,  -2.5, -2,  -1.5, -1,  -0.5,
                                                   0,   0.5, 1,   1.5, 2,    2.5, 3,    3.5, 4,
                                                   4.5, 5,   5.5, 6,   6.5,  7,   7.5,  8,   8.5}},
      {"b",
       x().slice({Slice(), Indices(ints({2, -1}, {2}))}),
       {2, 2, 4},
       {1, 1.5, 2, 2.5, 1, 1.5, 2, 2.5, 7, 7.5, 8, 8.5, 7, 7.5, 8, 8.5}},
      {"c",
       x().slice({Indices(ints({0, 1, 1, 0}, {2, 2})), Indices(ints({2, 0}, {2}))}),
       {2, 2, 4},
       {1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 7, 7.5, 8, 8.5, -3, -2.5, -2, -1.5}},
      {"d",
       x().slice({Indices(ints({1, 0}, {2})), Slice(), Indices(ints({3, 1}, {2}))}),
       {2, 3},
       {4.5, 6.5, 8.5, -2.5, -0.5, 1.5}},
      {"e",
       x().slice({Ellipsis{}, Indices(ints({0, 0, 3}, {3}))}),
       {2, 3, 3},
       {-3, -3, -1.5, -1, -1, 0.5, 1, 1, 2.5, 3, 3, 4.5, 5, 5, 6.5, 7, 7, 8.5}},
      {"f",
       x().slice({Index{1}, Indices(ints({2, 0}, {2})), Slice(1, 3)}),
       {2, 2},
       {7.5, 8, 3.5, 4}},
      {"g",
       x().slice({NewAxis{}, Indices(ints({1}, {1})), Slice(std::nullopt, std::nullopt, 2)}),
       {1, 1, 2, 4},
       {3, 3.5, 4, 4.5, 7, 7.5, 8, 8.5}},
      {"h", x()[ints({5, -7, 0}, {3})], {3, 3, 4}, {0,    0,  0,    0, 0,   0, 0,   0,    0,
                                                    0,    0,  0,    0, 0,   0, 0,   0,    0,
                                                    0,    0,  0,    0, 0,   0, -3,  -2.5, -2,
                                                    -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2,    2.5}},
      {"i",
       x().slice({Slice(), Indices(ints({0, 2}, {2, 1})), Indices(ints({1, 3}, {2}))}),
       {2, 2, 2},
       {-2.5, -1.5, 1.5, 2.5, 3.5, 4.5, 7.5, 8.5}},
      {"j", Tensor::Arange(10)[ints({9, 3, 3}, {3})].cast(dtypes::float32), {3}, {9, 3, 3}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    ASSERT_TRUE(c.got.ok()) << c.got.status();
    EXPECT_EQ(c.got.shape(), c.shape);
    absl::StatusOr<std::vector<float>> v = c.got.to_vector<float>();
    ASSERT_TRUE(v.ok()) << v.status();
    EXPECT_EQ(*v, c.values);
  }
  // the gradient lands on the picked positions
  Tensor t = Tensor::Arange(12).reshape({3, 4}).cast(dtypes::float32).contiguous().requires_grad_();
  Tensor picked = t.slice({Indices(ints({2, 0, 2}, {3})), Indices(ints({1, 1, 3}, {3}))});
  ASSERT_TRUE((picked * Tensor::FromVector<float>({1, 2, 3})).sum().backward().ok());
  EXPECT_EQ(*t.grad()->to_vector<float>(),
            (std::vector<float>{0, 2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3}));
  // float positions, indices that do not broadcast: errors naming them
  EXPECT_NE(x()[Tensor::FromVector<float>({1})].status().message().find(
                "index dtype dtypes.float is not supported"),
            std::string::npos);
  Tensor bad = x().slice({Indices(ints({0, 1}, {2})), Indices(ints({0, 1, 2}, {3}))});
  EXPECT_NE(bad.status().message().find("cannot broadcast indices"), std::string::npos)
      << bad.status();
}

// setitem (tinygrad's __setitem__): into int and slice views, strided, broadcast values, tensor
// indices (repeated positions: the last wins), as the reference's (tinygrad 35900290, DEV=CPU).
TEST(Movement, SetitemAsTheReference) {
  auto mk = [] {
    Tensor t = Tensor::Arange(12).reshape({3, 4}).cast(dtypes::float32).contiguous();
    EXPECT_TRUE(t.realize().ok());
    return t;
  };
  auto values = [](const Tensor& t) { return *t.cast(dtypes::float32).to_vector<float>(); };
  auto ints = [](std::vector<int32_t> v) { return Tensor::FromVector(v); };
  Tensor t = mk();
  ASSERT_TRUE(t.setitem({Index{1}}, 7.0).ok());
  EXPECT_EQ(values(t), (std::vector<float>{0, 1, 2, 3, 7, 7, 7, 7, 8, 9, 10, 11}));
  t = mk();
  ASSERT_TRUE(t.setitem({Slice(), Slice(1, 3)}, Tensor::FromVector<float>({-1, -2}, {1, 2})).ok());
  EXPECT_EQ(values(t), (std::vector<float>{0, -1, -2, 3, 4, -1, -2, 7, 8, -1, -2, 11}));
  t = mk();
  ASSERT_TRUE(t.setitem({Slice(std::nullopt, std::nullopt, 2), Index{-1}},
                        Tensor::FromVector<float>({100, 200}))
                  .ok());
  EXPECT_EQ(values(t), (std::vector<float>{0, 1, 2, 100, 4, 5, 6, 7, 8, 9, 10, 200}));
  t = mk();
  ASSERT_TRUE(t.setitem({Indices(ints({2, 0}))},
                        Tensor::FromVector<float>({1, 2, 3, 4, 5, 6, 7, 8}, {2, 4}))
                  .ok());
  EXPECT_EQ(values(t), (std::vector<float>{5, 6, 7, 8, 4, 5, 6, 7, 1, 2, 3, 4}));
  t = mk();
  ASSERT_TRUE(t.setitem({Indices(ints({0, 2, 0})), Indices(ints({1, 3, 1}))},
                        Tensor::FromVector<float>({10, 20, 30}))
                  .ok());
  EXPECT_EQ(values(t), (std::vector<float>{0, 30, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20}));
  t = mk();
  ASSERT_TRUE(t.setitem({Slice(), Indices(ints({3, 0}))}, -5.0).ok());
  EXPECT_EQ(values(t), (std::vector<float>{-5, 1, 2, -5, -5, 5, 6, -5, -5, 9, 10, -5}));
  Tensor i = Tensor::Arange(6).reshape({2, 3}).contiguous();
  ASSERT_TRUE(i.setitem({Index{0}, Slice(std::nullopt, 2)}, int64_t{9}).ok());
  EXPECT_EQ(values(i), (std::vector<float>{9, 9, 2, 3, 4, 5}));

  // errors, the tensor unchanged: a value that does not broadcast, a target that requires grad
  t = mk();
  absl::Status bad = t.setitem({Index{0}}, Tensor::FromVector<float>({1, 2}));
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(values(t), values(mk()));
  Tensor g = mk().requires_grad_();
  EXPECT_NE(g.setitem({Index{0}}, 1.0).message().find("require a gradient"), std::string::npos);
  // a view (not a whole buffer) as the target
  EXPECT_NE(mk().slice({Slice(0, 2)}).setitem({Index{0}}, 1.0).message().find("contiguous"),
            std::string::npos);
}

}  // namespace
}  // namespace tg
