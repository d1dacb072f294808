// Port of tinygrad/uop/symbolic.py: commutative (canonical operand order of index math).
#include "tinygrad/uop/symbolic/helpers.h"
#include "tinygrad/uop/symbolic/symbolic.h"

namespace tg {
namespace {

// a op b -> b op a when b sorts first
UOp SortOperands(const Match& m) {
  const UOp& x = m["x"];
  if (x.src().size() != 2 || !TuplizeLess(x.src(1), x.src(0))) return {};
  return x.replace_src({x.src(1), x.src(0)});
}

}  // namespace

const PatternMatcher& Commutative() {
  static const auto* const kRules = new PatternMatcher({
      // ** COMMUTATIVE flipping (only for index) **
      // a op b -> b op a when b.tuplize < a.tuplize (can break merging vector math)
      Rule(UPat(GroupOp::Commutative).dtype(dtypes::index).named("x"), SortOperands),
  });
  return *kRules;
}

}  // namespace tg
