#include "tinygrad/uop/arg.h"

#include <atomic>

#include "tinygrad/base/check.h"
#include "tinygrad/base/stable_hash.h"

namespace tg {
namespace {
constexpr std::string_view kAxisTypeNames[] = {"GLOBAL", "WARP",   "LOCAL",   "LOOP",
                                               "GROUP_REDUCE", "REDUCE", "UPCAST", "UNROLL",
                                               "THREAD", "OUTER",  "PLACEHOLDER"};
constexpr char kAxisLetters[] = {'g', 'w', 'l', 'L', 'G', 'R', 'u', 'r', 't', 'O', 'P'};

// Python's repr of a str: single quotes unless the text has one and no double quote.
std::string PyStrRepr(const std::string& s) {
  char q = (s.find('\'') != std::string::npos && s.find('"') == std::string::npos) ? '"' : '\'';
  std::string out(1, q);
  for (char c : s) {
    if (c == q || c == '\\') out += '\\';
    if (c == '\n') { out += "\\n"; continue; }
    if (c == '\t') { out += "\\t"; continue; }
    out += c;
  }
  return out + q;
}

// Kind tags mixed into the stable hash; never renumber them.
enum HashTag : uint64_t { kNone = 1, kNumber, kString, kOps, kAxis, kTuple, kOpaque };
}  // namespace

std::string_view AxisTypeName(AxisType t) { return kAxisTypeNames[static_cast<int>(t)]; }
std::ostream& operator<<(std::ostream& os, AxisType t) {
  return os << "AxisType." << AxisTypeName(t);
}
char AxisLetter(AxisType t) { return kAxisLetters[static_cast<int>(t)]; }

OpaqueValue::OpaqueValue() {
  static std::atomic<uint64_t> next{1};
  serial_ = next.fetch_add(1, std::memory_order_relaxed);
}

Arg Arg::Tuple(std::vector<Arg> items) {
  Arg a;
  a.v_ = std::make_shared<const std::vector<Arg>>(std::move(items));
  return a;
}

const ConstValue& Arg::number() const {
  TG_CHECK(is_number()) << "arg " << repr() << " is not a number";
  return std::get<ConstValue>(v_);
}
int64_t Arg::int64() const {
  const ConstValue& n = number();
  TG_CHECK(n.is_int() || n.is_bool()) << "arg " << repr() << " is not an int";
  return n.to_int64();
}
const std::string& Arg::str() const {
  TG_CHECK(is_string()) << "arg " << repr() << " is not a string";
  return std::get<std::string>(v_);
}
Ops Arg::ops() const {
  TG_CHECK(is_ops()) << "arg " << repr() << " is not an Ops";
  return std::get<Ops>(v_);
}
AxisType Arg::axis_type() const {
  TG_CHECK(is_axis_type()) << "arg " << repr() << " is not an AxisType";
  return std::get<AxisType>(v_);
}
std::span<const Arg> Arg::tuple() const {
  TG_CHECK(is_tuple()) << "arg " << repr() << " is not a tuple";
  return *std::get<TuplePtr>(v_);
}
const Arg& Arg::operator[](size_t i) const {
  std::span<const Arg> t = tuple();
  TG_CHECK(i < t.size()) << "index " << i << " out of range for arg " << repr();
  return t[i];
}

std::string Arg::repr() const {
  struct Visitor {
    std::string operator()(std::monostate) const { return "None"; }
    std::string operator()(const ConstValue& c) const { return c.repr(); }
    std::string operator()(const std::string& s) const { return PyStrRepr(s); }
    std::string operator()(Ops op) const { return "Ops." + std::string(OpName(op)); }
    std::string operator()(AxisType t) const { return "AxisType." + std::string(AxisTypeName(t)); }
    std::string operator()(const TuplePtr& t) const {
      std::string out = "(";
      for (size_t i = 0; i < t->size(); ++i) out += (i ? ", " : "") + (*t)[i].repr();
      return out + (t->size() == 1 ? ",)" : ")");
    }
    std::string operator()(const OpaquePtr& o) const { return o->repr(); }
  };
  return std::visit(Visitor{}, v_);
}

uint64_t Arg::StableHash() const {
  StableHasher h;
  struct Visitor {
    StableHasher& h;
    void operator()(std::monostate) const { h.Add(kNone); }
    void operator()(const ConstValue& c) const { h.Add(kNumber).Add(c.StableHash()); }
    void operator()(const std::string& s) const { h.Add(kString).AddBytes(s); }
    // By name, not by enum value: inserting an op upstream must not move every key.
    void operator()(Ops op) const { h.Add(kOps).AddBytes(OpName(op)); }
    void operator()(AxisType t) const { h.Add(kAxis).AddBytes(AxisTypeName(t)); }
    void operator()(const TuplePtr& t) const {
      h.Add(kTuple).Add(t->size());
      for (const Arg& a : *t) h.Add(a.StableHash());
    }
    void operator()(const OpaquePtr& o) const { h.Add(kOpaque).Add(o->serial()); }
  };
  std::visit(Visitor{h}, v_);
  return h.Finish();
}

bool operator==(const Arg& a, const Arg& b) {
  if (a.v_.index() != b.v_.index()) return false;
  if (a.is_tuple()) {
    const auto& ta = *std::get<Arg::TuplePtr>(a.v_);
    const auto& tb = *std::get<Arg::TuplePtr>(b.v_);
    return &ta == &tb || ta == tb;
  }
  return a.v_ == b.v_;  // an opaque value: the same object
}

std::ostream& operator<<(std::ostream& os, const Arg& a) { return os << a.repr(); }

}  // namespace tg
