// MatchGemm on the kernels our scheduler makes: plain half/bfloat16 matmuls match with their
// sizes and buffer slots; anything else does not.
#include "tinygrad/codegen/gemm_problem.h"

#include <vector>

#include "autotune/measure/test_kernels.h"
#include "gtest/gtest.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

using autotune::LastKernelAst;

Tensor Empty(std::vector<int64_t> shape, DType dtype = dtypes::float16) {
  return Tensor::Empty(shape, {.dtype = dtype});
}

TEST(MatchGemmTest, HalfAndBfloat16MatmulsMatchWithTheirSizesAndSlots) {
  std::optional<GemmProblem> p = MatchGemm(LastKernelAst(Empty({64, 16}).matmul(Empty({16, 32}))));
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->m, 64);
  EXPECT_EQ(p->n, 32);
  EXPECT_EQ(p->k, 16);
  EXPECT_EQ(p->in, dtypes::float16);
  EXPECT_EQ(p->acc, dtypes::float32);
  EXPECT_EQ(p->out, dtypes::float16);
  EXPECT_EQ(p->out_slot, 0);
  EXPECT_EQ(p->a_slot, 1);
  EXPECT_EQ(p->b_slot, 2);
  std::optional<GemmProblem> bf = MatchGemm(
      LastKernelAst(Empty({128, 64}, dtypes::bfloat16).matmul(Empty({64, 256}, dtypes::bfloat16))));
  ASSERT_TRUE(bf.has_value());
  EXPECT_EQ(bf->in, dtypes::bfloat16);
  EXPECT_EQ(bf->m * 10000 + bf->n * 10 + bf->k / 64, 128 * 10000 + 256 * 10 + 1);
}

TEST(MatchGemmTest, AnythingButAPlainMatmulDoesNot) {
  EXPECT_FALSE(MatchGemm(
      LastKernelAst(Empty({64, 16}, dtypes::float32).matmul(Empty({16, 32}, dtypes::float32)))))
      << "float32";
  EXPECT_FALSE(MatchGemm(LastKernelAst(Empty({64, 16}).matmul(Empty({32, 16}).transpose()))))
      << "b transposed";
  EXPECT_FALSE(MatchGemm(LastKernelAst(Empty({16, 64}).transpose().matmul(Empty({16, 32})))))
      << "a transposed";
  EXPECT_FALSE(MatchGemm(LastKernelAst(Empty({4, 64, 16}).matmul(Empty({4, 16, 32})))))
      << "batched";
  EXPECT_FALSE(MatchGemm(LastKernelAst(Empty({64, 16}).matmul(Empty({16, 32})).relu())))
      << "relu fused";
  EXPECT_FALSE(MatchGemm(LastKernelAst(Empty({64, 16}).sum(1)))) << "a sum";
  const Tensor square = Empty({64, 64});
  EXPECT_FALSE(MatchGemm(LastKernelAst(square.matmul(square)))) << "a @ a: one buffer for both";
  EXPECT_FALSE(MatchGemm(LastKernelAst(Empty({64}) + Empty({64})))) << "elementwise";
  EXPECT_FALSE(MatchGemm(UOp())) << "no AST";
}

}  // namespace
}  // namespace tg
