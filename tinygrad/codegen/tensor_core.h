// File: tinygrad/codegen/tensor_core.h
// Port of tinygrad/codegen/opt/tc.py: TensorCore (one matrix-multiply-accumulate instruction
// shape a target offers) and the reference's tables of them.
//
// D = A * B + C with A (M x K), B (K x N), C and D (M x N). `dims` is (N, M, K). `opts` says
// how the optimizer splits the N/M axes into 2-sized warp (LOCAL "l<d>") and register (UPCAST
// "u<d>") pieces; K is split into log2(K) 2-sized UNROLL axes. `swizzle` says, per input
// (A, B), where each local/upcast/reduce piece lands in the hardware's operand layout.
//
// It lives in codegen/ (not codegen/opt/) because the Renderer carries a target's tensor cores.
//
// Example:
//   const TensorCore& tc = tensor_cores::CudaSm80()[0];
//   tc.ToString()              // "WMMA_8_16_16_half_float"
//   tc.GetReduceAxes()         // {{0, 2}, {1, 2}, {2, 2}, {3, 2}}
#ifndef TINYGRAD_CODEGEN_TENSOR_CORE_H_
#define TINYGRAD_CODEGEN_TENSOR_CORE_H_

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tinygrad/dtype/dtype.h"
#include "tinygrad/uop/arg.h"

namespace tg {

struct TensorCore {
  std::array<int64_t, 3> dims;                 // N, M, K
  int64_t threads;                             // threads that make up the warp
  std::array<int64_t, 3> elements_per_thread;  // per-thread elements of A, B, C
  DType dtype_in;                              // of A and B
  DType dtype_out;                             // of C and D
  std::vector<std::string> opts;               // "u0", "l1", ...: in order
  // swizzle[input][part]: part 0 local, 1 upcast, 2 reduce; entries are "l0", "u1", "r2", ...
  std::array<std::array<std::vector<std::string>, 3>, 2> swizzle;

  // tinygrad's __str__: "WMMA_<N>_<M>_<K>_<in name>_<out name>".
  std::string ToString() const;
  // (i, 2) for each of log2(K) reduce pieces.
  std::vector<std::pair<int64_t, int64_t>> GetReduceAxes() const;
  std::vector<std::string> GetUpcastAxes() const;  // the "u*" opts
  std::vector<std::string> GetLocalAxes() const;   // the "l*" opts
  // The shape_str the TC opt leaves: "l0"/"u0"... numbered per kind, then "r0".."r<k-1>".
  std::vector<std::string> BaseShapeStr() const;
  // The upcast axes in swizzle order: reversed ("r0".., "u0"..).
  std::vector<std::string> BaseUpcastAxes() const;
  // For each input, the permutation of `shape_str` positions its swizzle implies.
  std::pair<std::vector<int>, std::vector<int>> PermutesForShapeStr(
      const std::vector<std::string>& shape_str) const;
  // tinygrad's __post_init__ asserts (TG_CHECK: a malformed table is a bug).
  void Validate() const;
};

// A WMMA's arg is (name, dims, dtype_in, dtype_out, device, threads, upcast_axes, reduce_axes);
// Arg has no DType, so the dtypes are their reprs ("dtypes.half"). These read them back
// (CHECK-fail on anything else).
DType WmmaDTypeIn(const Arg& wmma_arg);
DType WmmaDTypeOut(const Arg& wmma_arg);

// The reference's tables (tinygrad/codegen/opt/tc.py), validated on first use.
namespace tensor_cores {
const std::vector<TensorCore>& CudaSm75();
const std::vector<TensorCore>& CudaSm80();
const std::vector<TensorCore>& CudaSm89();
const std::vector<TensorCore>& AmdRdna3();
const std::vector<TensorCore>& AmdRdna4();
const std::vector<TensorCore>& AmdCdna3();
const std::vector<TensorCore>& AmdCdna4();
const std::vector<TensorCore>& Metal();
const std::vector<TensorCore>& Amx();
const std::vector<TensorCore>& Intel();
}  // namespace tensor_cores

}  // namespace tg

#endif  // TINYGRAD_CODEGEN_TENSOR_CORE_H_
