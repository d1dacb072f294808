// File: tinygrad/tensor/shape_extra_test.cc
// Tests of shape_extra.cc: roll, diag/diagonal, Meshgrid, unfold, pad_to, Einsum, interpolate,
// clone and empty_like, and their errors.
//
// The expected values were produced by running tinygrad 35900290 with DEV=CPU on the same
// programs: tools/golden/gen_shape_extra_golden.py prints the k* constants below (one einsum
// case, "iij->ij", is the reference's equivalent "jii->ij" on the permuted input; see the
// script). Ints and the einsum results (sums of multiples of 0.25, exact in float32) are
// compared exactly; interpolate's float32 results within 1e-6 (the C compiler may contract
// multiply-adds differently).
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

// ** expected values (tools/golden/gen_shape_extra_golden.py) **
// clang-format off
const std::vector<double> kRollD0 = {12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
const std::vector<int64_t> kRollD0Shape = {2, 3, 4};
const std::vector<double> kRollNegLast = {2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 18, 19, 16, 17, 22, 23, 20, 21};
const std::vector<int64_t> kRollNegLastShape = {2, 3, 4};
const std::vector<double> kRollTwo = {13, 14, 15, 12, 17, 18, 19, 16, 21, 22, 23, 20, 1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8};
const std::vector<int64_t> kRollTwoShape = {2, 3, 4};
const std::vector<double> kRollFlat = {17, 18, 19, 20, 21, 22, 23, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
const std::vector<int64_t> kRollFlatShape = {2, 3, 4};
const std::vector<double> kRollFlatNeg = {3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 0, 1, 2};
const std::vector<int64_t> kRollFlatNegShape = {2, 3, 4};
const std::vector<double> kRollBig = {4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 16, 17, 18, 19, 20, 21, 22, 23, 12, 13, 14, 15};
const std::vector<int64_t> kRollBigShape = {2, 3, 4};
const std::vector<double> kRollRepeatedDim = {4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 16, 17, 18, 19, 20, 21, 22, 23, 12, 13, 14, 15};
const std::vector<int64_t> kRollRepeatedDimShape = {2, 3, 4};
const std::vector<double> kDiag = {1, 0, 0, 0, 2, 0, 0, 0, 3};
const std::vector<int64_t> kDiagShape = {3, 3};
const std::vector<double> kDiag1 = {5.5};
const std::vector<int64_t> kDiag1Shape = {1, 1};
const std::vector<double> kDiagonal = {0, 5, 10, 15};
const std::vector<int64_t> kDiagonalShape = {4};
const std::vector<double> kMeshIJ0 = {1, 1, 2, 2, 3, 3};
const std::vector<int64_t> kMeshIJ0Shape = {3, 2};
const std::vector<double> kMeshIJ1 = {4, 5, 4, 5, 4, 5};
const std::vector<int64_t> kMeshIJ1Shape = {3, 2};
const std::vector<double> kMeshXY0 = {1, 2, 3, 1, 2, 3};
const std::vector<int64_t> kMeshXY0Shape = {2, 3};
const std::vector<double> kMeshXY1 = {4, 4, 4, 5, 5, 5};
const std::vector<int64_t> kMeshXY1Shape = {2, 3};
const std::vector<double> kMesh3IJ0 = {1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3};
const std::vector<int64_t> kMesh3IJ0Shape = {3, 2, 4};
const std::vector<double> kMesh3IJ1 = {4, 4, 4, 4, 5, 5, 5, 5, 4, 4, 4, 4, 5, 5, 5, 5, 4, 4, 4, 4, 5, 5, 5, 5};
const std::vector<int64_t> kMesh3IJ1Shape = {3, 2, 4};
const std::vector<double> kMesh3IJ2 = {6, 7, 8, 9, 6, 7, 8, 9, 6, 7, 8, 9, 6, 7, 8, 9, 6, 7, 8, 9, 6, 7, 8, 9};
const std::vector<int64_t> kMesh3IJ2Shape = {3, 2, 4};
const std::vector<double> kMesh3XY0 = {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3};
const std::vector<int64_t> kMesh3XY0Shape = {2, 3, 4};
const std::vector<double> kMesh3XY1 = {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5};
const std::vector<int64_t> kMesh3XY1Shape = {2, 3, 4};
const std::vector<double> kMesh3XY2 = {6, 7, 8, 9, 6, 7, 8, 9, 6, 7, 8, 9, 6, 7, 8, 9, 6, 7, 8, 9, 6, 7, 8, 9};
const std::vector<int64_t> kMesh3XY2Shape = {2, 3, 4};
const std::vector<double> kMeshScalar0 = {7, 7, 7};
const std::vector<int64_t> kMeshScalar0Shape = {1, 3};
const std::vector<double> kMeshScalar1 = {1, 2, 3};
const std::vector<int64_t> kMeshScalar1Shape = {1, 3};
const std::vector<double> kUnfold1 = {0, 1, 2, 3, 4, 5, 6, 7};
const std::vector<int64_t> kUnfold1Shape = {4, 2};
const std::vector<double> kUnfold2 = {0, 1, 3, 4, 6, 7, 9, 10, 12, 13, 15, 16, 18, 19, 21, 22, 24, 25};
const std::vector<int64_t> kUnfold2Shape = {3, 3, 1, 2};
const std::vector<double> kUnfold3 = {0, 4, 1, 5, 2, 6, 3, 7, 4, 8, 5, 9, 6, 10, 7, 11, 12, 16, 13, 17, 14, 18, 15, 19, 16, 20, 17, 21, 18, 22, 19, 23};
const std::vector<int64_t> kUnfold3Shape = {2, 2, 4, 2};
const std::vector<double> kUnfold4 = {0, 12, 1, 13, 2, 14, 3, 15, 4, 16, 5, 17, 6, 18, 7, 19, 8, 20, 9, 21, 10, 22, 11, 23};
const std::vector<int64_t> kUnfold4Shape = {1, 3, 4, 2};
const std::vector<double> kUnfoldWhole = {0, 1, 2, 3, 4};
const std::vector<int64_t> kUnfoldWholeShape = {1, 5};
const std::vector<double> kUnfoldZero = {};
const std::vector<int64_t> kUnfoldZeroShape = {3, 0};
const std::vector<double> kPadToKeep = {0, 1, 2, 0, 0, 3, 4, 5, 0, 0};
const std::vector<int64_t> kPadToKeepShape = {2, 5};
const std::vector<double> kPadTo = {0, 1, 2, 0, 3, 4, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0};
const std::vector<int64_t> kPadToShape = {4, 4};
const std::vector<double> kPadToShrink = {0, 1};
const std::vector<int64_t> kPadToShrinkShape = {1, 2};
const std::vector<double> kEinMatmul = {0.5, -0.25, -1.0, -1.75, 5.0, 6.5, 8.0, 9.5};
const std::vector<int64_t> kEinMatmulShape = {2, 4};
const std::vector<double> kEinMatmulImplicit = {0.5, -0.25, -1.0, -1.75, 5.0, 6.5, 8.0, 9.5};
const std::vector<int64_t> kEinMatmulImplicitShape = {2, 4};
const std::vector<double> kEinBatch = {1.0, 0.25, 1.0, 2.5, 23.5, 27.25, 37.0, 43.0};
const std::vector<int64_t> kEinBatchShape = {2, 2, 2};
const std::vector<double> kEinTrace = {3.0};
const std::vector<int64_t> kEinTraceShape = {};
const std::vector<double> kEinTraceImplicit = {3.0};
const std::vector<int64_t> kEinTraceImplicitShape = {};
const std::vector<double> kEinDiag = {-1.0, 1.0, 3.0};
const std::vector<int64_t> kEinDiagShape = {3};
const std::vector<double> kEinBatchDiag = {-1.0, 1.0, 3.0, 3.5, 5.5, 7.5};
const std::vector<int64_t> kEinBatchDiagShape = {2, 3};
const std::vector<double> kEinBatchTrace = {3.0, 16.5};
const std::vector<int64_t> kEinBatchTraceShape = {2};
const std::vector<double> kEinDiagFirst = {-1.0, -0.5, 0.0, 0.5, 7.0, 7.5, 8.0, 8.5, 15.0, 15.5, 16.0, 16.5};
const std::vector<int64_t> kEinDiagFirstShape = {3, 4};
const std::vector<double> kEinTranspose = {-1.0, 0.5, -0.5, 1.0, 0.0, 1.5};
const std::vector<int64_t> kEinTransposeShape = {3, 2};
const std::vector<double> kEinTransposeImplicit = {-1.0, 0.5, -0.5, 1.0, 0.0, 1.5};
const std::vector<int64_t> kEinTransposeImplicitShape = {3, 2};
const std::vector<double> kEinOuter = {1.0, 0.5, 0.0, -0.5, 0.5, 0.25, 0.0, -0.25, 0.0, -0.0, 0.0, 0.0};
const std::vector<int64_t> kEinOuterShape = {3, 4};
const std::vector<double> kEinSumJ = {-1.5, 3.0};
const std::vector<int64_t> kEinSumJShape = {2};
const std::vector<double> kEinSumAll = {114.0};
const std::vector<int64_t> kEinSumAllShape = {};
const std::vector<double> kEinThree = {-1.0, -0.375, -1.0, 0.75};
const std::vector<int64_t> kEinThreeShape = {2, 2};
const std::vector<double> kEinOutPerm = {0.5, 5.0, -0.25, 6.5, -1.0, 8.0, -1.75, 9.5};
const std::vector<int64_t> kEinOutPermShape = {4, 2};
const std::vector<double> kEinUpper = {1.0, 1.0, 0.25, 2.5};
const std::vector<int64_t> kEinUpperShape = {2, 2};
const std::vector<double> kEinEllBatch = {1.0, 0.25, 1.0, 2.5, 23.5, 27.25, 37.0, 43.0};
const std::vector<int64_t> kEinEllBatchShape = {2, 2, 2};
const std::vector<double> kEinEllMixed = {1.0, 0.25, 1.0, 2.5, 1.0, 4.75, 1.0, 7.0};
const std::vector<int64_t> kEinEllMixedShape = {2, 2, 2};
const std::vector<double> kEinEllSum = {1.0, 2.0, 3.0, 4.0, 5.0, 6.0};
const std::vector<int64_t> kEinEllSumShape = {2, 3};
const std::vector<double> kEinEllImplicit = {1.5, -0.5, -2.5, -4.5, -6.5, -8.5};
const std::vector<int64_t> kEinEllImplicitShape = {2, 3};
const std::vector<double> kEinInt = {55};
const std::vector<int64_t> kEinIntShape = {};
const std::vector<double> kEinAccFloat = {14.0};
const std::vector<int64_t> kEinAccFloatShape = {};
const std::vector<double> kEinSpaces = {0.5, -0.25, -1.0, -1.75, 5.0, 6.5, 8.0, 9.5};
const std::vector<int64_t> kEinSpacesShape = {2, 4};
const std::vector<double> kInterp1UpLin = {1.0, 1.5357142686843872, 2.392857074737549, -0.25, -2.500000238418579, 1.4999995231628418, 4.0};
const std::vector<int64_t> kInterp1UpLinShape = {1, 1, 7};
const std::vector<double> kInterp1DownLin = {1.25, -0.25, 2.8333327770233154};
const std::vector<int64_t> kInterp1DownLinShape = {1, 1, 3};
const std::vector<double> kInterp2UpLin = {1.0, 1.75, 1.5833334922790527, -2.0833330154418945, 0.5, 4.0, 0.800000011920929, 2.549999952316284, 3.4166667461395264, -0.11666633933782578, 0.5, 2.0, 0.5, 3.75, 6.1666669845581055, 2.833333730697632, 0.5, -1.0, 1.999999761581421, 3.3000001907348633, 3.766667366027832, 0.4333341121673584, 1.3999998569488525, 3.1999993324279785, 3.0, 3.0, 2.1666669845581055, -1.1666662693023682, 2.0, 6.0};
const std::vector<int64_t> kInterp2UpLinShape = {1, 5, 6};
const std::vector<double> kInterp2DownLin = {1.3333333730697632, 0.9375, 1.9999996423721313, 2.6458334922790527, 1.5, 3.374999761581421};
const std::vector<int64_t> kInterp2DownLinShape = {1, 2, 3};
const std::vector<double> kInterp1UpNear = {1.0, 1.0, 2.5, 2.5, -3.0, -3.0, 4.0};
const std::vector<int64_t> kInterp1UpNearShape = {1, 1, 7};
const std::vector<double> kInterp1DownNear = {1.0, 2.5, -3.0};
const std::vector<int64_t> kInterp1DownNearShape = {1, 1, 3};
const std::vector<double> kInterp2UpNear = {1.0, 1.0, 2.5, -3.0, -3.0, 4.0, 1.0, 1.0, 2.5, -3.0, -3.0, 4.0, 0.5, 0.5, 7.0, 2.0, 2.0, -1.0, 0.5, 0.5, 7.0, 2.0, 2.0, -1.0, 3.0, 3.0, 3.0, -2.0, -2.0, 6.0};
const std::vector<int64_t> kInterp2UpNearShape = {1, 5, 6};
const std::vector<double> kInterp2DownNear = {1.0, 2.5, -3.0, 0.5, 7.0, 2.0};
const std::vector<int64_t> kInterp2DownNearShape = {1, 2, 3};
const std::vector<double> kInterp1UpNearEx = {1.0, 1.0, 2.5, -3.0, -3.0, 4.0, 4.0};
const std::vector<int64_t> kInterp1UpNearExShape = {1, 1, 7};
const std::vector<double> kInterp1DownNearEx = {1.0, -3.0, 4.0};
const std::vector<int64_t> kInterp1DownNearExShape = {1, 1, 3};
const std::vector<double> kInterp2UpNearEx = {1.0, 2.5, 2.5, -3.0, 4.0, 4.0, 1.0, 2.5, 2.5, -3.0, 4.0, 4.0, 0.5, 7.0, 7.0, 2.0, -1.0, -1.0, 3.0, 3.0, 3.0, -2.0, 6.0, 6.0, 3.0, 3.0, 3.0, -2.0, 6.0, 6.0};
const std::vector<int64_t> kInterp2UpNearExShape = {1, 5, 6};
const std::vector<double> kInterp2DownNearEx = {1.0, -3.0, 4.0, 3.0, -2.0, 6.0};
const std::vector<int64_t> kInterp2DownNearExShape = {1, 2, 3};
const std::vector<double> kInterp1UpAlign = {1.0, 1.75, 2.5, -0.25, -3.0, 0.5, 4.0};
const std::vector<int64_t> kInterp1UpAlignShape = {1, 1, 7};
const std::vector<double> kInterp1DownAlign = {1.0, -0.25, 4.0};
const std::vector<int64_t> kInterp1DownAlignShape = {1, 1, 3};
const std::vector<double> kInterp2UpAlign = {1.0, 1.9000000953674316, 1.399999737739563, -1.899999737739563, -0.19999933242797852, 4.0, 0.75, 3.1500000953674316, 3.6999998092651367, 0.5500003099441528, 0.3000001907348633, 1.5, 0.5, 4.400000095367432, 6.0, 3.000000238418579, 0.7999997138977051, -1.0, 1.75, 3.700000047683716, 4.0, 1.000000238418579, 1.000000238418579, 2.5, 3.0, 3.0, 1.999999761581421, -0.9999997615814209, 1.2000007629394531, 6.0};
const std::vector<int64_t> kInterp2UpAlignShape = {1, 5, 6};
const std::vector<double> kInterp2DownAlign = {1.0, -0.25, 4.0, 3.0, 0.5, 6.0};
const std::vector<int64_t> kInterp2DownAlignShape = {1, 2, 3};
const std::vector<double> kInterp2NoBatch = {1.25, -0.25, 2.8333327770233154, 1.4583334922790527, 2.71875, 0.7499999403953552, 2.1145834922790527, 3.0, 1.4375, 3.0, 0.5, 4.666666030883789};
const std::vector<int64_t> kInterp2NoBatchShape = {4, 3};
const std::vector<double> kInterpLastOnly = {1.0, 1.75, 1.5833334922790527, -2.0833330154418945, 0.5, 4.0, 0.5, 3.75, 6.1666669845581055, 2.833333730697632, 0.5, -1.0, 3.0, 3.0, 2.1666669845581055, -1.1666662693023682, 2.0, 6.0};
const std::vector<int64_t> kInterpLastOnlyShape = {3, 6};
const std::vector<double> kInterpInt = {6, 7, 8, 36, 37, 38};
const std::vector<int64_t> kInterpIntShape = {2, 3};
const std::vector<double> kInterpU8 = {1, 1, 2, 3, 3};
const std::vector<int64_t> kInterpU8Shape = {5};
// clang-format on

// `t` has shape `shape` and elements `want` (within `tol` relative to max(1, |want|)).
void ExpectTensor(const Tensor& t, const std::vector<double>& want,
                  const std::vector<int64_t>& shape, const std::string& what, double tol = 0) {
  SCOPED_TRACE(what);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t.shape(), shape);
  absl::StatusOr<std::vector<double>> got = t.to_vector<double>();
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_EQ(got->size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    if (tol == 0)
      EXPECT_EQ((*got)[i], want[i]) << "element " << i;
    else
      EXPECT_NEAR((*got)[i], want[i], tol * std::max(1.0, std::abs(want[i]))) << "element " << i;
  }
}
#define EXPECT_TENSOR(t, name, ...) ExpectTensor(t, k##name, k##name##Shape, #name, ##__VA_ARGS__)

// `t` is errored with a message containing `op: ` and `message`.
void ExpectError(const Tensor& t, const std::string& op, const std::string& message) {
  ASSERT_FALSE(t.ok()) << "expected an error containing: " << message;
  const std::string got(t.status().message());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument) << got;
  EXPECT_EQ(got.rfind(op + ": ", 0), 0u) << got;
  EXPECT_NE(got.find(message), std::string::npos) << got;
}

Tensor A() { return Tensor::Arange(24).reshape(std::vector<int64_t>{2, 3, 4}); }
// arange(n) * 0.5 - 1 in float32, reshaped (exact values).
Tensor F(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return (Tensor::Arange(n, {.dtype = dtypes::float32}) * 0.5 - 1).reshape(shape);
}
Tensor I32(const std::vector<int32_t>& v) { return Tensor::FromVector<int32_t>(v); }

TEST(ShapeExtraTest, Roll) {
  EXPECT_TENSOR(A().roll(1, 0), RollD0);
  EXPECT_TENSOR(A().roll(-2, -1), RollNegLast);
  EXPECT_TENSOR(A().roll({1, -5}, std::vector<int64_t>{0, 2}), RollTwo);
  EXPECT_TENSOR(A().roll(7), RollFlat);
  EXPECT_TENSOR(A().roll(-3), RollFlatNeg);
  EXPECT_TENSOR(A().roll(5, 1), RollBig);
  // As the reference: a dim named twice takes its last shift.
  EXPECT_TENSOR(A().roll({1, 2}, std::vector<int64_t>{1, 1}), RollRepeatedDim);
}

TEST(ShapeExtraTest, DiagAndDiagonal) {
  EXPECT_TENSOR(I32({1, 2, 3}).diag(), Diag);
  Tensor d1 = Tensor::FromVector<float>({5.5f}).diag();
  EXPECT_TENSOR(d1, Diag1);
  EXPECT_EQ(d1.dtype(), dtypes::float32);
  EXPECT_TENSOR(Tensor::Arange(16).reshape(std::vector<int64_t>{4, 4}).diagonal(), Diagonal);
}

TEST(ShapeExtraTest, Meshgrid) {
  const Tensor x = I32({1, 2, 3}), y = I32({4, 5}), z = I32({6, 7, 8, 9});
  std::vector<Tensor> g = Tensor::Meshgrid({x, y});
  ASSERT_EQ(g.size(), 2u);
  EXPECT_TENSOR(g[0], MeshIJ0);
  EXPECT_TENSOR(g[1], MeshIJ1);
  g = Tensor::Meshgrid({x, y}, Tensor::MeshIndexing::kXY);
  ASSERT_EQ(g.size(), 2u);
  EXPECT_TENSOR(g[0], MeshXY0);
  EXPECT_TENSOR(g[1], MeshXY1);
  g = Tensor::Meshgrid({x, y, z});
  ASSERT_EQ(g.size(), 3u);
  EXPECT_TENSOR(g[0], Mesh3IJ0);
  EXPECT_TENSOR(g[1], Mesh3IJ1);
  EXPECT_TENSOR(g[2], Mesh3IJ2);
  g = Tensor::Meshgrid({x, y, z}, Tensor::MeshIndexing::kXY);
  ASSERT_EQ(g.size(), 3u);
  EXPECT_TENSOR(g[0], Mesh3XY0);
  EXPECT_TENSOR(g[1], Mesh3XY1);
  EXPECT_TENSOR(g[2], Mesh3XY2);
  g = Tensor::Meshgrid({Tensor::Scalar(7), x});
  ASSERT_EQ(g.size(), 2u);
  EXPECT_TENSOR(g[0], MeshScalar0);
  EXPECT_TENSOR(g[1], MeshScalar1);
  g = Tensor::Meshgrid({x});  // one tensor: itself
  ASSERT_EQ(g.size(), 1u);
  EXPECT_TRUE(g[0].is(x));
}

TEST(ShapeExtraTest, Unfold) {
  EXPECT_TENSOR(Tensor::Arange(8).unfold(0, 2, 2), Unfold1);
  EXPECT_TENSOR(Tensor::Arange(27).reshape(std::vector<int64_t>{3, 3, 3}).unfold(-1, 2, 3),
                Unfold2);
  EXPECT_TENSOR(A().unfold(1, 2, 1), Unfold3);
  EXPECT_TENSOR(A().unfold(0, 2, 1), Unfold4);
  EXPECT_TENSOR(Tensor::Arange(5).unfold(0, 5, 1), UnfoldWhole);
  EXPECT_TENSOR(Tensor::Arange(5).unfold(0, 0, 2), UnfoldZero);
}

TEST(ShapeExtraTest, PadTo) {
  const Tensor b = Tensor::Arange(6).reshape(std::vector<int64_t>{2, 3});
  EXPECT_TENSOR(b.pad_to({-1, 5}), PadToKeep);
  EXPECT_TENSOR(b.pad_to({4, 4}), PadTo);
  EXPECT_TENSOR(b.pad_to({1, 2}), PadToShrink);
}

TEST(ShapeExtraTest, Einsum) {
  EXPECT_TENSOR(Tensor::Einsum("ij,jk->ik", {F({2, 3}), F({3, 4})}), EinMatmul);
  EXPECT_TENSOR(Tensor::Einsum("ij,jk", {F({2, 3}), F({3, 4})}), EinMatmulImplicit);
  EXPECT_TENSOR(Tensor::Einsum("bij,bjk->bik", {F({2, 2, 3}), F({2, 3, 2})}), EinBatch);
  EXPECT_TENSOR(Tensor::Einsum("ii->", {F({3, 3})}), EinTrace);
  EXPECT_TENSOR(Tensor::Einsum("ii", {F({3, 3})}), EinTraceImplicit);
  EXPECT_TENSOR(Tensor::Einsum("ii->i", {F({3, 3})}), EinDiag);
  EXPECT_TENSOR(Tensor::Einsum("bii->bi", {F({2, 3, 3})}), EinBatchDiag);
  EXPECT_TENSOR(Tensor::Einsum("bii->b", {F({2, 3, 3})}), EinBatchTrace);
  // A repeated letter in the leading dims: x[i, i, j] (see the header comment).
  EXPECT_TENSOR(Tensor::Einsum("iij->ij", {F({3, 3, 4})}), EinDiagFirst);
  EXPECT_TENSOR(Tensor::Einsum("jii->ij", {F({3, 3, 4}).permute({2, 0, 1})}), EinDiagFirst);
  EXPECT_TENSOR(Tensor::Einsum("iji->ij", {F({3, 3, 4}).permute({0, 2, 1})}), EinDiagFirst);
  EXPECT_TENSOR(Tensor::Einsum("ij->ji", {F({2, 3})}), EinTranspose);
  EXPECT_TENSOR(Tensor::Einsum("ji", {F({2, 3})}), EinTransposeImplicit);
  EXPECT_TENSOR(Tensor::Einsum("i,j->ij", {F({3}), F({4})}), EinOuter);
  EXPECT_TENSOR(Tensor::Einsum("ij->i", {F({2, 3})}), EinSumJ);
  EXPECT_TENSOR(Tensor::Einsum("ijk->", {F({2, 3, 4})}), EinSumAll);
  EXPECT_TENSOR(Tensor::Einsum("ij,jk,kl->il", {F({2, 3}), F({3, 2}), F({2, 2})}), EinThree);
  EXPECT_TENSOR(Tensor::Einsum("ij,jk->ki", {F({2, 3}), F({3, 4})}), EinOutPerm);
  EXPECT_TENSOR(Tensor::Einsum("Ab,bC->CA", {F({2, 3}), F({3, 2})}), EinUpper);
  EXPECT_TENSOR(Tensor::Einsum("...ij,...jk->...ik", {F({2, 2, 3}), F({2, 3, 2})}), EinEllBatch);
  EXPECT_TENSOR(Tensor::Einsum("...ij,jk", {F({2, 2, 3}), F({3, 2})}), EinEllMixed);
  EXPECT_TENSOR(Tensor::Einsum("i...->...", {F({2, 2, 3})}), EinEllSum);
  EXPECT_TENSOR(Tensor::Einsum("...i,i", {F({2, 3, 4}), F({4})}), EinEllImplicit);
  const Tensor ints = Tensor::Arange(6).reshape(std::vector<int64_t>{2, 3});
  Tensor e = Tensor::Einsum("ij,ij->", {ints, ints});
  EXPECT_TENSOR(e, EinInt);
  EXPECT_EQ(e.dtype(), dtypes::int32);
  e = Tensor::Einsum("i,i->", {Tensor::Arange(4), Tensor::Arange(4)}, dtypes::float32);
  EXPECT_TENSOR(e, EinAccFloat);
  EXPECT_EQ(e.dtype(), dtypes::float32);
  EXPECT_TENSOR(Tensor::Einsum(" ij , jk -> ik ", {F({2, 3}), F({3, 4})}), EinSpaces);
}

TEST(ShapeExtraTest, Interpolate) {
  using Mode = Tensor::InterpolateMode;
  const std::vector<float> i1 = {1.0f, 2.5f, -3.0f, 4.0f};
  const std::vector<float> i2 = {1.0f, 2.5f,  -3.0f, 4.0f, 0.5f,  7.0f,
                                 2.0f, -1.0f, 3.0f,  3.0f, -2.0f, 6.0f};
  const Tensor x1 = Tensor::FromVector<float>(i1, {1, 1, 4}),
               x2 = Tensor::FromVector<float>(i2, {1, 3, 4});
  constexpr double kTol = 1e-6;
  EXPECT_TENSOR(x1.interpolate({7}), Interp1UpLin, kTol);
  EXPECT_TENSOR(x1.interpolate({3}), Interp1DownLin, kTol);
  EXPECT_TENSOR(x2.interpolate({5, 6}), Interp2UpLin, kTol);
  EXPECT_TENSOR(x2.interpolate({2, 3}), Interp2DownLin, kTol);
  EXPECT_TENSOR(x1.interpolate({7}, Mode::kNearest), Interp1UpNear, kTol);
  EXPECT_TENSOR(x1.interpolate({3}, Mode::kNearest), Interp1DownNear, kTol);
  EXPECT_TENSOR(x2.interpolate({5, 6}, Mode::kNearest), Interp2UpNear, kTol);
  EXPECT_TENSOR(x2.interpolate({2, 3}, Mode::kNearest), Interp2DownNear, kTol);
  EXPECT_TENSOR(x1.interpolate({7}, Mode::kNearestExact), Interp1UpNearEx, kTol);
  EXPECT_TENSOR(x1.interpolate({3}, Mode::kNearestExact), Interp1DownNearEx, kTol);
  EXPECT_TENSOR(x2.interpolate({5, 6}, Mode::kNearestExact), Interp2UpNearEx, kTol);
  EXPECT_TENSOR(x2.interpolate({2, 3}, Mode::kNearestExact), Interp2DownNearEx, kTol);
  EXPECT_TENSOR(x1.interpolate({7}, Mode::kLinear, true), Interp1UpAlign, kTol);
  EXPECT_TENSOR(x1.interpolate({3}, Mode::kLinear, true), Interp1DownAlign, kTol);
  EXPECT_TENSOR(x2.interpolate({5, 6}, Mode::kLinear, true), Interp2UpAlign, kTol);
  EXPECT_TENSOR(x2.interpolate({2, 3}, Mode::kLinear, true), Interp2DownAlign, kTol);
  const Tensor x2nb = Tensor::FromVector<float>(i2, {3, 4});
  EXPECT_TENSOR(x2nb.interpolate({4, 3}), Interp2NoBatch, kTol);
  EXPECT_TENSOR(x2nb.interpolate({6}), InterpLastOnly, kTol);
  Tensor it = Tensor::FromVector<int32_t>({1, 2, 3, 4, 21, 22, 23, 24, 41, 42, 43, 44}, {3, 4})
                  .interpolate({2, 3});
  EXPECT_TENSOR(it, InterpInt);
  EXPECT_EQ(it.dtype(), dtypes::int32);
  Tensor u8 = Tensor::FromVector<uint8_t>({1, 2, 3}).interpolate({5});
  EXPECT_TENSOR(u8, InterpU8);
  EXPECT_EQ(u8.dtype(), dtypes::uint8);
}

TEST(ShapeExtraTest, CloneAndEmptyLike) {
  const Tensor t = Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor c = t.clone();
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c.shape(), (std::vector<int64_t>{2, 3}));
  ASSERT_TRUE(c.realize().ok());
  // A separate buffer: writing the original leaves the clone as it was.
  ASSERT_TRUE(t.assign(t * 10).realize().ok());
  EXPECT_EQ(*c.to_vector<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(*t.to_vector<float>(), (std::vector<float>{10, 20, 30, 40, 50, 60}));

  const Tensor w = Tensor::FromVector<float>({1, 2, 3}).requires_grad_();
  ASSERT_TRUE((w * w).sum().backward().ok());
  const Tensor wc = w.clone();
  ASSERT_TRUE(wc.ok()) << wc.status();
  ASSERT_TRUE(wc.grad().has_value());
  EXPECT_FALSE(wc.grad()->is(*w.grad()));
  EXPECT_EQ(*wc.grad()->to_vector<float>(), (std::vector<float>{2, 4, 6}));
  EXPECT_EQ(*wc.to_vector<float>(), (std::vector<float>{1, 2, 3}));

  const Tensor e = t.empty_like();
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e.shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(e.dtype(), dtypes::float32);
  EXPECT_EQ(e.device(), t.device());
  const Tensor e8 = t.empty_like(dtypes::int8);
  ASSERT_TRUE(e8.ok()) << e8.status();
  EXPECT_EQ(e8.dtype(), dtypes::int8);
  EXPECT_EQ(e8.shape(), (std::vector<int64_t>{2, 3}));
}

TEST(ShapeExtraTest, Errors) {
  const Tensor v = Tensor::Arange(4);
  ExpectError(v.roll({1, 2}, std::vector<int64_t>{0}), "roll", "2 shifts for 1 dims");
  ExpectError(v.roll({1, 2}), "roll", "2 shifts for 1 dims");
  ExpectError(v.roll(1, 3), "roll", "dim 3 out of range");
  ExpectError(A().roll(1, -4), "roll", "dim -4 out of range");
  ExpectError(Tensor::Zeros(std::vector<int64_t>{0}).roll(1, 0), "roll", "size 0");

  ExpectError(A().diag(), "diag", "1-D");
  ExpectError(Tensor::Arange(6).reshape(std::vector<int64_t>{2, 3}).diagonal(), "diagonal",
              "square");
  ExpectError(v.diagonal(), "diagonal", "square");

  std::vector<Tensor> g = Tensor::Meshgrid({});
  ASSERT_EQ(g.size(), 1u);
  ExpectError(g[0], "meshgrid", "at least one");
  g = Tensor::Meshgrid({v, v}, static_cast<Tensor::MeshIndexing>(7));
  ASSERT_EQ(g.size(), 2u);
  ExpectError(g[1], "meshgrid", "indexing");
  g = Tensor::Meshgrid({v, v.diag()});
  ASSERT_EQ(g.size(), 2u);
  EXPECT_TRUE(g[0].ok() && g[1].ok());  // a 2-D input is flattened, as the reference
  g = Tensor::Meshgrid({v, A().diag()});
  ExpectError(g[0], "diag", "1-D");

  ExpectError(v.unfold(0, -1, 1), "unfold", "size must be >= 0");
  ExpectError(v.unfold(0, 2, 0), "unfold", "step must be > 0");
  ExpectError(v.unfold(0, 5, 1), "unfold", "size 5 is larger");
  ExpectError(v.unfold(1, 2, 1), "unfold", "dim 1 out of range");

  ExpectError(v.pad_to({4, 4}), "pad_to", "dim mismatch");
  ExpectError(v.pad_to({-2}), "pad_to", "negative");

  const Tensor m23 = F({2, 3}), m34 = F({3, 4});
  ExpectError(Tensor::Einsum("ij,jk->ik", {m23}), "einsum", "number of operands");
  ExpectError(Tensor::Einsum("ij", {}), "einsum", "number of operands");
  ExpectError(Tensor::Einsum("ij,jk->iz", {m23, m34}), "einsum", "'z' is in no input");
  ExpectError(Tensor::Einsum("ij,jk->ii", {m23, m34}), "einsum", "more than once");
  ExpectError(Tensor::Einsum("i$,jk", {m23, m34}), "einsum", "unexpected character '$'");
  ExpectError(Tensor::Einsum("ij,jk->->ik", {m23, m34}), "einsum", "at most one '->'");
  ExpectError(Tensor::Einsum("i-j,jk", {m23, m34}), "einsum", "at most one '->'");
  ExpectError(Tensor::Einsum("ij,jk>ik", {m23, m34}), "einsum", "at most one '->'");
  ExpectError(Tensor::Einsum("i..j", {m23}), "einsum", "'...'");
  ExpectError(Tensor::Einsum("......i", {m23}), "einsum", "'...'");
  ExpectError(Tensor::Einsum("ij->i,j", {m23}), "einsum", "one term");
  ExpectError(Tensor::Einsum("ijk,jk", {m23, m34}), "einsum", "operand 0 has shape (2, 3)");
  ExpectError(Tensor::Einsum("i,jk", {m23, m34}), "einsum", "operand 0 has shape (2, 3)");
  ExpectError(Tensor::Einsum("ij,jk", {m23, F({4, 2})}), "einsum", "letter 'j' has sizes 3 and 4");
  ExpectError(Tensor::Einsum("ii", {m23}), "einsum", "letter 'i' repeated in operand 0");
  // '...' dims must have equal sizes (the reference does not broadcast a 1 either).
  ExpectError(Tensor::Einsum("...ij,...jk", {F({1, 2, 3}), F({2, 3, 2})}), "einsum",
              "has sizes 1 and 2");
  ExpectError(Tensor::Einsum("ij,jk", {m23, A().diag()}), "diag", "1-D");  // an errored operand

  // Malformed or odd formulas never abort: each gives a tensor or an InvalidArgument error.
  for (const char* f : {"",
                        "->",
                        ",",
                        ",->",
                        "...",
                        "...->...",
                        "...,...",
                        "i...j...",
                        ".",
                        "..",
                        "->i",
                        "i,",
                        ",i",
                        "ij->...",
                        "...ij->ji...",
                        "\xc3\xa9",
                        "ij,jk->",
                        "-",
                        ">",
                        "ij-",
                        "ij->>",
                        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz..."}) {
    for (const std::vector<Tensor>& ops : {std::vector<Tensor>{m23}, std::vector<Tensor>{m23, m34},
                                           std::vector<Tensor>{Tensor::Scalar(2.0)}}) {
      Tensor r = Tensor::Einsum(f, ops);
      if (!r.ok()) EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << f;
    }
  }
  // "..." needs more letters than the formula leaves free (all 52 are used).
  ExpectError(Tensor::Einsum("a...,ABCDEFGHIJKLMNOPQRSTUVWXYZbcdefghijklmnopqrstuvwxyz",
                             {m23, Tensor::Ones(std::vector<int64_t>(51, 1))}),
              "einsum", "more than the 0 letters");

  const Tensor x = Tensor::FromVector<float>({1, 2, 3, 4}, {1, 4});
  using Mode = Tensor::InterpolateMode;
  ExpectError(x.interpolate({}), "interpolate", "1 to ndim");
  ExpectError(x.interpolate({2, 2, 2}), "interpolate", "1 to ndim");
  ExpectError(x.interpolate({2}, static_cast<Mode>(9)), "interpolate", "only supports linear");
  ExpectError(x.interpolate({2}, Mode::kNearest, true), "interpolate", "align_corners");
  ExpectError(x.interpolate({0}), "interpolate", "> 0");
  ExpectError(x.interpolate({1}, Mode::kLinear, true), "interpolate", "> 1 with align_corners");

  ExpectError(A().diag().clone(), "diag", "1-D");
  ExpectError(A().diag().empty_like(), "diag", "1-D");
}

}  // namespace
}  // namespace tg
