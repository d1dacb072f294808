// File: tinygrad/codegen/opt/simd_test.cc
// The SIMD extension opt end to end on the C renderer: loads and stores of an upcast of 16
// contiguous floats fold into one float16 (float8 with SIMD 8) access; without the opt they stay
// the reference's float4.
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

std::string Source(const std::vector<Opt>& opts) {
  KernelInfo ki;
  ki.opts_to_apply.emplace();
  for (const Opt& o : opts) ki.opts_to_apply->push_back(OptToArg(o));
  Config c = GetConfig();
  c.threads = 0;
  ScopedConfig scoped(c);
  ClangRenderer ren(CpuRendererOptions::FromConfig(c));
  absl::StatusOr<ProgramSpec> p = GetProgram(Matmul(64).replace_arg(ki.ToArg()), ren);
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? p->src : "";
}

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

}  // namespace
}  // namespace tg
