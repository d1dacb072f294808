// File: tinygrad/codegen/opt/pack_operands.h
// The PACK opt (ours, not in the reference): packing an operand's panel into a contiguous
// buffer on the CPU, as BLAS packs B before its inner kernel.
//
// Why: a tuned matmul walks a K x nb panel of B (B[k, j0:j0+nb] for every k). When B's row
// stride is a multiple of 4 KiB (N = 1024, 2048, ...), every row of that walk maps to the same
// few L1 sets, and the panel that BLOCK keeps "in cache" keeps evicting itself: measured on a
// Zen 5, matmul 1024 ran at 2/3 of the GFLOP/s of matmul 992 with the same opts, and at the
// same GFLOP/s as 992 when B was stored as contiguous K x 16 panels.
//
// What PACK b does to a kernel: take its one load of input buffer b, L = b[f(ranges)]. The
// load's ranges split in two: the outer ones are the launch ranges it uses (THREAD) and the
// outermost output loops, in nest order, as long as L uses them (the loop over BLOCK's blocks:
// one panel per block); the inner ones are all its other ranges (the loops inside, the reduce
// and the UPCAST/UNROLL axes of the register tile). Before the inner loops run, a copy loop
// nest over fresh ranges with the inner ranges' sizes stores L into a stack array (a
// DEFINE_LOCAL: each CPU thread has its own), laid out with the loops and reduces outermost in
// nest order, then UNROLL, then UPCAST innermost (B's panel as [j-tiles][K][nr]: the register
// tile's vector loads stay contiguous); the kernel then reads the array instead of b. The copy
// is a sibling loop of the compute's loops under the innermost outer range, ordered before
// them through AFTER (the linearizer's sibling rule), so it runs once per panel: with
// BLOCK1:n on a matmul, once per block of n columns, not once per row tile. Inside a BLOCK of
// the reduce (the loop over K blocks is an outer loop that L uses) the copy holds one K block:
// a kc x n panel. A THREAD range L uses is outside the copy too, so each thread copies only
// the part it reads; with THREAD on ranges L does not use (a matmul's rows for B) every thread
// reads, and so copies, the whole panel into its own stack array.
//
// The array is the inner ranges' product of floats; more than kMaxPackElements is an error (a
// stack array must stay well inside a thread's stack): block the loops first. (The Scheduler's
// PACK moves the outermost loop that reads the buffer outermost itself when no BLOCK was
// applied and that makes the copy fit: scheduler_pack.cc.) PACK applies
// to CPU renderers only (no locals: on GPUs DEFINE_LOCAL is shared memory, another thing).
// The result of a packed kernel is the same sum in the same order: only where B's values are
// read from changes.
//
// Example:
//   opts: UPCAST1:16 UPCAST0:4 SIMD:16 BLOCK1:2 PACK:2    (PACK:2 packs buffer 2, the B of C = A @ B)
//   ASSIGN_OR_RETURN(UOp packed, PackOperands(sink));   // in the pipeline, after the opts
#ifndef TINYGRAD_CODEGEN_OPT_PACK_OPERANDS_H_
#define TINYGRAD_CODEGEN_OPT_PACK_OPERANDS_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// The most elements a packed copy may hold (512 KiB of float32).
inline constexpr int64_t kMaxPackElements = 128 * 1024;

// What PACK `buffer` would do to the kernel `sink`: its load of the buffer, the ranges outside
// the copy, the ranges the copy spans (in the array's layout order, outermost first) and the
// array's size in elements.
struct PackPlan {
  UOp load;
  std::vector<UOp> outer;
  std::vector<UOp> inner;
  int64_t elements = 0;
};

// The kernel's one load of input buffer `buffer`, or a KernelOptError (IsKernelOptError): the
// kernel does not read it, writes it, or reads it more than once.
absl::StatusOr<UOp> PackedLoad(const UOp& sink, int64_t buffer);

// PackedLoad's errors, or one saying that the copy would be empty, read through a symbolic
// range, or larger than kMaxPackElements.
absl::StatusOr<PackPlan> PlanPack(const UOp& sink, int64_t buffer);

// Applies the kernel's PACK opts (from the SINK's KernelInfo applied_opts) to `sink`, an AST
// after the opts (ranges in place, before the expander); `sink` itself when there are none.
absl::StatusOr<UOp> PackOperands(const UOp& sink);

}  // namespace tg

#endif  // TINYGRAD_CODEGEN_OPT_PACK_OPERANDS_H_
