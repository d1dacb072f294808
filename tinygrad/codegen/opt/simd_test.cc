// File: tinygrad/codegen/opt/simd_test.cc
// The SIMD extension opt end to end on the C renderer: loads and stores of an upcast of 16
// contiguous floats fold into one float16 (float8 with SIMD 8) access; without the opt they stay
// the reference's float4. With SIMD the tile's accumulators render as C vectors
// (renderer/c/vector_acc.h), also under a fused epilogue (bias + relu), and a PADTO after SIMD
// clamps its loads instead of gating them.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/base/config.h"
#include "tinygrad/codegen/opt/opt.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/renderer/c/clang.h"
#include "tinygrad/uop/kernel_info.h"

namespace tg {
namespace {

UOp DG(int64_t size, int slot) { return UOp::Make(Ops::DEFINE_GLOBAL, dtypes::float32.ptr(size), {}, slot); }

// c[i, j] = sum_k a[i, k] * b[k, j], all n x n
UOp Matmul(int64_t n) {
  UOp c = DG(n * n, 0), a = DG(n * n, 1), b = DG(n * n, 2);
  UOp i = UOp::Range(n, 1), j = UOp::Range(n, 2), r = UOp::Range(n, 0, AxisType::REDUCE);
  UOp mul = a.index(std::vector<UOp>{i * n + r}) * b.index(std::vector<UOp>{r * n + j});
  UOp red = UOp::Make(Ops::REDUCE, dtypes::float32, {mul, r}, Ops::ADD);
  return UOp::Sink({UOp::Make(Ops::END, dtypes::void_, {c.index(std::vector<UOp>{i * n + j}, true).store(red), i, j})});
}

// c[i, j] = max(sum_k a[i, k] * b[k, j] + bias[j], 0): a linear layer with its fused epilogue
UOp MatmulBiasRelu(int64_t n) {
  UOp c = DG(n * n, 0), a = DG(n * n, 1), b = DG(n * n, 2), bias = DG(n, 3);
  UOp i = UOp::Range(n, 1), j = UOp::Range(n, 2), r = UOp::Range(n, 0, AxisType::REDUCE);
  UOp mul = a.index(std::vector<UOp>{i * n + r}) * b.index(std::vector<UOp>{r * n + j});
  UOp red = UOp::Make(Ops::REDUCE, dtypes::float32, {mul, r}, Ops::ADD);
  UOp out = (red + bias.index(std::vector<UOp>{j})).maximum(0.0);
  return UOp::Sink({UOp::Make(Ops::END, dtypes::void_, {c.index(std::vector<UOp>{i * n + j}, true).store(out), i, j})});
}

// c[i] = c[i] + a[i], n elements: c is read and written
UOp AddInPlace(int64_t n) {
  UOp c = DG(n, 0), a = DG(n, 1);
  UOp i = UOp::Range(n, 1);
  UOp sum = c.index(std::vector<UOp>{i}) + a.index(std::vector<UOp>{i});
  return UOp::Sink({UOp::Make(Ops::END, dtypes::void_, {c.index(std::vector<UOp>{i}, true).store(sum), i})});
}

std::string SourceOf(const UOp& ast, const std::vector<Opt>& opts) {
  KernelInfo ki;
  ki.opts_to_apply.emplace();
  for (const Opt& o : opts) ki.opts_to_apply->push_back(OptToArg(o));
  Config c = GetConfig();
  c.threads = 0;
  ScopedConfig scoped(c);
  ClangRenderer ren(CpuRendererOptions::FromConfig(c));
  absl::StatusOr<ProgramSpec> p = GetProgram(ast.replace_arg(ki.ToArg()), ren);
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? p->src : "";
}

std::string Source(const std::vector<Opt>& opts, int64_t n = 64) { return SourceOf(Matmul(n), opts); }

const Opt kUpcastCols16{OptOps::UPCAST, 1, int64_t{16}};

TEST(SimdOpt, FoldsSixteenLanesIntoOneAccess) {
  std::string src = Source({kUpcastCols16, Opt{OptOps::SIMD, std::nullopt, int64_t{16}}});
  EXPECT_NE(src.find("ext_vector_type(16)"), std::string::npos) << src;
  EXPECT_NE(src.find("(*((float16*)("), std::string::npos) << src;  // the load of b's row
  EXPECT_NE(src.find("*((float16*)((data0"), std::string::npos) << src;  // the store
  EXPECT_EQ(src.find("float4"), std::string::npos) << src;
}

TEST(SimdOpt, WidthEightFoldsToFloat8) {
  std::string src = Source({kUpcastCols16, Opt{OptOps::SIMD, std::nullopt, int64_t{8}}});
  EXPECT_NE(src.find("(*((float8*)("), std::string::npos) << src;
  EXPECT_EQ(src.find("float16"), std::string::npos) << src;
}

TEST(SimdOpt, WithoutItLoadsStayFloat4) {
  std::string src = Source({kUpcastCols16});
  EXPECT_NE(src.find("(*((float4*)("), std::string::npos) << src;
  EXPECT_EQ(src.find("float16"), std::string::npos) << src;
  EXPECT_EQ(src.find("float8"), std::string::npos) << src;
}

const Opt kUpcastRows4{OptOps::UPCAST, 0, int64_t{4}};
const Opt kSimd8{OptOps::SIMD, std::nullopt, int64_t{8}};

TEST(SimdOpt, TileAccumulatorsBecomeVectors) {
  // 4x16 tile: 64 accumulators, 8 vectors of 8 (each lane group is one float8 store of the tile)
  std::string src = Source({kUpcastCols16, kUpcastRows4, kSimd8});
  EXPECT_NE(src.find("float8 acc0[8];"), std::string::npos) << src;
  EXPECT_NE(src.find("acc0[7][7]"), std::string::npos) << src;
  EXPECT_EQ(src.find("*(acc0+"), std::string::npos) << src;
  // SIMD 16: 4 vectors of 16
  EXPECT_NE(Source({kUpcastCols16, kUpcastRows4, Opt{OptOps::SIMD, std::nullopt, int64_t{16}}}).find("float16 acc0[4];"),
            std::string::npos);
}

TEST(SimdOpt, AccumulatorsStayScalarWithoutWideStores) {
  // without SIMD: the reference's scalar array (its float4 stores are too narrow to group)
  std::string plain = Source({kUpcastCols16, kUpcastRows4});
  EXPECT_NE(plain.find("float acc0[64];"), std::string::npos) << plain;
  EXPECT_NE(plain.find("*(acc0+0) = 0.0f;"), std::string::npos) << plain;
  // SIMD with a 4-wide column tile: its stores are float4, so the accumulators stay scalar
  std::string narrow = Source({Opt{OptOps::UPCAST, 1, int64_t{4}}, kUpcastRows4, kSimd8});
  EXPECT_NE(narrow.find("float acc0[16];"), std::string::npos) << narrow;
}

TEST(SimdOpt, FusedEpilogueKeepsVectorAccumulators) {
  // the tile's stores are float8s of max(acc + bias, 0): each lane still reads one accumulator
  std::string src = SourceOf(MatmulBiasRelu(64), {kUpcastCols16, kUpcastRows4, kSimd8});
  EXPECT_NE(src.find("float8 acc0[8];"), std::string::npos) << src;
  EXPECT_EQ(src.find("*(acc0+"), std::string::npos) << src;
  // without SIMD the epilogue's float4 stores are too narrow: the reference's scalar array
  std::string plain = SourceOf(MatmulBiasRelu(64), {kUpcastCols16, kUpcastRows4});
  EXPECT_NE(plain.find("float acc0[64];"), std::string::npos) << plain;
}

// A 60x60 matmul with a 6-row tile needs no padding; 64 rows do: PADTO0:6 pads them to 66.
TEST(SimdOpt, PadtoAfterSimdClampsLoads) {
  const Opt pad{OptOps::PADTO, 0, int64_t{6}}, rows6{OptOps::UPCAST, 0, int64_t{6}};
  std::string clamped = Source({kSimd8, pad, rows6, kUpcastCols16});
  // the A loads read a clamped row, no load is gated; the stores of the padded rows are
  EXPECT_EQ(clamped.find("?*(data1"), std::string::npos) << clamped;
  EXPECT_NE(clamped.find("if ("), std::string::npos) << clamped;
  EXPECT_NE(clamped.find("float8 acc0[12];"), std::string::npos) << clamped;
  // PADTO before SIMD (and so without SIMD): the reference's gated loads
  std::string gated = Source({pad, rows6, kUpcastCols16, kSimd8});
  EXPECT_NE(gated.find("?*(data1"), std::string::npos) << gated;
  EXPECT_NE(Source({pad, rows6, kUpcastCols16}).find("?*(data1"), std::string::npos);
}

TEST(SimdOpt, PadtoKeepsTheGateOnABufferTheKernelWrites) {
  // 60 elements padded to 64: a is only read (clamped), c is read and written (gated)
  std::string src = SourceOf(AddInPlace(60), {kSimd8, Opt{OptOps::PADTO, 0, int64_t{16}}});
  EXPECT_NE(src.find("?*(data0"), std::string::npos) << src;
  EXPECT_EQ(src.find("?*(data1"), std::string::npos) << src;
}

}  // namespace
}  // namespace tg
