// File: tinygrad/dtype/dtype.cc
// Port of tinygrad/dtype.py: DType/PtrDType properties, names and reprs, the dtypes class
// predicates, the promotion lattice (least_upper_dtype), can_lossless_cast and sum_acc_dtype.
#include "tinygrad/dtype/dtype.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

#include "tinygrad/base/check.h"
#include "tinygrad/base/stable_hash.h"

namespace tg {
namespace {

// One row per ScalarType, in enum order: tinygrad's DType.new(priority, bitsize, name, fmt)
// plus the dtypes attribute name (INVERSE_DTYPES_DICT) that repr() and vec names use.
struct ScalarInfo {
  int priority;
  int bitsize;
  const char* name;
  char fmt;
  const char* attr;
};

constexpr std::array<ScalarInfo, kNumScalarTypes> kScalarInfo = {{
    {-1, 0, "void", '\0', "void"},
    {-1, 800, "index", '\0', "index"},
    {0, 1, "bool", '?', "bool"},
    {1, 8, "signed char", 'b', "char"},
    {2, 8, "unsigned char", 'B', "uchar"},
    {3, 16, "short", 'h', "short"},
    {4, 16, "unsigned short", 'H', "ushort"},
    {5, 32, "int", 'i', "int"},
    {6, 32, "unsigned int", 'I', "uint"},
    {7, 64, "long", 'q', "long"},
    {8, 64, "unsigned long", 'Q', "ulong"},
    {9, 8, "float8_e4m3", '\0', "fp8e4m3"},
    {10, 8, "float8_e5m2", '\0', "fp8e5m2"},
    {11, 16, "half", 'e', "half"},
    {12, 16, "__bf16", '\0', "bfloat16"},
    {13, 32, "float", 'f', "float"},
    {14, 64, "double", 'd', "double"},
}};

const ScalarInfo& Info(ScalarType s) { return kScalarInfo[static_cast<int>(s)]; }

// Every name tinygrad's to_dtype accepts for a scalar dtype (DTYPES_DICT keys, void, index).
struct NamedDType {
  std::string_view name;
  DType dtype;
};
constexpr NamedDType kNames[] = {
    {"void", dtypes::void_},      {"index", dtypes::index},     {"bool", dtypes::bool_},
    {"int8", dtypes::int8},       {"uint8", dtypes::uint8},     {"int16", dtypes::int16},
    {"uint16", dtypes::uint16},   {"int32", dtypes::int32},     {"uint32", dtypes::uint32},
    {"int64", dtypes::int64},     {"uint64", dtypes::uint64},   {"fp8e4m3", dtypes::fp8e4m3},
    {"fp8e5m2", dtypes::fp8e5m2}, {"float16", dtypes::float16}, {"bfloat16", dtypes::bfloat16},
    {"float32", dtypes::float32}, {"float64", dtypes::float64}, {"half", dtypes::float16},
    {"float", dtypes::float32},   {"double", dtypes::float64},  {"uchar", dtypes::uint8},
    {"ushort", dtypes::uint16},   {"uint", dtypes::uint32},     {"ulong", dtypes::uint64},
    {"char", dtypes::int8},       {"short", dtypes::int16},     {"int", dtypes::int32},
    {"long", dtypes::int64},
};

bool IsScalarPlain(DType d) { return !d.is_ptr() && d.count() == 1; }

bool IsFloatKind(ScalarType s) { return s >= ScalarType::kFp8e4m3; }
bool IsUIntKind(ScalarType s) {
  return s == ScalarType::kUInt8 || s == ScalarType::kUInt16 || s == ScalarType::kUInt32 ||
         s == ScalarType::kUInt64;
}
bool IsIntKind(ScalarType s) {
  return s == ScalarType::kIndex || (s >= ScalarType::kInt8 && s <= ScalarType::kUInt64);
}

// ---- the promotion lattice ----
// https://jax.readthedocs.io/en/latest/jep/9407-type-promotion.html (no weak or complex types).
// A set of scalar kinds is a bitmask over ScalarType.
using KindSet = uint32_t;
constexpr KindSet Bit(ScalarType s) { return KindSet{1} << static_cast<int>(s); }

// tinygrad's promo_lattice: each kind and its direct parents. void and index are not in it.
struct LatticeEdges {
  ScalarType kind;
  KindSet parents;
};
using S = ScalarType;
constexpr LatticeEdges kPromoLattice[] = {
    {S::kBool, Bit(S::kInt8) | Bit(S::kUInt8)},
    {S::kInt8, Bit(S::kInt16)},
    {S::kInt16, Bit(S::kInt32)},
    {S::kInt32, Bit(S::kInt64)},
    {S::kInt64, Bit(S::kFp8e4m3) | Bit(S::kFp8e5m2)},
    {S::kUInt8, Bit(S::kInt16) | Bit(S::kUInt16)},
    {S::kUInt16, Bit(S::kInt32) | Bit(S::kUInt32)},
    {S::kUInt32, Bit(S::kInt64) | Bit(S::kUInt64)},
    {S::kUInt64, Bit(S::kFp8e4m3) | Bit(S::kFp8e5m2)},
    {S::kFp8e5m2, Bit(S::kFloat16) | Bit(S::kBFloat16)},
    {S::kFp8e4m3, Bit(S::kFloat16) | Bit(S::kBFloat16)},
    {S::kFloat16, Bit(S::kFloat32)},
    {S::kBFloat16, Bit(S::kFloat32)},
    {S::kFloat32, Bit(S::kFloat64)},
    {S::kFloat64, 0},  // the top
};

KindSet DirectParents(ScalarType s) {
  for (const LatticeEdges& e : kPromoLattice) {
    if (e.kind == s) return e.parents;
  }
  TG_CHECK(false) << "dtype " << DType(s) << " is not in the promotion lattice";
  return 0;
}

// _get_recursive_parents: the kind itself and everything above it.
KindSet RecursiveParents(ScalarType s) {
  KindSet out = Bit(s);
  KindSet direct = DirectParents(s);
  for (int k = 0; k < kNumScalarTypes; ++k) {
    if (direct & (KindSet{1} << k)) out |= RecursiveParents(static_cast<ScalarType>(k));
  }
  return out;
}

}  // namespace

int DType::priority() const { return Info(scalar_).priority; }
int DType::bitsize() const { return Info(scalar_).bitsize * count_; }

std::string DType::name() const {
  if (count_ == 1) return Info(scalar_).name;
  return Info(scalar_).attr + std::to_string(count_);  // tinygrad: INVERSE_DTYPES_DICT name + sz
}

char DType::fmt() const { return count_ == 1 ? Info(scalar_).fmt : '\0'; }

DType DType::vec(int n) const {
  if (is_ptr_) {
    TG_CHECK(v_ == 1) << "can't vectorize ptr " << *this << " with size " << n;
  } else {
    TG_CHECK(count_ == 1) << "can't vectorize " << *this << " with size " << n;
  }
  // Width 0 exists for values only: the index.vec(0) arg of a movement op on a 0-d shape.
  TG_CHECK((n >= 1 || (n == 0 && !is_ptr_)) && n <= 0xFFFF)
      << "bad vector width " << n << " for " << *this;
  // sz=1 is the scalar itself, and void doesn't vectorize.
  if (n == 1 || (!is_ptr_ && scalar_ == ScalarType::kVoid)) return *this;
  if (is_ptr_) return DType(scalar_, count_, true, addrspace_, static_cast<uint16_t>(n), size_);
  return DType(scalar_, static_cast<uint16_t>(n), false, AddrSpace::GLOBAL, 1, -1);
}

// tinygrad's scalar() returns _scalar: the dtype vec() was called on. For a pointer that is
// the unvectorized pointer, which keeps its base's count.
DType DType::scalar() const {
  if (is_ptr_) return DType(scalar_, count_, true, addrspace_, 1, size_);
  return DType(scalar_);
}

DType DType::base() const {
  if (is_ptr_) return DType(scalar_, count_, false, AddrSpace::GLOBAL, 1, -1);
  return *this;
}

DType DType::ptr(int64_t size, AddrSpace addrspace) const {
  TG_CHECK(!is_ptr_) << "can't make a pointer from a pointer: " << *this;
  TG_CHECK(size >= -1) << "pointer size must be -1 (unlimited) or >= 0, got " << size;
  return DType(scalar_, count_, true, addrspace, 1, size);
}

int64_t DType::nbytes() const {
  TG_CHECK(is_ptr_) << "only ptr types have nbytes: " << *this;
  TG_CHECK(size_ != -1) << "can't get nbytes of a pointer with unlimited size: " << *this;
  return size_ * itemsize();
}

std::string DType::repr() const {
  std::string out = std::string("dtypes.") + Info(scalar_).attr;
  if (count_ != 1) out += ".vec(" + std::to_string(count_) + ")";
  if (!is_ptr_) return out;
  out += ".ptr(" + std::to_string(size_);
  if (addrspace_ != AddrSpace::GLOBAL) {
    out += addrspace_ == AddrSpace::LOCAL ? ", AddrSpace.LOCAL" : ", AddrSpace.REG";
  }
  out += ")";
  if (v_ != 1) out += ".vec(" + std::to_string(v_) + ")";
  return out;
}

bool operator<(const DType& a, const DType& b) {
  if (a.priority() != b.priority()) return a.priority() < b.priority();
  if (a.bitsize() != b.bitsize()) return a.bitsize() < b.bitsize();
  if (std::string an = a.name(), bn = b.name(); an != bn) return an < bn;
  // Python would compare None with a str here; no two tinygrad dtypes get this far with
  // different fmts, so '\0' standing in for None is never observable.
  if (a.fmt() != b.fmt()) return a.fmt() < b.fmt();
  return a.count() < b.count();
}

uint64_t DType::StableHash() const {
  StableHasher h;
  h.Add(uint64_t{static_cast<uint8_t>(scalar_)} | uint64_t{count_} << 8 | uint64_t{is_ptr_} << 24 |
        uint64_t{static_cast<uint8_t>(addrspace_)} << 32 | uint64_t{v_} << 40);
  h.Add(static_cast<uint64_t>(size_));
  return h.Finish();
}

std::ostream& operator<<(std::ostream& os, const DType& d) { return os << d.repr(); }

std::ostream& operator<<(std::ostream& os, AddrSpace a) {
  switch (a) {
    case AddrSpace::GLOBAL:
      return os << "AddrSpace.GLOBAL";
    case AddrSpace::LOCAL:
      return os << "AddrSpace.LOCAL";
    case AddrSpace::REG:
      return os << "AddrSpace.REG";
  }
  return os << "AddrSpace(" << static_cast<int>(a) << ")";
}

namespace dtypes {

// tinygrad tests membership of x.scalar() in a tuple of scalar dtypes; a pointer's scalar() is
// a pointer, which is in none of them.
bool is_float(DType d) { return !d.is_ptr() && IsFloatKind(d.scalar_type()); }
bool is_int(DType d) { return !d.is_ptr() && IsIntKind(d.scalar_type()); }
bool is_unsigned(DType d) { return !d.is_ptr() && IsUIntKind(d.scalar_type()); }
bool is_bool(DType d) { return !d.is_ptr() && d.scalar_type() == ScalarType::kBool; }

bool FromName(std::string_view name, DType* out) {
  std::string lower(name);  // to_dtype lowercases before getattr(dtypes, ...)
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const NamedDType& n : kNames) {
    if (n.name == lower) {
      *out = n.dtype;
      return true;
    }
  }
  return false;
}

std::pair<int, int> finfo(DType d) {
  TG_CHECK(is_float(d) && d.count() == 1) << d << " is not a scalar floating point type";
  switch (d.scalar_type()) {
    case ScalarType::kFloat16:
      return {5, 10};
    case ScalarType::kBFloat16:
      return {8, 7};
    case ScalarType::kFloat32:
      return {8, 23};
    case ScalarType::kFloat64:
      return {11, 52};
    case ScalarType::kFp8e5m2:
      return {5, 2};
    case ScalarType::kFp8e4m3:
      return {4, 3};
    default:
      break;
  }
  TG_CHECK(false) << "unreachable: " << d;
  return {0, 0};
}

// min over the kinds every argument's scalar() promotes to, ordered by DType::operator<.
DType least_upper_dtype(std::initializer_list<DType> ds) {
  return least_upper_dtype(std::span<const DType>(ds.begin(), ds.size()));
}

DType least_upper_dtype(std::span<const DType> ds) {
  TG_CHECK(!ds.empty()) << "least_upper_dtype needs at least one dtype";
  KindSet common = ~KindSet{0};
  for (DType d : ds) {
    TG_CHECK(!d.is_ptr()) << "least_upper_dtype of a pointer: " << d;
    common &= RecursiveParents(d.scalar_type());
  }
  // The lattice has a top (float64), so the intersection is never empty.
  TG_CHECK(common != 0) << "no common dtype";
  DType best = dtypes::float64;
  for (int k = 0; k < kNumScalarTypes; ++k) {
    DType cand{static_cast<ScalarType>(k)};
    if ((common & (KindSet{1} << k)) && cand < best) best = cand;
  }
  return best;
}

DType least_upper_float(DType d) {
  return is_float(d) ? d : least_upper_dtype({d, dtypes::default_float});
}

bool can_lossless_cast(DType from, DType to) {
  if (from == to || from == dtypes::bool_) return true;
  // The rest only holds between plain scalars: tinygrad matches dt1 against scalar dtypes and
  // tests dt0's membership in tuples of scalars.
  if (!IsScalarPlain(from) || !IsScalarPlain(to)) return false;
  auto in = [&](std::initializer_list<S> set) {
    return std::find(set.begin(), set.end(), from.scalar_type()) != set.end();
  };
  switch (to.scalar_type()) {
    case S::kIndex:
      return IsIntKind(from.scalar_type()) && from.scalar_type() != S::kIndex;
    case S::kFloat64:
      return in({S::kFloat32, S::kFloat16, S::kBFloat16, S::kFp8e4m3, S::kFp8e5m2, S::kUInt32,
                 S::kUInt16, S::kUInt8, S::kInt32, S::kInt16, S::kInt8});
    case S::kFloat32:
      return in({S::kFloat16, S::kBFloat16, S::kFp8e4m3, S::kFp8e5m2, S::kUInt16, S::kUInt8,
                 S::kInt16, S::kInt8});
    case S::kFloat16:
      return in({S::kFp8e4m3, S::kFp8e5m2, S::kUInt8, S::kInt8});
    case S::kUInt64:
      return in({S::kUInt32, S::kUInt16, S::kUInt8});
    case S::kUInt32:
      return in({S::kUInt16, S::kUInt8});
    case S::kUInt16:
      return in({S::kUInt8});
    case S::kInt64:
      return in({S::kUInt32, S::kUInt16, S::kUInt8, S::kInt32, S::kInt16, S::kInt8});
    case S::kInt32:
      return in({S::kUInt16, S::kUInt8, S::kInt16, S::kInt8});
    case S::kInt16:
      return in({S::kUInt8, S::kInt8});
    default:
      return false;
  }
}

DType sum_acc_dtype(DType d) {
  if (is_unsigned(d)) return least_upper_dtype({d, dtypes::uint32});
  if (is_int(d) || d == dtypes::bool_) return least_upper_dtype({d, dtypes::int32});
  return least_upper_dtype({d, dtypes::float32});  // SUM_DTYPE's default
}

}  // namespace dtypes
}  // namespace tg
