#!/usr/bin/env python3
# File: tools/golden/gen_cuda_golden.py
# Generates the golden files in tinygrad/renderer/cuda/testdata/ that
# //tinygrad/renderer/cuda:cuda_test replays: for each case the linear UOp list (<case>.uops) and
# the CUDA source the reference CUDARenderer renders from it (<case>.cu); pipeline cases also get
# their kernel AST (<case>.ast) so the test can lower it with our pipeline (same opts) and compare
# the source. <case>.meta names the arch and how the kernel was optimized.
#
# Usage (from anywhere; the reference checkout must be importable; no GPU or CUDA toolkit needed:
# the renderer classes are built directly, nothing is compiled):
#   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU python3 \
#     <repo>/tools/golden/gen_cuda_golden.py --out <repo>/tinygrad/renderer/cuda/testdata
#
# Cases:
#   pipe_*  the C goldens' kernels (tools/golden/gen_clang_golden.py) plus CUDA-specific ones,
#           through the reference get_program with CUDARenderer(arch): the hand-coded optimizer
#           (locals, upcasts, grouping) unless opts are listed.
#   tc_*    matmuls with a TC opt (or the heuristic's, which picks tensor cores) in half,
#           bfloat16, fp8 and tf32 on sm_75, sm_80, sm_89 and sm_90.
#   lin_*   linear lists built by hand and rendered with CUDARenderer(arch).render(uops): every
#           ALU spelling per dtype, vectors, control flow, launch indices, a WMMA per tensor core.
# Every <case>.cu is valid CUDA (nvcc -arch=<arch> -ptx accepts it) except lin_gep_wide (see there).
# File formats: <case>.uops as in gen_clang_golden.py, except that a WMMA's dtypes are written as
# quoted reprs ('dtypes.half'); <case>.ast as gen_llvm_golden.py's. <case>.meta lines:
#   arch sm_89
#   opts heuristic|given          (given: the test applies `applied` as opts_to_apply)
#   applied (('LOCAL', 0, 32), ...)   the opts the reference applied, (op name, axis, arg)
#   allow_tf32 0|1
import argparse, math, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tinygrad import Tensor, dtypes, Variable
from tinygrad.dtype import AddrSpace, DType, INVERSE_DTYPES_DICT
from tinygrad.helpers import Context
from tinygrad.uop.ops import UOp, Ops, AxisType, KernelInfo
from tinygrad.codegen import get_program
from tinygrad.codegen.opt import Opt, OptOps, tc
from tinygrad.renderer.cstyle import CUDARenderer
from gen_clang_golden import dspec, gbuf
from gen_codegen_pipeline import aspec as ast_aspec

# What the writers below produce; tools/golden/gen_hip_golden.py reuses them for AMDHIPRenderer,
# gen_emulator_golden.py for PythonRenderer: ext None writes no source file, prefix goes before
# every pipeline case's name, and extra(out, name, program) writes a pipeline case's own files.
TARGET = dict(renderer=CUDARenderer, name="CUDARenderer", test="//tinygrad/renderer/cuda:cuda_test",
              script="gen_cuda_golden.py", ext="cu", arch="sm_89", prefix="", extra=None)
HEADER = "# Golden {what} for {test} ({how}). Do not edit: regenerate with\n" \
         "#   tools/golden/{script} (see its header)\n"
def header(what, how): return HEADER.format(what=what, how=how, test=TARGET["test"], script=TARGET["script"])
def ren(arch): return TARGET["renderer"](arch)
def rname(arch): return f"{TARGET['name']}('{arch}')"


def aspec(a):
  if isinstance(a, DType): return f"'{a!r}'"  # a WMMA's dtype_in/dtype_out; Arg holds no DType
  if isinstance(a, tuple): return "(" + ", ".join(aspec(x) for x in a) + ("," if len(a) == 1 else "") + ")"
  return ast_aspec(a)


def ospec(o: Opt): return "(" + ", ".join([f"'{o.op.name}'", repr(o.axis), repr(o.arg)]) + ")"


def write_uops(out, name, uops, src, how):
  idx = {u: i for i, u in enumerate(uops)}
  with open(os.path.join(out, f"{name}.uops"), "w") as f:
    f.write(header("linear UOps", how))
    for i, u in enumerate(uops):
      srcs = ",".join(str(idx[s]) for s in u.src) or "-"
      f.write(f"{i} | {u.op.name} | {dspec(u.dtype)} | {srcs} | {aspec(u.arg)}\n")
  if TARGET["ext"] is None: return
  with open(os.path.join(out, f"{name}.{TARGET['ext']}"), "w") as f: f.write(src)


def write_ast(out, name, ast):
  topo = list(ast.toposort())
  idx = {u: j for j, u in enumerate(topo)}
  with open(os.path.join(out, f"{name}.ast"), "w") as f:
    f.write(header("kernel AST", "Tensor schedule"))
    for j, u in enumerate(topo):
      srcs = ",".join(str(idx[s]) for s in u.src) if u.src else "-"
      f.write(f"{j} | {u.op} | {dspec(u.dtype)} | {srcs} | {aspec(u.arg)}\n")


def write_meta(out, name, arch, opts=None, applied=None, allow_tf32=0):
  with open(os.path.join(out, f"{name}.meta"), "w") as f:
    f.write(header("case settings", "arch, opts"))
    f.write(f"arch {arch}\n")
    if applied is not None:
      f.write(f"opts {'heuristic' if opts is None else 'given'}\n")
      f.write("applied (" + "".join(ospec(o) + ", " for o in applied).rstrip(" ") + ")\n")
      f.write(f"allow_tf32 {allow_tf32}\n")


# ** pipeline cases **

def pipe_ast(out, name, ast, opts=None, arch=None, allow_tf32=0):
  arch, name = arch or TARGET["arch"], TARGET["prefix"] + name
  with Context(ALLOW_TF32=allow_tf32):
    p = get_program(ast, ren(arch), opts)
  write_ast(out, name, ast)
  write_uops(out, name, p.uops, p.src, f"get_program, {rname(arch)}")
  write_meta(out, name, arch, opts, p.applied_opts, allow_tf32)
  if TARGET["extra"] is not None: TARGET["extra"](out, name, p)


def pipe(out, name, t, opts=None, which=-1, **kw): pipe_ast(out, name, t.schedule_with_vars()[0][which].ast, opts, **kw)


U, R, L, G, GT, TC = OptOps.UPCAST, OptOps.UNROLL, OptOps.LOCAL, OptOps.GROUP, OptOps.GROUPTOP, OptOps.TC


def pipeline_cases(out):
  a, b = Tensor.empty(16, 16), Tensor.empty(16, 16)
  pipe(out, "pipe_add_float", a + b)
  pipe(out, "pipe_add_float4", a + b, [Opt(U, 0, 4)])
  pipe(out, "pipe_matmul", a @ b)
  pipe(out, "pipe_matmul_unroll", a @ b, [Opt(U, 0, 2), Opt(R, 0, 4)])
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
  pipe(out, "pipe_half4", ha + hb, [Opt(U, 0, 4)])
  pipe(out, "pipe_half_math", ha.exp2() + hb.log2() + ha.sin() + hb.sqrt() + ha.reciprocal() + hb.trunc())
  bfa, bfb = Tensor.empty(16, dtype=dtypes.bfloat16), Tensor.empty(16, dtype=dtypes.bfloat16)
  pipe(out, "pipe_bf16", (bfa * 2 + 1).float())
  pipe(out, "pipe_bf16_math", (bfa * bfb + 1).sqrt() + bfa.exp2(), [Opt(U, 0, 4)])
  pipe(out, "pipe_to_bf16", a.flatten()[:16].cast(dtypes.bfloat16))
  pipe(out, "pipe_double_to_half", Tensor.empty(16, dtype=dtypes.double).cast(dtypes.half))
  pipe(out, "pipe_casts", ia.float() + Tensor.empty(16, dtype=dtypes.uint8).float() + a.flatten()[:16].cast(dtypes.int8).cast(dtypes.float))
  pipe(out, "pipe_bitcast", a.flatten()[:16].bitcast(dtypes.int32) + 1)
  pipe(out, "pipe_long_ulong", Tensor.empty(16, dtype=dtypes.int64) * 3 + Tensor.empty(16, dtype=dtypes.uint64).cast(dtypes.int64))
  pipe(out, "pipe_pad_gated", Tensor.empty(14).pad((1, 1)) + 1)
  pipe(out, "pipe_bool_vec", (Tensor.empty(16, dtype=dtypes.bool) & Tensor.empty(16, dtype=dtypes.bool)), [Opt(U, 0, 4)])
  pipe(out, "pipe_cumsum", Tensor.empty(8).cumsum())
  fa, fb = Tensor.empty(64, dtype=dtypes.fp8e4m3), Tensor.empty(64, dtype=dtypes.fp8e4m3)
  pipe(out, "pipe_fp8", (fa * fb + fa).cast(dtypes.fp8e5m2))
  pipe(out, "pipe_fp8_vec", fa + fb, [Opt(U, 0, 4)])
  pipe(out, "pipe_fp8_to_half", (fa.cast(dtypes.half) * 2).cast(dtypes.fp8e4m3), [Opt(U, 0, 2)])
  v = Variable("n", 1, 16).bind(7)
  pipe(out, "pipe_var", (Tensor.empty(16)[:v] + 2).contiguous())

  # GPU-shaped optimizations: locals, grouped reduces through shared memory, the heuristic's picks
  mm = lambda: (Tensor.empty(16, 32) @ Tensor.empty(32, 8)).relu()
  pipe(out, "pipe_local_sum", Tensor.empty(64, 32).sum(axis=1), [Opt(L, 0, 16)])
  pipe(out, "pipe_grouptop_sum", Tensor.empty(64, 32).sum(axis=1), [Opt(GT, 0, 16)])
  pipe(out, "pipe_group_local_matmul", mm(), [Opt(L, 0, 4), Opt(G, 0, 8), Opt(U, 1, 2)])
  pipe(out, "pipe_softmax", Tensor.empty(8, 32).softmax(-1))
  pipe(out, "pipe_conv2d", Tensor.empty(1, 4, 10, 10).conv2d(Tensor.empty(8, 4, 3, 3)))
  pipe(out, "pipe_pad_conv", Tensor.empty(1, 4, 10, 10).conv2d(Tensor.empty(8, 4, 3, 3), padding=1).relu())
  pipe(out, "pipe_layernorm", Tensor.empty(16, 64).layernorm())
  pipe(out, "pipe_big_sum", Tensor.empty(4096, 4096).sum())
  pipe(out, "pipe_matmul_big", Tensor.empty(64, 64) @ Tensor.empty(64, 64))
  pipe(out, "pipe_argmax", Tensor.empty(16, 16).argmax(axis=1))

  # test_uops.py style: hand-built kernel sinks through the pipeline
  for nm, dt, vals in (("consts_float", dtypes.float, (math.inf, -math.inf, math.nan, 1e-20, 3.4028234663852886e+38, -0.5)),
                       ("consts_half", dtypes.half, (math.inf, -math.inf, math.nan, 1.5)),
                       ("consts_bf16", dtypes.bfloat16, (math.inf, -math.inf, math.nan, 1.5)),
                       ("consts_double", dtypes.double, (math.inf, -math.inf, math.nan, 1.0000001)),
                       ("consts_int", dtypes.int32, (2147483647, -2147483648, 0, 7)),
                       ("consts_long", dtypes.int64, (9223372036854775807, -9223372036854775807, 5, 2**40)),
                       ("consts_uint", dtypes.uint32, (4294967295, 0, 7, 2**31)),
                       ("consts_ulong", dtypes.uint64, (18446744073709551615, 0, 7, 2**63)),
                       ("consts_small_ints", dtypes.int8, (-128, 127, 3, 0)),
                       ("consts_uchar", dtypes.uint8, (255, 0, 3, 1)),
                       ("consts_short", dtypes.int16, (-32768, 32767, 3, 0)),
                       ("consts_bool", dtypes.bool, (True, False, True, False))):
    buf = gbuf(0, dt, len(vals))
    stores = [buf.index(UOp.const(dtypes.int32, i)).store(UOp.const(dt, x)) for i, x in enumerate(vals)]
    pipe_ast(out, f"pipe_{nm}", UOp.sink(*stores, arg=KernelInfo(name=nm)))


def tc_cases(out):
  def mm(dt, n=64, acc=None): return Tensor.empty(n, n, dtype=dt).matmul(Tensor.empty(n, n, dtype=dt), dtype=acc)
  TCO = lambda select=-1, opt=0, use=1: Opt(TC, 0, (select, opt, use))
  for arch in ("sm_80", "sm_89"):
    a = arch.replace("_", "")
    pipe(out, f"tc_{a}_half_float", mm(dtypes.half), [TCO()], arch=arch)
    pipe(out, f"tc_{a}_half_half", mm(dtypes.half, acc=dtypes.half), [TCO()], arch=arch)
    pipe(out, f"tc_{a}_bf16_float", mm(dtypes.bfloat16), [TCO()], arch=arch)
    pipe(out, f"tc_{a}_tf32", mm(dtypes.float), [TCO()], arch=arch, allow_tf32=1)
    # the m16n8k8 half shape (tc.cuda_sm80[3] and [4])
    pipe(out, f"tc_{a}_half_float_k8", mm(dtypes.half), [TCO(3)], arch=arch)
    pipe(out, f"tc_{a}_half_half_k8", mm(dtypes.half, acc=dtypes.half), [TCO(4)], arch=arch)
  pipe(out, "tc_sm75_half_float", mm(dtypes.half), [TCO()], arch="sm_75")
  pipe(out, "tc_sm75_half_heuristic", mm(dtypes.half), arch="sm_75")
  for arch in ("sm_89", "sm_90"):
    a = arch.replace("_", "")
    pipe(out, f"tc_{a}_fp8e4m3", mm(dtypes.fp8e4m3), [TCO()], arch=arch)
    pipe(out, f"tc_{a}_fp8e5m2", mm(dtypes.fp8e5m2), [TCO()], arch=arch)
    pipe(out, f"tc_{a}_half_heuristic", mm(dtypes.half, 256), arch=arch)
  pipe(out, "tc_sm89_bf16_heuristic", mm(dtypes.bfloat16, 256), arch="sm_89")
  pipe(out, "tc_sm89_half_upcast_local", mm(dtypes.half), [TCO(), Opt(U, 1, 2), Opt(L, 0, 2)])
  pipe(out, "tc_sm89_half_unroll", mm(dtypes.half), [TCO(), Opt(R, 0, 2)])
  pipe(out, "tc_sm89_half_emulated", mm(dtypes.half), [TCO(use=2)])
  pipe(out, "tc_sm89_half_pad", mm(dtypes.half, 60), [TCO(opt=2)])
  pipe(out, "tc_sm89_fp8_heuristic", mm(dtypes.fp8e4m3, 128), arch="sm_89")
  pipe(out, "tc_sm89_float_no_tf32", mm(dtypes.float), arch="sm_89")


# ** hand-built linear lists **

class Lin:
  def __init__(self): self.uops = []
  def __call__(self, op, dtype=dtypes.void, src=(), arg=None):
    u = UOp(op, dtype, tuple(src), arg)
    if u not in self.uops: self.uops.append(u)  # UOps are interned: an equal one is the same node
    return u
  def c(self, dt, v): return self(Ops.CONST, dt, (), v)
  def render(self, out, name, fn, arch=None):
    arch = arch or TARGET["arch"]
    self(Ops.SINK, dtypes.void, (), KernelInfo(name=fn))
    write_uops(out, name, self.uops, ren(arch).render(self.uops), f"{rname(arch)}.render")
    write_meta(out, name, arch)


def lin_alu(out, name, dt):
  L = Lin()
  ops = [Ops.ADD, Ops.SUB, Ops.MUL, Ops.CMPLT, Ops.CMPNE, Ops.CMPEQ]
  if not dtypes.is_float(dt): ops += [Ops.IDIV, Ops.MOD, Ops.SHL, Ops.SHR, Ops.XOR, Ops.OR, Ops.AND]
  unary = [Ops.NEG] + ([Ops.SQRT, Ops.TRUNC, Ops.EXP2, Ops.LOG2, Ops.SIN, Ops.RECIPROCAL] if dtypes.is_float(dt) else [])
  out_buf = L(Ops.DEFINE_GLOBAL, dt.ptr(len(ops) + len(unary) + 2), (), 0)
  ob = L(Ops.DEFINE_GLOBAL, dtypes.bool.ptr(len(ops)), (), 1)
  in_buf = L(Ops.DEFINE_GLOBAL, dt.ptr(2), (), 2)
  zero, one = L.c(dtypes.int32, 0), L.c(dtypes.int32, 1)
  x = L(Ops.LOAD, dt, (L(Ops.INDEX, dt.ptr(2), (in_buf, zero)),))
  y = L(Ops.LOAD, dt, (L(Ops.INDEX, dt.ptr(2), (in_buf, one)),))
  for i, op in enumerate(ops):
    odt = dtypes.bool if op in (Ops.CMPLT, Ops.CMPNE, Ops.CMPEQ) else dt
    buf = ob if odt == dtypes.bool else out_buf
    L(Ops.STORE, dtypes.void, (L(Ops.INDEX, buf.dtype, (buf, L.c(dtypes.int32, i))), L(op, odt, (x, y))))
  k = len(ops)
  for j, op in enumerate(unary):
    L(Ops.STORE, dtypes.void, (L(Ops.INDEX, out_buf.dtype, (out_buf, L.c(dtypes.int32, k + j))), L(op, dt, (x,))))
  k += len(unary)
  w = L(Ops.WHERE, dt, (L(Ops.CMPLT, dtypes.bool, (x, y)), x, y))
  L(Ops.STORE, dtypes.void, (L(Ops.INDEX, out_buf.dtype, (out_buf, L.c(dtypes.int32, k))), w))
  s = L(Ops.ADD, dt, (L(Ops.ADD, dt, (x, y)), w))
  m = L(Ops.MUL, dt, (L(Ops.MUL, dt, (s, y)), s))
  L(Ops.STORE, dtypes.void, (L(Ops.INDEX, out_buf.dtype, (out_buf, L.c(dtypes.int32, k + 1))), m))
  L.render(out, name, name)


def lin_vector(out):
  # make_float4, CUDA-less vector structs (half4, nv_bfloat168, fp8 x2/x16), GEP as .x and as [i]
  L = Lin()
  f4, h4, b8 = dtypes.float.vec(4), dtypes.half.vec(4), dtypes.bfloat16.vec(8)
  d0 = L(Ops.DEFINE_GLOBAL, dtypes.float.ptr(64), (), 0)
  d1 = L(Ops.DEFINE_GLOBAL, dtypes.float.ptr(64), (), 1)
  dh = L(Ops.DEFINE_GLOBAL, dtypes.half.ptr(16), (), 2)
  db = L(Ops.DEFINE_GLOBAL, dtypes.bfloat16.ptr(16), (), 3)
  d8 = L(Ops.DEFINE_GLOBAL, dtypes.fp8e4m3.ptr(32), (), 4)
  zero = L.c(dtypes.int32, 0)
  ld = L(Ops.LOAD, f4, (L(Ops.CAST, f4.ptr(64), (L(Ops.INDEX, dtypes.float.ptr(64), (d1, zero)),)),))
  g = [L(Ops.GEP, dtypes.float, (ld,), (i,)) for i in range(4)]
  v = L(Ops.VECTORIZE, f4, (L(Ops.ADD, dtypes.float, (g[3], g[0])), g[2], g[1], g[0]))
  L(Ops.STORE, dtypes.void, (L(Ops.CAST, f4.ptr(64), (L(Ops.INDEX, dtypes.float.ptr(64), (d0, zero)),)), v))
  hl = L(Ops.LOAD, h4, (L(Ops.CAST, h4.ptr(16), (L(Ops.INDEX, dtypes.half.ptr(16), (dh, zero)),)),))
  hg = [L(Ops.GEP, dtypes.half, (hl,), (i,)) for i in range(4)]
  hv = L(Ops.VECTORIZE, h4, (hg[1], hg[0], hg[3], hg[2]))
  L(Ops.STORE, dtypes.void, (L(Ops.CAST, h4.ptr(16), (L(Ops.INDEX, dtypes.half.ptr(16), (dh, L.c(dtypes.int32, 4))),)), hv))
  bl = L(Ops.LOAD, b8, (L(Ops.CAST, b8.ptr(16), (L(Ops.INDEX, dtypes.bfloat16.ptr(16), (db, zero)),)),))
  bg = [L(Ops.GEP, dtypes.bfloat16, (bl,), (i,)) for i in range(8)]
  bv = L(Ops.VECTORIZE, b8, tuple(reversed(bg)))
  L(Ops.STORE, dtypes.void, (L(Ops.CAST, b8.ptr(16), (L(Ops.INDEX, dtypes.bfloat16.ptr(16), (db, L.c(dtypes.int32, 8))),)), bv))
  f8_2 = dtypes.fp8e4m3.vec(2)
  e2 = L(Ops.LOAD, f8_2, (L(Ops.CAST, f8_2.ptr(32), (L(Ops.INDEX, dtypes.fp8e4m3.ptr(32), (d8, zero)),)),))
  s = L(Ops.ADD, dtypes.float, (L(Ops.CAST, dtypes.float, (L(Ops.GEP, dtypes.fp8e4m3, (e2,), (1,)),)),
                                L(Ops.CAST, dtypes.float, (L(Ops.GEP, dtypes.fp8e4m3, (e2,), (0,)),))))
  L(Ops.STORE, dtypes.void, (L(Ops.INDEX, dtypes.float.ptr(64), (d0, L.c(dtypes.int32, 8))), s))
  L(Ops.STORE, dtypes.void, (L(Ops.INDEX, dtypes.float.ptr(64), (d0, L.c(dtypes.int32, 9))), L(Ops.CAST, dtypes.float, (hg[2],))))
  L.render(out, "lin_vector", "vec")


def lin_gep_wide(out):
  # a GEP of a vector wider than gep_arr_threshold (8) is rendered v[i]: on the reference's
  # vector structs that is not valid CUDA (the pipeline never GEPs one: 16-wide fp8 vectors only
  # feed WMMAs), but it is what the reference renders
  L = Lin()
  f8_16 = dtypes.fp8e4m3.vec(16)
  d0 = L(Ops.DEFINE_GLOBAL, dtypes.float.ptr(1), (), 0)
  d8 = L(Ops.DEFINE_GLOBAL, dtypes.fp8e4m3.ptr(16), (), 1)
  zero = L.c(dtypes.int32, 0)
  e16 = L(Ops.LOAD, f8_16, (L(Ops.CAST, f8_16.ptr(16), (L(Ops.INDEX, dtypes.fp8e4m3.ptr(16), (d8, zero)),)),))
  g = L(Ops.GEP, dtypes.fp8e4m3, (e16,), (12,))
  L(Ops.STORE, dtypes.void, (L(Ops.INDEX, dtypes.float.ptr(1), (d0, zero)), L(Ops.CAST, dtypes.float, (g,))))
  L.render(out, "lin_gep_wide", "gep_wide")


def lin_control(out):
  # registers, shared memory and a barrier, a gated load, a loop over a variable, IF, CUSTOM,
  # and the three launch indices (block, thread, and the flat global index "i")
  L = Lin()
  d0 = L(Ops.DEFINE_GLOBAL, dtypes.float.ptr(64), (), 0)
  d1 = L(Ops.DEFINE_GLOBAL, dtypes.float.ptr(-1), (), 1)
  n = L(Ops.DEFINE_VAR, dtypes.int32, (), ("n", 1, 64))
  acc = L(Ops.DEFINE_REG, dtypes.float.ptr(1, AddrSpace.REG), (), 0)
  loc = L(Ops.DEFINE_LOCAL, dtypes.float.ptr(16, AddrSpace.LOCAL), (), "temp0")
  zero, four, eight = L.c(dtypes.int32, 0), L.c(dtypes.int32, 4), L.c(dtypes.int32, 8)
  g = L(Ops.SPECIAL, dtypes.int32, (eight,), "gidx0")
  l0 = L(Ops.SPECIAL, dtypes.int32, (four,), "lidx0")
  l1 = L(Ops.SPECIAL, dtypes.int32, (L.c(dtypes.int32, 2),), "lidx1")
  L(Ops.STORE, dtypes.void, (L(Ops.INDEX, acc.dtype, (acc, zero)), L.c(dtypes.float, 0.0)))
  r = L(Ops.RANGE, dtypes.int32, (n,), (0, AxisType.REDUCE))
  idx = L(Ops.ADD, dtypes.int32, (L(Ops.MUL, dtypes.int32, (r, eight)), g))
  valid = L(Ops.CMPLT, dtypes.bool, (idx, L.c(dtypes.int32, 60)))
  ld = L(Ops.LOAD, dtypes.float, (L(Ops.INDEX, dtypes.float.ptr(-1), (d1, idx, valid)), L.c(dtypes.float, -1.0)))
  ai = L(Ops.INDEX, acc.dtype, (acc, zero))
  cur = L(Ops.LOAD, dtypes.float, (ai,))
  st = L(Ops.STORE, dtypes.void, (ai, L(Ops.ADD, dtypes.float, (cur, ld))))
  L(Ops.END, dtypes.void, (st, r))
  lidx = L(Ops.ADD, dtypes.int32, (L(Ops.MUL, dtypes.int32, (l1, four)), l0))
  L(Ops.STORE, dtypes.void, (L(Ops.INDEX, loc.dtype, (loc, lidx)), L(Ops.LOAD, dtypes.float, (L(Ops.INDEX, acc.dtype, (acc, zero)),))))
  L(Ops.BARRIER, dtypes.void, ())
  iff = L(Ops.IF, dtypes.void, (L(Ops.CMPLT, dtypes.bool, (l0, L.c(dtypes.int32, 1))),))
  res = L(Ops.LOAD, dtypes.float, (L(Ops.INDEX, loc.dtype, (loc, L(Ops.MUL, dtypes.int32, (l1, four)))),))
  L(Ops.STORE, dtypes.void, (L(Ops.INDEX, dtypes.float.ptr(64), (d0, L(Ops.ADD, dtypes.int32, (L(Ops.MUL, dtypes.int32, (g, L.c(dtypes.int32, 2))), l1)))), res))
  L(Ops.ENDIF, dtypes.void, (iff,))
  i0 = L(Ops.SPECIAL, dtypes.int32, (L.c(dtypes.int32, 64),), "i0")
  L(Ops.STORE, dtypes.void, (L(Ops.INDEX, dtypes.float.ptr(64), (d0, i0)), L(Ops.CAST, dtypes.float, (i0,))))
  L(Ops.CUSTOM, dtypes.void, (g,), "/* custom {0} */")
  L(Ops.NOOP, dtypes.void, ())
  L.render(out, "lin_control", "ctrl")


def lin_misc(out):
  # BITCAST through the union, inf/nan through the prefix's macros, a 3-D grid
  L = Lin()
  d0 = L(Ops.DEFINE_GLOBAL, dtypes.int32.ptr(8), (), 0)
  d1 = L(Ops.DEFINE_GLOBAL, dtypes.float.ptr(8), (), 1)
  dh = L(Ops.DEFINE_GLOBAL, dtypes.half.ptr(8), (), 2)
  gs = [L(Ops.SPECIAL, dtypes.int32, (L.c(dtypes.int32, n),), f"gidx{i}") for i, n in enumerate((4, 3, 2))]
  ls = [L(Ops.SPECIAL, dtypes.int32, (L.c(dtypes.int32, n),), f"lidx{i}") for i, n in enumerate((8, 4, 2))]
  at = L(Ops.ADD, dtypes.int32, (L(Ops.ADD, dtypes.int32, (gs[0], gs[1])), gs[2]))
  at = L(Ops.ADD, dtypes.int32, (L(Ops.ADD, dtypes.int32, (L(Ops.ADD, dtypes.int32, (at, ls[0])), ls[1])), ls[2]))
  x = L(Ops.LOAD, dtypes.float, (L(Ops.INDEX, dtypes.float.ptr(8), (d1, at)),))
  L(Ops.STORE, dtypes.void, (L(Ops.INDEX, dtypes.int32.ptr(8), (d0, at)), L(Ops.BITCAST, dtypes.int32, (x,))))
  hx = L(Ops.LOAD, dtypes.half, (L(Ops.INDEX, dtypes.half.ptr(8), (dh, at)),))
  L(Ops.STORE, dtypes.void, (L(Ops.INDEX, dtypes.int32.ptr(8), (d0, L.c(dtypes.int32, 1))),
                             L(Ops.CAST, dtypes.int32, (L(Ops.BITCAST, dtypes.ushort, (hx,)),))))
  L(Ops.STORE, dtypes.void, (L(Ops.INDEX, dtypes.float.ptr(8), (d1, L.c(dtypes.int32, 0))), L.c(dtypes.float, math.inf)))
  L(Ops.STORE, dtypes.void, (L(Ops.INDEX, dtypes.float.ptr(8), (d1, L.c(dtypes.int32, 1))), L.c(dtypes.float, -math.inf)))
  L(Ops.STORE, dtypes.void, (L(Ops.INDEX, dtypes.float.ptr(8), (d1, L.c(dtypes.int32, 2))), L.c(dtypes.float, math.nan)))
  L(Ops.STORE, dtypes.void, (L(Ops.INDEX, dtypes.half.ptr(8), (dh, L.c(dtypes.int32, 0))), L.c(dtypes.half, math.inf)))
  L.render(out, "lin_misc", "misc")


def lin_wmma(out, name, t: tc.TensorCore, arch):
  # one WMMA of tensor core `t` on vectors loaded from three buffers, its result stored
  L = Lin()
  log2 = lambda n: int(math.log2(n))
  # the upcast axes the TC opt would record: (axis, 2) pieces whose product is each operand's lanes
  ax = tuple(tuple((10 + j, 2) for j in range(log2(n))) for n in t.elements_per_thread)
  na, nb, nc = t.elements_per_thread
  va, vb, vc = t.dtype_in.vec(na), t.dtype_in.vec(nb), t.dtype_out.vec(nc)
  bufs = [L(Ops.DEFINE_GLOBAL, d.ptr(64), (), i) for i, d in enumerate((t.dtype_out, t.dtype_in, t.dtype_in))]
  zero = L.c(dtypes.int32, 0)
  def vload(buf, vt): return L(Ops.LOAD, vt, (L(Ops.CAST, vt.ptr(64), (L(Ops.INDEX, buf.dtype, (buf, zero)),)),))
  a, b, c = vload(bufs[1], va), vload(bufs[2], vb), vload(bufs[0], vc)
  w = L(Ops.WMMA, vc, (a, b, c), (str(t), t.dims, t.dtype_in, t.dtype_out, ren(arch).device, t.threads, ax, ()))
  L(Ops.STORE, dtypes.void, (L(Ops.CAST, vc.ptr(64), (L(Ops.INDEX, bufs[0].dtype, (bufs[0], zero)),)), w))
  L.render(out, name, "wmma", arch)


def main():
  ap = argparse.ArgumentParser()
  ap.add_argument("--out", required=True)
  args = ap.parse_args()
  os.makedirs(args.out, exist_ok=True)
  for dt in (dtypes.float, dtypes.int32, dtypes.uint32, dtypes.int64, dtypes.double, dtypes.half, dtypes.bfloat16, dtypes.uint8):
    lin_alu(args.out, f"lin_alu_{INVERSE_DTYPES_DICT[dt.name]}", dt)
  lin_vector(args.out)
  lin_gep_wide(args.out)
  lin_control(args.out)
  lin_misc(args.out)
  for t in tc.cuda_sm89:
    dims, din, dout = "_".join(map(str, t.dims)), INVERSE_DTYPES_DICT[t.dtype_in.name], INVERSE_DTYPES_DICT[t.dtype_out.name]
    lin_wmma(args.out, f"lin_wmma_{dims}_{din}_{dout}", t, "sm_89")
  pipeline_cases(args.out)
  tc_cases(args.out)


if __name__ == "__main__":
  sys.setrecursionlimit(10000)
  main()
