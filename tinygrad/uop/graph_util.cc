// File: tinygrad/uop/graph_util.cc
// Port of tinygrad/uop/ops.py: the UOp properties and sugar of graph_util.h.
#include "tinygrad/uop/graph_util.h"

#include <algorithm>

#include "absl/container/flat_hash_set.h"
#include "tinygrad/base/check.h"

namespace tg {


namespace {
bool Has(const std::vector<UOp>& v, const UOp& u) {
  return std::find(v.begin(), v.end(), u) != v.end();
}
}  // namespace


std::vector<UOp> Toposort(const UOp& root, const std::function<bool(const UOp&)>& gate) {
  std::vector<UOp> out;
  absl::flat_hash_set<UOp> done;
  std::vector<std::pair<UOp, bool>> stack{{root, false}};
  while (!stack.empty()) {
    auto [node, visited] = std::move(stack.back());
    stack.pop_back();
    if (done.contains(node)) continue;
    if (!visited) {
      if (gate(node)) {
        stack.push_back({node, true});
        for (auto it = node.src().rbegin(); it != node.src().rend(); ++it) stack.push_back({*it, false});
      }
    } else {
      done.insert(node);
      out.push_back(node);
    }
  }
  return out;
}

absl::flat_hash_map<UOp, std::vector<UOp>> ConsumerMap(const UOp& root) {
  absl::flat_hash_map<UOp, std::vector<UOp>> out;
  for (const UOp& u : root.toposort()) {
    out.try_emplace(u);
    for (const UOp& s : u.src()) {
      std::vector<UOp>& c = out[s];
      if (!Has(c, u)) c.push_back(u);
    }
  }
  return out;
}

UOp End(const UOp& x, std::span<const UOp> rngs) {
  if (rngs.empty()) return x;
  std::vector<UOp> src{x};
  src.insert(src.end(), rngs.begin(), rngs.end());
  return UOp::Make(Ops::END, dtypes::void_, src);
}

UOp After(const UOp& x, std::span<const UOp> srcs) {
  std::vector<UOp> src{x};
  src.insert(src.end(), srcs.begin(), srcs.end());
  return UOp::Make(Ops::AFTER, x.dtype(), src);
}

UOp Group(std::span<const UOp> srcs) {
  if (srcs.size() == 1) return srcs[0];
  return UOp::Make(Ops::GROUP, dtypes::void_, srcs);
}

UOp Reduce(const UOp& x, std::span<const UOp> rngs, Ops op) {
  std::vector<UOp> src{x};
  src.insert(src.end(), rngs.begin(), rngs.end());
  return UOp::Make(Ops::REDUCE, x.dtype(), src, Arg(op));
}

UOp RangeWithArg(const UOp& end, Arg arg) {
  return UOp::Make(Ops::RANGE, dtypes::index, {end}, std::move(arg));
}

AxisType RangeAxisType(const UOp& r) {
  TG_CHECK(r.op() == Ops::RANGE && r.arg().is_tuple()) << "not a RANGE: " << OpName(r.op());
  return r.arg()[r.arg().size() - 1].axis_type();
}

std::vector<Arg> RangeIds(const UOp& r) {
  std::span<const Arg> t = r.arg().tuple();
  return std::vector<Arg>(t.begin(), t.end() - 1);
}

namespace {
int ArgCmp(const Arg& a, const Arg& b) {
  if (a.is_number() && b.is_number()) {
    if (NumLess(a.number(), b.number())) return -1;
    if (NumLess(b.number(), a.number())) return 1;
    return 0;
  }
  if (a.is_axis_type() && b.is_axis_type()) {
    return static_cast<int>(a.axis_type()) - static_cast<int>(b.axis_type());
  }
  if (a.is_tuple() && b.is_tuple()) {
    size_t n = std::min(a.size(), b.size());
    for (size_t i = 0; i < n; ++i)
      if (int c = ArgCmp(a[i], b[i]); c != 0) return c;
    return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
  }
  // Python would raise comparing a number with an AxisType; numbers first keeps it total.
  return a.is_number() ? -1 : 1;
}
}  // namespace

bool RangeArgLess(const Arg& a, const Arg& b) { return ArgCmp(a, b) < 0; }

const PatternMatcher& SubstituteRules() {
  static const auto* const kRules = new PatternMatcher({
      // any node in the map becomes its replacement
      Rule(UPat(GroupOp::All).named("x"),
           [](const Match& m) {
             const SubstituteMap& map = m.ctx<SubstituteMap>();
             auto it = map.find(m["x"]);
             return it == map.end() ? UOp() : it->second;
           }),
  });
  return *kRules;
}

UOp BufTarget(const UOp& u) {
  UOp x = u;
  while (true) {
    switch (x.op()) {
      case Ops::DEFINE_GLOBAL:
      case Ops::DEFINE_LOCAL:
      case Ops::DEFINE_REG:
        return x;
      case Ops::AFTER:
      case Ops::INDEX:
      case Ops::STORE:
      case Ops::LOAD:
      case Ops::VECTORIZE:  // a broadcast buffer (all sources the same)
        x = x.src(0);
        break;
      default:
        TG_CHECK(false) << "buf_target called on non load/index/store " << OpName(x.op());
        return x;
    }
  }
}

std::vector<UOp> NodesWithOp(const UOp& root, OpSet ops) {
  std::vector<UOp> out;
  for (const UOp& u : root.toposort())
    if (ops.contains(u.op())) out.push_back(u);
  return out;
}

}  // namespace tg
