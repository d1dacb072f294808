// File: tinygrad/codegen/opt/padded_reduce.cc
// The PADTO safety check of reduce axes (see the header).
#include "tinygrad/codegen/opt/padded_reduce.h"

#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"

namespace tg {
namespace {

class ZeroWherePadded {
 public:
  // The nodes of `ast` that depend on `rng`, sources first (no recursion: ASTs can be deep).
  ZeroWherePadded(const UOp& ast, const UOp& rng) {
    for (const UOp& u : ast.toposort())
      if (u == rng || std::ranges::any_of(u.src(), [&](const UOp& s) { return uses_.contains(s); })) uses_.insert(u);
  }

  // Whether u is 0 on the added iterations of the range (reads indexed by it give 0 there).
  bool Zero(const UOp& u) {
    if (auto it = zero_.find(u); it != zero_.end()) return it->second;
    const bool z = Compute(u);
    zero_.emplace(u, z);
    return z;
  }

  // Whether u depends on the range.
  bool Uses(const UOp& u) const { return uses_.contains(u); }

 private:
  // A read of a buffer (an INDEX used as a value, or a LOAD of one) at an index that uses the range.
  bool GatedRead(const UOp& index) {
    if (index.op() != Ops::INDEX || index.src().size() < 2) return false;
    return std::any_of(index.src().begin() + 1, index.src().end(), [&](const UOp& s) { return Uses(s); });
  }
  bool Compute(const UOp& u) {
    switch (u.op()) {
      case Ops::CONST:
        return u.arg().is_number() && !u.arg().number().is_invalid() && u.arg().number().to_float() == 0;
      case Ops::INDEX:
        return !u.dtype().is_ptr() && GatedRead(u);
      case Ops::LOAD:
        return GatedRead(u.src(0));
      case Ops::MUL:
      case Ops::AND:  // 0 * x, 0 & x
        return Zero(u.src(0)) || Zero(u.src(1));
      case Ops::ADD:
      case Ops::SUB:
      case Ops::OR:
      case Ops::XOR:
      case Ops::MAX:
        return Zero(u.src(0)) && Zero(u.src(1));
      case Ops::NEG:
      case Ops::CAST:
      case Ops::SQRT:
      case Ops::SIN:
      case Ops::TRUNC:  // f(0) = 0
        return Zero(u.src(0));
      case Ops::SHL:
      case Ops::SHR:  // 0 shifted
        return Zero(u.src(0));
      case Ops::WHERE:  // either branch is 0, whatever the condition
        return Zero(u.src(1)) && Zero(u.src(2));
      case Ops::REDUCE:  // a sum of zeros
        return u.arg().is_ops() && u.arg().ops() == Ops::ADD && Zero(u.src(0));
      default:
        return false;
    }
  }

  absl::flat_hash_set<UOp> uses_;
  absl::flat_hash_map<UOp, bool> zero_;
};

}  // namespace

bool PaddedReducesAddZeros(const UOp& ast, const UOp& rng) {
  ZeroWherePadded zero(ast, rng);
  for (const UOp& r : ast.toposort()) {
    // a REDUCE's range sources are expressions of ranges once an opt split one (shift_to)
    if (r.op() != Ops::REDUCE || !std::any_of(r.src().begin() + 1, r.src().end(), [&](const UOp& s) { return zero.Uses(s); }))
      continue;
    if (!r.arg().is_ops() || r.arg().ops() != Ops::ADD || !zero.Zero(r.src(0))) return false;
  }
  return true;
}

}  // namespace tg
