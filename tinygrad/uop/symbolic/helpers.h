// File: tinygrad/uop/symbolic/helpers.h
// Port of tinygrad/uop/ops.py: the UOp algebra the symbolic rules are written in (split_uop,
// const_factor, divides, pop_const, gcd, divide_exact, is_increasing, sum/prod, tuplize order,
// ranges, get_idx/get_valid) and the Python number semantics they rely on.
//
// Example:
//   UOp a = UOp::Variable("a", 0, 8), b = UOp::Variable("b", 0, 8);
//   SplitUOp(a * 4 + b * 6 + 3, Ops::ADD)   // {a*4, b*6, 3}
//   ConstFactor(a * 4 + b * 6)              // 2
//   Divides(a * 4 + b * 6, 2)               // a*2 + b*3
//
// Graph builders here build exactly the graphs tinygrad builds (operand order included): the
// result of a rule is rewritten again, and the same input graph is what makes the rewrite end
// in the same place. Python's builtin sum()/math.prod() start from 0/1 (PySum, PyProd), while
// UOp.sum()/UOp.prod() fold onto the first element (UOpSum, UOpProd).
#ifndef TINYGRAD_UOP_SYMBOLIC_HELPERS_H_
#define TINYGRAD_UOP_SYMBOLIC_HELPERS_H_

#include <span>
#include <utility>
#include <vector>

#include "tinygrad/dtype/const_value.h"
#include "tinygrad/dtype/dtype.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// ** Python number semantics on ConstValue (ints, floats and bools mixed as Python mixes them) **

bool IsNan(const ConstValue& v);
inline bool PyLt(const ConstValue& a, const ConstValue& b) { return NumLess(a, b); }
inline bool PyGt(const ConstValue& a, const ConstValue& b) { return NumLess(b, a); }
inline bool PyLe(const ConstValue& a, const ConstValue& b) {
  return !NumLess(b, a) && !IsNan(a) && !IsNan(b);
}
inline bool PyGe(const ConstValue& a, const ConstValue& b) { return PyLe(b, a); }
inline bool PyEq(const ConstValue& a, const ConstValue& b) { return NumEq(a, b); }
// Python a // b and a % b (floor semantics; floats too). b must be nonzero.
ConstValue FloorDiv(const ConstValue& a, const ConstValue& b);
ConstValue FloorMod(const ConstValue& a, const ConstValue& b);
// tinygrad's cdiv/cmod on Python ints (truncating; cdiv(x, 0) is 0 as in tinygrad).
ConstValue CDivV(const ConstValue& a, const ConstValue& b);
ConstValue CModV(const ConstValue& a, const ConstValue& b);
// math.gcd: nonnegative, gcd(0, 0) == 0.
i128 Gcd(i128 a, i128 b);
i128 Abs(i128 a);
// An int at the +-kIntInf saturation bound: a stand-in for "unbounded" whose exact value is lost.
bool IsSaturated(const ConstValue& v);

// ** dtypes groups, as tinygrad's tuples **

// `d in dtypes.ints` (exact membership: scalar, non-index ints).
bool InInts(DType d);
// `d in dtypes.sints`.
bool InSints(DType d);
const std::vector<DType>& IntsDtypes();           // dtypes.ints
const std::vector<DType>& SintsDtypes();          // dtypes.sints
const std::vector<DType>& IntsBoolIndexDtypes();  // dtypes.ints + (bool, index)
const std::vector<DType>& IntsIndexDtypes();      // dtypes.ints + (index,)

// ** UOp algebra (tinygrad's UOp methods of the same names) **

// The number of a CONST (CHECKs the op).
const ConstValue& ConstArg(const UOp& u);
// Lanes of a CONST or VCONST's arg, `count` of them (a CONST repeats its one value).
std::vector<ConstValue> ConstLanes(const UOp& u, int count);
// const_like with a tuple: a VCONST of u's dtype (a CONST if all lanes are equal).
UOp ConstLikeLanes(const UOp& u, const std::vector<ConstValue>& lanes);

// The operands of a chain of `sep` ops, in order (tinygrad's split_uop generator).
std::vector<UOp> SplitUOp(const UOp& u, Ops sep);
// The largest known int that divides u (1 when unknown; ints only, floats give 1).
i128 ConstFactor(const UOp& u);
// u / v when v divides u syntactically; null when unsure.
UOp Divides(const UOp& u, i128 v);
// (x, c) when u is `x op CONST c`, else (u, identity of op).
std::pair<UOp, ConstValue> PopConst(const UOp& u, Ops op = Ops::ADD);
// The greatest common divisor of the terms, as a product of shared factors times a const.
UOp UOpGcd(std::span<const UOp> uops);
// u / v when exact and provable syntactically; null when unsure.
UOp DivideExact(const UOp& u, const UOp& v);
// Whether u is a monotonically increasing function of its variables (false when unsure).
bool IsIncreasing(const UOp& u);
// UOp.sum(*us) / UOp.prod(*us): fold onto us[0] (OR/AND for bool). `us` is non-empty.
UOp UOpSum(std::span<const UOp> us);
UOp UOpProd(std::span<const UOp> us);
// Python's builtin sum(us) (0 + us[0] + ...) and math.prod(us) (1 * us[0] * ...). Non-empty.
UOp PySum(std::span<const UOp> us);
UOp PyProd(std::span<const UOp> us);
// tinygrad's identity_element: 0 for ADD, 1 for MUL, dtypes.min for MAX.
ConstValue IdentityElement(Ops op, DType dt);
// u.overflows(dt): u's range leaves dt's.
bool Overflows(const UOp& u, DType dt);
// u.op_in_backward_slice_with_self(*ops).
bool OpInBackwardSliceWithSelf(const UOp& u, OpSet ops);
// Whether `x` is u itself or in its backward slice.
bool InBackwardSliceWithSelf(const UOp& u, const UOp& x);

// tinygrad's `a.tuplize < b.tuplize`: the canonical order of commutative operands, comparing
// (op, arg, dtype, *srcs) as Python compares tuples.
bool TuplizeLess(const UOp& a, const UOp& b);

// u.ranges: the RANGEs u is inside of (a RANGE is inside itself), in tinygrad's order.
std::vector<UOp> Ranges(const UOp& u);

// Index validity (index dtype): get_idx / get_valid / valid.
UOp GetIdx(const UOp& u);
UOp GetValid(const UOp& u);
UOp Valid(const UOp& u, const UOp& cond);

// tinygrad's dedup / all_same on node lists.
std::vector<UOp> Dedup(std::span<const UOp> us);
bool AllSame(std::span<const UOp> us);
bool Contains(std::span<const UOp> us, const UOp& u);

}  // namespace tg

#endif  // TINYGRAD_UOP_SYMBOLIC_HELPERS_H_
