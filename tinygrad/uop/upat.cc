// Port of tinygrad/uop/ops.py: UPat and its matching (tinygrad's UPat.match), written as
// continuation passing so that every match is tried without building lists of stores.
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

bool MatchSrcs(std::span<const UPat> pats, bool repeat, std::span<const UOp> srcs, size_t i,
               tg::Match& m, absl::FunctionRef<bool()> k) {
  size_t n = repeat ? srcs.size() : std::min(srcs.size(), pats.size());
  if (i == n) return k();
  const UPat& p = repeat ? pats[0] : pats[i];
  return p.Match(srcs[i], m, [&] { return MatchSrcs(pats, repeat, srcs, i + 1, m, k); });
}
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

bool UPat::Match(const UOp& u, tg::Match& m, absl::FunctionRef<bool()> k) const {
  const UPat::Node& p = *n_;
  if (p.is_any) {
    for (const UPat& alt : p.srcs) {
      size_t mark = m.captures_.size();
      if (alt.Match(u, m, k)) return true;
      m.captures_.resize(mark);
    }
    return false;
  }
  if (!p.any_op && !p.ops.contains(u.op())) return false;
  size_t mark = m.captures_.size();
  auto fail = [&] {
    m.captures_.resize(mark);
    return false;
  };
  if (!p.name.empty()) {
    bool bound = false;
    for (const tg::Match::Capture& c : m.captures_) {
      if (c.name == p.name) {
        if (*c.uop != u) return false;
        bound = true;
        break;
      }
    }
    if (!bound) m.captures_.push_back({p.name, &u});
  }
  if (!p.dtypes.empty()) {
    DType d = u.dtype(), s = d.scalar();
    if (std::none_of(p.dtypes.begin(), p.dtypes.end(), [&](DType x) { return x == d || x == s; }))
      return fail();
  }
  if (p.arg && !ArgMatches(*p.arg, u.arg())) return fail();
  if (u.src().size() < p.required_len()) return fail();
  if (p.strict_length() && u.src().size() != p.required_len()) return fail();
  if (p.src_kind == UPat::Node::Src::kNone) return k() || fail();
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
