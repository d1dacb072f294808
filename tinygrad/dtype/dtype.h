// File: tinygrad/dtype/dtype.h
// Port of tinygrad/dtype.py: scalar, vector and pointer dtypes, the promotion lattice.
//
// A DType is a small value type (16 bytes) compared field by field; tinygrad interns DType
// objects so that `==` is identity, which a value compare gives us for free.
//
//   dtypes::float32.vec(4)            float4
//   dtypes::float32.ptr(16)           pointer to 16 floats in global memory
//   dtypes::float32.ptr().vec(4)      4 pointers (PtrDType.v == 4)
//
// Names follow tinygrad where C++ allows (`dtypes::int32`); keywords get a trailing
// underscore (`dtypes::bool_`, `dtypes::void_`).
#ifndef TINYGRAD_DTYPE_DTYPE_H_
#define TINYGRAD_DTYPE_DTYPE_H_

#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace tg {

// The scalar kinds, ordered by tinygrad's promotion priority (void and index share -1).
enum class ScalarType : uint8_t {
  kVoid, kIndex, kBool, kInt8, kUInt8, kInt16, kUInt16, kInt32, kUInt32, kInt64, kUInt64,
  kFp8e4m3, kFp8e5m2, kFloat16, kBFloat16, kFloat32, kFloat64,
};
inline constexpr int kNumScalarTypes = 17;

enum class AddrSpace : uint8_t { GLOBAL, LOCAL, REG };

class DType {
 public:
  constexpr DType() = default;
  constexpr explicit DType(ScalarType s) : scalar_(s) {}

  // tinygrad's DType fields and properties.
  ScalarType scalar_type() const { return scalar_; }
  int priority() const;
  int bitsize() const;           // of the whole value (vec(4) of float is 128); pointers: base's
  int itemsize() const { return (bitsize() + 7) / 8; }
  int count() const { return count_; }                    // vector width of the value/base
  int vcount() const { return is_ptr_ ? v_ : count_; }    // vector width of this dtype itself
  std::string name() const;      // C-ish name: "float", "unsigned char", "float4"
  char fmt() const;              // struct format char, '\0' when tinygrad's fmt is None

  DType vec(int n) const;        // CHECKs count()==1 (or v==1 for pointers)
  DType scalar() const;          // drops the vector width (pointers: drops v)
  DType base() const;            // pointers: the pointee dtype; otherwise itself
  DType ptr(int64_t size = -1, AddrSpace addrspace = AddrSpace::GLOBAL) const;  // CHECKs !is_ptr

  // PtrDType fields; meaningful only when is_ptr().
  bool is_ptr() const { return is_ptr_; }
  AddrSpace addrspace() const { return addrspace_; }
  int v() const { return v_; }
  int64_t size() const { return size_; }   // -1: unlimited
  int64_t nbytes() const;                  // CHECKs is_ptr() && size() != -1

  // tinygrad's repr: "dtypes.float.vec(4)", "dtypes.float.ptr(16, AddrSpace.LOCAL)".
  std::string repr() const;

  friend bool operator==(const DType& a, const DType& b) {
    return a.scalar_ == b.scalar_ && a.count_ == b.count_ && a.is_ptr_ == b.is_ptr_ &&
           a.addrspace_ == b.addrspace_ && a.v_ == b.v_ && a.size_ == b.size_;
  }
  friend bool operator!=(const DType& a, const DType& b) { return !(a == b); }
  // tinygrad's DType.__lt__: by (priority, bitsize, name, fmt, count).
  friend bool operator<(const DType& a, const DType& b);

  // Stable across machines: feeds UOp structural keys.
  uint64_t StableHash() const;
  template <typename H>
  friend H AbslHashValue(H h, const DType& d) {
    return H::combine(std::move(h), d.scalar_, d.count_, d.is_ptr_, d.addrspace_, d.v_, d.size_);
  }

 private:
  constexpr DType(ScalarType s, uint16_t count, bool is_ptr, AddrSpace as, uint16_t v,
                  int64_t size)
      : scalar_(s), is_ptr_(is_ptr), addrspace_(as), count_(count), v_(v), size_(size) {}

  ScalarType scalar_ = ScalarType::kVoid;
  bool is_ptr_ = false;
  AddrSpace addrspace_ = AddrSpace::GLOBAL;
  uint16_t count_ = 1;
  uint16_t v_ = 1;
  int64_t size_ = -1;
};

std::ostream& operator<<(std::ostream& os, const DType& d);  // repr()
std::ostream& operator<<(std::ostream& os, AddrSpace a);     // "AddrSpace.LOCAL"

namespace dtypes {
inline constexpr DType void_{ScalarType::kVoid};
inline constexpr DType index{ScalarType::kIndex};
inline constexpr DType bool_{ScalarType::kBool};
inline constexpr DType int8{ScalarType::kInt8};
inline constexpr DType uint8{ScalarType::kUInt8};
inline constexpr DType int16{ScalarType::kInt16};
inline constexpr DType uint16{ScalarType::kUInt16};
inline constexpr DType int32{ScalarType::kInt32};
inline constexpr DType uint32{ScalarType::kUInt32};
inline constexpr DType int64{ScalarType::kInt64};
inline constexpr DType uint64{ScalarType::kUInt64};
inline constexpr DType fp8e4m3{ScalarType::kFp8e4m3};
inline constexpr DType fp8e5m2{ScalarType::kFp8e5m2};
inline constexpr DType float16{ScalarType::kFloat16};
inline constexpr DType bfloat16{ScalarType::kBFloat16};
inline constexpr DType float32{ScalarType::kFloat32};
inline constexpr DType float64{ScalarType::kFloat64};
inline constexpr DType default_float = float32;
inline constexpr DType default_int = int32;

bool is_float(DType d);     // scalar() is one of the float kinds (incl. fp8)
bool is_int(DType d);       // scalar() is a signed/unsigned int or index
bool is_unsigned(DType d);
bool is_bool(DType d);

// By tinygrad's dict names: "float32", "float", "half", "uchar", "index", "void", ...;
// nullopt-like behaviour: returns false when the name is unknown.
bool FromName(std::string_view name, DType* out);

// (exponent bits, mantissa bits) of a float dtype; CHECKs is_float.
std::pair<int, int> finfo(DType d);

// The JAX-style promotion lattice: the least dtype every argument promotes to.
// Not associative (lub(lub(long, ulong), fp8e5m2) is half, lub(long, ulong, fp8e5m2) is
// fp8e5m2), so an n-ary call can't be folded from pairs. CHECKs on void, index and pointers,
// which are not in the lattice (tinygrad: KeyError).
DType least_upper_dtype(std::initializer_list<DType> ds);
DType least_upper_dtype(std::span<const DType> ds);
DType least_upper_float(DType d);
bool can_lossless_cast(DType from, DType to);
DType sum_acc_dtype(DType d);  // tinygrad default SUM_DTYPE=float32
}  // namespace dtypes

}  // namespace tg

#endif  // TINYGRAD_DTYPE_DTYPE_H_
