#!/usr/bin/env python3
# File: tools/golden/gen_symbolic_unit_cases.py
# Prints the case table of tinygrad/uop/symbolic/symbolic_test.cc: each rule family's focused
# cases, with the answers of the reference tinygrad (render, vmin, vmax).
#
# Usage (paste the output between the BEGIN/END markers of symbolic_test.cc):
#   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU CORRECT_DIVMOD_FOLDING=1 python3 \
#     <repo>/tools/golden/gen_symbolic_unit_cases.py
#
# CORRECT_DIVMOD_FOLDING=1 because our simplifier always folds div/mod soundly (see
# tinygrad/uop/symbolic/divandmod.cc); tinygrad's default folds a few negative numerators wrongly.
#
# Each case is written once, in a syntax that is both Python (here) and C++ (the test), through
# the small helpers defined on both sides: V(name, lo, hi) an index variable, C(v) an index
# const, F(v) a float const, B(v) a bool const, R(end, id) a RANGE, INV() the Invalid index,
# FV(name) a float variable in [0, 8], Vec(...) a VECTORIZE, Cat(...) a CAT, Gep(x, lanes...) a
# GEP, Cast1(x, dtype) a CAST node as is, Buf() a float DEFINE_GLOBAL, Index(buf, i) an INDEX,
# and x.lt/gt/le/ge.
# `dtypes.X` becomes `dtypes::X` in C++ (dtypes.bool -> dtypes::bool_).
import os, sys

if os.environ.get("CORRECT_DIVMOD_FOLDING") != "1": sys.exit("run with CORRECT_DIVMOD_FOLDING=1")

from tinygrad.uop.ops import UOp, Ops, graph_rewrite  # noqa: E402
from tinygrad.uop.symbolic import sym, pm_drop_and_clauses, pm_move_where_on_load  # noqa: E402
from tinygrad.dtype import dtypes  # noqa: E402

def V(n, lo, hi): return UOp.variable(n, lo, hi)
def C(v): return UOp.const(dtypes.index, v)
def F(v): return UOp.const(dtypes.float, v)
def B(v): return UOp.const(dtypes.bool, bool(v))
def R(end, i): return UOp.range(end, i)
def INV(): return UOp.invalid()
def Vec(*xs): return UOp(Ops.VECTORIZE, xs[0].dtype.vec(len(xs)), xs)
def Gep(x, *lanes): return x.gep(tuple(lanes))
def Buf(): return UOp(Ops.DEFINE_GLOBAL, dtypes.float.ptr(), arg=0)
def Index(buf, i): return buf.index(i)
def FV(n): return UOp.variable(n, 0, 8, dtypes.float)
def Cast1(x, dt): return UOp(Ops.CAST, dt, (x,))
def Cat(*xs): return UOp(Ops.CAT, xs[0].dtype.scalar().vec(sum(x.dtype.count for x in xs)), xs)
UOp.lt, UOp.gt, UOp.le, UOp.ge = UOp.__lt__, UOp.__gt__, UOp.__le__, UOp.__ge__

# (family, name, pass, expression). pass: simplify (UOp.simplify), sym (graph_rewrite with
# sym), drop (pm_drop_and_clauses), where_load (pm_move_where_on_load).
CASES = [
  # ** propagate_invalid **
  ("invalid", "gate_pushed_past_add", "simplify", "V('a',0,8).lt(5).where(V('a',0,8), INV()) + 3"),
  ("invalid", "gate_pushed_past_mod", "simplify", "V('a',0,8).lt(5).where(V('a',0,8), INV()) % 3"),
  ("invalid", "gate_dropped_by_compare", "simplify", "V('a',0,8).lt(5).where(V('a',0,8), INV()).lt(3)"),
  ("invalid", "gate_dropped_by_cast", "simplify", "V('a',0,8).lt(5).where(V('a',0,8), INV()).cast(dtypes.int32)"),
  ("invalid", "gate_dropped_by_ne", "simplify", "V('a',0,8).lt(5).where(V('a',0,8), INV()).ne(3)"),
  ("invalid", "invalid_max_is_invalid", "simplify", "INV().maximum(V('a',0,8))"),
  ("invalid", "invalid_plus_x_is_invalid", "simplify", "INV() + V('a',0,8)"),
  ("invalid", "invalid_times_zero_stays_invalid", "simplify", "INV() * 0"),
  # ** symbolic_simple: self folding **
  ("simple", "add_zero", "simplify", "V('a',0,8) + 0"),
  ("simple", "mul_one", "simplify", "V('a',0,8) * 1"),
  ("simple", "div_self", "simplify", "V('a',1,8).idiv(V('a',1,8))"),
  ("simple", "div_one", "simplify", "V('a',-4,8).idiv(1)"),
  ("simple", "div_minus_one", "simplify", "V('a',-4,8).idiv(-1)"),
  ("simple", "mod_mod", "simplify", "V('a',-4,8) % V('b',1,3) % V('b',1,3)"),
  ("simple", "mod_plus_div", "simplify", "V('a',0,100) % 4 + V('a',0,100).idiv(4) * 4"),
  ("simple", "nested_div_mod_recombine", "simplify", "V('a',0,100).idiv(2) % 3 + V('a',0,100).idiv(6) * 3"),
  ("simple", "div_mod_scaled_recombine", "simplify", "V('a',0,100).idiv(4) * 8 + V('a',0,100) % 4 * 2"),
  ("simple", "y_plus_mod_plus_div", "simplify", "V('y',0,5) + V('a',0,100) % 4 + V('a',0,100).idiv(4) * 4"),
  ("simple", "bool_and_true", "simplify", "V('a',0,8).lt(3) & B(1)"),
  ("simple", "bool_and_false", "simplify", "V('a',0,8).lt(3) & B(0)"),
  ("simple", "bool_or_true", "simplify", "V('a',0,8).lt(3) | B(1)"),
  ("simple", "idempotent_max", "simplify", "V('a',0,8).maximum(V('a',0,8))"),
  ("simple", "double_not", "simplify", "V('a',0,8).lt(3).logical_not().logical_not()"),
  ("simple", "where_true_false", "simplify", "V('a',0,8).lt(3).where(B(1), B(0))"),
  ("simple", "where_false_true", "simplify", "V('a',0,8).lt(3).where(B(0), B(1))"),
  # ** symbolic_simple: zero folding **
  ("simple", "lt_self", "simplify", "V('a',0,8).lt(V('a',0,8))"),
  ("simple", "mod_self", "simplify", "V('a',1,8) % V('a',1,8)"),
  ("simple", "xor_self", "simplify", "V('a',0,8) ^ V('a',0,8)"),
  ("simple", "ne_self", "simplify", "V('a',0,8).ne(V('a',0,8))"),
  # ** symbolic_simple: constant folding **
  ("simple", "const_add", "simplify", "C(3) + C(4)"),
  ("simple", "const_idiv_truncates", "simplify", "C(-7).idiv(C(2))"),
  ("simple", "const_mod_sign_of_dividend", "simplify", "C(-7) % C(2)"),
  ("simple", "const_max", "simplify", "C(3).maximum(C(-5))"),
  ("simple", "const_where", "simplify", "C(3).lt(C(4)).where(C(10), C(20))"),
  ("simple", "const_float_mul", "simplify", "F(1.5) * F(2.0)"),
  ("simple", "const_sqrt_negative_nan", "simplify", "F(-1.0).sqrt()"),
  ("simple", "const_reciprocal_zero_inf", "simplify", "F(0.0).reciprocal()"),
  ("simple", "const_fold_does_not_wrap", "simplify", "UOp.const(dtypes.int32, 2147483647) * 2"),
  ("simple", "bitcast_const", "simplify", "F(1.0).bitcast(dtypes.int32)"),
  ("simple", "threefry_low_bits", "simplify", "(UOp.variable('u',0,100,dtypes.uint64) & 4294967295).cast(dtypes.uint32)"),
  ("simple", "bool_mul_is_and", "simplify", "V('a',0,8).lt(3) * V('b',0,8).lt(4)"),
  ("simple", "bool_add_is_or", "simplify", "V('a',0,8).lt(3) + V('b',0,8).lt(4)"),
  ("simple", "bool_max_is_or", "simplify", "V('a',0,8).lt(3).maximum(V('b',0,8).lt(4))"),
  ("simple", "float_mul_div_same", "simplify", "(FV('f') * FV('g')) / FV('g')"),
  ("simple", "float_div_self", "simplify", "UOp.variable('f',0,8,dtypes.float) / UOp.variable('f',0,8,dtypes.float)"),
  ("simple", "float_mul_zero", "simplify", "UOp.variable('f',0,8,dtypes.float) * 0"),
  ("simple", "cast_const", "simplify", "C(3).cast(dtypes.float)"),
  ("simple", "cast_same_dtype_dropped", "simplify", "Cast1(V('a',0,8), dtypes.index)"),
  ("simple", "cast_chain_back_to_source", "simplify", "UOp.variable('i',0,8,dtypes.int32).cast(dtypes.int64).cast(dtypes.int32)"),
  ("simple", "cast_chain_roundtrip", "simplify", "V('a',0,8).cast(dtypes.int32).cast(dtypes.int64).cast(dtypes.int32)"),
  ("simple", "pow_int_exponent", "simplify", "UOp.variable('f',0,8,dtypes.float).pow(F(3.0))"),
  ("simple", "pow_even_exponent", "simplify", "UOp.variable('f',0,8,dtypes.float).pow(F(4.0))"),
  ("simple", "pow_negative_exponent", "simplify", "UOp.variable('f',1,8,dtypes.float).pow(F(-2.0))"),
  ("simple", "const_base_pow", "simplify", "F(2.0).pow(FV('f'))"),
  ("simple", "threefry_high_word", "simplify", "((UOp.variable('h',0,100,dtypes.uint64) * 4294967296) | UOp.variable('l',0,100,dtypes.uint32).cast(dtypes.uint64)).cast(dtypes.uint32)"),
  ("simple", "threefry_shift_back", "simplify", "((UOp.variable('h',0,100,dtypes.uint64) << 32) | UOp.variable('l',0,100,dtypes.uint32).cast(dtypes.uint64)) >> 32"),
  ("simple", "threefry_shifted_low_word", "simplify", "((UOp.variable('h',0,100,dtypes.uint64) << 32) | UOp.variable('l',0,100,dtypes.uint32).cast(dtypes.uint64)).cast(dtypes.uint32)"),
  ("simple", "where_same_branches", "simplify", "V('a',0,8).lt(3).where(V('b',0,8), V('b',0,8))"),
  ("simple", "where_const_gate", "simplify", "B(1).where(V('a',0,8), V('b',0,8))"),
  ("simple", "where_nested_same_else", "simplify", "V('a',0,8).lt(3).where(V('b',0,8).lt(2).where(V('c',0,8), C(1)), C(1))"),
  # ** commutative **
  ("commutative", "vars_sorted", "simplify", "V('b',0,8) + V('a',0,8)"),
  ("commutative", "const_last", "simplify", "C(3) * V('a',0,8)"),
  ("commutative", "compare_ne_sorted", "simplify", "V('b',0,8).ne(V('a',0,8))"),
  # ** symbolic: combine terms, where folding, ranges **
  ("symbolic", "or_not_self", "simplify", "V('a',0,8).lt(3) | V('a',0,8).lt(3).logical_not()"),
  ("symbolic", "combine_mul_consts", "simplify", "V('a',0,8) * 2 + V('a',0,8) * 3"),
  ("symbolic", "combine_y_mul_consts", "simplify", "V('y',0,8) + V('a',0,8) * 2 + V('a',0,8) * 3"),
  ("symbolic", "x_plus_x_times_c", "simplify", "V('a',0,8) + V('a',0,8) * 3"),
  ("symbolic", "x_plus_x", "simplify", "V('a',0,8) + V('a',0,8)"),
  ("symbolic", "div_div_float", "simplify", "FV('f') / FV('g') / FV('h')"),
  ("symbolic", "neg_of_sum_with_const", "simplify", "-(V('a',0,8) + 3)"),
  ("symbolic", "const_times_sum", "simplify", "2 * (V('a',0,8) + 3)"),
  ("symbolic", "where_not_cond_swaps", "simplify", "V('a',0,8).lt(3).logical_not().where(V('b',0,8), V('c',0,8))"),
  ("symbolic", "two_wheres_combine", "simplify", "V('a',0,8).lt(3).where(C(1), V('b',0,8)) + V('a',0,8).lt(3).where(C(3), V('c',0,8))"),
  ("symbolic", "range_collapses_to_const", "simplify", "V('a',0,8).idiv(10)"),
  ("symbolic", "range_of_one_is_zero", "simplify", "R(1,0)"),
  ("symbolic", "max_folds_to_larger", "simplify", "V('a',0,8).maximum(20)"),
  ("symbolic", "max_folds_to_self", "simplify", "V('a',10,18).maximum(V('b',0,8))"),
  ("symbolic", "min_via_max", "simplify", "V('a',0,8).minimum(20)"),
  ("symbolic", "two_stage_add", "simplify", "V('a',0,8) + 2 + 3"),
  ("symbolic", "two_stage_mul", "simplify", "V('a',0,8) * 2 * 3"),
  ("symbolic", "two_stage_and", "simplify", "V('a',0,8) & 12 & 10"),
  ("symbolic", "two_stage_or", "simplify", "V('a',0,8) | 4 | 1"),
  ("symbolic", "const_plus_x_lt", "simplify", "(3 + V('a',0,8)).lt(5)"),
  ("symbolic", "div_div", "simplify", "V('a',0,100).idiv(2).idiv(3)"),
  ("symbolic", "scaled_lt_positive", "simplify", "(2 * V('a',0,8)).lt(7)"),
  ("symbolic", "scaled_lt_negative", "simplify", "(-3 * V('a',0,8)).lt(-4)"),
  ("symbolic", "div_lt_positive", "simplify", "V('a',-8,8).idiv(3).lt(2)"),
  ("symbolic", "div_lt_nonpositive", "simplify", "V('a',-8,8).idiv(3).lt(-1)"),
  ("symbolic", "const_moves_out_of_add", "simplify", "V('a',0,8) + 3 + V('b',0,8)"),
  ("symbolic", "lt_folding_gcd", "simplify", "(V('a',0,8) * 4 + V('b',0,8) * 8 + V('c',0,3)).lt(16)"),
  ("symbolic", "neg_lt_neg", "simplify", "(V('a',0,8) * -1).lt(V('b',0,8) * -1)"),
  ("symbolic", "simplex", "simplify", "(V('a',0,3) * 3 + V('b',0,3) * 4).lt(1).logical_not()"),
  ("symbolic", "range_mod_end", "simplify", "R(V('n',1,10) + 2, 0) % (V('n',1,10) + 2)"),
  ("symbolic", "range_div_end", "simplify", "R(V('n',1,10) + 2, 0).idiv(V('n',1,10) + 2)"),
  ("symbolic", "cast_chain_lossless_middle", "simplify", "UOp.variable('i',0,8,dtypes.int16).cast(dtypes.int32).cast(dtypes.float)"),
  ("symbolic", "cast_chain_fits", "simplify", "V('a',0,100).cast(dtypes.int8).cast(dtypes.int64)"),
  ("symbolic", "long_math_in_int", "simplify", "V('a',0,100).cast(dtypes.int64) + V('b',0,100).cast(dtypes.int64)"),
  ("symbolic", "index_add_const_cast", "simplify", "(V('a',0,100) + 3).cast(dtypes.int32)"),
  ("symbolic", "vectorize_consts", "simplify", "Vec(C(1), C(2), C(3))"),
  # ** div_and_mod_symbolic **
  ("divmod", "nested_div_with_add", "simplify", "(V('a',0,124).idiv(2) + 1).idiv(2)"),
  ("divmod", "negative_divisor", "simplify", "V('a',0,20).idiv(-3)"),
  ("divmod", "nonpositive_numerator", "simplify", "V('x',-10,0).idiv(V('y',1,10))"),
  ("divmod", "add_const_split", "simplify", "(V('a',0,5) + 5).idiv(4)"),
  ("divmod", "cancel_to_const", "simplify", "(V('a',0,8) + 1).idiv(10)"),
  ("divmod", "cancel_mod", "simplify", "(V('a',10,15)) % 10"),
  ("divmod", "remove_nested_mod", "simplify", "(V('a',0,31) % 8 + V('b',0,7)) % 4"),
  ("divmod", "binary_numerator", "simplify", "(3 + V('a',0,1)) % 4"),
  ("divmod", "congruence_mod", "simplify", "(2 + 9 * V('a',0,3)) % 18"),
  ("divmod", "congruence_div", "simplify", "(9 + 19 * V('x',0,3) + 18 * V('y',0,2)).idiv(10)"),
  ("divmod", "gcd_with_remainder", "simplify", "(V('a',0,10) * 4 + V('b',0,10) * 8 + 2).idiv(4)"),
  ("divmod", "nest_by_smallest_factor", "simplify", "(V('a',0,7) * 4 + V('b',0,12) * 2 + V('c',0,1)).idiv(12)"),
  ("divmod", "divide_by_symbolic_gcd", "simplify", "(3 * V('a',-10,10) + 9 * V('b',-10,10)).idiv(3 * V('d',1,10))"),
  ("divmod", "factor_remainder", "simplify", "(V('d',1,10) * V('a',0,10) * 20 + V('b',0,10)).idiv(5 * V('d',1,10))"),
  ("divmod", "mod_negative_numerator", "simplify", "V('a',-8,-1) % 4"),
  ("divmod", "mod_negative_divisor", "simplify", "V('a',0,20) % -3"),
  ("divmod", "sound_negative_numerator_div", "simplify", "(V('x',-20,20) * 3 + 1).idiv(3)"),
  ("divmod", "sound_negative_numerator_mod", "simplify", "(V('x',-7,-1) * 3 + 1) % 3"),
  ("divmod", "variable_divisor_range", "simplify", "V('x',20,23) % V('y',8,10)"),
  # ** gep_pushing **
  ("gep", "gep_of_vectorize", "simplify", "Gep(Vec(V('a',0,8), V('b',0,8), V('c',0,8)), 2, 0)"),
  ("gep", "gep_of_vconst", "simplify", "Gep(Vec(C(1), C(2), C(3)), 2, 1)"),
  ("gep", "gep_through_alu", "simplify", "Gep(Vec(V('a',0,8), V('b',0,8)) + Vec(V('c',0,8), V('d',0,8)), 1, 0)"),
  ("gep", "gep_identity", "simplify", "Gep(Vec(V('a',0,8), V('b',0,8)) * 2, 0, 1)"),
  ("gep", "gep_of_gep", "simplify", "Gep(Gep(Vec(V('a',0,8), V('b',0,8), V('c',0,8)) * 2, 2, 1, 0), 0, 2)"),
  ("gep", "cat_expands", "simplify", "Cat(Vec(V('a',0,8), V('b',0,8)), Vec(V('b',0,8), V('a',0,8)))"),
  # ** valid simplification (sym) **
  ("valid", "index_given_valid", "sym", "(V('g',0,4) * 4 + V('l',0,3)).lt(19).logical_not().where(V('g',0,4) * 4 + V('l',0,3) - 19, INV())"),
  ("valid", "valid_clauses", "sym", "R(3,0).lt(1) & ((R(3,0) * 5 + 1) % 6).lt(5)"),
  ("valid", "valid_clauses_other_order", "sym", "((R(3,0) * 5 + 1) % 6).lt(5) & R(3,0).lt(1)"),
  ("valid", "gated_idx_uses_upper_bound", "sym", "V('a',0,20).lt(8).where(V('a',0,20).idiv(8), INV())"),
  ("valid", "gated_idx_uses_lower_bound", "sym", "V('a',0,20).lt(8).logical_not().where(V('a',0,20) % 8 + V('a',0,20).idiv(8) * 8, INV())"),
  ("valid", "gated_div_given_lower_bound", "sym", "V('a',0,15).lt(8).logical_not().where(V('a',0,15).idiv(8), INV())"),
  ("valid", "gated_mod_dropped", "sym", "(V('a',0,20).lt(10) & V('a',0,20).lt(5).logical_not()).where(V('a',0,20) % 10, INV())"),
  # ** sym extras **
  ("sym", "ne_zero_is_cast", "sym", "UOp.variable('i',0,8,dtypes.int32).ne(0)"),
  ("sym", "cast_pushed_into_where", "sym", "V('a',0,8).lt(3).where(V('b',0,8), V('c',0,8)).cast(dtypes.int32)"),
  ("sym", "reciprocal_of_square", "sym", "(UOp.variable('f',1,8,dtypes.float) * UOp.variable('f',1,8,dtypes.float)).reciprocal()"),
  ("sym", "reciprocal_of_scaled", "sym", "(UOp.variable('f',1,8,dtypes.float) * 2.0).reciprocal()"),
  ("sym", "x_over_one_plus_x", "sym", "UOp.variable('f',1,8,dtypes.float) * (1 + UOp.variable('f',1,8,dtypes.float)).reciprocal()"),
  ("sym", "reciprocal_of_cube", "sym", "(FV('f') * FV('f') * FV('f')).reciprocal()"),
  ("sym", "x_times_recip_times_y", "sym", "FV('f') * ((1 + FV('f')).reciprocal() * FV('g'))"),
  ("sym", "x_times_recip_plus_y", "sym", "FV('f') * ((1 + FV('f')).reciprocal() + FV('g'))"),
  ("sym", "pow_variable_exponent", "sym", "FV('f').pow(FV('g'))"),
  ("sym", "neg_of_sum", "sym", "-(V('a',0,8) + V('b',0,8))"),
  ("sym", "sum_times_const", "sym", "(V('a',0,8) + V('b',0,8)) * 3"),
  ("sym", "vectorize_alu_broadcast", "sym", "Vec(V('a',0,8), V('a',0,8)) + Vec(V('b',0,8), V('b',0,8))"),
  # ** standalone matchers **
  ("drop", "drops_clause_without_ranges", "drop", "(R(4,0).lt(3) & V('a',0,8).lt(5)).where(R(4,0) * 2, INV())"),
  ("drop", "keeps_clause_on_same_range", "drop", "(R(4,0).lt(3) & R(5,1).lt(2)).where(R(4,0) + R(5,1), INV())"),
  ("where_load", "where_moves_into_index", "where_load", "R(4,0).lt(3).where(Index(Buf(), R(4,0)), F(0.0))"),
  ("where_load", "where_else_moves_into_index", "where_load", "R(4,0).lt(3).where(F(0.0), Index(Buf(), R(4,0)))"),
]

def run(pass_name, x):
  if pass_name == "simplify": return x.simplify()
  if pass_name == "sym": return graph_rewrite(x, sym)
  if pass_name == "drop": return graph_rewrite(x, pm_drop_and_clauses)
  if pass_name == "where_load": return graph_rewrite(x, pm_move_where_on_load)
  raise ValueError(pass_name)

def cpp_expr(e):
  return e.replace("dtypes.bool", "dtypes::bool_").replace("dtypes.float", "dtypes::float32").replace("dtypes.", "dtypes::") \
          .replace("UOp.variable", "UOp::Variable").replace("UOp.const", "UOp::Const").replace("'", '"')

def value(v):
  # dtypes.index's own bounds are +-2**799 here and +-2**120 in our port: written by name
  if isinstance(v, int) and not isinstance(v, bool):
    if v <= dtypes.min(dtypes.index): return "index_min"
    if v >= dtypes.max(dtypes.index): return "index_max"
  return repr(v)

def cstr(s): return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'

for family, name, pass_name, expr in CASES:
  x = eval(expr)
  out = run(pass_name, x)
  print(f'    {{"{family}.{name}", Pass::k{pass_name.title().replace("_", "")}, [] {{ return {cpp_expr(expr)}; }},')
  print(f'     {cstr(out.render(simplify=False))}, {cstr(value(out.vmin))}, {cstr(value(out.vmax))}}},')
