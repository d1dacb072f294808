// File: tinygrad/codegen/lower/devectorizer.h
// Port of tinygrad/codegen/late/devectorizer.py: the late lowering rule sets that turn vector
// ALUs into scalars, coalesce loads/stores into vector memory accesses the target supports,
// turn REDUCE into a register accumulator, and prepare the graph for rendering.
//
// Example (the "devectorize" pass of full_rewrite_to_sink):
//   const PatternMatcher pm = Sym() + Devectorize() + LoadStoreFolding() + CorrectLoadStore() +
//                             LoadStoreIndexing();
//   sink = GraphRewrite(sink, pm, {.name = "devectorize",
//                                  .ctx = RewriteCtx::Of<const LoadStoreTarget>({&ren})});
//
// Contexts: CorrectLoadStore() reads `const LoadStoreTarget` (the renderer's supports_float4
// and device, and the SIMD opt's width); PmReduce() reads ReduceContext. The other sets read no
// context.
#ifndef TINYGRAD_CODEGEN_LOWER_DEVECTORIZER_H_
#define TINYGRAD_CODEGEN_LOWER_DEVECTORIZER_H_

#include "tinygrad/uop/pattern_matcher.h"

namespace tg {

class Renderer;

// What CorrectLoadStore() splits vector loads and stores for: the target, and the SIMD opt's
// width (0: none; loads and stores then fold to the reference's float4 at most).
struct LoadStoreTarget {
  const Renderer* ren = nullptr;
  int simd_width = 0;
};

// devectorize (+ devectorize_buf_and_index): vector ALU/CAST/BITCAST -> VECTORIZE of scalar
// ops, vector WMMA -> hardware-size WMMAs, CAST after AFTER swapped, vector DEFINE_LOCAL /
// DEFINE_REG -> scalar buffers with per-lane indices.
const PatternMatcher& Devectorize();
// load_store_folding: INDEX of a broadcast buffer -> per-lane INDEXes (expand_index), lanes with
// consecutive offsets folded into vector pointers in a PTRCAT (fold_expanded_index), LOAD/STORE
// pushed through GEP and PTRCAT.
const PatternMatcher& LoadStoreFolding();
// correct_load_store (split_load_store): vector LOAD/STORE split into the widths the target
// supports. ctx: `const Renderer`.
const PatternMatcher& CorrectLoadStore();
// load_store_indexing: simplify a gated INDEX given its valid (simplify_valid_load), drop a
// True gate.
const PatternMatcher& LoadStoreIndexing();
// pm_render: vector CONST/VCONST/multi-lane GEP as VECTORIZE of scalars, gated LOADs get an
// alt value, where(c, gated load, a) folded into the load's alt.
const PatternMatcher& PmRender();
// pm_add_loads: a value-dtype INDEX -> LOAD of a pointer INDEX; STORE through a LOAD -> STORE
// to the pointer.
const PatternMatcher& PmAddLoads();

// The state of the "remove_reduce" pass: the next accumulator's DEFINE_REG number.
struct ReduceContext {
  int acc_num = 0;
};

// pm_reduce: REDUCE -> DEFINE_REG accumulator with init store, update and END over the reduce
// ranges (reduce_to_acc, horizontal part first); WMMA + x -> WMMA accumulating into x.
// ctx: ReduceContext.
const PatternMatcher& PmReduce();

}  // namespace tg

#endif  // TINYGRAD_CODEGEN_LOWER_DEVECTORIZER_H_
