// File: autotune/measure/test_kernels.h (testonly)
// Small kernel ASTs for the autotuner's tests and benchmarks, scheduled from Tensor graphs.
#ifndef AUTOTUNE_MEASURE_TEST_KERNELS_H_
#define AUTOTUNE_MEASURE_TEST_KERNELS_H_

#include <cstdint>

#include "tinygrad/dtype/dtype.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/uop/uop.h"

namespace tg::autotune {

// The kernel AST of the last SINK kernel `out` schedules to (CHECKs that there is one).
UOp LastKernelAst(const Tensor& out);

UOp AddKernel(int64_t n);                  // a[n] + b[n]
UOp SumKernel(int64_t rows, int64_t cols);  // x[rows, cols].sum(1)
UOp MatmulKernel(int64_t n, DType dtype = dtypes::float32);  // a[n, n] @ b[n, n]

}  // namespace tg::autotune

#endif  // AUTOTUNE_MEASURE_TEST_KERNELS_H_
