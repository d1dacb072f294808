// File: tinygrad/tensor/math_extra_test.cc
// Tests of math_extra.cc: inverse trig and hyperbolic functions, activations, lerp, copysign,
// isclose/allclose, var_mean/std_mean, cumprod and logcumsumexp, a few of their gradients, and
// their errors.
//
// The expected values were produced by running tinygrad 35900290 with DEV=CPU on the same
// programs: tools/golden/gen_math_extra_golden.py prints the k* constants below. The long
// cumprod's expected values (products of +-2, +-1 and 0.5, exact in float32) are computed
// here; the reference's output was checked to equal them bit for bit, signed zeros included.
// Floats are compared at rtol 2e-6 (float32 rounding; the C compiler may contract
// multiply-adds differently), ints and bools exactly, infinities and NaN by kind.
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// ** expected values (tools/golden/gen_math_extra_golden.py) **
// clang-format off
const std::vector<double> kAsin = {-1.5707963705062866, -1.526071548461914, -1.11976957321167, -0.5235989093780518, -0.10016760975122452, 0.0, 0.10016760975122452, 0.5235989093780518, 1.11976957321167, 1.526071548461914, 1.5707963705062866};
const std::vector<double> kAcos = {3.1415927410125732, 3.0968680381774902, 2.690566062927246, 2.094395160675049, 1.670964002609253, 1.5707963705062866, 1.4706287384033203, 1.0471974611282349, 0.4510267972946167, 0.04472482204437256, 0.0};
const std::vector<double> kAtanh = {-kInf, -3.8002076148986816, -1.4722193479537964, -0.5493061542510986, -0.10033538937568665, 0.0, 0.10033539682626724, 0.5493061542510986, 1.4722193479537964, 3.8002076148986816, kInf};
const std::vector<double> kAtan = {-1.5698198080062866, -1.4711278676986694, -0.7853981852531433, -0.463647723197937, 0.0, 0.463647723197937, 0.7853981852531433, 1.4711278676986694, 1.5698198080062866};
const std::vector<double> kAcosh = {kNaN, 0.0, 0.04471873119473457, 0.9624236226081848, 1.316957950592041, 2.993222951889038, 5.298292636871338, 7.600902557373047};
const std::vector<double> kAsinh = {-5.2988667488098145, -4.605338096618652, -2.998230218887329, -1.8184462785720825, -1.44363534450531, -0.8813736438751221, -0.4812118113040924, -0.09983406215906143, 0.0, 0.0998341292142868, 0.4812118411064148, 0.8813736438751221, 1.4436354637145996, 1.8184466361999512, 2.4917800426483154, 2.8934438228607178, 2.998223066329956, 4.6052703857421875, 5.298342227935791};
const std::vector<double> kSinh = {-kInf, -2.5923496326080296e+21, -11013.2333984375, -10.017873764038086, -3.6268601417541504, -1.175201177597046, -0.5210952758789062, -0.10016676783561707, 0.0, 0.10016676783561707, 0.5210952758789062, 1.175201177597046, 3.6268601417541504, 10.017873764038086, 201.71311950683594, 4051.54052734375, 11013.2333984375, 2.5923496326080296e+21, kInf};
const std::vector<double> kCosh = {kInf, 2.5923496326080296e+21, 11013.2333984375, 10.06766128540039, 3.762195587158203, 1.5430805683135986, 1.1276259422302246, 1.0050041675567627, 1.0, 1.0050041675567627, 1.1276259422302246, 1.5430805683135986, 3.762195587158203, 10.06766128540039, 201.71559143066406, 4051.54052734375, 11013.2333984375, 2.5923496326080296e+21, kInf};
const std::vector<double> kElu = {-1.0, -1.0, -0.9999545812606812, -0.9502129554748535, -0.8646647334098816, -0.6321205496788025, -0.39346933364868164, -0.09516257047653198, 0.0, 0.10000000149011612, 0.5, 1.0, 2.0, 3.0, 6.0, 9.0, 10.0, 50.0, 100.0};
const std::vector<double> kElu05 = {-0.5, -0.5, -0.4999772906303406, -0.47510647773742676, -0.4323323667049408, -0.31606027483940125, -0.19673466682434082, -0.04758128523826599, 0.0, 0.10000000149011612, 0.5, 1.0, 2.0, 3.0, 6.0, 9.0, 10.0, 50.0, 100.0};
const std::vector<double> kCelu = {-1.0, -1.0, -0.9999545812606812, -0.9502129554748535, -0.8646647334098816, -0.6321205496788025, -0.39346933364868164, -0.09516257047653198, 0.0, 0.10000000149011612, 0.5, 1.0, 2.0, 3.0, 6.0, 9.0, 10.0, 50.0, 100.0};
const std::vector<double> kCelu05 = {-0.5, -0.5, -0.5, -0.4987606108188629, -0.49084219336509705, -0.4323323667049408, -0.31606027483940125, -0.09063464403152466, 0.0, 0.10000000149011612, 0.5, 1.0, 2.0, 3.0, 6.0, 9.0, 10.0, 50.0, 100.0};
const std::vector<double> kSelu = {-1.7580941915512085, -1.7580941915512085, -1.75801420211792, -1.670563817024231, -1.5201621055603027, -1.1113275289535522, -0.6917561888694763, -0.16730476915836334, 0.0, 0.10506999492645264, 0.5253499746322632, 1.0506999492645264, 2.1013998985290527, 3.152099847793579, 6.304199695587158, 9.456299781799316, 10.506999969482422, 52.534996032714844, 105.06999206542969};
const std::vector<double> kMish = {-0.0, -0.0, -0.00045418739318847656, -0.14564752578735352, -0.2525014877319336, -0.3034013509750366, -0.22074377536773682, -0.056788574904203415, 0.0, 0.06317941099405289, 0.3752451539039612, 0.8650983572006226, 1.9439587593078613, 2.98653507232666, 5.999927043914795, 9.0, 10.0, 50.0, 100.0};
const std::vector<double> kSoftsign = {-0.9900990128517151, -0.9803921580314636, -0.9090909361839294, -0.75, -0.6666666865348816, -0.5, -0.3333333432674408, -0.09090909361839294, 0.0, 0.09090909361839294, 0.3333333432674408, 0.5, 0.6666666865348816, 0.75, 0.8571428656578064, 0.8999999761581421, 0.9090909361839294, 0.9803921580314636, 0.9900990128517151};
const std::vector<double> kHardsigmoid = {0.0, 0.0, 0.0, 0.0, 0.1666666567325592, 0.3333333134651184, 0.4166666567325592, 0.4833333194255829, 0.5, 0.5166666507720947, 0.5833333134651184, 0.6666666865348816, 0.8333333730697632, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0};
const std::vector<double> kHardsigmoid0203 = {0.0, 0.0, 0.0, 0.0, 0.0, 0.10000000894069672, 0.20000001788139343, 0.2800000011920929, 0.30000001192092896, 0.320000022649765, 0.4000000059604645, 0.5, 0.7000000476837158, 0.9000000357627869, 0.9999999403953552, 1.0, 1.0, 1.0, 1.0};
const std::vector<double> kHardswish = {-0.0, -0.0, -0.0, -0.0, -0.3333333432674408, -0.3333333432674408, -0.2083333432674408, -0.048333339393138885, 0.0, 0.05166666954755783, 0.2916666865348816, 0.6666666865348816, 1.6666667461395264, 3.0, 6.0, 9.0, 10.0, 50.0, 100.0};
const std::vector<double> kHardtanh = {-1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -0.5, -0.10000000149011612, 0.0, 0.10000000149011612, 0.5, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0};
const std::vector<double> kHardtanhM2P05 = {-2.0, -2.0, -2.0, -2.0, -2.0, -1.0, -0.5, -0.10000000149011612, 0.0, 0.10000000149011612, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5};
const std::vector<double> kRelu6 = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.10000000149011612, 0.5, 1.0, 2.0, 3.0, 6.0, 6.0, 6.0, 6.0, 6.0};
const std::vector<double> kSwish = {-0.0, -9.643761104044766e-21, -0.00045397866051644087, -0.14227762818336487, -0.23840586841106415, -0.2689414322376251, -0.1887703388929367, -0.04750208184123039, 0.0, 0.05249791964888573, 0.3112296760082245, 0.7310585975646973, 1.7615940570831299, 2.857722520828247, 5.985164642333984, 8.998889923095703, 9.99954605102539, 50.0, 100.0};
const std::vector<double> kQuickGelu = {-0.0, -5.501868162149322e-36, -4.0579593019174354e-07, -0.018071312457323074, -0.06434137374162674, -0.15420423448085785, -0.14961156249046326, -0.045755237340927124, 0.0, 0.0542447604238987, 0.35038843750953674, 0.845795750617981, 1.935658574104309, 2.981928825378418, 5.99977970123291, 8.999998092651367, 10.0, 50.0, 100.0};
const std::vector<double> kAsinInt = {1.5707963705062866, kNaN, 0.0};
const std::vector<double> kRelu6Int = {0, 2, 6};
const std::vector<double> kLerpNum = {2.5, 3.5, 4.5, 2.0};
const std::vector<double> kLerpTensor = {1.0, 2.75, 6.0, 14.0};
const std::vector<double> kLerpU8 = {50, 13, 125, 0, 53};
const std::vector<double> kCopysignTensor = {-1.0, -2.0, 3.0, 4.0, -0.0, 5.0};
const std::vector<double> kCopysignNum = {-1.0, -2.0, -3.0, -4.0, -0.0, -5.0};
const std::vector<double> kCopysignBroadcast = {-1.0, 2.0, -3.0, -4.0, 0.0, -5.0};
const std::vector<double> kCopysignIntNum = {-1, -2, -3};
const std::vector<double> kIsclose = {1, 0, 0, 1, 1, 0, 1, 0, 0, 0, 1, 0};
const std::vector<double> kIscloseEqualNan = {1, 0, 0, 1, 1, 0, 1, 1, 0, 0, 1, 0};
const std::vector<double> kIscloseRtol = {1, 1, 0, 0, 1, 0, 1, 0, 0, 1, 1, 1};
const std::vector<double> kVarAll = {11.429925918579102};
const std::vector<double> kVarMeanAll = {2.2083334922790527};
const std::vector<double> kStdAll = {3.380817413330078};
const std::vector<double> kStdMeanAll = {2.2083334922790527};
const std::vector<double> kVarAxis0 = {17.333332061767578, 5.583333492279053, 16.333332061767578, 6.333333492279053};
const std::vector<double> kVarMeanAxis0 = {-0.3333333432674408, 3.8333334922790527, 3.6666667461395264, 1.6666667461395264};
const std::vector<double> kStdAxis0 = {4.163331985473633, 2.362907886505127, 4.041451930999756, 2.5166115760803223};
const std::vector<double> kStdMeanAxis0 = {-0.3333333432674408, 3.8333334922790527, 3.6666667461395264, 1.6666667461395264};
const std::vector<double> kVarAxis1Keep = {1.6666667461395264, 22.729167938232422, 13.583333969116211};
const std::vector<double> kVarMeanAxis1Keep = {2.5, 0.875, 3.25};
const std::vector<double> kStdAxis1Keep = {1.2909945249557495, 4.76751184463501, 3.6855573654174805};
const std::vector<double> kStdMeanAxis1Keep = {2.5, 0.875, 3.25};
const std::vector<double> kVarAxis01Corr0 = {10.477432250976562};
const std::vector<double> kVarMeanAxis01Corr0 = {2.2083334922790527};
const std::vector<double> kStdAxis01Corr0 = {3.2368862628936768};
const std::vector<double> kStdMeanAxis01Corr0 = {2.2083334922790527};
const std::vector<double> kVarAxisM1Corr2 = {2.5, 34.09375, 20.375};
const std::vector<double> kVarMeanAxisM1Corr2 = {2.5, 0.875, 3.25};
const std::vector<double> kStdAxisM1Corr2 = {1.5811388492584229, 5.838985443115234, 4.513867378234863};
const std::vector<double> kStdMeanAxisM1Corr2 = {2.5, 0.875, 3.25};
const std::vector<double> kStdMeanIntStd = {2.6457512378692627};
const std::vector<double> kCumprod1d = {2.0, -2.0, -1.0, -0.0, -0.0, 0.0};
const std::vector<double> kCumprod2dAxis0 = {2.0, -1.0, 0.5, 0.0, -3.0, -1.0};
const std::vector<double> kCumprod2dAxis1 = {2.0, -2.0, -1.0, 0.0, 0.0, -0.0};
const std::vector<double> kCumprod2dAxisM1 = {2.0, -2.0, -1.0, 0.0, 0.0, -0.0};
const std::vector<double> kCumprodInt = {1, -2, -6, -24, 24};
const std::vector<double> kLogcumsumexp1d = {1.0, 2.3132617473602295, 3.4076058864593506, 4.440189838409424};
const std::vector<double> kLogcumsumexp2dAxis0 = {1.0, -2.0, 0.5, 3.1269280910491943, 0.12692803144454956, 0.7014133334159851};
const std::vector<double> kLogcumsumexp2dAxis1 = {1.0, 1.0485873222351074, 1.5045968294143677, 3.0, 3.0485873222351074, 3.0658838748931885};
const std::vector<double> kLogcumsumexpLarge = {1000.0, 1000.9740600585938, 1000.9740600585938, 1000.9740600585938, 1001.6802978515625};
const std::vector<double> kLogcumsumexpNegInf = {kNaN, 0.0, 0.0, 1.31326162815094};
const std::vector<double> kLogcumsumexpInt = {1.0, 1.0485873222351074, 3.132845401763916};
const std::vector<double> kGradAsin = {1.1547003984451294, -2.0100765228271484, 0.7001400589942932, 0.0};
const std::vector<double> kGradAtanh = {1.3333333730697632, -2.020202159881592, 0.9803920984268188, 3.0};
const std::vector<double> kGradSelu = {0.646766722202301, -2.1013998985290527, 0.5253499746322632, 3.9072842597961426};
const std::vector<double> kGradElu = {0.3678794503211975, 0.0, 0.5, 2.22245454788208};
const std::vector<double> kGradHardswish = {0.0, -0.3333333432674408, 0.3333333432674408, 3.0};
const std::vector<double> kGradMish = {0.05921660363674164, -1.2000000476837158, 0.5346590876579285, 1.2255326509475708};
const std::vector<double> kGradCumprod = {-1.75, 5.5, -19.0, -3.0};
const std::vector<double> kGradLogcumsumexp = {-0.27161261439323425, -0.06330987811088562, 0.38425883650779724, 2.4506635665893555};
const std::vector<double> kGradLerpA = {1.0, -1.5, 0.0, -1.5};
const std::vector<double> kGradLerpB = {0.0, -0.5, 0.5, 4.5};
const std::vector<double> kGradLerpW = {3.0, -6.0, 1.5, 36.0};
const std::vector<double> kGradStdMean = {-0.1372983455657959, 0.12090055644512177, 0.37909942865371704, 0.6372983455657959, 1.0715327262878418, -0.5365738868713379, 0.37235593795776367, 0.09268522262573242, 0.23869460821151733, 0.23869460821151733, 0.46480244398117065, 0.05780835449695587};
// clang-format on

const std::vector<double> kX = {-100., -50., -10., -3., -2., -1., -0.5, -0.1, 0.,  0.1,
                                0.5,   1.,   2.,   3.,  6.,  9.,  10.,  50.,  100.};
const std::vector<double> kU = {-1., -0.999, -0.9, -0.5, -0.1, 0., 0.1, 0.5, 0.9, 0.999, 1.};

Tensor F32(const std::vector<double>& v) {
  return Tensor::FromVector(std::vector<float>(v.begin(), v.end()));
}

// `t` read as float64 against `want` (same number of elements): NaN where NaN is expected,
// equal infinities, else |got - want| <= atol + rtol * |want|, and the sign of a zero when
// `signed_zero`.
void ExpectValues(const Tensor& t, const std::vector<double>& want, const std::string& what,
                  double rtol = 2e-6, double atol = 1e-7, bool signed_zero = false) {
  ASSERT_TRUE(t.ok()) << what << ": " << t.status();
  absl::StatusOr<std::vector<double>> got = t.to_vector<double>();
  ASSERT_TRUE(got.ok()) << what << ": " << got.status();
  ASSERT_EQ(got->size(), want.size()) << what;
  for (size_t i = 0; i < want.size(); ++i) {
    double g = (*got)[i], w = want[i];
    if (std::isnan(w)) {
      EXPECT_TRUE(std::isnan(g)) << what << "[" << i << "]: got " << g << ", want nan";
    } else if (std::isinf(w)) {
      EXPECT_EQ(g, w) << what << "[" << i << "]";
    } else {
      EXPECT_NEAR(g, w, atol + rtol * std::abs(w)) << what << "[" << i << "]";
      if (signed_zero && w == 0) {
        EXPECT_EQ(std::signbit(g), std::signbit(w)) << what << "[" << i << "]: sign of zero";
      }
    }
  }
}

void ExpectExact(const Tensor& t, const std::vector<double>& want, const std::string& what) {
  ExpectValues(t, want, what, 0, 0, true);
}

void ExpectError(const Tensor& t, const std::string& substr) {
  ASSERT_FALSE(t.ok()) << "expected an error containing \"" << substr << "\"";
  EXPECT_NE(std::string(t.status().message()).find(substr), std::string::npos)
      << t.status().message();
}

TEST(MathExtra, InverseTrig) {
  ExpectValues(F32(kU).asin(), kAsin, "asin");
  ExpectValues(F32(kU).acos(), kAcos, "acos");
  ExpectValues(F32({-1000., -10., -1., -0.5, 0., 0.5, 1., 10., 1000.}).atan(), kAtan, "atan");
  // Domain edges: asin(+-1) = +-pi/2 and acos(1) = 0, acos(-1) = pi, in float32.
  ExpectExact(F32({1.0, -1.0}).asin(), {kAsin.back(), kAsin.front()}, "asin(+-1)");
  ExpectExact(F32({1.0}).acos(), {0.0}, "acos(1)");
  // Ints are promoted to float; |x| > 1 is NaN.
  Tensor ints = Tensor::FromVector<int32_t>({1, -2, 0});
  EXPECT_EQ(ints.asin().dtype(), dtypes::float32);
  ExpectValues(ints.asin(), kAsinInt, "asin int");
}

TEST(MathExtra, Hyperbolic) {
  ExpectValues(F32(kX).sinh(), kSinh, "sinh");  // +-inf past float32's exp range
  ExpectValues(F32(kX).cosh(), kCosh, "cosh");
  ExpectValues(F32(kX).asinh(), kAsinh, "asinh");
  ExpectValues(F32({0.5, 1., 1.001, 1.5, 2., 10., 100., 1000.}).acosh(), kAcosh, "acosh");
  // atanh near +-1 (large), and +-inf at +-1.
  ExpectValues(F32(kU).atanh(), kAtanh, "atanh");
}

TEST(MathExtra, Activations) {
  Tensor x = F32(kX);
  ExpectValues(x.elu(), kElu, "elu");
  ExpectValues(x.elu(0.5), kElu05, "elu(0.5)");
  ExpectValues(x.celu(), kCelu, "celu");
  ExpectValues(x.celu(0.5), kCelu05, "celu(0.5)");
  ExpectValues(x.selu(), kSelu, "selu");
  ExpectValues(x.mish(), kMish, "mish");
  ExpectValues(x.softsign(), kSoftsign, "softsign");
  ExpectValues(x.hardsigmoid(), kHardsigmoid, "hardsigmoid");
  ExpectValues(x.hardsigmoid(0.2, 0.3), kHardsigmoid0203, "hardsigmoid(0.2, 0.3)");
  ExpectValues(x.hardswish(), kHardswish, "hardswish");
  ExpectExact(x.hardtanh(), kHardtanh, "hardtanh");
  ExpectExact(x.hardtanh(-2, 0.5), kHardtanhM2P05, "hardtanh(-2, 0.5)");
  ExpectExact(x.relu6(), kRelu6, "relu6");
  ExpectValues(x.swish(), kSwish, "swish");
  ExpectValues(x.quick_gelu(), kQuickGelu, "quick_gelu");
  // relu6 and hardtanh keep an int dtype (clip and relu do).
  Tensor ints = Tensor::FromVector<int32_t>({-3, 2, 7});
  EXPECT_EQ(ints.relu6().dtype(), dtypes::int32);
  ExpectExact(ints.relu6(), kRelu6Int, "relu6 int");
  EXPECT_EQ(ints.hardtanh().dtype(), dtypes::int32);
}

TEST(MathExtra, Lerp) {
  Tensor a = F32({1., 2., 3., -4.}), b = F32({4., 5., 6., 8.});
  ExpectValues(a.lerp(b, 0.5), kLerpNum, "lerp number");
  ExpectValues(a.lerp(b, F32({0., 0.25, 1., 1.5})), kLerpTensor, "lerp tensor");
  // uint8 with a tensor weight: the reference's 7-bit fixed point, still uint8.
  Tensor u = Tensor::FromVector<uint8_t>({0, 10, 200, 100, 50});
  Tensor v = Tensor::FromVector<uint8_t>({100, 20, 100, 0, 60});
  Tensor r = u.lerp(v, F32({0.5, 0.25, 0.75, 1.0, 0.3}));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r.dtype(), dtypes::uint8);
  ExpectExact(r, kLerpU8, "lerp uint8");
  ExpectError(a.lerp(F32({1., 2.}), 0.5), "lerp");
  ExpectError(a.lerp(b, F32({1., 2.})), "lerp");
}

TEST(MathExtra, Copysign) {
  Tensor a = F32({1., -2., 3., -4., 0., 5.});
  // -0.0 in `other` counts as positive; a zero magnitude takes other's sign.
  ExpectExact(a.copysign(F32({-1., -1., 1., 1., -1., -0.0})), kCopysignTensor, "copysign");
  ExpectExact(a.copysign(-1.0), kCopysignNum, "copysign number");
  Tensor bc = a.reshape({2, 3}).copysign(F32({-1., 2., -3.}));
  ASSERT_TRUE(bc.ok()) << bc.status();
  EXPECT_EQ(bc.shape(), (std::vector<int64_t>{2, 3}));
  ExpectExact(bc, kCopysignBroadcast, "copysign broadcast");
  Tensor ci = Tensor::FromVector<int32_t>({1, -2, 3}).copysign(-1);
  ASSERT_TRUE(ci.ok()) << ci.status();
  EXPECT_EQ(ci.dtype(), dtypes::int32);
  ExpectExact(ci, kCopysignIntNum, "copysign int");
  ExpectError(a.copysign(F32({1., 2.})), "copysign");
}

TEST(MathExtra, IscloseAllclose) {
  Tensor a = F32({1.0, 1.0, 1e-7, 1e-9, kInf, kInf, -kInf, kNaN, kNaN, 1.0, 100.0, 1.0});
  Tensor b = F32({1.0, 1.00001, 0.0, 0.0, kInf, -kInf, -kInf, kNaN, 1.0, 1.1, 100.001, 1.0000101});
  Tensor c = a.isclose(b);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c.dtype(), dtypes::bool_);
  ExpectExact(c, kIsclose, "isclose");
  ExpectExact(a.isclose(b, 1e-5, 1e-8, true), kIscloseEqualNan, "isclose equal_nan");
  ExpectExact(a.isclose(b, 0.1, 0.0), kIscloseRtol, "isclose rtol 0.1");
  ExpectExact(F32({1.0, kInf, -kInf, kNaN, 0.0}).isfinite(), {1, 0, 0, 0, 1}, "isfinite");
  // The reference: True False False True.
  EXPECT_EQ(F32({1.0, 2.0}).allclose(F32({1.0, 2.000001})).value_or(false), true);
  EXPECT_EQ(F32({1.0, 2.0}).allclose(F32({1.0, 2.1})).value_or(true), false);
  EXPECT_EQ(F32({kNaN}).allclose(F32({kNaN})).value_or(true), false);
  EXPECT_EQ(F32({kNaN}).allclose(F32({kNaN}), 1e-5, 1e-8, true).value_or(false), true);
  ExpectError(F32({1., 2.}).isclose(F32({1., 2., 3.})), "isclose");
  absl::StatusOr<bool> bad = F32({1., 2.}).allclose(F32({1., 2., 3.}));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(std::string(bad.status().message()).find("isclose"), std::string::npos);
}

TEST(MathExtra, VarMeanStdMean) {
  Tensor m = F32({1., 2., 3., 4., -5., 6.5, 0., 2., 3., 3., 8., -1.}).reshape({3, 4});
  struct Case {
    Axes axis;
    bool keepdim;
    double correction;
    const std::vector<double>&var, &var_mean, &std, &std_mean;
    std::vector<int64_t> shape;
    std::string name;
  };
  std::vector<Case> cases = {
      {{}, false, 1, kVarAll, kVarMeanAll, kStdAll, kStdMeanAll, {}, "all"},
      {0, false, 1, kVarAxis0, kVarMeanAxis0, kStdAxis0, kStdMeanAxis0, {4}, "axis 0"},
      {1,
       true,
       1,
       kVarAxis1Keep,
       kVarMeanAxis1Keep,
       kStdAxis1Keep,
       kStdMeanAxis1Keep,
       {3, 1},
       "axis 1 keepdim"},
      {{0, 1},
       false,
       0,
       kVarAxis01Corr0,
       kVarMeanAxis01Corr0,
       kStdAxis01Corr0,
       kStdMeanAxis01Corr0,
       {},
       "axes (0, 1) correction 0"},
      {-1,
       false,
       2,
       kVarAxisM1Corr2,
       kVarMeanAxisM1Corr2,
       kStdAxisM1Corr2,
       kStdMeanAxisM1Corr2,
       {3},
       "axis -1 correction 2"},
  };
  for (const Case& c : cases) {
    auto [v, vm] = m.var_mean(c.axis, c.keepdim, c.correction);
    auto [s, sm] = m.std_mean(c.axis, c.keepdim, c.correction);
    ASSERT_TRUE(v.ok() && vm.ok() && s.ok() && sm.ok()) << c.name;
    EXPECT_EQ(v.shape(), c.shape) << c.name;
    EXPECT_EQ(vm.shape(), c.shape) << c.name;
    EXPECT_EQ(s.shape(), c.shape) << c.name;
    ExpectValues(v, c.var, "var " + c.name);
    ExpectValues(vm, c.var_mean, "var_mean mean " + c.name);
    ExpectValues(s, c.std, "std " + c.name);
    ExpectValues(sm, c.std_mean, "std_mean mean " + c.name);
  }
  // Ints give float statistics.
  auto [si, mi] = Tensor::FromVector<int32_t>({1, -2, 3, 4}).std_mean();
  ASSERT_TRUE(si.ok()) << si.status();
  EXPECT_EQ(si.dtype(), dtypes::float32);
  ExpectValues(si, kStdMeanIntStd, "std_mean int");
  ExpectValues(mi, {1.5}, "std_mean int mean");
  // A bad axis errors both results, naming the op.
  auto [e1, e2] = m.std_mean(2);
  ExpectError(e1, "std_mean");
  ExpectError(e2, "std_mean");
  auto [e3, e4] = m.var_mean({0, -3});
  ExpectError(e3, "var_mean");
  ExpectError(e4, "var_mean");
}

TEST(MathExtra, Cumprod) {
  // Zeros and negatives; signed zeros as the reference gives them.
  ExpectExact(F32({2., -1., 0.5, 0., 3., -2.}).cumprod(0), kCumprod1d, "cumprod 1d");
  Tensor m = F32({2., -1., 0.5, 0., 3., -2.}).reshape({2, 3});
  ExpectExact(m.cumprod(0), kCumprod2dAxis0, "cumprod axis 0");
  ExpectExact(m.cumprod(1), kCumprod2dAxis1, "cumprod axis 1");
  ExpectExact(m.cumprod(-1), kCumprod2dAxisM1, "cumprod axis -1");
  Tensor ci = Tensor::FromVector<int32_t>({1, -2, 3, 4, -1}).cumprod(0);
  ASSERT_TRUE(ci.ok()) << ci.status();
  EXPECT_EQ(ci.dtype(), dtypes::int32);
  ExpectExact(ci, kCumprodInt, "cumprod int");
  // 600 > 512 elements: the two-stage (split) path. Products of these factors are exact.
  const double cyc[] = {2., -1., 0.5, 1., -2., 0.5};
  std::vector<double> in, want;
  for (int row = 0; row < 2; ++row) {
    double p = 1;
    for (int i = 0; i < 600; ++i) {
      double v = row == 0 ? cyc[i % 6] : (i == 400 ? 0.0 : cyc[(i + 1) % 6]);
      in.push_back(v);
      want.push_back(p *= v);
    }
  }
  ExpectExact(F32(in).reshape({2, 600}).cumprod(1), want, "cumprod split");
  // Empty and 0-d tensors are returned as they are.
  Tensor empty = Tensor::Ones({0, 3}).cumprod(0);
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(empty.shape(), (std::vector<int64_t>{0, 3}));
  ExpectExact(Tensor::Scalar(3.0).cumprod(0), {3.0}, "cumprod 0-d");
  ExpectError(F32({1., 2.}).cumprod(1), "cumprod");
  ExpectError(m.cumprod(-3), "cumprod");
}

TEST(MathExtra, Logcumsumexp) {
  ExpectValues(F32({1., 2., 3., 4.}).logcumsumexp(), kLogcumsumexp1d, "logcumsumexp 1d");
  Tensor m = F32({1., -2., 0.5, 3., 0., -1.}).reshape({2, 3});
  ExpectValues(m.logcumsumexp(0), kLogcumsumexp2dAxis0, "logcumsumexp axis 0");
  ExpectValues(m.logcumsumexp(1), kLogcumsumexp2dAxis1, "logcumsumexp axis 1");
  ExpectValues(m.logcumsumexp(-1), kLogcumsumexp2dAxis1, "logcumsumexp axis -1");
  // Stable for large values (no overflow to inf).
  ExpectValues(F32({1000., 1000.5, -1000., 0., 1001.}).logcumsumexp(), kLogcumsumexpLarge,
               "logcumsumexp large");
  // A leading -inf gives NaN in the reference (-inf - -inf), and so here.
  ExpectValues(F32({-kInf, 0., -kInf, 1.}).logcumsumexp(), kLogcumsumexpNegInf,
               "logcumsumexp -inf");
  Tensor li = Tensor::FromVector<int32_t>({1, -2, 3}).logcumsumexp();
  ASSERT_TRUE(li.ok()) << li.status();
  EXPECT_EQ(li.dtype(), dtypes::float32);
  ExpectValues(li, kLogcumsumexpInt, "logcumsumexp int");
  ExpectExact(Tensor::Scalar(3.0).logcumsumexp(), {3.0}, "logcumsumexp 0-d");
  Tensor empty = Tensor::Ones({0, 3}).logcumsumexp(0);
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(empty.shape(), (std::vector<int64_t>{0, 3}));
  ExpectError(F32({1., 2.}).logcumsumexp(1), "logcumsumexp");
  ExpectError(m.logcumsumexp(2), "logcumsumexp");
}

// d/dx of (f(x) * w).sum(), through backward().
Tensor GradOf(const std::function<Tensor(const Tensor&)>& f, const std::vector<double>& x) {
  Tensor t = F32(x).requires_grad_();
  absl::Status st = (f(t) * F32({1., -2., 0.5, 3.})).sum().backward();
  if (!st.ok()) return Tensor::Error(st);
  std::optional<Tensor> g = t.grad();
  if (!g) return Tensor::Error(absl::InternalError("no grad"));
  return *g;
}

TEST(MathExtra, Gradients) {
  const std::vector<double> g = {-0.5, 0.1, 0.7, 0.0}, h = {-1., 0., 2., -0.3};
  ExpectValues(GradOf([](const Tensor& t) { return t.asin(); }, g), kGradAsin, "asin grad");
  ExpectValues(GradOf([](const Tensor& t) { return t.atanh(); }, g), kGradAtanh, "atanh grad");
  ExpectValues(GradOf([](const Tensor& t) { return t.selu(); }, h), kGradSelu, "selu grad");
  ExpectValues(GradOf([](const Tensor& t) { return t.elu(); }, h), kGradElu, "elu grad");
  ExpectValues(GradOf([](const Tensor& t) { return t.mish(); }, h), kGradMish, "mish grad");
  ExpectValues(GradOf([](const Tensor& t) { return t.hardswish(); }, {-4., -1., 0.5, 3.5}),
               kGradHardswish, "hardswish grad");
  ExpectValues(GradOf([](const Tensor& t) { return t.cumprod(0); }, {2., -1., 0.5, 3.}),
               kGradCumprod, "cumprod grad");
  ExpectValues(GradOf([](const Tensor& t) { return t.logcumsumexp(0); }, {1., -2., 0.5, 3.}),
               kGradLogcumsumexp, "logcumsumexp grad");

  Tensor a = F32({1., 2., 3., -4.}).requires_grad_();
  Tensor b = F32({4., 5., 6., 8.}).requires_grad_();
  Tensor w = F32({0., 0.25, 1., 1.5}).requires_grad_();
  ASSERT_TRUE((a.lerp(b, w) * F32({1., -2., 0.5, 3.})).sum().backward().ok());
  ExpectValues(a.grad().value_or(Tensor::Error(absl::InternalError("none"))), kGradLerpA,
               "lerp grad self");
  ExpectValues(b.grad().value_or(Tensor::Error(absl::InternalError("none"))), kGradLerpB,
               "lerp grad end");
  ExpectValues(w.grad().value_or(Tensor::Error(absl::InternalError("none"))), kGradLerpW,
               "lerp grad weight");

  Tensor m = F32({1., 2., 3., 4., -5., 6.5, 0., 2., 3., 3., 8., -1.}).reshape({3, 4});
  m.requires_grad_();
  auto [s, mu] = m.std_mean(1);
  ASSERT_TRUE((s * F32({1., -2., 0.5}) + mu).sum().backward().ok());
  ExpectValues(m.grad().value_or(Tensor::Error(absl::InternalError("none"))), kGradStdMean,
               "std_mean grad");
}

TEST(MathExtra, ErroredInputPropagates) {
  Tensor bad = F32({1., 2.}).reshape({3});
  ASSERT_FALSE(bad.ok());
  for (const Tensor& t : {bad.asin(), bad.atanh(), bad.elu(), bad.hardtanh(), bad.cumprod(0),
                          bad.logcumsumexp(), bad.isclose(F32({1.})), bad.copysign(1.0),
                          F32({1.}).lerp(bad, 0.5), bad.var_mean().first, bad.std_mean().second})
    EXPECT_EQ(t.status(), bad.status());
}

}  // namespace
}  // namespace tg
