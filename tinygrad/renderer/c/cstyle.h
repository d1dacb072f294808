// File: tinygrad/renderer/c/cstyle.h
// Port of tinygrad/renderer/cstyle.py: CStyleLanguage, the base of every C-like renderer
// (Clang here; CUDA, HIP and OpenCL later derive from it too).
//
// Render() walks a linear program (the linearizer's output, SINK last) once. Every uop gets a
// name (`data0_16`, `gidx0`, `Ridx0`, `alu3`, `val1`, `cast0`, `acc0`, ...) and a C expression
// from StringRewrite(); cheap or single-use expressions are substituted into their users, the
// rest become `T name = expr;` lines. A language is configured by the option fields below and
// by overriding the virtual hooks (tinygrad's class attributes and methods).
//
// Example:
//   ClangRenderer ren;                       // renderer/c/clang.h
//   std::string src = ren.Render(linear);    // "void E_16(float* restrict data0_16, ...) {...}"
#ifndef TINYGRAD_RENDERER_C_CSTYLE_H_
#define TINYGRAD_RENDERER_C_CSTYLE_H_

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "tinygrad/codegen/renderer.h"
#include "tinygrad/dtype/dtype.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// One kernel parameter: a buffer (pointer dtype) or a variable, in parameter order.
struct KernelParam {
  std::string name;
  DType dtype;
  bool writable = false;  // some STORE goes through it
};

// The name or inlined expression of every rendered uop (tinygrad's `self.r`).
using RenderNames = absl::flat_hash_map<UOp, std::string>;

class CStyleLanguage : public Renderer {
 public:
  CStyleLanguage();
  std::string Render(std::span<const UOp> uops) const override;

  // ** language options (tinygrad's class attributes) **
  std::string kernel_typedef = "void";  // "{launch_bounds}" is replaced by the local size
  std::string buffer_prefix;
  std::string buffer_suffix;
  std::string smem_align;
  std::string smem_prefix;
  bool smem_prefix_for_cast = true;
  std::string arg_int_prefix = "const int";
  std::string barrier;
  std::vector<std::string> extra_args;
  std::optional<std::string> float4;  // the vector constructor, e.g. "(float4)"
  std::pair<std::string, std::string> float4_style = {"(", ")"};
  int gep_arr_threshold = 4;  // vectors wider than this use v[i], narrower v.x
  std::map<ScalarType, std::string> type_map;
  std::string infinity = "INFINITY";
  std::string nan = "NAN";
  bool expand_ssa = false;  // EXPAND_SSA: never inline single-use expressions
  // ours: register accumulators whose slots are all lanes of vector constructors at least this
  // wide render as arrays of vectors (vector_acc.h); 0: never (the reference's rendering)
  int vector_acc_min_width = 0;

  // ** hooks **
  virtual std::string RenderDType(DType dt, bool is_mutable = true) const;
  virtual std::string RenderCast(DType dt, std::string_view val) const;
  // The expression of ALU `op` over rendered sources (tinygrad's code_for_op[op]); CHECKs that
  // `op` is in code_for_op.
  virtual std::string CodeForOp(Ops op, std::span<const std::string> args, DType dtype) const;
  // SPECIAL: the expression for workitem kind 'g', 'l' or 'i' and dimension `dim`.
  virtual std::string CodeForWorkitem(char kind, std::string_view dim) const;
  // tinygrad's string_rewrite: the line or expression for `u`, nullopt when no rule applies.
  // Subclasses handle their own cases and fall back to BaseRewrite.
  virtual std::optional<std::string> StringRewrite(const UOp& u, const RenderNames& r) const;
  // The whole program from the rendered body (tinygrad's render_kernel).
  virtual std::string RenderKernel(const std::string& function_name,
                                   std::span<const std::string> kernel,
                                   std::span<const KernelParam> bufs, std::span<const UOp> uops,
                                   const std::vector<std::string>* prefix = nullptr) const;

  // tinygrad's _render: the function name, body lines and parameters.
  struct Body {
    std::string function_name;
    std::vector<std::string> kernel;
    std::vector<KernelParam> bufs;
  };
  Body RenderBody(std::span<const UOp> uops) const;

 protected:
  // tinygrad's base_rewrite.
  std::optional<std::string> BaseRewrite(const UOp& u, const RenderNames& r) const;
  std::string RenderConst(const UOp& u) const;
};

// tinygrad's strip_parens: "(a+b)" -> "a+b" when the outer parens enclose everything.
std::string StripParens(const std::string& s);
// Python's str.format with positional fields ("{}", "{0}", "{{", "}}"), for CUSTOM args.
std::string FormatCustom(std::string_view fmt, std::span<const std::string> args);
// The name (or inlined expression) of `u`; CHECKs that it was rendered.
const std::string& NameOf(const RenderNames& r, const UOp& u);

// ** helpers the GPU renderers' prefixes share (module-level functions of cstyle.py) **

// tinygrad's uops_to_dtypes: the value dtypes of `uops` in first-use order (pointers left out).
std::vector<DType> UopsToDTypes(std::span<const UOp> uops);
// tinygrad's wmma_args: each distinct WMMA's arg (name, dims, dtype_in, dtype_out, device,
// threads, upcast_axes, reduce_axes) with the WMMA's scalar output dtype, in first-use order.
std::vector<std::pair<Arg, DType>> WmmaArgs(std::span<const UOp> uops);
// tinygrad's _nms: the member names of `n`-wide vector types: x y z w a..l, then v16..v31.
std::vector<std::string> VectorMemberNames(int n);

}  // namespace tg

#endif  // TINYGRAD_RENDERER_C_CSTYLE_H_
