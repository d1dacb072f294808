// File: tinygrad/uop/custom_kernel.h
// Kernels written by hand in UOps and called from the tensor graph: tinygrad's CustomKernel and
// UOp.custom_kernel (uop/ops.py), with the helpers such kernels are written with
// (UOp.placeholder, __getitem__, set, group, contract, flatten). Target
// //tinygrad/uop:custom_kernel.
//
// A custom kernel is a function from one placeholder per source (a DEFINE_GLOBAL of the
// source's dtype and size, reshaped to its shape; slot i is source i) to the kernel's AST: a
// SINK of stores, usually with a KernelInfo naming it. The tensor graph holds the function, not
// the AST: the scheduler calls it (ResolveCustomKernel) once multi-device graphs are split into
// shards, so on several devices each one's placeholders have its shard's shape.
//
// Example (tinygrad's test_custom_kernel.py custom_elementwise_add_kernel):
//   UOp AddKernel(std::span<const UOp> p) {            // p: C, A, B
//     UOp c = Flatten(p[0]), a = Flatten(p[1]), b = Flatten(p[2]);
//     UOp i = UOp::Range(ShapeSize(c), 0);
//     UOp store = At(c, {i}).store(At(a, {i}) + At(b, {i})).end({i});
//     return KernelSink({store}, {.name = "custom_add"});
//   }
//   std::vector<UOp> outs = CustomKernelOutputs({c, a, b}, AddKernel);   // c, a, b after it
#ifndef TINYGRAD_UOP_CUSTOM_KERNEL_H_
#define TINYGRAD_UOP_CUSTOM_KERNEL_H_

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/dtype/dtype.h"
#include "tinygrad/uop/arg.h"
#include "tinygrad/uop/graph_util.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// Writes the kernel: one placeholder per source in, the AST (a SINK) out.
using CustomKernelFn = std::function<UOp(std::span<const UOp> params)>;
// tinygrad's grad_fxn: from the gradient of the kernel's output (the first source's buffer
// after it) and the CUSTOM_KERNEL node, one gradient per source of the node (a null UOp where
// a source gets none: tinygrad's None).
using CustomGradFn = std::function<std::vector<UOp>(const UOp& grad, const UOp& kernel)>;

// The arg of a CUSTOM_KERNEL: its two functions, compared by identity.
class CustomKernel : public OpaqueValue {
 public:
  CustomKernel(CustomKernelFn fxn, CustomGradFn grad_fxn)
      : fxn_(std::move(fxn)), grad_fxn_(std::move(grad_fxn)) {}
  std::string repr() const override;
  const CustomKernelFn& fxn() const { return fxn_; }
  const CustomGradFn& grad_fxn() const { return grad_fxn_; }  // may be empty

 private:
  CustomKernelFn fxn_;
  CustomGradFn grad_fxn_;
};

// The arg of a tensor-graph KERNEL made from a CUSTOM_KERNEL (tinygrad's Kernel(ast)): the AST
// its function wrote, kept out of the graph's sources until the scheduler has placed the
// kernel's buffers.
class CustomKernelAst : public OpaqueValue {
 public:
  explicit CustomKernelAst(UOp ast) : ast_(std::move(ast)) {}
  std::string repr() const override;
  const UOp& ast() const { return ast_; }

 private:
  UOp ast_;
};

// tinygrad's UOp.custom_kernel: each source made contiguous, one CUSTOM_KERNEL over them, and
// each source AFTER it (the values the kernel leaves in those buffers), in the sources' order.
std::vector<UOp> CustomKernelOutputs(std::span<const UOp> srcs, CustomKernelFn fxn,
                                     CustomGradFn grad_fxn = nullptr);

// The AST of `ck`, a CUSTOM_KERNEL: its function called on placeholders of its sources, then
// checked. Errors (each naming the kernel): a source without a shape of plain ints, no AST
// returned, an AST that is not a SINK, holds tensor-graph ops or tags, or fails kernel_spec.
absl::StatusOr<UOp> ResolveCustomKernel(const UOp& ck);

// ** writing kernels **

// tinygrad's UOp.placeholder: a DEFINE_GLOBAL (DEFINE_LOCAL, DEFINE_REG by addrspace) of
// `dtype` holding prod(shape) elements at `slot`, reshaped to `shape` when it has several dims.
UOp Placeholder(const std::vector<int64_t>& shape, DType dtype, int64_t slot,
                AddrSpace addrspace = AddrSpace::GLOBAL);
// The number of elements of a shaped UOp (CHECKs an int shape).
int64_t ShapeSize(const UOp& x);
// x reshaped to one dimension.
UOp Flatten(const UOp& x);

// One index of At(): a UOp (a RANGE or any index expression), an int, or Whole{} (tinygrad's `:`).
struct Whole {};
using AtIndex = std::variant<UOp, int64_t, Whole>;
// tinygrad's UOp.__getitem__ on a shaped buffer: one index per dimension. With only UOps and
// ints, the element (an INDEX of the buffer's scalar dtype); with Whole{} dims, a pointer INDEX
// to the sub-buffer of those dims (indexed again with At). CHECKs one index per dimension.
UOp At(const UOp& buf, std::initializer_list<AtIndex> idx);
UOp At(const UOp& buf, std::span<const AtIndex> idx);
// tinygrad's UOp.set: store `val` at `index`, END the `end` ranges, and the buffer AFTER that
// (so later reads of it see the store).
UOp Set(const UOp& index, const UOp& val, std::initializer_list<UOp> end = {});
UOp Set(const UOp& index, ConstValue val, std::initializer_list<UOp> end = {});
// tinygrad's UOp.group (graph_util.h): the one source, or a GROUP of them.
inline UOp Group(std::initializer_list<UOp> srcs) {
  return Group(std::span<const UOp>(srcs.begin(), srcs.size()));
}
// tinygrad's UOp.contract: x's values over UPCAST ranges as one vector (CHECKs UPCAST ranges).
UOp Contract(const UOp& x, std::initializer_list<UOp> ranges);
// The kernel's root: a SINK of `srcs` with `info` as its arg.
UOp KernelSink(std::initializer_list<UOp> srcs, const KernelInfo& info);

}  // namespace tg

#endif  // TINYGRAD_UOP_CUSTOM_KERNEL_H_
