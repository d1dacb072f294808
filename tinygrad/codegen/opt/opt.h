// File: tinygrad/codegen/opt/opt.h
// Port of tinygrad/codegen/opt/__init__.py: OptOps, Opt and KernelOptError.
//
// An Opt is one optimizer action on a kernel: split `axis` by `arg` and give the new axis a
// type (UPCAST, LOCAL, ...), or a structural change (SWAP, PADTO, TC, NOLOCALS). Kernels carry
// opts in KernelInfo as Arg tuples ("UPCAST", 0, 4); OptToArg/OptFromArg convert.
//
// KernelOptError is a value: an absl::Status with code kFailedPrecondition and a payload that
// marks it, so callers (BEAM, the heuristic) can tell "this opt does not apply" from a bug or
// an environment failure.
//
// Example:
//   Opt o{OptOps::UPCAST, 0, 4};
//   o.ToString()                 // "Opt(op=OptOps.UPCAST, axis=0, arg=4)"
//   absl::Status s = KernelOptError("invalid upcast");
//   IsKernelOptError(s)          // true
#ifndef TINYGRAD_CODEGEN_OPT_OPT_H_
#define TINYGRAD_CODEGEN_OPT_OPT_H_

#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tinygrad/uop/arg.h"

namespace tg {

// In the reference's declaration order (its enum values order opts). SIMD, BLOCK, PACK and GEMM
// are ours, last.
//
// SIMD (an extension, not in the reference; never chosen by the heuristic, and tried by BEAM
// only with BEAM_SIMD=1): loads and stores of the kernel fold into vectors of up to `arg` lanes
// (a width in Renderer::simd_widths) instead of the reference's 4, so that clang emits
// full-width vector code (float16 = one AVX-512 register). The reference's CPU code tops out at
// 128-bit vectors, about half of a Zen 4 core's FMA throughput. With SIMD the C renderer also
// declares the tile's accumulators as C vectors (renderer/c/vector_acc.h), and a PADTO applied
// after SIMD on a CPU renderer clamps the padded output axis in its loads instead of gating
// them (the stores stay gated): the 6x16 AVX2 tile on power-of-two sizes.
//
// BLOCK (an extension, like SIMD; BEAM tries it only with BEAM_BLOCK / `tg tune --blocking`):
// cache blocking of an output loop on CPU renderers. BLOCK axis n splits LOOP axis `axis`
// into blocks of n and moves the loop over the blocks outside every other output loop, so the
// operand panel one block reads stays in cache while the other output loops sweep it. BLOCK
// of a REDUCE axis blocks the reduction instead (BLAS's kc): the loop over K blocks runs
// outermost around the store, which adds each block's partial sum to what the earlier blocks
// stored (see scheduler_block.cc). One BLOCK of an output loop and one of the reduce per kernel.
//
// PACK (an extension, like BLOCK; BEAM tries it only with BEAM_PACK / `tg tune --pack`):
// packing of an operand on CPU renderers. PACK arg b copies the part of input buffer b that
// the kernel's innermost loops read (the K x n panel of B inside a BLOCK loop) into a
// contiguous stack buffer before those loops run, and the loops read the copy instead: the
// panel's rows no longer map to the same cache sets (see pack_operands.h).
//
// GEMM (an extension; BEAM tries it wherever the renderer generates matmul kernels): the whole
// kernel becomes the renderer's generated matmul (Renderer::RenderGemm; CudaRenderer on sm_90:
// shared-memory staging and wgmma, renderer/cuda/gemm_sm90.h), for a kernel that is a plain
// matmul (codegen/gemm_problem.h MatchGemm). Arg (bm, bn, stages): the block's output tile and
// the k-tiles in flight in shared memory; no axis. Only as the first opt, and no opt after it.
enum class OptOps : uint8_t {
  TC = 1, UPCAST, UNROLL, LOCAL, THREAD, GROUP, GROUPTOP, NOLOCALS, PADTO, SWAP, SIMD, BLOCK, PACK, GEMM
};

std::string_view OptOpsName(OptOps op);                   // "UPCAST"
std::optional<OptOps> OptOpsFromName(std::string_view name);

// None, an amount / axis, or TC's (tc_select, tc_opt, use_tensor_cores).
using OptArg = std::variant<std::monostate, int64_t, std::array<int64_t, 3>>;

struct Opt {
  OptOps op;
  std::optional<int64_t> axis;
  OptArg arg;

  // The reference's repr: "Opt(op=OptOps.TC, axis=0, arg=(-1, 2, 1))".
  std::string ToString() const;
  // dataclass(order=True): by op, then axis (None first), then arg.
  friend auto operator<=>(const Opt& a, const Opt& b) = default;
  friend bool operator==(const Opt& a, const Opt& b) = default;
};

// ("UPCAST", 0, 4): the KernelInfo form.
Arg OptToArg(const Opt& o);
// Errors name what was malformed.
absl::StatusOr<Opt> OptFromArg(const Arg& a);

// tinygrad's KernelOptError(msg) and check(cond, msg).
absl::Status KernelOptError(std::string_view msg);
bool IsKernelOptError(const absl::Status& s);

}  // namespace tg

#endif  // TINYGRAD_CODEGEN_OPT_OPT_H_
