#!/usr/bin/env python3
# File: tools/golden/gen_llvm_golden.py
# Generates the golden files in tinygrad/renderer/llvm/testdata/ that
# //tinygrad/renderer/llvm:llvmir_test replays: for each case the linear UOp list (<case>.uops)
# and the LLVM IR the reference LLVMRenderer renders from it (<case>.ll); pipeline cases also get
# their kernel AST (<case>.ast) so the test can lower it with our pipeline and compare the IR.
#
# Usage (from anywhere; the reference checkout must be importable):
#   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> CPU_LLVM=1 DEV=CPU NOOPT=1 python3 \
#     <repo>/tools/golden/gen_llvm_golden.py --out <repo>/tinygrad/renderer/llvm/testdata
#
# Cases:
#   pipe_*  kernels from Tensor programs (or hand-built kernel sinks) through the reference
#           get_program with an LLVMRenderer, NOOPT=1. <case>.ast is the scheduled kernel AST.
#   opt_*   as pipe_*, but the AST is first optimized by the reference apply_opts (hand-coded
#           opts, or the listed ones) as tools/golden/gen_codegen_pipeline.py does; <case>.ast is
#           the optimized AST (SINK tag=1), which get_program lowers without optimizing again.
#   lin_*   linear lists built by hand and rendered with LLVMRenderer().render(uops).
#   thr_*   THREAD-optimized kernel ASTs (see thread_cases); no .uops/.ll.
# File formats: <case>.uops as in gen_clang_golden.py; <case>.ast as gen_codegen_pipeline.py's
# ast blocks without the "ast"/"end" lines ('#' lines are comments).
import argparse, os, sys, math

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tinygrad import Tensor, dtypes, Variable
from tinygrad.dtype import AddrSpace, INVERSE_DTYPES_DICT
from tinygrad.uop.ops import UOp, Ops, AxisType, KernelInfo
from tinygrad.codegen import get_program
from tinygrad.codegen.opt import Opt, OptOps
from tinygrad.renderer.llvmir import LLVMRenderer
from gen_clang_golden import dspec, Lin, gbuf
from gen_codegen_pipeline import aspec, optimize

HEADER = "# Golden {what} for //tinygrad/renderer/llvm:llvmir_test ({how}). Do not edit: regenerate with\n" \
         "#   tools/golden/gen_llvm_golden.py (see its header)\n"


def write_uops(out, name, uops, src, how):
  idx = {u: i for i, u in enumerate(uops)}
  with open(os.path.join(out, f"{name}.uops"), "w") as f:
    f.write(HEADER.format(what="linear UOps", how=how))
    for i, u in enumerate(uops):
      srcs = ",".join(str(idx[s]) for s in u.src) or "-"
      f.write(f"{i} | {u.op.name} | {dspec(u.dtype)} | {srcs} | {aspec(u.arg)}\n")
  with open(os.path.join(out, f"{name}.ll"), "w") as f: f.write(src)


def write_ast(out, name, ast):
  topo = list(ast.toposort())
  idx = {u: j for j, u in enumerate(topo)}
  with open(os.path.join(out, f"{name}.ast"), "w") as f:
    f.write(HEADER.format(what="kernel AST", how="Tensor schedule" + (", reference apply_opts" if ast.tag is not None else "")))
    for j, u in enumerate(topo):
      srcs = ",".join(str(idx[s]) for s in u.src) if u.src else "-"
      f.write(f"{j} | {u.op} | {dspec(u.dtype)} | {srcs} | {aspec(u.arg)}" + (f" | tag={u.tag}" if u.tag is not None else "") + "\n")


def pipe_ast(out, name, ast, opts=False):
  ren = LLVMRenderer()
  if opts is not False: ast = optimize(ast, ren, opts)
  p = get_program(ast, ren)
  write_ast(out, name, ast)
  write_uops(out, name, p.uops, p.src, "get_program")


def pipe(out, name, t, opts=False, which=-1): pipe_ast(out, name, t.schedule_with_vars()[0][which].ast, opts)


def pipeline_cases(out):
  a, b = Tensor.empty(16, 16), Tensor.empty(16, 16)
  pipe(out, "pipe_add_float", a + b)
  pipe(out, "pipe_matmul", a @ b)
  pipe(out, "pipe_sum_reduce", a.sum(axis=1))
  pipe(out, "pipe_max_relu", a.maximum(b) + a.relu())
  pipe(out, "pipe_where_cmp", ((a < b) & (a != 2.0)).where(a, b))
  pipe(out, "pipe_sqrt_recip", a.sqrt() / b + (-a).trunc())
  pipe(out, "pipe_exp_log_sin", a.exp() + b.log() + a.sin())
  ia, ib = Tensor.empty(16, dtype=dtypes.int32), Tensor.empty(16, dtype=dtypes.int32)
  pipe(out, "pipe_int_ops", ((ia * 3 + ib) // 7) + (ia % 5) + (ia ^ ib) + (ia | 3) + (ia & ib))
  ua = Tensor.empty(16, dtype=dtypes.uint32)
  pipe(out, "pipe_uint_shift", (ua << 3) + (ua >> 2) + ua // 3)
  pipe(out, "pipe_int_cmp_bool", (ia < ib) | (ia == ib))
  ha, hb = Tensor.empty(16, dtype=dtypes.half), Tensor.empty(16, dtype=dtypes.half)
  pipe(out, "pipe_half", (ha * hb + 1.5).sqrt())
  bfa = Tensor.empty(16, dtype=dtypes.bfloat16)
  pipe(out, "pipe_bf16", (bfa * 2 + 1).float())
  pipe(out, "pipe_to_bf16", a.flatten()[:16].cast(dtypes.bfloat16))
  pipe(out, "pipe_casts", ia.float() + Tensor.empty(16, dtype=dtypes.uint8).float() + a.flatten()[:16].cast(dtypes.int8).cast(dtypes.float))
  pipe(out, "pipe_bitcast", a.flatten()[:16].bitcast(dtypes.int32) + 1)
  pipe(out, "pipe_long_ulong", Tensor.empty(16, dtype=dtypes.int64) * 3 + Tensor.empty(16, dtype=dtypes.uint64).cast(dtypes.int64))
  pipe(out, "pipe_double", Tensor.empty(16, dtype=dtypes.double) * 2.5 + 1)
  pipe(out, "pipe_pad_gated", Tensor.empty(14).pad((1, 1)) + 1)
  pipe(out, "pipe_cumsum", Tensor.empty(8).cumsum())
  pipe(out, "pipe_argmax", Tensor.empty(16, 16).argmax(axis=1))
  pipe(out, "pipe_softmax", Tensor.empty(8, 32).softmax(-1))
  pipe(out, "pipe_conv2d", Tensor.empty(1, 4, 10, 10).conv2d(Tensor.empty(8, 4, 3, 3)))
  v = Variable("n", 1, 16).bind(7)
  pipe(out, "pipe_var", (Tensor.empty(16)[:v] + 2).contiguous())
  for nm, dt, vals in (("consts_float", dtypes.float, (math.inf, -math.inf, math.nan, 1e-20, 3.4028234663852886e+38, -0.5)),
                       ("consts_half", dtypes.half, (math.inf, -math.inf, math.nan, 1.5)),
                       ("consts_double", dtypes.double, (math.inf, -math.inf, math.nan, 1.0000001)),
                       ("consts_int", dtypes.int32, (2147483647, -2147483648, 0, 7)),
                       ("consts_long", dtypes.int64, (9223372036854775807, -9223372036854775807, 5, 2**40)),
                       ("consts_uint", dtypes.uint32, (4294967295, 0, 7, 2**31)),
                       ("consts_ulong", dtypes.uint64, (18446744073709551615, 0, 7, 2**63)),
                       ("consts_small_ints", dtypes.int8, (-128, 127, 3, 0)),
                       ("consts_bool", dtypes.bool, (True, False, True, False))):
    buf = gbuf(0, dt, len(vals))
    stores = [buf.index(UOp.const(dtypes.int32, i)).store(UOp.const(dt, x)) for i, x in enumerate(vals)]
    pipe_ast(out, f"pipe_{nm}", UOp.sink(*stores, arg=KernelInfo(name=nm)))

  # optimized kernels (vector loads/stores, unrolled reduces, gated vector loads)
  mm = lambda: (Tensor.empty(16, 32) @ Tensor.empty(32, 8)).relu()
  pipe(out, "opt_hco_matmul_relu", mm(), None)
  pipe(out, "opt_hco_softmax", Tensor.empty(8, 32).softmax(-1), None)
  pipe(out, "opt_hco_conv", Tensor.empty(1, 4, 10, 10).conv2d(Tensor.empty(8, 4, 3, 3)), None)
  pipe(out, "opt_hco_pad_conv", Tensor.empty(1, 4, 10, 10).conv2d(Tensor.empty(8, 4, 3, 3), padding=1).relu(), None)
  pipe(out, "opt_upcast_unroll_sum", Tensor.empty(64, 32).sum(axis=1), [Opt(OptOps.UPCAST, 0, 4), Opt(OptOps.UNROLL, 0, 4)])
  pipe(out, "opt_add_float4", a + b, [Opt(OptOps.UPCAST, 0, 4)])
  pipe(out, "opt_half4", ha + hb, [Opt(OptOps.UPCAST, 0, 4)])
  pipe(out, "opt_bool_vec", (Tensor.empty(16, dtype=dtypes.bool) & Tensor.empty(16, dtype=dtypes.bool)), [Opt(OptOps.UPCAST, 0, 4)])
  pipe(out, "opt_matmul_unroll", a @ b, [Opt(OptOps.UPCAST, 0, 2), Opt(OptOps.UNROLL, 0, 4)])


# ** hand-built linear lists **

def render(L, out, name, fn):
  L(Ops.SINK, dtypes.void, (), KernelInfo(name=fn))
  write_uops(out, name, L.uops, LLVMRenderer().render(L.uops), "LLVMRenderer().render")


def lin_alu(out, name, dt):
  L = Lin()
  ops = [Ops.ADD, Ops.MUL, Ops.CMPLT, Ops.CMPNE, Ops.CMPEQ]
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
  if dtypes.is_float(dt):
    L(Ops.STORE, dtypes.void, (L(Ops.INDEX, out_buf.dtype, (out_buf, L.c(dtypes.int32, k))), L(Ops.TRUNC, dt, (x,))))
  cond = L(Ops.CMPLT, dtypes.bool, (x, y))
  w = L(Ops.WHERE, dt, (cond, x, y))
  L(Ops.STORE, dtypes.void, (L(Ops.INDEX, out_buf.dtype, (out_buf, L.c(dtypes.int32, k + 1))), w))
  c = L(Ops.CAST, dtypes.bool, (x,))
  L(Ops.STORE, dtypes.void, (L(Ops.INDEX, ob.dtype, (ob, L.c(dtypes.int32, 0))), c))
  render(L, out, name, name)


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
  bcast = L(Ops.VECTORIZE, f4, (g[2],))
  L(Ops.STORE, dtypes.void, (L(Ops.CAST, f4.ptr(16), (L(Ops.INDEX, dtypes.float.ptr(16), (d0, L.c(dtypes.int32, 8))),)),
                             L(Ops.MUL, f4, (bcast, fi))))
  bw = L(Ops.WHERE, f4, (L(Ops.CMPLT, dtypes.bool.vec(4), (a, fi)), a, fi))
  L(Ops.STORE, dtypes.void, (L(Ops.CAST, f4.ptr(16), (L(Ops.INDEX, dtypes.float.ptr(16), (d0, L.c(dtypes.int32, 12))),)), bw))
  render(L, out, "lin_vector", "vec")


def lin_control(out):
  L = Lin()
  d0 = L(Ops.DEFINE_GLOBAL, dtypes.float.ptr(64), (), 0)
  d1 = L(Ops.DEFINE_GLOBAL, dtypes.float.ptr(-1), (), 1)
  n = L(Ops.DEFINE_VAR, dtypes.int32, (), ("n", 1, 64))
  acc = L(Ops.DEFINE_REG, dtypes.float.ptr(1, AddrSpace.REG), (), 0)
  loc = L(Ops.DEFINE_LOCAL, dtypes.float.ptr(4, AddrSpace.LOCAL), (), "temp0")
  zero, eight = L.c(dtypes.int32, 0), L.c(dtypes.int32, 8)
  g = L(Ops.RANGE, dtypes.int32, (eight,), (3, AxisType.LOOP))
  L(Ops.STORE, dtypes.void, (L(Ops.INDEX, acc.dtype, (acc, zero)), L.c(dtypes.float, 0.0)))
  r = L(Ops.RANGE, dtypes.int32, (n,), (0, AxisType.REDUCE))
  idx = L(Ops.ADD, dtypes.int32, (L(Ops.MUL, dtypes.int32, (r, eight)), g))
  valid = L(Ops.CMPLT, dtypes.bool, (idx, L.c(dtypes.int32, 60)))
  ld = L(Ops.LOAD, dtypes.float, (L(Ops.INDEX, dtypes.float.ptr(-1), (d1, idx, valid)), L.c(dtypes.float, -1.0)))
  ai = L(Ops.INDEX, acc.dtype, (acc, zero))
  cur = L(Ops.LOAD, dtypes.float, (ai,))
  st = L(Ops.STORE, dtypes.void, (ai, L(Ops.ADD, dtypes.float, (cur, ld))))
  L(Ops.END, dtypes.void, (st, r))
  L(Ops.STORE, dtypes.void, (L(Ops.INDEX, loc.dtype, (loc, zero)), L(Ops.LOAD, dtypes.float, (L(Ops.INDEX, acc.dtype, (acc, zero)),))))
  L(Ops.BARRIER, dtypes.void, ())
  r2 = L(Ops.RANGE, dtypes.int32, (L.c(dtypes.int32, 3),), (1, 2, AxisType.LOOP))
  iff = L(Ops.IF, dtypes.void, (L(Ops.CMPLT, dtypes.bool, (g, L.c(dtypes.int32, 4))),))
  res = L(Ops.LOAD, dtypes.float, (L(Ops.INDEX, loc.dtype, (loc, zero)),))
  st2 = L(Ops.STORE, dtypes.void, (L(Ops.INDEX, dtypes.float.ptr(64), (d0, L(Ops.ADD, dtypes.int32, (g, L(Ops.MUL, dtypes.int32, (r2, eight)))))), res))
  L(Ops.ENDIF, dtypes.void, (iff,))
  e2 = L(Ops.END, dtypes.void, (st2, r2))
  L(Ops.END, dtypes.void, (e2, g))
  L(Ops.NOOP, dtypes.void, ())
  render(L, out, "lin_control", "ctrl")


# Threaded kernels (THREAD opt) for our LLVMRenderer's threads extension: the reference
# LLVMRenderer has no threads, so these are optimized for a ClangRenderer with CPU_COUNT=8 and
# only their AST is written (thr_*.ast, no .ll); the C++ test runs them against the clang path.
def thread_cases(out):
  from tinygrad.renderer.cstyle import ClangRenderer
  r = ClangRenderer()
  r.global_max, r.has_threads = (8, 0, 0), True
  def thr(name, t, opts): write_ast(out, name, optimize(t.schedule_with_vars()[0][-1].ast, r, opts))
  thr("thr_sum", Tensor.empty(64, 32).sum(axis=1), [Opt(OptOps.THREAD, 0, 4)])
  thr("thr_matmul", Tensor.empty(16, 16) @ Tensor.empty(16, 16), [Opt(OptOps.UPCAST, 1, 4), Opt(OptOps.THREAD, 0, 4)])


def main():
  ap = argparse.ArgumentParser()
  ap.add_argument("--out", required=True)
  args = ap.parse_args()
  os.makedirs(args.out, exist_ok=True)
  for dt in (dtypes.float, dtypes.int32, dtypes.uint32, dtypes.int64, dtypes.double, dtypes.half, dtypes.uint8, dtypes.bool):
    lin_alu(args.out, f"lin_alu_{INVERSE_DTYPES_DICT[dt.name]}", dt)
  lin_vector(args.out)
  lin_control(args.out)
  pipeline_cases(args.out)
  thread_cases(args.out)


if __name__ == "__main__":
  main()
