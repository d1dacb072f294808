// File: tinygrad/uop/symbolic/symbolic.h
// Port of tinygrad/uop/symbolic.py and tinygrad/uop/divandmod.py: the symbolic simplifier's
// rule sets and the passes built on them.
//
// Example:
//   UOp a = UOp::Variable("a", 0, 8);
//   UOp e = Simplify((a * 3).idiv(3));   // a
//   Render(e)                            // "a"
//
// The rule sets keep tinygrad's names and composition:
//   SymbolicSimple() = propagate_invalid + symbolic_simple
//   Symbolic()       = SymbolicSimple() + Commutative() + the symbolic rules (with div_and_mod)
//   Sym()            = Symbolic() + pm_simplify_valid + the remaining `sym` rules
// (the symbolic rules are symbolic.py's phase 2, followed by DivAndModSymbolic() and
// GepPushing()). PmDropAndClauses() and PmMoveWhereOnLoad() are standalone, for the passes that
// add them.
#ifndef TINYGRAD_UOP_SYMBOLIC_SYMBOLIC_H_
#define TINYGRAD_UOP_SYMBOLIC_SYMBOLIC_H_

#include <string>

#include "absl/container/flat_hash_map.h"
#include "tinygrad/uop/pattern_matcher.h"
#include "tinygrad/uop/uop.h"

namespace tg {

const PatternMatcher& PropagateInvalid();
const PatternMatcher& SymbolicSimple();
const PatternMatcher& Commutative();
const PatternMatcher& DivAndModSymbolic();
const PatternMatcher& GepPushing();
const PatternMatcher& Symbolic();
const PatternMatcher& PmSimplifyValid();
const PatternMatcher& Sym();
// where(a & b, x, Invalid) drops the AND clauses that use none of x's ranges.
const PatternMatcher& PmDropAndClauses();
// where(c, buf[x], 0) moves the clauses of c it can into the load's valid.
const PatternMatcher& PmMoveWhereOnLoad();

// tinygrad's UOp.simplify(): a graph_rewrite with Symbolic(); CONST/VCONST return themselves.
UOp Simplify(const UOp& u);
// tinygrad's resolve(): the simplified bool's value when its range is one value, else `dflt`.
bool Resolve(const UOp& x, bool dflt = true);
// tinygrad's uop_given_valid / simplify_valid.
UOp UOpGivenValid(const UOp& valid, const UOp& u, bool try_simplex = true);
UOp SimplifyValid(const UOp& valid);

}  // namespace tg

#endif  // TINYGRAD_UOP_SYMBOLIC_SYMBOLIC_H_
