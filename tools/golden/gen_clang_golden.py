#!/usr/bin/env python3
# File: tools/golden/gen_clang_golden.py
# Generates the golden files in tinygrad/renderer/c/testdata/ that //tinygrad/renderer/c:clang_test
# replays: for each case a linear UOp list (<case>.uops) and the C source the reference
# ClangRenderer renders from it (<case>.c).
#
# Usage (from anywhere; the reference checkout must be importable):
#   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU python3 \
#     <repo>/tools/golden/gen_clang_golden.py --out <repo>/tinygrad/renderer/c/testdata
#
# Two kinds of cases:
#   pipe_*  kernels from Tensor programs (or hand-built kernel sinks, as test/test_uops.py builds
#           them) run through the reference get_program with a ClangRenderer; the linear list is
#           ProgramSpec.uops and the source ProgramSpec.src.
#   lin_*   linear lists built by hand in order and rendered with ClangRenderer().render(uops),
#           for ops the pipeline would rewrite away before rendering.
#
# <case>.uops format: '#' lines are comments; one uop per line, fields separated by " | ":
#   index | OP | dtype spec | comma-separated src indices (or "-") | arg
# dtype spec: the dtypes attribute name then "vec:N" / "ptr:SIZE:ADDRSPACE" steps, as in
# gen_dtype_golden.py ("float vec:4 ptr:256:GLOBAL"). arg: None, True/False, an int, a float
# (Python repr: 1.0, inf, nan), a quoted string ('gidx0', no quotes or backslashes inside),
# AxisType.X, Ops.X, a tuple (a, b) / (a,), or KernelInfo('function_name').
import argparse, os, subprocess, math

from tinygrad import Tensor, dtypes, Variable
from tinygrad.dtype import AddrSpace, PtrDType, INVERSE_DTYPES_DICT
from tinygrad.uop.ops import UOp, Ops, AxisType, KernelInfo
from tinygrad.codegen import get_program
from tinygrad.codegen.opt import Opt, OptOps
from tinygrad.renderer.cstyle import ClangRenderer


def renderer():
  r = ClangRenderer()
  r.global_max, r.has_threads = (8, 0, 0), True  # CPU_COUNT=8, THREADS=1, independent of this machine
  return r


def dspec(d):
  if isinstance(d, PtrDType):
    s = dspec(d.base) + f" ptr:{d.size}:{d.addrspace.name}"
    return s + (f" vec:{d.v}" if d.v != 1 else "")
  s = INVERSE_DTYPES_DICT[d.scalar().name]
  return s + (f" vec:{d.count}" if d.count != 1 else "")


def aspec(a):
  if a is None or isinstance(a, bool): return repr(a)
  if isinstance(a, (int, float)): return repr(a)
  if isinstance(a, str):
    assert "'" not in a and "\\" not in a, a
    return f"'{a}'"
  if isinstance(a, AxisType): return f"AxisType.{a.name}"
  if isinstance(a, Ops): return f"Ops.{a.name}"
  if isinstance(a, KernelInfo): return f"KernelInfo('{a.function_name}')"
  if isinstance(a, tuple): return "(" + ", ".join(aspec(x) for x in a) + ("," if len(a) == 1 else "") + ")"
  raise ValueError(f"arg {a!r}")


def write_case(out, name, uops, src, how):
  idx = {u: i for i, u in enumerate(uops)}
  with open(os.path.join(out, f"{name}.uops"), "w") as f:
    f.write(f"# Golden linear UOps for //tinygrad/renderer/c:clang_test ({how}). Do not edit: regenerate with\n")
    f.write("#   tools/golden/gen_clang_golden.py (see its header)\n")
    for i, u in enumerate(uops):
      srcs = ",".join(str(idx[s]) for s in u.src) or "-"
      f.write(f"{i} | {u.op.name} | {dspec(u.dtype)} | {srcs} | {aspec(u.arg)}\n")
  with open(os.path.join(out, f"{name}.c"), "w") as f: f.write(src)


# ** pipeline cases **

def pipe(out, name, t, opts=None, which=-1):
  ast = t.schedule_with_vars()[0][which].ast
  p = get_program(ast, renderer(), opts)
  write_case(out, name, p.uops, p.src, "get_program")


def pipe_sink(out, name, sink, opts=None):
  p = get_program(sink, renderer(), opts)
  write_case(out, name, p.uops, p.src, "get_program")


def gbuf(slot, dt, n): return UOp(Ops.DEFINE_GLOBAL, dt.ptr(n), (), slot)


def pipeline_cases(out):
  a, b = Tensor.empty(16, 16), Tensor.empty(16, 16)
  pipe(out, "pipe_add_float", a + b)
  pipe(out, "pipe_add_float4", a + b, [Opt(OptOps.UPCAST, 0, 4)])
  pipe(out, "pipe_matmul_threads", a @ b, [Opt(OptOps.UPCAST, 1, 4), Opt(OptOps.THREAD, 0, 4)])
  pipe(out, "pipe_matmul_unroll", a @ b, [Opt(OptOps.UPCAST, 0, 2), Opt(OptOps.UNROLL, 0, 4)])
  pipe(out, "pipe_sum_reduce", a.sum(axis=1))
  pipe(out, "pipe_max_relu", a.maximum(b) + a.relu())
  pipe(out, "pipe_where_cmp", ((a < b) & (a != 2.0)).where(a, b))
  pipe(out, "pipe_sqrt_recip", a.sqrt() / b + (-a).trunc())
  pipe(out, "pipe_exp_log_sin", a.exp() + b.log() + a.sin())
  ia, ib = Tensor.empty(16, dtype=dtypes.int32), Tensor.empty(16, dtype=dtypes.int32)
  pipe(out, "pipe_int_ops", ((ia * 3 + ib) // 7) + (ia % 5) + (ia ^ ib) + (ia | 3) + (ia & ib))
  ua = Tensor.empty(16, dtype=dtypes.uint32)
  pipe(out, "pipe_uint_shift", (ua << 3) + (ua >> 2))
  pipe(out, "pipe_int_cmp_bool", (ia < ib) | (ia == ib))
  ha, hb = Tensor.empty(16, dtype=dtypes.half), Tensor.empty(16, dtype=dtypes.half)
  pipe(out, "pipe_half", (ha * hb + 1.5).sqrt())
  pipe(out, "pipe_half4", ha + hb, [Opt(OptOps.UPCAST, 0, 4)])
  bfa = Tensor.empty(16, dtype=dtypes.bfloat16)
  pipe(out, "pipe_bf16", (bfa * 2 + 1).float())
  pipe(out, "pipe_to_bf16", a.flatten()[:16].cast(dtypes.bfloat16))
  pipe(out, "pipe_double_to_half", Tensor.empty(16, dtype=dtypes.double).cast(dtypes.half))
  pipe(out, "pipe_casts", ia.float() + Tensor.empty(16, dtype=dtypes.uint8).float() + a.flatten()[:16].cast(dtypes.int8).cast(dtypes.float))
  pipe(out, "pipe_bitcast", a.flatten()[:16].bitcast(dtypes.int32) + 1)
  pipe(out, "pipe_long_ulong", Tensor.empty(16, dtype=dtypes.int64) * 3 + Tensor.empty(16, dtype=dtypes.uint64).cast(dtypes.int64))
  pipe(out, "pipe_pad_gated", Tensor.empty(14).pad((1, 1)) + 1)
  pipe(out, "pipe_bool_vec", (Tensor.empty(16, dtype=dtypes.bool) & Tensor.empty(16, dtype=dtypes.bool)), [Opt(OptOps.UPCAST, 0, 4)])
  pipe(out, "pipe_cumsum", Tensor.empty(8).cumsum())

  # symbolic shapes: a DEFINE_VAR parameter
  v = Variable("n", 1, 16).bind(7)
  pipe(out, "pipe_var", (Tensor.empty(16)[:v] + 2).contiguous())

  # test_uops.py style: a hand-built kernel sink through the pipeline
  for nm, dt, vals in (("consts_float", dtypes.float, (math.inf, -math.inf, math.nan, 1e-20, 3.4028234663852886e+38, -0.5)),
                       ("consts_half", dtypes.half, (math.inf, -math.inf, math.nan, 1.5)),
                       ("consts_double", dtypes.double, (math.inf, -math.inf, math.nan, 1.0000001)),
                       ("consts_int", dtypes.int32, (2147483647, -2147483648, 0, 7)),
                       ("consts_long", dtypes.int64, (9223372036854775807, -9223372036854775807, 5, 2**40)),
                       ("consts_uint", dtypes.uint32, (4294967295, 0, 7, 2**31)),
                       ("consts_ulong", dtypes.uint64, (18446744073709551615, 0, 7, 2**63)),
                       ("consts_small_ints", dtypes.int8, (-128, 127, 3, 0)),
                       ("consts_uchar", dtypes.uint8, (255, 0, 3, 1)),
                       ("consts_short", dtypes.int16, (-32768, 32767, 3, 0)),
                       ("consts_ushort", dtypes.uint16, (65535, 0, 3, 1)),
                       ("consts_bool", dtypes.bool, (True, False, True, False))):
    buf = gbuf(0, dt, len(vals))
    stores = [buf.index(UOp.const(dtypes.int32, i)).store(UOp.const(dt, x)) for i, x in enumerate(vals)]
    pipe_sink(out, f"pipe_{nm}", UOp.sink(*stores, arg=KernelInfo(name=nm)))


# ** hand-built linear lists **

class Lin:
  def __init__(self): self.uops = []
  def __call__(self, op, dtype=dtypes.void, src=(), arg=None):
    u = UOp(op, dtype, tuple(src), arg)
    if u not in self.uops: self.uops.append(u)  # UOps are interned: an equal one is the same node
    return u
  def c(self, dt, v): return self(Ops.CONST, dt, (), v)
  def render(self, out, name, fn):
    self(Ops.SINK, dtypes.void, (), KernelInfo(name=fn))
    write_case(out, name, self.uops, ClangRenderer().render(self.uops), "ClangRenderer().render")


def lin_alu(out, name, dt):
  L = Lin()
  ops = [Ops.ADD, Ops.SUB, Ops.MUL, Ops.CMPLT, Ops.CMPNE, Ops.CMPEQ]
  if dtypes.is_float(dt): ops += [Ops.FDIV]
  else: ops += [Ops.IDIV, Ops.MOD, Ops.SHL, Ops.SHR, Ops.XOR, Ops.OR, Ops.AND]
  out_buf = L(Ops.DEFINE_GLOBAL, dt.ptr(len(ops) + 8), (), 0)
  ob = L(Ops.DEFINE_GLOBAL, dtypes.bool.ptr(len(ops)), (), 1)
  in_buf = L(Ops.DEFINE_GLOBAL, dt.ptr(2), (), 2)
  zero, one = L.c(dtypes.int32, 0), L.c(dtypes.int32, 1)
  x = L(Ops.LOAD, dt, (L(Ops.INDEX, dt.ptr(2), (in_buf, zero)),))
  y = L(Ops.LOAD, dt, (L(Ops.INDEX, dt.ptr(2), (in_buf, one)),))
  for i, op in enumerate(ops):
    odt = dtypes.bool if op in (Ops.CMPLT, Ops.CMPNE, Ops.CMPEQ) else dt
    r = L(op, odt, (x, y))
    buf = ob if odt == dtypes.bool else out_buf
    L(Ops.STORE, dtypes.void, (L(Ops.INDEX, buf.dtype, (buf, L.c(dtypes.int32, i))), r))
  k = len(ops)
  # unary ops, WHERE, and same-op chains (parens stripped for associative ops)
  unary = [Ops.NEG] + ([Ops.SQRT, Ops.TRUNC] if dtypes.is_float(dt) else [])
  for j, op in enumerate(unary):
    L(Ops.STORE, dtypes.void, (L(Ops.INDEX, out_buf.dtype, (out_buf, L.c(dtypes.int32, k + j))), L(op, dt, (x,))))
  cond = L(Ops.CMPLT, dtypes.bool, (x, y))
  w = L(Ops.WHERE, dt, (cond, x, y))
  L(Ops.STORE, dtypes.void, (L(Ops.INDEX, out_buf.dtype, (out_buf, L.c(dtypes.int32, k + 3))), w))
  s = L(Ops.ADD, dt, (L(Ops.ADD, dt, (x, y)), w))
  m = L(Ops.MUL, dt, (L(Ops.MUL, dt, (s, y)), s))
  L(Ops.STORE, dtypes.void, (L(Ops.INDEX, out_buf.dtype, (out_buf, L.c(dtypes.int32, k + 4))), m))
  L.render(out, name, name)


def lin_vector(out):
  L = Lin()
  f4 = dtypes.float.vec(4)
  d0 = L(Ops.DEFINE_GLOBAL, dtypes.float.ptr(16), (), 0)
  d1 = L(Ops.DEFINE_GLOBAL, dtypes.float.ptr(16), (), 1)
  zero, four = L.c(dtypes.int32, 0), L.c(dtypes.int32, 4)
  ld = L(Ops.LOAD, f4, (L(Ops.CAST, f4.ptr(16), (L(Ops.INDEX, dtypes.float.ptr(16), (d1, zero)),)),))
  g = [L(Ops.GEP, dtypes.float, (ld,), (i,)) for i in range(4)]
  v = L(Ops.VECTORIZE, f4, (g[3], g[2], g[1], g[0]))
  a = L(Ops.ADD, f4, (v, ld))
  L(Ops.STORE, dtypes.void, (L(Ops.CAST, f4.ptr(16), (L(Ops.INDEX, dtypes.float.ptr(16), (d0, zero)),)), a))
  h4 = dtypes.half.vec(4)
  cv = L(Ops.CAST, h4, (a,))
  back = L(Ops.CAST, f4, (cv,))
  i4 = L(Ops.BITCAST, dtypes.int.vec(4), (back,))
  fi = L(Ops.CAST, f4, (i4,))
  L(Ops.STORE, dtypes.void, (L(Ops.CAST, f4.ptr(16), (L(Ops.INDEX, dtypes.float.ptr(16), (d0, four)),)), fi))
  # (no bool vectors: clang < 15 rejects them, and the extra matcher devectorizes bool ALUs)
  f2 = L(Ops.VECTORIZE, dtypes.float.vec(2), (g[0], g[1]))
  bw = L(Ops.WHERE, dtypes.float, (L(Ops.CMPLT, dtypes.bool, (g[2], g[3])), L(Ops.GEP, dtypes.float, (f2,), (1,)), g[1]))
  L(Ops.STORE, dtypes.void, (L(Ops.INDEX, dtypes.float.ptr(16), (d0, L.c(dtypes.int32, 8))), bw))
  L.render(out, "lin_vector", "vec")


def lin_control(out):
  L = Lin()
  d0 = L(Ops.DEFINE_GLOBAL, dtypes.float.ptr(64), (), 0)
  d1 = L(Ops.DEFINE_GLOBAL, dtypes.float.ptr(-1), (), 1)
  n = L(Ops.DEFINE_VAR, dtypes.int32, (), ("n", 1, 64))
  acc = L(Ops.DEFINE_REG, dtypes.float.ptr(1, AddrSpace.REG), (), 0)
  zero, one, eight = L.c(dtypes.int32, 0), L.c(dtypes.int32, 1), L.c(dtypes.int32, 8)
  g = L(Ops.SPECIAL, dtypes.int32, (eight,), "gidx0")
  L(Ops.STORE, dtypes.void, (L(Ops.INDEX, acc.dtype, (acc, zero)), L.c(dtypes.float, 0.0)))
  r = L(Ops.RANGE, dtypes.int32, (n,), (0, AxisType.REDUCE))
  idx = L(Ops.ADD, dtypes.int32, (L(Ops.MUL, dtypes.int32, (r, eight)), g))
  valid = L(Ops.CMPLT, dtypes.bool, (idx, L.c(dtypes.int32, 60)))
  ld = L(Ops.LOAD, dtypes.float, (L(Ops.INDEX, dtypes.float.ptr(-1), (d1, idx, valid)), L.c(dtypes.float, -1.0)))
  ai = L(Ops.INDEX, acc.dtype, (acc, zero))
  cur = L(Ops.LOAD, dtypes.float, (ai,))
  L(Ops.STORE, dtypes.void, (ai, L(Ops.ADD, dtypes.float, (cur, ld))))
  L(Ops.END, dtypes.void, (r,))
  r2 = L(Ops.RANGE, dtypes.int32, (L.c(dtypes.int32, 3),), (1, 2, AxisType.LOOP))
  iff = L(Ops.IF, dtypes.void, (L(Ops.CMPLT, dtypes.bool, (g, L.c(dtypes.int32, 4))),))
  res = L(Ops.LOAD, dtypes.float, (L(Ops.INDEX, acc.dtype, (acc, zero)),))
  L(Ops.STORE, dtypes.void, (L(Ops.INDEX, dtypes.float.ptr(64), (d0, L(Ops.ADD, dtypes.int32, (g, L(Ops.MUL, dtypes.int32, (r2, eight)))))), res))
  L(Ops.ENDIF, dtypes.void, (iff,))
  L(Ops.END, dtypes.void, (r2,))
  L(Ops.CUSTOM, dtypes.void, (g,), "/* custom {0} */")
  L.render(out, "lin_control", "ctrl")


def lin_misc(out):
  # a value used twice is named; a single-use one is inlined; RANGE arg with negative ints
  L = Lin()
  d0 = L(Ops.DEFINE_GLOBAL, dtypes.int32.ptr(8), (), 0)
  d1 = L(Ops.DEFINE_GLOBAL, dtypes.uint8.ptr(8), (), 1)
  x = L(Ops.LOAD, dtypes.uint8, (L(Ops.INDEX, dtypes.uint8.ptr(8), (d1, L.c(dtypes.int32, 0))),))
  c = L(Ops.CAST, dtypes.int32, (x,))
  twice = L(Ops.MUL, dtypes.int32, (c, c))
  r = L(Ops.RANGE, dtypes.int32, (L.c(dtypes.int32, 8),), (-1, 3, AxisType.UPCAST))
  s = L(Ops.ADD, dtypes.int32, (twice, r))
  ci = L(Ops.CUSTOMI, dtypes.int32, (s, twice), "({0}+{1})")
  L(Ops.STORE, dtypes.void, (L(Ops.INDEX, dtypes.int32.ptr(8), (d0, r)), ci))
  L(Ops.END, dtypes.void, (r,))
  bc = L(Ops.BITCAST, dtypes.float, (twice,))
  L(Ops.STORE, dtypes.void, (L(Ops.INDEX, dtypes.int32.ptr(8), (d0, L.c(dtypes.int32, 0))), L(Ops.CAST, dtypes.int32, (bc,))))
  L(Ops.NOOP, dtypes.void, ())
  L.render(out, "lin_misc", "misc")


def main():
  ap = argparse.ArgumentParser()
  ap.add_argument("--out", required=True)
  args = ap.parse_args()
  os.makedirs(args.out, exist_ok=True)
  for dt in (dtypes.float, dtypes.int32, dtypes.uint32, dtypes.int64, dtypes.double, dtypes.half, dtypes.uint8):
    lin_alu(args.out, f"lin_alu_{INVERSE_DTYPES_DICT[dt.name]}", dt)
  lin_vector(args.out)
  lin_control(args.out)
  lin_misc(args.out)
  pipeline_cases(args.out)


if __name__ == "__main__":
  main()
