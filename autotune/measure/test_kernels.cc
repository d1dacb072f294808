// File: autotune/measure/test_kernels.cc (testonly)
// Small kernel ASTs for the autotuner's tests and benchmarks.
#include "autotune/measure/test_kernels.h"

#include "absl/status/statusor.h"
#include "tinygrad/base/check.h"
#include "tinygrad/schedule/schedule.h"

namespace tg::autotune {

UOp LastKernelAst(const Tensor& out) {
  TG_CHECK(out.ok()) << out.status();
  absl::StatusOr<Schedule> s = CreateScheduleWithVars(UOp::Sink({out.uop()}));
  TG_CHECK(s.ok()) << s.status();
  UOp ast;
  for (const ScheduleItem& item : s->items)
    if (item.ast.op() == Ops::SINK) ast = item.ast;
  TG_CHECK(ast) << "no kernel scheduled";
  return ast;
}

UOp AddKernel(int64_t n) {
  return LastKernelAst(Tensor::Empty(std::vector<int64_t>{n}) + Tensor::Empty(std::vector<int64_t>{n}));
}

UOp SumKernel(int64_t rows, int64_t cols) {
  return LastKernelAst(Tensor::Empty(std::vector<int64_t>{rows, cols}).sum(1));
}

UOp MatmulKernel(int64_t n, DType dtype) {
  const std::vector<int64_t> shape{n, n};
  return LastKernelAst(Tensor::Empty(shape, {.dtype = dtype}).matmul(Tensor::Empty(shape, {.dtype = dtype})));
}

}  // namespace tg::autotune
