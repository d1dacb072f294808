// File: autotune/codec/node_check.h
// What a decoded node must satisfy before UOp::Make may intern it. Interning computes range
// analysis (vmin/vmax) and tensor-graph shapes, which CHECK-fail (abort) or index src[0] on
// nodes no pass would build; a hostile message must get an error instead. The rules here are
// a superset of those preconditions, plus tinygrad's arity of ALU ops:
// - only kernel-level ops (the tensor-graph ops, movement ops, BUFFER/DEVICE/... never
//   appear in a kernel AST, and their shape/device rules are where most CHECKs live);
// - ALU ops have their arity; ops that read src[0] have one;
// - CONST has a number arg, VCONST a tuple of numbers, DEFINE_VAR (name, int, int);
// - BITCAST is to and from a non-void dtype (its shape rule divides by the item size);
// - no source has an Invalid range (Invalid in range arithmetic CHECK-fails).
// CheckNoSourceText is a separate rule, for what a worker would compile rather than what would
// abort: the renderers paste CUSTOM/CUSTOMI format strings, and the names in args (DEFINE_VAR,
// SPECIAL, WMMA, DEFINE_LOCAL/DEFINE_REG in the LLVM renderer), into the kernel's source as
// they are, so a job could choose the code that runs (a C statement that calls system()).
#ifndef AUTOTUNE_CODEC_NODE_CHECK_H_
#define AUTOTUNE_CODEC_NODE_CHECK_H_

#include <span>

#include "absl/status/status.h"
#include "tinygrad/dtype/dtype.h"
#include "tinygrad/uop/arg.h"
#include "tinygrad/uop/ops.h"
#include "tinygrad/uop/uop.h"

namespace tg::autotune::codec {

// The ops a kernel AST on the wire may hold.
bool IsWireKernelOp(Ops op);

// OK when UOp::Make(op, dtype, src, arg) is safe to call; otherwise why not (no location:
// the caller prefixes the node index).
absl::Status CheckNode(Ops op, DType dtype, std::span<const UOp> src, const Arg& arg);

// OK when nothing in the node reaches the rendered source as text: not CUSTOM or CUSTOMI, and
// every string in its arg (in tuples too) a C identifier ([A-Za-z_][A-Za-z0-9_]*), except a
// KernelInfo's kernel name, which the renderers escape (KernelInfo::function_name). Otherwise
// why not, naming the op and the string.
absl::Status CheckNoSourceText(Ops op, const Arg& arg);

}  // namespace tg::autotune::codec

#endif  // AUTOTUNE_CODEC_NODE_CHECK_H_
