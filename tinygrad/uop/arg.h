// File: tinygrad/uop/arg.h
// The `arg` (and `tag`) of a UOp: a closed variant standing in for the hashable Python values
// tinygrad stores there (None, numbers, strings, Ops, AxisType, and tuples of those), and for
// the one object it keeps by identity (a CustomKernel's functions: an OpaqueValue).
//
// Example:
//   Arg none;                                  // None
//   Arg slot(3);                               // DEFINE_GLOBAL slot
//   Arg var = Arg::Tuple({"a", 0, 10});        // DEFINE_VAR ("a", 0, 10)
//   Arg rng = Arg::Tuple({0, AxisType::LOOP}); // RANGE (axis id, axis type)
//
// Args are values: equality is deep and exact (1 != 1.0, see const_value.h), hashing is stable
// across machines. Tuples share their storage, so copying an Arg never copies a tuple. An
// OpaqueValue is the exception: equal only to itself, hashed by a number stable within one
// process, never encoded (only the tensor graph holds one; kernel ASTs never do).
#ifndef TINYGRAD_UOP_ARG_H_
#define TINYGRAD_UOP_ARG_H_

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "tinygrad/dtype/const_value.h"
#include "tinygrad/uop/ops.h"

namespace tg {

// Port of tinygrad/uop/ops.py AxisType, in its order.
enum class AxisType : uint8_t {
  GLOBAL, WARP, LOCAL, LOOP, GROUP_REDUCE, REDUCE, UPCAST, UNROLL, THREAD, OUTER, PLACEHOLDER,
};
std::string_view AxisTypeName(AxisType t);                 // "LOOP"
std::ostream& operator<<(std::ostream& os, AxisType t);    // "AxisType.LOOP"
char AxisLetter(AxisType t);                               // tinygrad's axis_letters: 'g', 'L', ...

// An object an Arg holds by identity (tinygrad's CustomKernel, whose Python callables have no
// value equality and can't be pickled). Subclasses say what they hold; each gets a serial
// number at construction that stands in for it in hashes.
class OpaqueValue {
 public:
  OpaqueValue();
  OpaqueValue(const OpaqueValue&) = delete;
  OpaqueValue& operator=(const OpaqueValue&) = delete;
  virtual ~OpaqueValue() = default;
  virtual std::string repr() const = 0;
  uint64_t serial() const { return serial_; }

 private:
  uint64_t serial_;
};

class Arg {
 public:
  Arg() = default;
  Arg(ConstValue v) : v_(v) {}                // NOLINT: implicit, like a Python number
  Arg(bool v) : v_(ConstValue(v)) {}          // NOLINT
  Arg(int v) : v_(ConstValue(v)) {}           // NOLINT
  Arg(int64_t v) : v_(ConstValue(v)) {}       // NOLINT
  Arg(double v) : v_(ConstValue(v)) {}        // NOLINT
  Arg(std::string v) : v_(std::move(v)) {}    // NOLINT
  Arg(const char* v) : v_(std::string(v)) {}  // NOLINT
  Arg(Ops v) : v_(v) {}                       // NOLINT
  Arg(AxisType v) : v_(v) {}                  // NOLINT
  explicit Arg(std::shared_ptr<const OpaqueValue> v) : v_(std::move(v)) {}
  static Arg Tuple(std::vector<Arg> items);
  static Arg Tuple(std::initializer_list<Arg> items) { return Tuple(std::vector<Arg>(items)); }

  bool is_none() const { return std::holds_alternative<std::monostate>(v_); }
  bool is_number() const { return std::holds_alternative<ConstValue>(v_); }
  bool is_string() const { return std::holds_alternative<std::string>(v_); }
  bool is_ops() const { return std::holds_alternative<Ops>(v_); }
  bool is_axis_type() const { return std::holds_alternative<AxisType>(v_); }
  bool is_tuple() const { return std::holds_alternative<TuplePtr>(v_); }
  bool is_opaque() const { return std::holds_alternative<OpaquePtr>(v_); }

  // Typed access; each CHECKs the kind.
  const ConstValue& number() const;
  int64_t int64() const;  // an int (or bool) number that fits int64
  const std::string& str() const;
  Ops ops() const;
  AxisType axis_type() const;
  std::span<const Arg> tuple() const;
  // The held object as T, or null when this is not an opaque T.
  template <class T>
  const T* opaque_as() const {
    return is_opaque() ? dynamic_cast<const T*>(std::get<OpaquePtr>(v_).get()) : nullptr;
  }
  size_t size() const { return tuple().size(); }
  const Arg& operator[](size_t i) const;

  // Python repr: None, 3, 2.5, True, 'a', Ops.ADD, AxisType.LOOP, (0, AxisType.LOOP), (1,);
  // an opaque value's own repr().
  std::string repr() const;
  uint64_t StableHash() const;

  friend bool operator==(const Arg& a, const Arg& b);
  friend bool operator!=(const Arg& a, const Arg& b) { return !(a == b); }

 private:
  using TuplePtr = std::shared_ptr<const std::vector<Arg>>;
  using OpaquePtr = std::shared_ptr<const OpaqueValue>;
  std::variant<std::monostate, ConstValue, std::string, Ops, AxisType, TuplePtr, OpaquePtr> v_;
};

std::ostream& operator<<(std::ostream& os, const Arg& a);  // repr()

}  // namespace tg

#endif  // TINYGRAD_UOP_ARG_H_
