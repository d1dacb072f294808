// File: tinygrad/tensor/linalg_test.cc
// qr, svd and newton_schulz against the reference. The expected values were produced by running
// tinygrad 35900290 with DEV=CPU on the same programs (tools/golden/gen_linalg_golden.py prints
// them); the inputs are (k % 19 - 9) / 4 for k = 7 * index + 3, exact in float32. Besides the
// reference's values, the factors are checked on the host: Q and U orthogonal, Q R and
// U diag(S) Vh giving the input back.
#include <cmath>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

// clang-format off
// Qr3x3: (3, 3)
const std::vector<float> kQr3x3Q = {-0.801783681f, 0.436435819f, -0.408248335f, -0.534522474f, -0.21821785f, 0.816496551f, -0.267261237f, -0.872871578f, -0.408248305f};  // (3, 3)
const std::vector<float> kQr3x3R = {1.87082851f, -0.935414374f, 0.0668154955f, 4.35962448e-08f, -1.14564407f, 2.89138722f, -4.07805558e-08f, 1.22201911e-07f, -1.93917954f};  // (3, 3)
// Qr4x3: (4, 3)
const std::vector<float> kQr4x3Q = {-0.801783681f, 0.23904568f, -0.547722578f, -8.1727876e-08f, -0.534522474f, -0.11952281f, 0.730296731f, 0.408248276f, -0.267261237f, -0.478091449f, 0.182574153f, -0.81649667f, 0.0f, -0.836660087f, -0.365148336f, 0.408248246f};  // (4, 4)
const std::vector<float> kQr4x3R = {1.87082851f, -0.935414374f, 0.0668154955f, 2.38786484e-08f, -2.09165001f, 2.62950277f, -5.471286e-08f, 7.87363774e-08f, -2.60168242f, -5.01312299e-15f, -5.81782089e-09f, -3.08908454e-08f};  // (4, 3)
// Qr2x4: (2, 4)
const std::vector<float> kQr2x4Q = {-0.894427299f, -0.44721359f, 0.44721359f, -0.89442718f};  // (2, 2)
const std::vector<float> kQr2x4R = {1.67705107f, -1.22983742f, -2.01246119f, 1.45344424f, -2.46247041e-08f, 1.90065777f, -0.447213531f, -0.670820415f};  // (2, 4)
// Qr2x3x2: (2, 3, 2)
const std::vector<float> kQr2x3x2Q = {-0.574695826f, -0.334948182f, -0.746682167f, 0.766260982f, 0.100126803f, -0.634679973f, 0.287347883f, -0.93690145f, 0.199115291f, -0.198029518f, 0.749940276f, 0.631168723f, -0.693103313f, -0.562454998f, 0.45083487f, 0.693103313f, -0.348186523f, 0.631168723f};  // (2, 3, 3)
const std::vector<float> kQr2x3x2R = {2.61007643f, -1.55646753f, -8.12820176e-08f, 1.9241643f, -2.7017353e-07f, 1.8150871e-08f, 2.52487636f, -1.11391604f, -1.82287025e-07f, 1.37265861f, -1.53417361e-07f, 3.87668386e-09f};  // (2, 3, 2)
// Svd3x3: (3, 3)
const std::vector<float> kSvd3x3U = {0.475108624f, -0.879896283f, 0.00736959325f, -0.669494092f, -0.366909385f, -0.645875454f, -0.571007371f, -0.30192703f, 0.76340735f};  // (3, 3)
const std::vector<float> kSvd3x3S = {3.63389683f, 2.07444167f, 0.551350594f};  // (3,)
const std::vector<float> kSvd3x3V = {0.0666873753f, -0.301908076f, 0.951001763f, 0.885885417f, -0.420626432f, -0.195654631f, 0.45908621f, 0.855526149f, 0.239405528f};  // (3, 3)
// Svd4x4: (4, 4)
const std::vector<float> kSvd4x4U = {-0.622874975f, -0.0251278374f, 0.474450737f, 0.621523917f, 0.379305601f, -0.665184081f, 0.630311847f, -0.127922043f, -0.641765058f, -0.0951207206f, 0.133778602f, -0.749128163f, 0.237258479f, 0.740169227f, 0.599755526f, -0.1901346f};  // (4, 4)
const std::vector<float> kSvd4x4S = {4.28166246f, 3.18751335f, 0.873904169f, 0.236466199f};  // (4,)
const std::vector<float> kSvd4x4V = {0.574662328f, -0.111014068f, -0.639105797f, 0.498981863f, 0.0236389656f, 0.99003917f, -0.137803912f, 0.0165388267f, -0.198164687f, 0.0570550114f, 0.478360742f, 0.853607833f, 0.793684542f, 0.0651371777f, 0.586280406f, -0.148651034f};  // (4, 4)
// Svd4x2: (4, 2)
const std::vector<float> kSvd4x2U = {0.347474456f, -0.565079331f, -0.674933314f, 0.323127806f, -0.603410244f, 0.475074053f, -0.557276189f, 0.315664321f, -0.620340943f, -0.604748726f, 0.355100662f, 0.351226002f, 0.361019015f, 0.298778951f, 0.328346848f, 0.820112646f};  // (4, 4)
const std::vector<float> kSvd4x2S = {3.47460866f, 1.63618314f};  // (2,)
const std::vector<float> kSvd4x2V = {-0.683184147f, 0.730246186f, 0.730246186f, 0.683184147f};  // (2, 2)
// Svd4x2Reduced: (4, 2)
const std::vector<float> kSvd4x2ReducedU = {0.347474456f, -0.565079331f, -0.603410244f, 0.475074053f, -0.620340943f, -0.604748726f, 0.361019015f, 0.298778951f};  // (4, 2)
const std::vector<float> kSvd4x2ReducedS = {3.47460866f, 1.63618314f};  // (2,)
const std::vector<float> kSvd4x2ReducedV = {-0.683184147f, 0.730246186f, 0.730246186f, 0.683184147f};  // (2, 2)
// Svd2x3: (2, 3)
const std::vector<float> kSvd2x3U = {-0.687215507f, 0.726453662f, 0.726453662f, 0.687215507f};  // (2, 2)
const std::vector<float> kSvd2x3S = {3.04722619f, 1.91099811f};  // (2,)
const std::vector<float> kSvd2x3V = {0.0998841301f, 0.122418314f, -0.987439632f, -0.9298262f, 0.364743948f, -0.0488369018f, 0.354184151f, 0.923025191f, 0.150259942f};  // (3, 3)
// Svd3x5Reduced: (3, 5)
const std::vector<float> kSvd3x5ReducedU = {-0.522585928f, 0.502575755f, -0.688709974f, -0.631746113f, 0.314198315f, 0.708643973f, 0.572538733f, 0.80541718f, 0.153304651f};  // (3, 3)
const std::vector<float> kSvd3x5ReducedS = {4.70591879f, 2.22521281f, 1.10238552f};  // (3,)
const std::vector<float> kSvd3x5ReducedV = {0.681535542f, -0.112719148f, -0.32907185f, 0.619720399f, -0.174534202f, -0.0230673421f, -0.466574252f, 0.809184849f, 0.341435194f, -0.102071643f, -0.265878946f, -0.651432872f, -0.376422226f, -0.187304378f, -0.572858453f};  // (3, 5)
// Svd2x3x3: (2, 3, 3)
const std::vector<float> kSvd2x3x3U = {0.475108624f, -0.879896283f, 0.00736959837f, -0.669494092f, -0.366909385f, -0.645875394f, -0.571007371f, -0.30192706f, 0.76340723f, 0.559972286f, -0.391047031f, -0.730419934f, 0.644055247f, -0.349116921f, 0.680669069f, -0.521175623f, -0.851586521f, 0.0563600957f};  // (2, 3, 3)
const std::vector<float> kSvd2x3x3S = {3.63389683f, 2.07444143f, 0.551350713f, 3.63299656f, 1.4268254f, 0.572713971f};  // (2, 3)
const std::vector<float> kSvd2x3x3V = {0.066687353f, -0.301908076f, 0.951001704f, 0.885885417f, -0.420626402f, -0.195654601f, 0.45908618f, 0.855526268f, 0.239405528f, -0.0548164658f, 0.955527008f, -0.289764315f, -0.719180524f, 0.163529113f, 0.675305605f, 0.69265759f, 0.245410696f, 0.678232312f};  // (2, 3, 3)
// Ns3x3: (3, 3)
const std::vector<float> kNs3x3 = {-0.745035648f, 0.231829137f, 0.625429034f, -0.612358212f, -0.0957702845f, -0.691451311f, -0.0187212527f, 0.833911657f, -0.334378213f};  // (3, 3)
// Ns4x2: (4, 2)
const std::vector<float> kNs4x2 = {-0.643426776f, -0.126127303f, 0.753605127f, -0.121274263f, -0.0107341707f, -0.859539211f, -0.0319553986f, 0.464484632f};  // (4, 2)
// Ns2x2x3: (2, 2, 3)
const std::vector<float> kNs2x2x3 = {-0.53557092f, 0.0934005007f, 0.68866998f, -0.362172157f, 0.265420377f, -0.776749015f, -0.367102236f, 0.0265228674f, -0.648263514f, 0.254637837f, 0.699191034f, -0.0628999993f};  // (2, 2, 3)
// clang-format on

constexpr double kTol = 1e-5;

int64_t Numel(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

// The generator's input of `shape` (float32 unless `dt`).
Tensor Make(const std::vector<int64_t>& shape, DType dt = dtypes::float32) {
  std::vector<float> v(Numel(shape));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>((7 * i + 3) % 19) / 4 - 2.25f;
  return Tensor::FromVector(v, shape).cast(dt);
}

std::vector<float> Read(const Tensor& t) {
  absl::StatusOr<std::vector<float>> v = t.to_vector<float>();
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : std::vector<float>{};
}

void ExpectNear(const std::vector<float>& got, const std::vector<float>& want, double tol,
                const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i], tol) << what << " at flat index " << i;
}

// `t` has `shape` and, read back, the reference's values.
void ExpectTensor(const Tensor& t, const std::vector<int64_t>& shape,
                  const std::vector<float>& want, const std::string& what) {
  ASSERT_TRUE(t.ok()) << what << ": " << t.status();
  EXPECT_EQ(t.shape(), shape) << what;
  ExpectNear(Read(t), want, kTol, what);
}

// A host matrix batch: `batch` row-major (rows, cols) matrices.
struct Mats {
  int64_t batch, rows, cols;
  std::vector<double> v;
  double at(int64_t b, int64_t i, int64_t j) const { return v[(b * rows + i) * cols + j]; }
};
Mats ToMats(const std::vector<float>& v, int64_t batch, int64_t rows, int64_t cols) {
  return {batch, rows, cols, std::vector<double>(v.begin(), v.end())};
}
Mats MatMul(const Mats& a, const Mats& b) {
  Mats c{a.batch, a.rows, b.cols, std::vector<double>(a.batch * a.rows * b.cols)};
  for (int64_t n = 0; n < a.batch; ++n)
    for (int64_t i = 0; i < a.rows; ++i)
      for (int64_t j = 0; j < b.cols; ++j) {
        double s = 0;
        for (int64_t k = 0; k < a.cols; ++k) s += a.at(n, i, k) * b.at(n, k, j);
        c.v[(n * c.rows + i) * c.cols + j] = s;
      }
  return c;
}
Mats Transpose(const Mats& a) {
  Mats t{a.batch, a.cols, a.rows, std::vector<double>(a.v.size())};
  for (int64_t n = 0; n < a.batch; ++n)
    for (int64_t i = 0; i < a.rows; ++i)
      for (int64_t j = 0; j < a.cols; ++j) t.v[(n * t.rows + j) * t.cols + i] = a.at(n, i, j);
  return t;
}
void ExpectMatsNear(const Mats& got, const Mats& want, double tol, const std::string& what) {
  ASSERT_EQ(got.v.size(), want.v.size()) << what;
  for (size_t i = 0; i < got.v.size(); ++i)
    EXPECT_NEAR(got.v[i], want.v[i], tol) << what << " at flat index " << i;
}
// a^T a == I (orthonormal columns).
void ExpectOrthonormalColumns(const Mats& a, const std::string& what) {
  Mats eye{a.batch, a.cols, a.cols, std::vector<double>(a.batch * a.cols * a.cols)};
  for (int64_t n = 0; n < a.batch; ++n)
    for (int64_t i = 0; i < a.cols; ++i) eye.v[(n * a.cols + i) * a.cols + i] = 1;
  ExpectMatsNear(MatMul(Transpose(a), a), eye, 2e-5, what);
}

// qr of Make(batch..., m, n): the reference's Q and R, Q orthogonal, Q R the input.
void CheckQr(const std::vector<int64_t>& shape, const std::vector<float>& want_q,
             const std::vector<float>& want_r) {
  const int64_t m = shape[shape.size() - 2], n = shape.back(), batch = Numel(shape) / (m * n);
  std::vector<int64_t> q_shape = shape;
  q_shape.back() = m;
  Tensor a = Make(shape);
  auto [q, r] = a.qr();
  ASSERT_TRUE(Realize({q, r}).ok());
  ExpectTensor(q, q_shape, want_q, "Q");
  ExpectTensor(r, shape, want_r, "R");
  EXPECT_EQ(q.dtype(), dtypes::float32);
  EXPECT_EQ(r.dtype(), dtypes::float32);
  Mats qm = ToMats(Read(q), batch, m, m);
  ExpectOrthonormalColumns(qm, "Q^T Q");
  ExpectMatsNear(MatMul(qm, ToMats(Read(r), batch, m, n)), ToMats(Read(a), batch, m, n), 2e-5,
                 "Q R");
}

TEST(Qr, SquareMatchesReference) { CheckQr({3, 3}, kQr3x3Q, kQr3x3R); }
TEST(Qr, TallMatchesReference) { CheckQr({4, 3}, kQr4x3Q, kQr4x3R); }
TEST(Qr, WideMatchesReference) { CheckQr({2, 4}, kQr2x4Q, kQr2x4R); }
TEST(Qr, BatchedMatchesReference) { CheckQr({2, 3, 2}, kQr2x3x2Q, kQr2x3x2R); }

TEST(Qr, Float64KeepsDtypeAndReconstructs) {
  Tensor a = Make({3, 3}, dtypes::float64);
  auto [q, r] = a.qr();
  ASSERT_TRUE(q.ok()) << q.status();
  EXPECT_EQ(q.dtype(), dtypes::float64);
  EXPECT_EQ(r.dtype(), dtypes::float64);
  absl::StatusOr<std::vector<double>> qv = q.to_vector<double>(), rv = r.to_vector<double>(),
                                      av = a.to_vector<double>();
  ASSERT_TRUE(qv.ok() && rv.ok() && av.ok());
  ExpectMatsNear(MatMul(Mats{1, 3, 3, *qv}, Mats{1, 3, 3, *rv}), Mats{1, 3, 3, *av}, 1e-12, "Q R");
}

// No columns or no rows: the loop does nothing, as in the reference (Q the identity, R the input).
TEST(Qr, EmptyMatrices) {
  auto [q, r] = Tensor::Zeros({3, 0}).qr();
  ExpectTensor(q, {3, 3}, {1, 0, 0, 0, 1, 0, 0, 0, 1}, "Q of (3, 0)");
  ExpectTensor(r, {3, 0}, {}, "R of (3, 0)");
  auto [q2, r2] = Tensor::Zeros({0, 3}).qr();
  ExpectTensor(q2, {0, 0}, {}, "Q of (0, 3)");
  ExpectTensor(r2, {0, 3}, {}, "R of (0, 3)");
}

// svd of Make(shape): the reference's U, S, Vh; U and Vh^T orthonormal, U diag(S) Vh the input.
void CheckSvd(const std::vector<int64_t>& shape, bool full, const std::vector<float>& want_u,
              const std::vector<float>& want_s, const std::vector<float>& want_v) {
  const int64_t m = shape[shape.size() - 2], n = shape.back(), batch = Numel(shape) / (m * n);
  const int64_t k = std::min(m, n);
  std::vector<int64_t> b(shape.begin(), shape.end() - 2), u_shape = b, s_shape = b, v_shape = b;
  u_shape.insert(u_shape.end(), {m, full ? m : k});
  s_shape.push_back(k);
  v_shape.insert(v_shape.end(), {full ? n : k, n});
  Tensor a = Make(shape);
  auto [u, s, v] = a.svd(full);
  // one schedule for the three
  ASSERT_TRUE(Realize({u, s, v}).ok());
  ExpectTensor(u, u_shape, want_u, "U");
  ExpectTensor(s, s_shape, want_s, "S");
  ExpectTensor(v, v_shape, want_v, "Vh");
  Mats um = ToMats(Read(u), batch, m, full ? m : k);
  Mats vm = ToMats(Read(v), batch, full ? n : k, n);
  ExpectOrthonormalColumns(um, "U^T U");
  ExpectOrthonormalColumns(Transpose(vm), "Vh Vh^T");
  // U[:, :k] diag(S) Vh[:k, :]
  std::vector<float> sv = Read(s);
  Mats us{batch, m, k, std::vector<double>(batch * m * k)};
  Mats vk{batch, k, n, std::vector<double>(batch * k * n)};
  for (int64_t z = 0; z < batch; ++z)
    for (int64_t i = 0; i < k; ++i) {
      for (int64_t r = 0; r < m; ++r) us.v[(z * m + r) * k + i] = um.at(z, r, i) * sv[z * k + i];
      for (int64_t c = 0; c < n; ++c) vk.v[(z * k + i) * n + c] = vm.at(z, i, c);
    }
  ExpectMatsNear(MatMul(us, vk), ToMats(Read(a), batch, m, n), 2e-5, "U diag(S) Vh");
  for (int64_t z = 0; z < batch; ++z)
    for (int64_t i = 1; i < k; ++i) EXPECT_GE(sv[z * k + i - 1], sv[z * k + i]) << "S descending";
}

TEST(Svd, SquareOddMatchesReference) { CheckSvd({3, 3}, true, kSvd3x3U, kSvd3x3S, kSvd3x3V); }
TEST(Svd, SquareEvenMatchesReference) { CheckSvd({4, 4}, true, kSvd4x4U, kSvd4x4S, kSvd4x4V); }
TEST(Svd, TallMatchesReference) { CheckSvd({4, 2}, true, kSvd4x2U, kSvd4x2S, kSvd4x2V); }
TEST(Svd, TallReducedMatchesReference) {
  CheckSvd({4, 2}, false, kSvd4x2ReducedU, kSvd4x2ReducedS, kSvd4x2ReducedV);
}
TEST(Svd, WideMatchesReference) { CheckSvd({2, 3}, true, kSvd2x3U, kSvd2x3S, kSvd2x3V); }
TEST(Svd, WideReducedMatchesReference) {
  CheckSvd({3, 5}, false, kSvd3x5ReducedU, kSvd3x5ReducedS, kSvd3x5ReducedV);
}
TEST(Svd, BatchedMatchesReference) {
  CheckSvd({2, 3, 3}, true, kSvd2x3x3U, kSvd2x3x3S, kSvd2x3x3V);
}

TEST(NewtonSchulz, MatchesReference) {
  ExpectTensor(Make({3, 3}).newton_schulz(3, {2, -1.5, 0.5}), {3, 3}, kNs3x3, "square");
  // a tall matrix is done transposed
  ExpectTensor(Make({4, 2}).newton_schulz(2, {2, -1.5, 0.5}), {4, 2}, kNs4x2, "tall");
  // Muon's coefficients, batched
  ExpectTensor(Make({2, 2, 3}).newton_schulz(5, {3.4445, -4.7750, 2.0315}), {2, 2, 3}, kNs2x2x3,
               "batched");
}

TEST(NewtonSchulz, ZeroStepsNormalizes) {
  // self / (||self||_F + eps): 1, 2, 3, 4 over sqrt(30)
  Tensor t = Tensor::FromVector<float>({1, 2, 3, 4}, {2, 2}).newton_schulz(0, {});
  const double f = std::sqrt(30.0) + 1e-7;
  ExpectTensor(t, {2, 2}, {float(1 / f), float(2 / f), float(3 / f), float(4 / f)}, "normalized");
}

void ExpectError(const Tensor& t, const std::string& op, const std::string& what) {
  ASSERT_FALSE(t.ok()) << op << " should fail (" << what << ")";
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument) << t.status();
  const std::string msg(t.status().message());
  EXPECT_EQ(msg.rfind(op + ": ", 0), 0u) << msg;
  EXPECT_NE(msg.find(what), std::string::npos) << msg;
}

TEST(LinalgErrors, TooFewDims) {
  Tensor v = Tensor::FromVector<float>({1, 2, 3});
  auto [q, r] = v.qr();
  ExpectError(q, "qr", "expected two or more dimensions, got 1");
  ExpectError(r, "qr", "expected two or more dimensions, got 1");
  auto [u, s, vh] = v.svd();
  for (const Tensor& t : {u, s, vh}) ExpectError(t, "svd", "expected two or more dimensions");
  ExpectError(v.newton_schulz(2, {2, -1.5, 0.5}), "newton_schulz", "two or more dims");
}

TEST(LinalgErrors, NonFloatDtype) {
  Tensor i = Tensor::FromVector<int32_t>({1, 2, 3, 4}, {2, 2});
  auto [q, r] = i.qr();
  ExpectError(q, "qr", "needs a float dtype, got dtypes.int");
  ExpectError(r, "qr", "needs a float dtype");
  auto [u, s, vh] = Tensor::FromVector<bool>({true, false, false, true}, {2, 2}).svd();
  for (const Tensor& t : {u, s, vh}) ExpectError(t, "svd", "needs a float dtype, got dtypes.bool");
  // newton_schulz divides first, so an int matrix works (as in the reference)
  EXPECT_TRUE(i.newton_schulz(1, {1.0}).ok());
}

TEST(LinalgErrors, SvdNeedsTwoRowsAndColumns) {
  for (const std::vector<int64_t>& shape :
       std::vector<std::vector<int64_t>>{{3, 1}, {1, 4}, {1, 1}, {0, 0}, {2, 0, 3}}) {
    auto [u, s, vh] = Tensor::Zeros(shape).svd();
    for (const Tensor& t : {u, s, vh}) ExpectError(t, "svd", "needs at least 2 rows and 2 columns");
  }
}

TEST(LinalgErrors, NewtonSchulzWithoutParams) {
  ExpectError(Make({2, 2}).newton_schulz(1, {}), "newton_schulz", "params is empty");
}

TEST(LinalgErrors, ErroredInputPropagates) {
  Tensor bad = Tensor::Zeros({2, 3}).reshape({7});
  ASSERT_FALSE(bad.ok());
  auto [q, r] = bad.qr();
  EXPECT_EQ(q.status(), bad.status());
  EXPECT_EQ(r.status(), bad.status());
  auto [u, s, vh] = bad.svd(false);
  EXPECT_EQ(s.status(), bad.status());
  EXPECT_EQ(bad.newton_schulz(1, {1.0}).status(), bad.status());
}

}  // namespace
}  // namespace tg
