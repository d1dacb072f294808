// File: tinygrad/codegen/tensor_core_test.cc
// TensorCore tables and helpers against the reference's tc.py (values printed by the
// reference at 35900290: str(tc) of every table, base_shape_str, base_upcast_axes,
// permutes_for_shape_str of cuda_sm80[0] and amd_rdna3[0]).
#include "tinygrad/codegen/tensor_core.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/uop/arg.h"

namespace tg {
namespace {

std::vector<std::string> Names(const std::vector<TensorCore>& tcs) {
  std::vector<std::string> out;
  for (const TensorCore& tc : tcs) out.push_back(tc.ToString());
  return out;
}

TEST(TensorCoreTest, TablesMatchTheReference) {
  using V = std::vector<std::string>;
  EXPECT_EQ(Names(tensor_cores::CudaSm75()), (V{"WMMA_8_16_8_half_float", "WMMA_8_16_8_half_half"}));
  EXPECT_EQ(Names(tensor_cores::CudaSm89()),
            (V{"WMMA_8_16_16_half_float", "WMMA_8_16_16___bf16_float", "WMMA_8_16_16_half_half", "WMMA_8_16_8_half_float",
               "WMMA_8_16_8_half_half", "WMMA_8_16_8_float_float", "WMMA_8_16_32_float8_e4m3_float",
               "WMMA_8_16_32_float8_e5m2_float"}));
  EXPECT_EQ(tensor_cores::CudaSm80().size(), 6u);
  EXPECT_EQ(Names(tensor_cores::AmdRdna3()),
            (V{"WMMA_16_16_16_half_float", "WMMA_16_16_16_half_half", "WMMA_16_16_16___bf16_float"}));
  EXPECT_EQ(Names(tensor_cores::AmdRdna4()).back(), "WMMA_16_16_16___bf16___bf16");
  EXPECT_EQ(Names(tensor_cores::AmdCdna3()),
            (V{"WMMA_16_16_32_float8_e5m2_float", "WMMA_16_16_32_float8_e4m3_float", "WMMA_16_16_16_half_float",
               "WMMA_16_16_16___bf16_float"}));
  EXPECT_EQ(tensor_cores::AmdCdna4().size(), 8u);
  EXPECT_EQ(Names(tensor_cores::AmdCdna4())[0], "WMMA_16_16_128_float8_e5m2_float");
  EXPECT_EQ(tensor_cores::Metal().size(), 5u);
  EXPECT_EQ(Names(tensor_cores::Amx()), (V{"WMMA_16_16_1_float_float"}));
  EXPECT_EQ(Names(tensor_cores::Intel()), (V{"WMMA_8_8_16_half_float"}));
}

TEST(TensorCoreTest, ShapeHelpersMatchTheReference) {
  using V = std::vector<std::string>;
  using P = std::vector<int>;
  const TensorCore& cuda = tensor_cores::CudaSm80()[0];
  EXPECT_EQ(cuda.BaseShapeStr(), (V{"u0", "l0", "l1", "l2", "l3", "l4", "u1", "r0", "r1", "r2", "r3"}));
  EXPECT_EQ(cuda.BaseUpcastAxes(), (V{"u1", "u0", "r3", "r2", "r1", "r0"}));
  auto [c0, c1] = cuda.PermutesForShapeStr(cuda.BaseShapeStr());
  EXPECT_EQ(c0, (P{6, 8, 9, 3, 4, 5, 10, 1, 2, 0, 7}));
  EXPECT_EQ(c1, (P{7, 8, 9, 0, 1, 2, 10, 3, 4, 5, 6}));
  EXPECT_EQ(cuda.GetReduceAxes(), (std::vector<std::pair<int64_t, int64_t>>{{0, 2}, {1, 2}, {2, 2}, {3, 2}}));
  const TensorCore& amd = tensor_cores::AmdRdna3()[0];
  EXPECT_EQ(amd.BaseShapeStr(), (V{"l0", "l1", "l2", "l3", "l4", "u0", "u1", "u2", "r0", "r1", "r2", "r3"}));
  EXPECT_EQ(amd.BaseUpcastAxes(), (V{"u2", "u1", "u0", "r3", "r2", "r1", "r0"}));
  auto [a0, a1] = amd.PermutesForShapeStr(amd.BaseShapeStr());
  EXPECT_EQ(a0, (P{4, 5, 6, 7, 0, 9, 10, 11, 1, 2, 3, 8}));
  EXPECT_EQ(a1, (P{0, 1, 2, 3, 4, 9, 10, 11, 5, 6, 7, 8}));
}

TEST(TensorCoreTest, WmmaArgDTypesReadBack) {
  Arg arg = Arg::Tuple({"WMMA_8_16_16_half_float", Arg::Tuple({8, 16, 16}), dtypes::float16.repr(), dtypes::float32.repr(),
                        "CUDA", 32, Arg::Tuple({}), Arg::Tuple({})});
  EXPECT_EQ(WmmaDTypeIn(arg), dtypes::float16);
  EXPECT_EQ(WmmaDTypeOut(arg), dtypes::float32);
  Arg bf = Arg::Tuple({"x", 0, dtypes::bfloat16.repr(), dtypes::fp8e4m3.repr()});
  EXPECT_EQ(WmmaDTypeIn(bf), dtypes::bfloat16);
  EXPECT_EQ(WmmaDTypeOut(bf), dtypes::fp8e4m3);
}

TEST(TensorCoreDeathTest, ValidateRejectsAMalformedTable) {
  TensorCore bad = tensor_cores::CudaSm80()[0];
  bad.threads = 16;  // the opts make a 32-thread warp
  EXPECT_DEATH(bad.Validate(), "threads");
}

}  // namespace
}  // namespace tg
