// File: tinygrad/codegen/program.h
// Port of tinygrad/renderer/__init__.py Estimates.from_uops and ProgramSpec.from_uop, and of
// tinygrad/uop/ops.py print_uops: what a rendered kernel needs to be launched and costed.
//
// Example:
//   Estimates e = EstimatesFromUops(linear, /*ignore_indexing=*/true);
//   ProgramSpec p = ProgramSpecFromUops(ast, linear, src, "CPU");
#ifndef TINYGRAD_CODEGEN_PROGRAM_H_
#define TINYGRAD_CODEGEN_PROGRAM_H_

#include <span>
#include <string>
#include <vector>

#include "tinygrad/codegen/renderer.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// Flops (ALUs times the sizes of their enclosing loops and launch dims), bytes loaded/stored
// outside registers, and the bytes of every DEFINE_GLOBAL touched. With `ignore_indexing`,
// the index math of loads/stores/ifs is not counted as flops. Numbers are index CONSTs; a
// symbolic estimate stays in the lowered int dtype of its variables, as tinygrad's does.
Estimates EstimatesFromUops(std::span<const UOp> uops, bool ignore_indexing = false);

// ProgramSpec.from_uop: name from the final SINK's KernelInfo (the last uop), launch sizes from
// the SPECIALs, variables sorted by arg, buffer slots used/stored/loaded, estimates.
ProgramSpec ProgramSpecFromUops(const UOp& ast, std::vector<UOp> uops, std::string src,
                                std::string device);

// tinygrad's print_uops: one line per linear uop (index, op, ranges, dtype, sources, arg).
std::string PrintUops(std::span<const UOp> uops);

}  // namespace tg

#endif  // TINYGRAD_CODEGEN_PROGRAM_H_
