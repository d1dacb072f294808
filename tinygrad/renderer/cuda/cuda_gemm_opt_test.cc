// The GEMM opt end to end on the CUDA renderer: a half matmul whose opts are one GEMM becomes the
// generated sm_90 kernel through GetProgram (source, launch sizes, shared memory, buffers,
// estimates); every misuse is a KernelOptError naming why.
#include <string>
#include <vector>

#include "autotune/measure/test_kernels.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tinygrad/codegen/opt/gemm_opt.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/renderer/cuda/cuda.h"
#include "tinygrad/renderer/cuda/gemm_sm90.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/uop/kernel_info.h"

namespace tg {
namespace {

using ::testing::HasSubstr;

UOp MatmulAst(int64_t m, int64_t n, int64_t k, DType dtype) {
  return autotune::LastKernelAst(
      Tensor::Empty(std::vector<int64_t>{m, k}, {.dtype = dtype})
          .matmul(Tensor::Empty(std::vector<int64_t>{k, n}, {.dtype = dtype})));
}

UOp WithOpts(const UOp& ast, const std::vector<Opt>& opts) {
  KernelInfo ki;
  ki.opts_to_apply = std::vector<Arg>{};
  for (const Opt& o : opts) ki.opts_to_apply->push_back(OptToArg(o));
  return ast.replace_arg(ki.ToArg());
}

const CudaRenderer& Sm(const char* arch) {
  static auto* sm90 = new CudaRenderer(*ParseCudaArch("sm_90"));
  static auto* sm89 = new CudaRenderer(*ParseCudaArch("sm_89"));
  return std::string(arch) == "sm_90" ? *sm90 : *sm89;
}

int64_t ConstOf(const UOp& u) { return u.arg().int64(); }

TEST(CudaGemmOptTest, AHalfMatmulBecomesTheGeneratedKernel) {
  const Opt gemm = GemmOpt({.bm = 128, .bn = 256, .stages = 4});
  absl::StatusOr<ProgramSpec> p =
      GetProgram(WithOpts(MatmulAst(1024, 512, 256, dtypes::float16), {gemm}), Sm("sm_90"));
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->name, "gemm_1024_512_256");
  EXPECT_THAT(p->src, HasSubstr("wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16"));
  EXPECT_THAT(p->src, HasSubstr(p->function_name + "(half* __restrict__ data0"));
  EXPECT_EQ(p->dynamic_shared_bytes, 4 * (128 + 256) * 128 + 1024);
  ASSERT_EQ(p->global_size.size(), 3u);
  EXPECT_EQ(ConstOf(p->global_size[0]), 512 / 256);
  EXPECT_EQ(ConstOf(p->global_size[1]), 1024 / 128);
  ASSERT_TRUE(p->local_size.has_value());
  EXPECT_EQ(ConstOf((*p->local_size)[0]), 256);
  EXPECT_EQ(p->outs, (std::vector<int64_t>{0}));
  EXPECT_EQ(p->ins, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(ConstOf(p->estimates.ops), 2 * 1024 * 512 * 256);
  EXPECT_EQ(ConstOf(p->estimates.mem), (1024 + 512) * 256 * 2 + 1024 * 512 * 2);
  ASSERT_EQ(p->applied_opts.size(), 1u);
  EXPECT_EQ(*OptFromArg(p->applied_opts[0]), gemm);
  EXPECT_TRUE(p->uops.empty()) << "a generated kernel has no linear program";
}

// The CUDA renderer with the copy-engine loader a GPU run may make its own (cuda.cc kGemmLoader):
// GetProgram hands the kernel's tensor maps and its producer warpgroup on to the launch.
class CopyEngineRenderer : public CudaRenderer {
 public:
  using CudaRenderer::CudaRenderer;
  absl::StatusOr<GemmKernel> RenderGemm(const GemmProblem& p, const GemmTiling& t,
                                        std::string_view function_name) const override {
    return RenderGemmSm90(p, t, function_name, GemmLoader::kTmaWarpSpecialized);
  }
};

TEST(CudaGemmOptTest, ACopyEngineKernelsTensorMapsReachTheProgram) {
  const CopyEngineRenderer ren(*ParseCudaArch("sm_90"));
  absl::StatusOr<ProgramSpec> p = GetProgram(
      WithOpts(MatmulAst(1024, 512, 256, dtypes::float16), {GemmOpt({128, 256, 4})}), ren);
  ASSERT_TRUE(p.ok()) << p.status();
  const std::vector<TensorMapSpec> maps = {
      {.buffer = 1, .element = dtypes::float16, .rows = 1024, .cols = 256, .box_rows = 64,
       .box_cols = 64},
      {.buffer = 2, .element = dtypes::float16, .rows = 256, .cols = 512, .box_rows = 64,
       .box_cols = 64}};
  EXPECT_EQ(p->tensor_maps, maps);
  ASSERT_TRUE(p->local_size.has_value());
  EXPECT_EQ(ConstOf((*p->local_size)[0]), 384);
  EXPECT_TRUE(GetProgram(WithOpts(MatmulAst(1024, 512, 256, dtypes::float16),
                                  {GemmOpt({128, 256, 4})}),
                         Sm("sm_90"))
                  ->tensor_maps.empty())
      << "the renderer's own loader (cp.async) passes none";
}

TEST(CudaGemmOptTest, WhereItDoesNotApplyItIsAKernelOptErrorSayingWhy) {
  const Opt gemm = GemmOpt({.bm = 128, .bn = 128, .stages = 3});
  const UOp half = MatmulAst(512, 512, 512, dtypes::float16);
  auto error_of = [](const absl::StatusOr<ProgramSpec>& p) {
    EXPECT_FALSE(p.ok());
    EXPECT_TRUE(IsKernelOptError(p.status())) << p.status();
    return std::string(p.status().message());
  };
  EXPECT_THAT(error_of(GetProgram(WithOpts(half, {gemm}), Sm("sm_89"))), HasSubstr("generates no"));
  EXPECT_THAT(error_of(GetProgram(WithOpts(MatmulAst(512, 512, 512, dtypes::float32), {gemm}),
                                  Sm("sm_90"))),
              HasSubstr("plain half or bfloat16 matmul"));
  EXPECT_THAT(
      error_of(GetProgram(WithOpts(half, {gemm, Opt{OptOps::UPCAST, 0, int64_t{4}}}), Sm("sm_90"))),
      HasSubstr("only opt"));
  EXPECT_THAT(
      error_of(GetProgram(WithOpts(half, {Opt{OptOps::UPCAST, 0, int64_t{4}}, gemm}), Sm("sm_90"))),
      HasSubstr("only opt"));
  EXPECT_THAT(error_of(GetProgram(WithOpts(half, {GemmOpt({.bm = 128, .bn = 96, .stages = 3})}),
                                  Sm("sm_90"))),
              HasSubstr("generates no 128x96 GEMM"));
  EXPECT_THAT(
      error_of(GetProgram(WithOpts(MatmulAst(512, 512, 96, dtypes::float16), {gemm}), Sm("sm_90"))),
      HasSubstr("does not divide"));
  EXPECT_THAT(error_of(GetProgram(WithOpts(half, {Opt{OptOps::GEMM, std::nullopt, int64_t{4}}}),
                                  Sm("sm_90"))),
              HasSubstr("GEMM takes no axis and (bm, bn, stages)"));
  EXPECT_THAT(error_of(GetProgram(
                  WithOpts(half, {Opt{OptOps::GEMM, 1, std::array<int64_t, 3>{128, 128, 3}}}),
                  Sm("sm_90"))),
              HasSubstr("GEMM takes no axis"));
}

}  // namespace
}  // namespace tg
