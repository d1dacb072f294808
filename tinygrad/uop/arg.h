// File: tinygrad/uop/arg.h
// The `arg` (and `tag`) of a UOp: a closed variant standing in for the hashable Python values
// tinygrad stores there (None, numbers, strings, Ops, AxisType, and tuples of those).
//
// Example:
//   Arg none;                                  // None
//   Arg slot(3);                               // DEFINE_GLOBAL slot
//   Arg var = Arg::Tuple({"a", 0, 10});        // DEFINE_VAR ("a", 0, 10)
//   Arg rng = Arg::Tuple({0, AxisType::LOOP}); // RANGE (axis id, axis type)
//
// Args are values: equality is deep and exact (1 != 1.0, see const_value.h), hashing is stable
// across machines. Tuples share their storage, so copying an Arg never copies a tuple.
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
  static Arg Tuple(std::vector<Arg> items);
  static Arg Tuple(std::initializer_list<Arg> items) { return Tuple(std::vector<Arg>(items)); }

  bool is_none() const { return std::holds_alternative<std::monostate>(v_); }
  bool is_number() const { return std::holds_alternative<ConstValue>(v_); }
  bool is_string() const { return std::holds_alternative<std::string>(v_); }
  bool is_ops() const { return std::holds_alternative<Ops>(v_); }
  bool is_axis_type() const { return std::holds_alternative<AxisType>(v_); }
  bool is_tuple() const { return std::holds_alternative<TuplePtr>(v_); }

  // Typed access; each CHECKs the kind.
  const ConstValue& number() const;
  int64_t int64() const;  // an int (or bool) number that fits int64
  const std::string& str() const;
  Ops ops() const;
  AxisType axis_type() const;
  std::span<const Arg> tuple() const;
  size_t size() const { return tuple().size(); }
  const Arg& operator[](size_t i) const;

  // Python repr: None, 3, 2.5, True, 'a', Ops.ADD, AxisType.LOOP, (0, AxisType.LOOP), (1,).
  std::string repr() const;
  uint64_t StableHash() const;

  friend bool operator==(const Arg& a, const Arg& b);
  friend bool operator!=(const Arg& a, const Arg& b) { return !(a == b); }

 private:
  using TuplePtr = std::shared_ptr<const std::vector<Arg>>;
  std::variant<std::monostate, ConstValue, std::string, Ops, AxisType, TuplePtr> v_;
};

std::ostream& operator<<(std::ostream& os, const Arg& a);  // repr()

}  // namespace tg

#endif  // TINYGRAD_UOP_ARG_H_
