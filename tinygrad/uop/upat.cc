// Port of tinygrad/uop/ops.py: UPat and its matching (tinygrad's UPat.match), written as
// continuation passing so that every match is tried without building lists of stores.
//
// The stack a match needs must not grow with the number of sources of the node (a VECTORIZE
// or SINK of a big-upcast kernel has thousands; a thread that runs out of stack kills the
// process). So continuations are used only where there are alternatives to come back to: a
// source pattern with at most one way to match (Node::single, most of them) is matched in a
// loop, a pattern with alternatives in a fixed source list continues into the next sources
// (the recursion is bounded by the pattern's size), and a repeated pattern with alternatives
// backtracks over the sources with an explicit stack on the heap.
#include "tinygrad/uop/upat.h"

#include <algorithm>
#include <sstream>

#include "tinygrad/base/check.h"

namespace tg {

struct UPat::Node {
  bool any_op = true;  // no op constraint
  OpSet ops;
  std::vector<DType> dtypes;  // empty: any dtype
  std::optional<Arg> arg;
  std::string name;
  enum class Src { kNone, kTuple, kAnyOrder, kRepeat } src_kind = Src::kNone;
  std::vector<UPat> srcs;                 // as given (kRepeat: one pattern)
  std::vector<std::vector<UPat>> orders;  // kTuple: srcs; kAnyOrder: every distinct permutation
  bool is_any = false;                    // srcs are alternatives
  bool allow_any_len = false;
  OpSet early_reject;
  // Matches any node in at most one way, so nothing is left to try after it matched: no
  // alternatives (an Any's have disjoint op sets, so one node passes one at most), one source
  // order, and every source pattern single.
  bool single = true;

  // Recomputes what derives from the fields above (tinygrad's __init__ tail).
  void Finalize() {
    orders.clear();
    if (src_kind == Src::kTuple) orders.push_back(srcs);
    if (src_kind == Src::kAnyOrder) {
      bool all_same = std::all_of(srcs.begin(), srcs.end(),
                                  [&](const UPat& p) { return p.n_ == srcs[0].n_; });
      std::vector<size_t> idx(srcs.size());
      for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
      do {  // itertools.permutations order: lexicographic over positions
        std::vector<UPat> o;
        for (size_t i : idx) o.push_back(srcs[i]);
        orders.push_back(std::move(o));
      } while (!all_same && std::next_permutation(idx.begin(), idx.end()));
    }
    early_reject = OpSet();
    if (src_kind != Src::kNone) {
      for (const UPat& p : src_kind == Src::kRepeat ? srcs : orders[0])
        if (!p.n_->any_op && p.n_->ops.size() == 1 && !p.n_->is_any) early_reject.Add(p.n_->ops.First());
    }
    single = is_any ? AlternativesExclusive() : orders.size() <= 1;
    for (const UPat& p : srcs) single = single && p.n_->single;  // sources, or an Any's alternatives
  }
  // Whether at most one of an Any's alternatives can match a node: each names its ops (no Any
  // among them) and no op is in two.
  bool AlternativesExclusive() const {
    OpSet seen;
    for (const UPat& p : srcs) {
      if (p.n_->any_op || p.n_->is_any || (seen | p.n_->ops).size() != seen.size() + p.n_->ops.size()) return false;
      seen = seen | p.n_->ops;
    }
    return true;
  }
  bool strict_length() const { return !(allow_any_len || src_kind == Src::kRepeat || src_kind == Src::kNone); }
  size_t required_len() const { return src_kind == Src::kRepeat || src_kind == Src::kNone ? 0 : srcs.size(); }
};

namespace {
// Python's == between a pattern arg and a node arg: numbers compare by value (1 == 1.0 ==
// True), Invalid only equals Invalid, tuples elementwise.
bool ArgMatches(const Arg& want, const Arg& have) {
  if (want.is_number() && have.is_number()) {
    const ConstValue &w = want.number(), &h = have.number();
    if (w.is_invalid() || h.is_invalid()) return w.is_invalid() && h.is_invalid();
    return NumEq(w, h);
  }
  if (want.is_tuple() && have.is_tuple()) {
    if (want.size() != have.size()) return false;
    for (size_t i = 0; i < want.size(); ++i)
      if (!ArgMatches(want[i], have[i])) return false;
    return true;
  }
  return want == have;
}

// Whether a pattern's op set rules `u` out (an Any has none of its own: never). Most tries fail
// on the op, so the callers check it first, before any call.
bool OpRejects(bool any_op, const OpSet& ops, const UOp& u) { return !any_op && !ops.contains(u.op()); }
}  // namespace

void RewriteCtx::CheckType(const void* want) const {
  TG_CHECK(ptr_ != nullptr) << "a rule asked for a rewrite context, but the rewrite has none";
  TG_CHECK(want == tag_) << "a rule asked for a rewrite context of another type than the one "
                            "the rewrite was given";
}

const UOp& Match::operator[](std::string_view name) const {
  for (const Capture& c : captures_)
    if (c.name == name) return *c.uop;
  TG_CHECK(false) << "rule at " << where_.file_name() << ":" << where_.line()
                  << " reads capture \"" << name << "\" that its pattern does not bind";
  return *captures_[0].uop;
}

bool Match::has(std::string_view name) const {
  for (const Capture& c : captures_)
    if (c.name == name) return true;
  return false;
}

UPat::UPat() : n_(std::make_shared<const UPat::Node>()) {}
UPat::UPat(Ops op) : UPat(OpSet{op}) {}
UPat::UPat(OpSet ops) {
  auto n = std::make_shared<UPat::Node>();
  n->any_op = false;
  n->ops = ops;
  n_ = std::move(n);
}

UPat UPat::With(const std::function<void(UPat::Node&)>& edit) const {
  auto n = std::make_shared<UPat::Node>(*n_);
  edit(*n);
  n->Finalize();
  return UPat(std::shared_ptr<const UPat::Node>(std::move(n)));
}

UPat UPat::Var(std::string name, std::vector<DType> dtypes) {
  return UPat().With([&](UPat::Node& n) {
    n.name = std::move(name);
    n.dtypes = std::move(dtypes);
  });
}
UPat UPat::CVar(std::string name, std::vector<DType> dtypes, bool vec) {
  return UPat(vec ? OpSet{Ops::CONST, Ops::VCONST} : OpSet{Ops::CONST}).With([&](UPat::Node& n) {
    n.name = std::move(name);
    n.dtypes = std::move(dtypes);
  });
}
UPat UPat::Const(std::vector<DType> dtypes, ConstValue value) {
  return UPat(Ops::CONST).With([&](UPat::Node& n) {
    n.dtypes = std::move(dtypes);
    n.arg = Arg(value);
  });
}
UPat UPat::Any(std::initializer_list<UPat> alternatives) {
  return UPat().With([&](UPat::Node& n) {
    n.is_any = true;
    n.srcs = alternatives;
  });
}

UPat UPat::named(std::string name) const { return With([&](UPat::Node& n) { n.name = std::move(name); }); }
UPat UPat::dtype(std::vector<DType> dtypes) const {
  return With([&](UPat::Node& n) { n.dtypes = std::move(dtypes); });
}
UPat UPat::arg(Arg a) const { return With([&](UPat::Node& n) { n.arg = std::move(a); }); }
UPat UPat::src(std::initializer_list<UPat> srcs) const {
  return With([&](UPat::Node& n) {
    n.src_kind = UPat::Node::Src::kTuple;
    n.srcs = srcs;
  });
}
UPat UPat::src_any_order(std::initializer_list<UPat> srcs) const {
  return With([&](UPat::Node& n) {
    n.src_kind = UPat::Node::Src::kAnyOrder;
    n.srcs = srcs;
  });
}
UPat UPat::src_repeat(UPat each) const {
  return With([&](UPat::Node& n) {
    n.src_kind = UPat::Node::Src::kRepeat;
    n.srcs = {std::move(each)};
  });
}
UPat UPat::allow_any_len() const { return With([](UPat::Node& n) { n.allow_any_len = true; }); }

UPat UPat::alu(Ops op, std::initializer_list<UPat> rest) const {
  std::vector<UPat> all{*this};
  all.insert(all.end(), rest.begin(), rest.end());
  std::vector<DType> dt = (op == Ops::CMPLT || op == Ops::CMPNE) ? std::vector<DType>{dtypes::bool_}
                                                                 : all.back().n_->dtypes;
  bool any_order = GroupOp::Commutative.contains(op);
  return UPat(op).With([&](UPat::Node& n) {
    n.dtypes = std::move(dt);
    n.src_kind = any_order ? UPat::Node::Src::kAnyOrder : UPat::Node::Src::kTuple;
    n.srcs = std::move(all);
  });
}
UPat UPat::cast(std::vector<DType> dtypes) const { return UPat(Ops::CAST).dtype(std::move(dtypes)).src({*this}); }
UPat UPat::bitcast(std::vector<DType> dtypes) const {
  return UPat(Ops::BITCAST).dtype(std::move(dtypes)).src({*this});
}
UPat UPat::where(const UPat& t, const UPat& f) const {
  return UPat(Ops::WHERE).dtype(f.n_->dtypes).src({*this, t, f});
}
UPat UPat::logical_not() const { return ne(const_like(true)); }
UPat UPat::const_like(ConstValue v) const { return Const(n_->dtypes, v); }
UPat UPat::index(const UPat& idx) const { return UPat(Ops::INDEX).dtype(n_->dtypes).src({*this, idx}); }
UPat UPat::index(const UPat& idx, const UPat& valid) const {
  return UPat(Ops::INDEX).dtype(n_->dtypes).src({*this, idx, valid});
}
UPat UPat::gep(std::optional<int> lane) const {
  UPat p = UPat(Ops::GEP).src({*this});
  return lane ? p.arg(Arg::Tuple({*lane})) : p;
}
UPat UPat::load(std::initializer_list<UPat> rest) const {
  std::vector<UPat> all{*this};
  all.insert(all.end(), rest.begin(), rest.end());
  return UPat(Ops::LOAD).With([&](UPat::Node& n) {
    n.src_kind = UPat::Node::Src::kTuple;
    n.srcs = std::move(all);
  });
}
UPat UPat::store(std::initializer_list<UPat> rest) const {
  std::vector<UPat> all{*this};
  all.insert(all.end(), rest.begin(), rest.end());
  return UPat(Ops::STORE).With([&](UPat::Node& n) {
    n.dtypes = n_->dtypes;
    n.src_kind = UPat::Node::Src::kTuple;
    n.srcs = std::move(all);
  });
}
UPat UPat::broadcast() const { return UPat(Ops::VECTORIZE).dtype(n_->dtypes).src_repeat(*this); }
UPat UPat::or_casted(std::string name) const {
  UPat self = name.empty() ? *this : named(name);
  UPat casted = UPat(Ops::CAST).src({*this});
  if (!name.empty()) casted = casted.named(name);
  return Any({self, casted});
}

OpSet UPat::ops() const { return n_->any_op ? OpSet() : n_->ops; }
OpSet UPat::early_reject() const { return n_->early_reject; }

// Inlined into its two callers: it runs on every try that passes the op check.
[[gnu::always_inline]] inline bool UPat::MatchSelf(const UOp& u, tg::Match& m) const {
  const UPat::Node& p = *n_;  // the op was checked by the caller (OpRejects)
  if (!p.dtypes.empty()) {
    DType d = u.dtype(), s = d.scalar();
    if (std::none_of(p.dtypes.begin(), p.dtypes.end(), [&](DType x) { return x == d || x == s; })) return false;
  }
  if (p.arg && !ArgMatches(*p.arg, u.arg())) return false;
  if (u.src().size() < p.required_len()) return false;
  if (p.strict_length() && u.src().size() != p.required_len()) return false;
  // the name last: the checks are pure, so their order does not change the result
  if (p.name.empty()) return true;
  for (const tg::Match::Capture& c : m.captures_)
    if (c.name == p.name) return *c.uop == u;
  m.captures_.push_back({p.name, &u});
  return true;
}

bool UPat::MatchOnce(const UOp& u, tg::Match& m) const {
  const UPat::Node& p = *n_;
  if (OpRejects(p.any_op, p.ops, u)) return false;
  if (p.is_any) {
    for (const UPat& alt : p.srcs)
      if (alt.MatchOnce(u, m)) return true;
    return false;
  }
  const size_t mark = m.captures_.size();
  if (!MatchSelf(u, m)) return false;
  if (p.src_kind == UPat::Node::Src::kNone) return true;
  const bool repeat = p.src_kind == UPat::Node::Src::kRepeat;
  std::span<const UPat> pats = repeat ? std::span<const UPat>(p.srcs) : std::span<const UPat>(p.orders[0]);
  std::span<const UOp> srcs = u.src();
  const size_t n = repeat ? srcs.size() : std::min(srcs.size(), pats.size());
  for (size_t i = 0; i < n; ++i) {
    if (!(repeat ? pats[0] : pats[i]).MatchOnce(srcs[i], m)) {
      m.captures_.resize(mark);
      return false;
    }
  }
  return true;
}

bool UPat::MatchSrcs(std::span<const UPat> pats, bool repeat, std::span<const UOp> srcs, size_t i,
                     tg::Match& m, absl::FunctionRef<bool()> k) {
  const size_t n = repeat ? srcs.size() : std::min(srcs.size(), pats.size());
  const size_t mark = m.captures_.size();
  auto fail = [&] {
    m.captures_.resize(mark);
    return false;
  };
  for (; i < n; ++i) {  // the sources with one way to match, in a loop
    const UPat& p = repeat ? pats[0] : pats[i];
    if (!p.n_->single) break;
    if (!p.MatchOnce(srcs[i], m)) return fail();
  }
  if (i == n) return k() || fail();
  if (repeat) return MatchRepeatBacktracking(pats[0], srcs, i, m, k) || fail();
  // alternatives: the sources after this one are the continuation of each of its matches
  return pats[i].Match(srcs[i], m, [&] { return MatchSrcs(pats, repeat, srcs, i + 1, m, k); }) || fail();
}

bool UPat::MatchRepeatBacktracking(const UPat& p, std::span<const UOp> srcs, size_t i, tg::Match& m,
                                   absl::FunctionRef<bool()> k) {
  using Captures = std::vector<tg::Match::Capture>;
  const Captures entry = m.captures_;
  // Level j holds the captures of every way srcs[i + j] matches, given the way taken at level
  // j - 1, in the order the continuation-passing match would try them; `next` is the next to try.
  struct Level {
    std::vector<Captures> ways;
    size_t next = 0;
  };
  std::vector<Level> stack;
  auto descend = [&] {
    Level level;
    p.Match(srcs[i + stack.size()], m, [&] {
      level.ways.push_back(m.captures_);
      return false;
    });
    stack.push_back(std::move(level));
  };
  descend();
  while (!stack.empty()) {
    Level& top = stack.back();
    if (top.next == top.ways.size()) {
      stack.pop_back();
      continue;
    }
    m.captures_ = top.ways[top.next++];
    if (i + stack.size() == srcs.size()) {
      if (k()) return true;
    } else {
      descend();
    }
  }
  m.captures_ = entry;
  return false;
}

bool UPat::Match(const UOp& u, tg::Match& m, absl::FunctionRef<bool()> k) const {
  const UPat::Node& p = *n_;
  if (OpRejects(p.any_op, p.ops, u)) return false;
  const size_t mark = m.captures_.size();
  auto fail = [&] {
    m.captures_.resize(mark);
    return false;
  };
  if (p.single) return MatchOnce(u, m) && (k() || fail());
  if (p.is_any) {
    for (const UPat& alt : p.srcs)
      if (alt.Match(u, m, k)) return true;
    return false;
  }
  if (!MatchSelf(u, m)) return false;
  if (p.src_kind == UPat::Node::Src::kRepeat) return MatchSrcs(p.srcs, true, u.src(), 0, m, k) || fail();
  for (const std::vector<UPat>& order : p.orders)
    if (MatchSrcs(order, false, u.src(), 0, m, k)) return true;
  return fail();
}

std::string UPat::repr() const {
  const UPat::Node& p = *n_;
  std::ostringstream os;
  if (p.is_any) {
    os << "UPat.any(";
    for (size_t i = 0; i < p.srcs.size(); ++i) os << (i ? ", " : "") << p.srcs[i].repr();
    os << ")";
    return os.str();
  }
  os << "UPat(";
  if (p.any_op) {
    os << "None";
  } else if (p.ops.size() == 1) {
    os << p.ops.First();
  } else {
    os << "(";
    bool first = true;
    p.ops.ForEach([&](Ops o) {
      os << (first ? "" : ", ") << o;
      first = false;
    });
    os << ")";
  }
  if (!p.dtypes.empty()) {
    os << ", dtype=";
    for (size_t i = 0; i < p.dtypes.size(); ++i) os << (i ? "|" : "") << p.dtypes[i];
  }
  if (p.arg) os << ", arg=" << *p.arg;
  if (!p.name.empty()) os << ", name='" << p.name << "'";
  if (p.src_kind != UPat::Node::Src::kNone) {
    const char* open = p.src_kind == UPat::Node::Src::kAnyOrder ? "[" : "(";
    const char* close = p.src_kind == UPat::Node::Src::kAnyOrder ? "]" : ")";
    os << ", src=" << (p.src_kind == UPat::Node::Src::kRepeat ? "" : open);
    for (size_t i = 0; i < p.srcs.size(); ++i) os << (i ? ", " : "") << p.srcs[i].repr();
    if (p.src_kind != UPat::Node::Src::kRepeat) os << close;
  }
  os << ")";
  return os.str();
}

// ** operators **
UPat operator+(const UPat& a, const UPat& b) { return a.alu(Ops::ADD, {b}); }
UPat operator-(const UPat& a) { return a * ConstValue(-1); }
UPat operator-(const UPat& a, const UPat& b) { return a + (-b); }
UPat operator*(const UPat& a, const UPat& b) { return a.alu(Ops::MUL, {b}); }
UPat operator%(const UPat& a, const UPat& b) { return a.alu(Ops::MOD, {b}); }
UPat operator&(const UPat& a, const UPat& b) { return a.alu(Ops::AND, {b}); }
UPat operator|(const UPat& a, const UPat& b) { return a.alu(Ops::OR, {b}); }
UPat operator^(const UPat& a, const UPat& b) { return a.alu(Ops::XOR, {b}); }
UPat operator<<(const UPat& a, const UPat& b) { return a.alu(Ops::SHL, {b}); }
UPat operator>>(const UPat& a, const UPat& b) { return a.alu(Ops::SHR, {b}); }
UPat operator+(const UPat& a, ConstValue b) { return a + a.const_like(b); }
UPat operator-(const UPat& a, ConstValue b) { return a + a.const_like(-b); }
UPat operator*(const UPat& a, ConstValue b) { return a * a.const_like(b); }
UPat operator%(const UPat& a, ConstValue b) { return a % a.const_like(b); }
UPat operator&(const UPat& a, ConstValue b) { return a & a.const_like(b); }
UPat operator|(const UPat& a, ConstValue b) { return a | a.const_like(b); }

}  // namespace tg
