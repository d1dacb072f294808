// File: tinygrad/uop/upat.h
// Port of tinygrad/uop/ops.py UPat: patterns over UOps.
//
// A UPat matches an op set, a dtype set (a node matches if its dtype or its scalar dtype is in
// the set), an arg, and its sources: an ordered tuple (`src`), any order (`src_any_order`, how
// commutative ops match; tinygrad's list), or one pattern repeated for every source. A name
// captures the node; a name used twice must bind the same node (a pointer compare).
//
// Example (tinygrad: `UPat.var("x") + UPat.var("x")`):
//   UPat x = UPat::Var("x");
//   UPat p = x + x;                     // ADD with both sources the same node, either order
//   UPat c = UPat::CVar("c");           // a CONST or VCONST, captured as "c"
//   UPat q = UPat(Ops::WHERE).src({UPat::Var("cond"), x, UPat::Const(dtypes::index, 0)});
//
// Patterns are immutable values built once (rule tables are constants); copying one shares it.
#ifndef TINYGRAD_UOP_UPAT_H_
#define TINYGRAD_UOP_UPAT_H_

#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <source_location>
#include <string>
#include <string_view>
#include <vector>

#include "absl/functional/function_ref.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// The pass-specific object a rule may read (tinygrad's `ctx`). Typed: asking for the wrong
// type CHECK-fails and names both types' tags.
class RewriteCtx {
 public:
  RewriteCtx() = default;
  template <typename T>
  static RewriteCtx Of(T& obj) {
    return RewriteCtx(&TypeTag<T>::kTag, const_cast<void*>(static_cast<const void*>(&obj)));
  }
  template <typename T>
  T& Get() const {
    CheckType(&TypeTag<T>::kTag);
    return *static_cast<T*>(ptr_);
  }
  bool empty() const { return ptr_ == nullptr; }

 private:
  template <typename T>
  struct TypeTag {
    static constexpr char kTag = 0;
  };
  RewriteCtx(const void* tag, void* ptr) : tag_(tag), ptr_(ptr) {}
  void CheckType(const void* want) const;
  const void* tag_ = nullptr;
  void* ptr_ = nullptr;
};

// The captures of one successful match, given to a rule.
class Match {
 public:
  explicit Match(RewriteCtx ctx = {}, std::source_location where = std::source_location::current())
      : ctx_(ctx), where_(where) {}
  // The node captured as `name`; CHECK-fails (naming the rule) when nothing was.
  const UOp& operator[](std::string_view name) const;
  bool has(std::string_view name) const;
  template <typename T>
  T& ctx() const {
    return ctx_.Get<T>();
  }

 private:
  friend class UPat;
  struct Capture {
    std::string_view name;
    const UOp* uop;
  };
  std::vector<Capture> captures_;
  RewriteCtx ctx_;
  std::source_location where_;  // of the pattern, for error messages
};

class UPat {
 public:
  // Matches any node.
  UPat();
  explicit UPat(Ops op);
  explicit UPat(OpSet ops);

  // ** tinygrad's static constructors **
  static UPat Var(std::string name = "", std::vector<DType> dtypes = {});
  static UPat CVar(std::string name = "", std::vector<DType> dtypes = {}, bool vec = true);
  static UPat Const(std::vector<DType> dtypes, ConstValue value);
  static UPat Const(DType dtype, ConstValue value) { return Const(std::vector<DType>{dtype}, value); }
  // Matches when any alternative does; every alternative's matches are tried in order.
  static UPat Any(std::initializer_list<UPat> alternatives);

  // ** refinements (each returns a new pattern) **
  UPat named(std::string name) const;
  UPat dtype(std::vector<DType> dtypes) const;
  UPat dtype(DType d) const { return dtype(std::vector<DType>{d}); }
  UPat arg(Arg a) const;
  UPat src(std::initializer_list<UPat> srcs) const;            // exact order
  UPat src_any_order(std::initializer_list<UPat> srcs) const;  // every permutation
  UPat src_repeat(UPat each) const;                            // every source matches `each`
  UPat allow_any_len() const;                                   // extra sources are fine

  // ** sugar, as tinygrad's UPat methods **
  UPat alu(Ops op, std::initializer_list<UPat> rest = {}) const;
  UPat cast(std::vector<DType> dtypes = {}) const;
  UPat cast(DType d) const { return cast(std::vector<DType>{d}); }
  UPat bitcast(std::vector<DType> dtypes = {}) const;
  UPat where(const UPat& t, const UPat& f) const;
  UPat idiv(const UPat& x) const { return alu(Ops::IDIV, {x}); }
  UPat maximum(const UPat& x) const { return alu(Ops::MAX, {x}); }
  UPat lt(const UPat& x) const { return alu(Ops::CMPLT, {x}); }
  UPat ne(const UPat& x) const { return alu(Ops::CMPNE, {x}); }
  UPat eq(const UPat& x) const { return alu(Ops::CMPEQ, {x}); }
  UPat reciprocal() const { return alu(Ops::RECIPROCAL); }
  UPat logical_not() const;  // CMPNE(this, True)
  UPat const_like(ConstValue v) const;  // a CONST with this pattern's dtypes
  UPat index(const UPat& idx) const;
  UPat index(const UPat& idx, const UPat& valid) const;
  UPat gep(std::optional<int> lane = std::nullopt) const;
  UPat load(std::initializer_list<UPat> rest = {}) const;
  UPat store(std::initializer_list<UPat> rest) const;
  UPat broadcast() const;  // VECTORIZE of this, repeated
  UPat or_casted(std::string name = "") const;

  // The op set; empty means any op.
  OpSet ops() const;
  // Child ops that a node must have for this pattern to match (tinygrad's early_reject).
  OpSet early_reject() const;

  // Calls `on_match` for every way `u` matches, in tinygrad's order, until it returns true.
  // Returns whether it did. `m` carries the captures (and ctx) into `on_match`; `u` must
  // outlive the call.
  bool Match(const UOp& u, tg::Match& m, absl::FunctionRef<bool()> on_match) const;

  // The pattern as tinygrad would print its constructor, for stats and errors.
  std::string repr() const;

 private:
  struct Node;
  explicit UPat(std::shared_ptr<const Node> n) : n_(std::move(n)) {}
  // Matching without a continuation, for patterns with at most one way to match (Node::single):
  // leaves the captures on success, restores them on failure. Recurses per pattern level only.
  bool MatchOnce(const UOp& u, tg::Match& m) const;
  // Checks `u` itself (dtype, arg, source count, name; its op the caller checked first), not
  // its sources; binds the name.
  bool MatchSelf(const UOp& u, tg::Match& m) const;
  // Matches srcs[i:] against `pats` (or pats[0] for each when `repeat`), then calls `k`.
  static bool MatchSrcs(std::span<const UPat> pats, bool repeat, std::span<const UOp> srcs, size_t i,
                        tg::Match& m, absl::FunctionRef<bool()> k);
  // The repeated pattern `p` has several ways to match: backtracks over srcs[i:] with an
  // explicit stack on the heap.
  static bool MatchRepeatBacktracking(const UPat& p, std::span<const UOp> srcs, size_t i, tg::Match& m,
                                      absl::FunctionRef<bool()> k);
  UPat With(const std::function<void(Node&)>& edit) const;
  std::shared_ptr<const Node> n_;
};

// MathMixin sugar: commutative ops match their sources in any order; `-x` is x*-1 and `a-b`
// is a+b*-1, as tinygrad builds them, so rules written with these match built graphs.
UPat operator+(const UPat& a, const UPat& b);
UPat operator-(const UPat& a, const UPat& b);
UPat operator*(const UPat& a, const UPat& b);
UPat operator%(const UPat& a, const UPat& b);
UPat operator&(const UPat& a, const UPat& b);
UPat operator|(const UPat& a, const UPat& b);
UPat operator^(const UPat& a, const UPat& b);
UPat operator<<(const UPat& a, const UPat& b);
UPat operator>>(const UPat& a, const UPat& b);
UPat operator-(const UPat& a);
UPat operator+(const UPat& a, ConstValue b);
UPat operator-(const UPat& a, ConstValue b);
UPat operator*(const UPat& a, ConstValue b);
UPat operator%(const UPat& a, ConstValue b);
UPat operator&(const UPat& a, ConstValue b);
UPat operator|(const UPat& a, ConstValue b);

}  // namespace tg

#endif  // TINYGRAD_UOP_UPAT_H_
