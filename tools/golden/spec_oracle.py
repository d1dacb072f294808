#!/usr/bin/env python3
# File: tools/golden/spec_oracle.py
# Prints what tinygrad's spec (tinygrad/uop/spec.py) says about each graph of
# //tinygrad/uop:spec_test's parity table (kParityCases in tinygrad/uop/spec_test.cc), by
# running the reference. The graphs are built here node for node as the C++ test builds them
# (raw UOp(op, dtype, src, arg, tag) constructors, no sugar).
#
# Usage:
#   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU python3 <repo>/tools/golden/spec_oracle.py
#
# For each case and each of shared_spec, tensor_spec, kernel_spec, program_spec, full_spec it
# prints the toposort index of the first node the spec rejects (the index type_verify names in
# "UOp verification failed at {i}"), or -1 when every node passes. A rule that raises counts as a
# rejection, as in type_verify. The output rows are the C++ table's expected values.
from tinygrad.uop.ops import UOp, Ops, AxisType
from tinygrad.dtype import dtypes, AddrSpace, Invalid
from tinygrad.uop.spec import shared_spec, tensor_spec, kernel_spec, program_spec, full_spec

SPECS = [shared_spec, tensor_spec, kernel_spec, program_spec, full_spec]

def U(op, dt=dtypes.void, src=(), arg=None, tag=None): return UOp(op, dt, tuple(src), arg, tag)
def C(v, dt): return U(Ops.CONST, dt, (), v)
def DV(name, lo, hi, dt=dtypes.index): return U(Ops.DEFINE_VAR, dt, (), (name, lo, hi))
def RNG(end, axis=0, at=AxisType.LOOP): return U(Ops.RANGE, end.dtype, (end,), (axis, at))
def DG(slot, size=16, dt=dtypes.float): return U(Ops.DEFINE_GLOBAL, dt.ptr(size), (), slot)
def IDX(buf, *idx): return U(Ops.INDEX, buf.dtype, (buf,) + idx)
def LD(idx, *rest): return U(Ops.LOAD, idx.dtype.base, (idx,) + rest)
def ST(idx, val): return U(Ops.STORE, dtypes.void, (idx, val))
def SINK(*s): return U(Ops.SINK, dtypes.void, s)

f, i32, idx = dtypes.float, dtypes.int32, dtypes.index
def f4(): return U(Ops.VECTORIZE, f.vec(4), [C(float(k), f) for k in range(4)])

def kernel(index_dtype):
  r = RNG(C(16, index_dtype))
  val = U(Ops.ADD, f, (LD(IDX(DG(1), r)), C(1.0, f)))
  return SINK(U(Ops.END, dtypes.void, (ST(IDX(DG(0), r), val), r)))

def buf(): return U(Ops.BUFFER, f, (U(Ops.UNIQUE, arg=0), U(Ops.DEVICE, arg="CPU:0")), 16)

def multi_device(sel):
  bufs = [U(Ops.BUFFER, f, (U(Ops.UNIQUE, arg=k), U(Ops.DEVICE, arg=f"CPU:{k}")), 16) for k in range(2)]
  return SINK(U(Ops.MSELECT, f, (U(Ops.MSTACK, f, bufs),), sel))

CASES = {
  "valid_index_expr": lambda: SINK(U(Ops.MOD, idx, (U(Ops.IDIV, idx, (U(Ops.ADD, idx, (U(Ops.MUL, idx, (DV("a", 0, 10), C(2, idx))),
                                   RNG(C(16, idx)))), C(3, idx))), C(4, idx)))),
  "valid_kernel": lambda: kernel(idx),
  "valid_program": lambda: kernel(i32),
  "cmplt_float_result": lambda: SINK(U(Ops.CMPLT, f, (C(1, i32), C(2, i32)))),
  "cmplt_mismatched_srcs": lambda: SINK(U(Ops.CMPLT, dtypes.bool, (C(1, i32), C(2.0, f)))),
  "cmplt_int_result": lambda: SINK(U(Ops.CMPLT, i32, (C(1, i32), C(2, i32)))),
  "add_mismatched_srcs": lambda: SINK(U(Ops.ADD, f, (C(1, i32), C(2.0, f)))),
  "add_vector_scalar": lambda: SINK(U(Ops.ADD, f.vec(4), (f4(), C(2.0, f)))),
  "define_var_float_bound": lambda: SINK(DV("a", 0.5, 10)),
  "define_var_short_arg": lambda: SINK(U(Ops.DEFINE_VAR, idx, (), ("a", 0))),
  "define_var_float_dtype": lambda: SINK(DV("a", 0.0, 1.0, f)),
  "range_float": lambda: SINK(RNG(C(16.0, f))),
  "range_dtype_mismatch": lambda: SINK(U(Ops.RANGE, i32, (C(16, idx),), (0, AxisType.LOOP))),
  "range_arg_not_axis_type": lambda: SINK(U(Ops.RANGE, idx, (C(16, idx),), (0, "LOOP"))),
  "index_non_pointer": lambda: SINK(U(Ops.INDEX, f, (C(1.0, f), C(2.0, f)))),
  "index_float_idx_on_global": lambda: SINK(IDX(DG(0), C(1.5, f))),
  "store_value_mismatch": lambda: SINK(ST(IDX(DG(0), C(0, idx)), C(1, i32))),
  "store_not_to_index": lambda: SINK(ST(C(0.0, f), C(1.0, f))),
  "gep_out_of_range": lambda: SINK(U(Ops.GEP, f, (f4(),), (7,))),
  "gep_wrong_dtype": lambda: SINK(U(Ops.GEP, i32, (f4(),), (0,))),
  "gep_two_lanes": lambda: SINK(U(Ops.GEP, f.vec(2), (f4(),), (0, 1))),
  "vectorize_count_mismatch": lambda: SINK(U(Ops.VECTORIZE, f.vec(3), (C(1.0, f), C(2.0, f)))),
  "vectorize_one_src": lambda: SINK(U(Ops.VECTORIZE, f, (C(1.0, f),))),
  "vectorize_of_vectors": lambda: SINK(U(Ops.VECTORIZE, f.vec(8), (f4(), f4()))),
  "cast_with_arg": lambda: SINK(U(Ops.CAST, i32, (C(1.0, f),), 1)),
  "cast_two_srcs": lambda: SINK(U(Ops.CAST, i32, (C(1.0, f), C(2.0, f)))),
  "bitcast_size_change": lambda: SINK(U(Ops.BITCAST, dtypes.int64, (C(1.0, f),))),
  "where_float_cond": lambda: SINK(U(Ops.WHERE, i32, (C(1.0, f), C(1, i32), C(2, i32)))),
  "where_int_cond": lambda: SINK(U(Ops.WHERE, i32, (C(1, i32), C(1, i32), C(2, i32)))),
  "where_mismatched_values": lambda: SINK(U(Ops.WHERE, f, (C(True, dtypes.bool), C(1, i32), C(2.0, f)))),
  "shl_int8_shift": lambda: SINK(U(Ops.SHL, i32, (C(1, i32), C(2, dtypes.int8)))),
  "shl_uint_shift": lambda: SINK(U(Ops.SHL, i32, (C(1, i32), C(2, dtypes.uint32)))),
  "idiv_float": lambda: SINK(U(Ops.IDIV, f, (C(1.0, f), C(2.0, f)))),
  # Python interns CONST(1) and CONST(1.0)/CONST(True) as one node (1 == 1.0 == True), so these use
  # values no other live const has.
  "const_int_arg_float_dtype": lambda: SINK(C(3, f)),
  "const_int_arg_bool_dtype": lambda: SINK(U(Ops.CONST, dtypes.bool, (), 2)),
  "special_int64": lambda: SINK(U(Ops.SPECIAL, dtypes.int64, (C(4, dtypes.int64),), "gidx0")),
  "special_int32": lambda: SINK(U(Ops.SPECIAL, i32, (C(4, i32),), "gidx0")),
  "define_global_not_pointer": lambda: SINK(U(Ops.DEFINE_GLOBAL, f, (), 0)),
  "define_local_global_pointer": lambda: SINK(U(Ops.DEFINE_LOCAL, f.ptr(16), (), 0)),
  "define_local": lambda: SINK(U(Ops.DEFINE_LOCAL, f.ptr(16, AddrSpace.LOCAL), (), 0)),
  "define_reg_string_arg": lambda: SINK(U(Ops.DEFINE_REG, f.ptr(4, AddrSpace.REG), (), "r")),
  "end_of_non_range": lambda: SINK(U(Ops.END, dtypes.void, (ST(IDX(DG(0), C(0, i32)), C(1.0, f)), C(0, i32)))),
  "vconst_int2": lambda: SINK(U(Ops.VCONST, i32.vec(2), (), (1, 2))),
  "vconst_length_mismatch": lambda: SINK(U(Ops.VCONST, i32.vec(4), (), (1, 2))),
  "const_with_tag": lambda: SINK(U(Ops.CONST, f, (), 1.0, 1)),
  "reduce_axis_add": lambda: SINK(U(Ops.REDUCE_AXIS, f, (C(1.0, f),), (Ops.ADD, (0,)))),
  "reduce_axis_sub": lambda: SINK(U(Ops.REDUCE_AXIS, f, (C(1.0, f),), (Ops.SUB, (0,)))),
  "load_alt_without_gate": lambda: SINK(LD(IDX(DG(0), C(0, i32)), C(0.0, f))),
  "load_alt_with_gate": lambda: SINK(LD(IDX(DG(0), C(0, i32), C(True, dtypes.bool)), C(0.0, f))),
  "mselect_in_range": lambda: multi_device(1),
  "mselect_out_of_range": lambda: multi_device(2),
  "contract_count": lambda: SINK(U(Ops.CONTRACT, f.vec(4), (C(1.0, f),), ((0, 4),))),
  "contract_count_mismatch": lambda: SINK(U(Ops.CONTRACT, f.vec(4), (C(1.0, f),), ((0, 2),))),
  "bind_const": lambda: SINK(U(Ops.BIND, idx, (DV("a", 0, 10), C(3, idx)))),
  "cat_count_mismatch": lambda: SINK(U(Ops.CAT, f.vec(8), (f4(), C(1.0, f)))),
  "wmma_bad_arg": lambda: SINK(U(Ops.WMMA, f, (C(1.0, f), C(1.0, f), C(1.0, f)), ("wmma",))),
  # tensor graph
  "reshape": lambda: SINK(U(Ops.RESHAPE, f, (buf(), U(Ops.VCONST, idx.vec(2), (), (4, 4))))),
  "permute_int_arg": lambda: SINK(U(Ops.PERMUTE, f, (buf(),), 0)),
  "copy": lambda: SINK(U(Ops.COPY, f, (buf(), U(Ops.DEVICE, arg="CPU:1")))),
  "copy_dtype_mismatch": lambda: SINK(U(Ops.COPY, i32, (buf(), U(Ops.DEVICE, arg="CPU:1")))),
  "assign_non_assign_dep": lambda: SINK(U(Ops.ASSIGN, f, (buf(), C(1.0, f), C(2.0, f)))),
  "contiguous_with_range": lambda: SINK(U(Ops.CONTIGUOUS, f, (buf(), RNG(C(16, idx))))),
  "contiguous_with_non_range": lambda: SINK(U(Ops.CONTIGUOUS, f, (buf(), C(16, idx)))),
  "device_tuple": lambda: SINK(U(Ops.DEVICE, arg=("CPU:0", "CPU:1"))),
  "device_int_arg": lambda: SINK(U(Ops.DEVICE, arg=3)),
  "buffer_view": lambda: SINK(U(Ops.BUFFER_VIEW, f, (buf(),), (4, 2))),
  "kernel_after": lambda: SINK(U(Ops.KERNEL, dtypes.void, (buf(), U(Ops.AFTER, f, (buf(), C(1.0, f)))))),
  "mstack_without_device": lambda: SINK(U(Ops.MSTACK, f, (C(1.0, f), C(2.0, f)))),
  "allreduce_no_op_arg": lambda: SINK(U(Ops.ALLREDUCE, f, (buf(), U(Ops.DEVICE, arg="CPU:0")), 1)),
  "multi": lambda: SINK(U(Ops.MULTI, f, (buf(),), 0)),
  # codegen / program
  "const_invalid_index": lambda: SINK(U(Ops.CONST, idx, (), Invalid)),
  "const_invalid_float": lambda: SINK(U(Ops.CONST, f, (), Invalid)),
  "define_var_bool_bound": lambda: SINK(DV("a", True, 10)),
  "if_endif": lambda: SINK(U(Ops.ENDIF, dtypes.void, (U(Ops.IF, dtypes.void, (U(Ops.CMPLT, dtypes.bool, (C(1, i32), C(2, i32))),
                                                                            IDX(DG(0), C(0, i32)))),))),
  "where_index_rhs": lambda: SINK(U(Ops.WHERE, idx, (C(True, dtypes.bool), C(1, i32), C(2, idx)))),
  "unroll_count": lambda: SINK(U(Ops.UNROLL, f, (f4(),), ((0, 4),))),
  "ptrcat": lambda: SINK(U(Ops.PTRCAT, f.ptr(16).vec(2), (IDX(DG(0), C(0, i32)), IDX(DG(1), C(0, i32))))),
  "reduce_over_range": lambda: SINK(U(Ops.REDUCE, f, (C(1.0, f), RNG(C(16, idx))), Ops.ADD)),
  "reduce_over_float": lambda: SINK(U(Ops.REDUCE, f, (C(1.0, f), C(16.0, f)), Ops.ADD)),
  "bufferize": lambda: SINK(U(Ops.BUFFERIZE, f, (C(1.0, f), RNG(C(16, idx))))),
  "special_int_arg": lambda: SINK(U(Ops.SPECIAL, i32, (C(4, i32),), 0)),
  "barrier_after_define": lambda: SINK(U(Ops.BARRIER, dtypes.void, (U(Ops.AFTER, f.ptr(16), (DG(0), ST(IDX(DG(0), C(0, i32)), C(1.0, f)))),))),
  "group": lambda: SINK(U(Ops.GROUP, dtypes.void, (ST(IDX(DG(0), C(0, i32)), C(1.0, f)), ST(IDX(DG(1), C(0, i32)), C(1.0, f))))),
  "program_sink_device": lambda: U(Ops.PROGRAM, dtypes.void, (SINK(), U(Ops.DEVICE, arg="CPU"))),
  "cast_to_index": lambda: SINK(U(Ops.CAST, idx, (C(1, i32),))),
}

def first_bad(sink, spec):
  for i, u in enumerate(sink.toposort()):
    try: ok = spec.rewrite(u) is True
    except Exception: ok = False  # type_verify propagates the exception: the graph is rejected
    if not ok: return i
  return -1

if __name__ == "__main__":
  print("# name: shared tensor kernel program full")
  for name, build in CASES.items():
    print(f'{{"{name}", ' + ", ".join(str(first_bad(build(), s)) for s in SPECS) + "},")
