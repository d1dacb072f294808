// File: autotune/codec/kernel_check.h
// What the kernel of a task from the network must be before a worker lowers it. node_check.h
// keeps interning safe node by node; these rules keep the codegen pipeline safe on the whole
// graph: its passes and renderers CHECK-fail (abort) on graphs no scheduler writes (a REDUCE
// of SUB, an index of float type, a range of -1 or 2**100 iterations, a SINK arg that only
// looks like a KernelInfo, ...). A task carries an unoptimized kernel as the scheduler writes
// it (the worker applies the candidates' opts), so the rules are that shape's:
// - the graph passes kernel_spec (tinygrad's type_verify at codegen's entry);
// - the SINK is the root only, of stores (void sources, none under another), its arg None or a
//   well-formed KernelInfo (fields of their types, every opt one OptFromArg reads); no node has
//   a tag (tags are a pass's scratch marks, and a tagged SINK would skip the optimizer the task
//   is for);
// - every dtype is scalar (the optimizer makes the vectors); CONST, VCONST and the DEFINEs have
//   no sources; DEFINE_GLOBAL slots are ints from 0 to 2**31-1, DEFINE_VAR bounds an int32
//   interval, DEFINE_LOCAL and DEFINE_REG are pointers of their address spaces;
// - RANGE is (id, LOOP|REDUCE|OUTER) over one index source of 2 to 2**40 iterations (fewer are
//   folded away, under a REDUCE that is then left without its range), a shape: numbers,
//   variables and ALU ops of them (a bound of another range or of a load is no shape dim, and
//   the range simplifier runs for minutes on one);
// - REDUCE is ADD, MUL or MAX of a value of its own dtype over REDUCE ranges; END closes
//   ranges, none that a REDUCE under its store closes; GEP takes lanes of its source; INDEX
//   is a pointer (or its element) of a pointer indexed by index-typed sources; STORE is
//   (pointer, value of its element type);
// - a CONST's number is of its dtype's kind and fits it (kernel_spec passes any index CONST);
//   an Invalid index CONST is only the false branch of a WHERE (cond.where(index, Invalid), a
//   masked access), never an operand of index math, which folding CHECK-fails on;
//   ALU ops have the source types of shared_spec (kernel_spec passes every index-typed ALU op
//   unchecked), comparisons are bools, and the float-only and int-only ops have those types;
//   no FDIV (codegen makes it from a * b.reciprocal() for the renderers that spell it);
// - the task's buffers are exactly its AST's DEFINE_GLOBALs (slot, dtype, size), and each
//   variable value of the task lies within its DEFINE_VAR's bounds.
// Errors are InvalidArgument naming the node (its index in toposort order, which is the order
// EncodeAst writes), the op and the rule.
#ifndef AUTOTUNE_CODEC_KERNEL_CHECK_H_
#define AUTOTUNE_CODEC_KERNEL_CHECK_H_

#include "absl/status/status.h"
#include "autotune/measure/measurer.h"
#include "tinygrad/uop/uop.h"

namespace tg::autotune::codec {

// OK when `ast` is a kernel the codegen pipeline lowers without aborting (the rules above).
absl::Status CheckTaskKernel(const UOp& ast);

// CheckTaskKernel, then the task's buffers and variable values against its AST.
absl::Status CheckKernelTask(const KernelTask& task);

}  // namespace tg::autotune::codec

#endif  // AUTOTUNE_CODEC_KERNEL_CHECK_H_
