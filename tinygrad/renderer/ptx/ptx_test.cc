// File: tinygrad/renderer/ptx/ptx_test.cc
// Golden tests of PtxRenderer against the reference PTXRenderer (testdata/ from
// tools/golden/gen_ptx_golden.py), as cuda_test.cc does for CUDA:
//   - every <case>.uops (a linear program from the reference) renders exactly <case>.ptx;
//   - every <case>.ast (a scheduled kernel AST) lowered by our GetProgram with a PtxRenderer of
//     the case's arch, under the same opts, applies the same opts and renders <case>.ptx too.
// Plus the per-arch capabilities, the extra matcher's rewrites and render_val's spellings.
#include "tinygrad/renderer/ptx/ptx.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "tinygrad/base/check.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/codegen/tensor_core.h"
#include "tinygrad/renderer/c/golden_cases.h"
#include "tinygrad/uop/linear_text.h"
#include "tinygrad/uop/graph_rewrite.h"

namespace tg {
namespace {

constexpr char kTestdata[] = "tinygrad/renderer/ptx/testdata";

std::string Path(const std::string& name, const std::string& ext) {
  return std::string(kTestdata) + "/" + name + ext;
}

PtxRenderer RendererFor(const std::string& arch) {
  absl::StatusOr<CudaArch> a = ParseCudaArch(arch);
  TG_CHECK(a.ok()) << a.status();
  return PtxRenderer(*a);
}

class PtxRenderGoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PtxRenderGoldenTest, RendersLikeTinygrad) {
  absl::StatusOr<std::vector<UOp>> uops =
      ParseLinearProgram(ReadGoldenFile(Path(GetParam(), ".uops")));
  ASSERT_TRUE(uops.ok()) << uops.status();
  EXPECT_EQ(RendererFor(ReadGoldenMeta(Path(GetParam(), ".meta")).arch).Render(*uops),
            ReadGoldenFile(Path(GetParam(), ".ptx")));
}

INSTANTIATE_TEST_SUITE_P(Goldens, PtxRenderGoldenTest,
                         ::testing::ValuesIn(GoldenCaseNames(kTestdata, ".uops")),
                         [](const auto& info) { return info.param; });

class PtxPipelineGoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PtxPipelineGoldenTest, LowersAndRendersLikeTinygrad) {
  ExpectLowersLikeGolden(kTestdata, GetParam(), ".ptx",
                         [](const std::string& arch) { return std::make_unique<PtxRenderer>(RendererFor(arch)); });
}

INSTANTIATE_TEST_SUITE_P(Goldens, PtxPipelineGoldenTest,
                         ::testing::ValuesIn(GoldenCaseNames(kTestdata, ".ast")),
                         [](const auto& info) { return info.param; });

TEST(PtxRendererTest, TensorCoresPerArch) {
  // the reference: none before Turing, sm_75 cuda_sm75, from sm_80 cuda_sm80 without bf16 (and
  // no fp8 on sm_89+: PTX has no register type for either)
  EXPECT_TRUE(RendererFor("sm_70").tensor_cores.empty());
  EXPECT_EQ(RendererFor("sm_75").tensor_cores.size(), tensor_cores::CudaSm75().size());
  for (const char* arch : {"sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_120"}) {
    std::vector<std::string> names;
    for (const TensorCore& t : RendererFor(arch).tensor_cores) names.push_back(t.ToString());
    EXPECT_EQ(absl::StrJoin(names, " "),
              "WMMA_8_16_16_half_float WMMA_8_16_16_half_half WMMA_8_16_8_half_float "
              "WMMA_8_16_8_half_half "
              "WMMA_8_16_8_float_float")
        << arch;
  }
}

TEST(PtxRendererTest, Capabilities) {
  PtxRenderer ren = RendererFor("sm_89");
  EXPECT_EQ(ren.device, "CUDA");
  EXPECT_EQ(ren.suffix, "PTX");
  EXPECT_EQ(ren.arch().name(), "sm_89");
  EXPECT_TRUE(ren.has_local);
  EXPECT_TRUE(ren.has_shared);
  EXPECT_FALSE(ren.has_threads);
  EXPECT_TRUE(ren.supports_float4);
  EXPECT_EQ(ren.shared_max, 49152);
  ASSERT_TRUE(ren.global_max.has_value() && ren.local_max.has_value());
  EXPECT_EQ(*ren.global_max, (LaunchDims{2147483647, 65535, 65535}));
  EXPECT_EQ(*ren.local_max, (LaunchDims{1024, 1024, 64}));
  // asm_for_op: MAX, MULACC and CMPEQ native; NEG, SUB and FDIV decomposed
  for (Ops op : {Ops::EXP2, Ops::LOG2, Ops::SIN, Ops::SQRT, Ops::RECIPROCAL, Ops::TRUNC, Ops::MAX,
                 Ops::MULACC, Ops::CMPEQ, Ops::SHL, Ops::SHR, Ops::WHERE})
    EXPECT_TRUE(ren.code_for_op.contains(op)) << op;
  for (Ops op : {Ops::NEG, Ops::SUB, Ops::FDIV, Ops::THREEFRY})
    EXPECT_FALSE(ren.code_for_op.contains(op)) << op;
  EXPECT_EQ(ren.pre_matcher, nullptr);
  EXPECT_EQ(ren.extra_matcher, &PtxExtraMatcher());
}

TEST(PtxRendererTest, SupportsTheDTypesItHasRegistersFor) {
  for (DType dt : {dtypes::bool_, dtypes::int8, dtypes::uint8, dtypes::int16, dtypes::uint16,
                   dtypes::int32, dtypes::uint32, dtypes::int64, dtypes::uint64, dtypes::float16,
                   dtypes::float32, dtypes::float64})
    EXPECT_TRUE(PtxSupportsDType(dt)) << dt.repr();
  for (DType dt : {dtypes::bfloat16, dtypes::fp8e4m3, dtypes::fp8e5m2, dtypes::bfloat16.vec(4)})
    EXPECT_FALSE(PtxSupportsDType(dt)) << dt.repr();
}

TEST(PtxRenderValTest, FloatsAreTheirBitsIntsDecimal) {
  EXPECT_EQ(PtxRenderVal(1.0, dtypes::float32), "0f3F800000");
  EXPECT_EQ(PtxRenderVal(-0.0, dtypes::float32), "0f80000000");
  EXPECT_EQ(PtxRenderVal(std::numeric_limits<double>::infinity(), dtypes::float32), "0f7F800000");
  EXPECT_EQ(PtxRenderVal(std::nan(""), dtypes::float32), "0f7FC00000");
  EXPECT_EQ(PtxRenderVal(0, dtypes::float32), "0f00000000");  // an int value of a float type
  EXPECT_EQ(PtxRenderVal(3.141592653589793, dtypes::float64), "0d400921FB54442D18");
  EXPECT_EQ(PtxRenderVal(std::nan(""), dtypes::float64), "0d7FF8000000000000");
  // halves round to nearest even, as struct.pack("e"): 0.1 is 0x2E66, 6e-8 the least subnormal
  EXPECT_EQ(PtxRenderVal(1.0, dtypes::float16), "0x3C00");
  EXPECT_EQ(PtxRenderVal(0.1, dtypes::float16), "0x2E66");
  EXPECT_EQ(PtxRenderVal(6e-8, dtypes::float16), "0x0001");
  EXPECT_EQ(PtxRenderVal(65504.0, dtypes::float16), "0x7BFF");
  EXPECT_EQ(PtxRenderVal(-0.0, dtypes::float16), "0x8000");
  EXPECT_EQ(PtxRenderVal(-std::numeric_limits<double>::infinity(), dtypes::float16), "0xFC00");
  EXPECT_EQ(PtxRenderVal(std::nan(""), dtypes::float16), "0x7E00");
  // bfloat16 has no spelling of its own: the reference writes its f32 bits
  EXPECT_EQ(PtxRenderVal(1.5, dtypes::bfloat16), "0f3FC00000");
  EXPECT_EQ(PtxRenderVal(-7, dtypes::int32), "-7");
  EXPECT_EQ(PtxRenderVal(7, dtypes::uint8), "7U");
  EXPECT_EQ(PtxRenderVal(static_cast<i128>(UINT64_MAX), dtypes::uint64), "18446744073709551615U");
  EXPECT_EQ(PtxRenderVal(true, dtypes::bool_), "1");
}

// ** the extra matcher **

UOp Buf(DType dt, int slot, AddrSpace as = AddrSpace::GLOBAL) {
  return UOp::Make(as == AddrSpace::REG ? Ops::DEFINE_REG : Ops::DEFINE_GLOBAL, dt.ptr(16, as), {},
                   Arg(slot));
}
UOp Idx(int i) { return UOp::Const(dtypes::int32, i); }
UOp Ptx(const UOp& u) { return GraphRewrite(u, PtxExtraMatcher()); }

TEST(PtxExtraMatcherTest, BoolComparesArePredicateLogic) {
  UOp x = UOp::Variable("x", false, true, dtypes::bool_),
      y = UOp::Variable("y", false, true, dtypes::bool_);
  UOp t = UOp::Const(dtypes::bool_, true);
  EXPECT_EQ(Ptx(x.ne(y)), x ^ y);
  EXPECT_EQ(Ptx(x.alu(Ops::CMPEQ, {y})), (x ^ y) ^ t);
  EXPECT_EQ(Ptx(x.lt(y)), (x ^ t) & y);
  // other compares stay
  UOp i = UOp::Variable("i", 0, 9);
  EXPECT_EQ(Ptx(i.lt(Idx(3))), i.lt(Idx(3)));
}

TEST(PtxExtraMatcherTest, HalfOpsPtxLacksAreDoneInFloat) {
  UOp h = Buf(dtypes::float16, 0).index(std::vector<UOp>{Idx(0)}).load();
  UOp r = Ptx(h.sqrt());
  ASSERT_EQ(r.op(), Ops::CAST);
  EXPECT_EQ(r.dtype(), dtypes::float16);
  ASSERT_EQ(r.src(0).op(), Ops::SQRT);
  EXPECT_EQ(r.src(0).dtype(), dtypes::float32);
  EXPECT_EQ(r.src(0).src(0).op(), Ops::CAST);
  // ex2 and add have f16 forms
  EXPECT_EQ(Ptx(h.exp2()).op(), Ops::EXP2);
  EXPECT_EQ(Ptx(h.exp2()).dtype(), dtypes::float16);
}

TEST(PtxExtraMatcherTest, IndexBecomesAByteAddressInInt64) {
  UOp buf = Buf(dtypes::float32, 0);
  UOp i = UOp::Variable("i", 0, 15);
  UOp r = Ptx(buf.index(std::vector<UOp>{i}));
  ASSERT_EQ(r.op(), Ops::INDEX);
  EXPECT_EQ(r.dtype(), dtypes::int64);
  ASSERT_EQ(r.src().size(), 2u);
  EXPECT_EQ(r.src(0), buf);
  EXPECT_EQ(r.src(1), buf.cast(dtypes::int64) + i.cast(dtypes::int64) * ConstValue(4));
  // a gate stays the INDEX's third source
  UOp g = Ptx(buf.index(std::vector<UOp>{i, i.lt(Idx(8))}));
  ASSERT_EQ(g.src().size(), 3u);
  EXPECT_EQ(g.src(2), i.lt(Idx(8)));
  // register arrays keep their element index (the renderer reads it as a constant)
  UOp reg = Buf(dtypes::float32, 0, AddrSpace::REG);
  EXPECT_EQ(Ptx(reg.index(std::vector<UOp>{Idx(1)})), reg.index(std::vector<UOp>{Idx(1)}));
}

TEST(PtxExtraMatcherTest, BoolsTravelThroughMemoryAsUint8) {
  UOp buf = Buf(dtypes::bool_, 0);
  UOp addr = Ptx(buf.index(std::vector<UOp>{Idx(2)}));
  UOp ld = Ptx(UOp::Make(Ops::LOAD, dtypes::bool_, {addr}));
  ASSERT_EQ(ld.op(), Ops::CAST);
  EXPECT_EQ(ld.dtype(), dtypes::bool_);
  EXPECT_EQ(ld.src(0).op(), Ops::LOAD);
  EXPECT_EQ(ld.src(0).dtype(), dtypes::uint8);
  UOp st = Ptx(UOp::Make(Ops::STORE, dtypes::void_, {addr, UOp::Const(dtypes::bool_, true)}));
  ASSERT_EQ(st.op(), Ops::STORE);
  EXPECT_EQ(st.src(1).dtype(), dtypes::uint8);
}

TEST(PtxExtraMatcherTest, ShiftAmountsAreUint32AndPointerCastsVanish) {
  UOp x = UOp::Variable("x", 0, 100);
  UOp s = Ptx(x << UOp::Variable("s", 0, 3));
  ASSERT_EQ(s.op(), Ops::SHL);
  EXPECT_EQ(s.src(1).dtype(), dtypes::uint32);
  UOp u = UOp::Variable("u", 0, 3, dtypes::uint32);
  EXPECT_EQ(Ptx(x >> u), x >> u);
  UOp buf = Buf(dtypes::float32, 0);
  UOp idx = buf.index(std::vector<UOp>{Idx(0)}, /*ptr=*/true);
  UOp vec = UOp::Make(Ops::CAST, dtypes::float32.vec(4).ptr(16), {idx});
  EXPECT_EQ(Ptx(vec).op(), Ops::INDEX);
}

// ** what it cannot render **

TEST(PtxRendererDeathTest, NoRegisterTypeForBfloat16) {
  UOp buf = Buf(dtypes::bfloat16, 0);
  UOp addr = Ptx(buf.index(std::vector<UOp>{Idx(0)}));
  std::vector<UOp> uops = {Idx(0), buf, UOp::Make(Ops::LOAD, dtypes::bfloat16, {addr})};
  EXPECT_DEATH(RendererFor("sm_89").Render(uops), "no register type for dtypes.bfloat16");
}

TEST(PtxRendererTest, CheckRenderableNamesTheTypeWithoutARegister) {
  UOp buf = Buf(dtypes::bfloat16, 0);
  UOp addr = Ptx(buf.index(std::vector<UOp>{Idx(0)}));
  std::vector<UOp> uops = {Idx(0), buf, UOp::Make(Ops::LOAD, dtypes::bfloat16, {addr})};
  absl::Status s = RendererFor("sm_89").CheckRenderable(uops);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("no register type for dtypes.bfloat16"), std::string::npos) << s;
  UOp f = Buf(dtypes::float32, 0);
  EXPECT_TRUE(RendererFor("sm_89").CheckRenderable(std::vector<UOp>{Idx(0), f}).ok());
}

TEST(PtxRendererDeathTest, OpsOutsideAsmForOpFailToRender) {
  UOp c = UOp::Const(dtypes::float32, 1.0);
  EXPECT_DEATH(RendererFor("sm_89").Render(std::vector<UOp>{c, c.alu(Ops::NEG)}),
               "no instruction for Ops.NEG");
  UOp i = UOp::Const(dtypes::int32, 1);
  EXPECT_DEATH(RendererFor("sm_89").Render(
                   std::vector<UOp>{i, UOp::Make(Ops::CUSTOM, dtypes::void_, {i}, Arg("x"))}),
               "failed to render Ops.CUSTOM");
}

}  // namespace
}  // namespace tg
