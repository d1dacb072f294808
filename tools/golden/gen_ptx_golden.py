#!/usr/bin/env python3
# File: tools/golden/gen_ptx_golden.py
# Generates the golden files in tinygrad/renderer/ptx/testdata/ that
# //tinygrad/renderer/ptx:ptx_test replays, as tools/golden/gen_cuda_golden.py does for CUDA
# (same file formats, .ptx for the source), with the reference PTXRenderer(arch) (CUDA_PTX=1).
#
# Usage (from anywhere; the reference checkout must be importable; no GPU or CUDA toolkit needed:
# the renderer is built directly and nothing is compiled or assembled):
#   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU python3 \
#     <repo>/tools/golden/gen_ptx_golden.py --out <repo>/tinygrad/renderer/ptx/testdata
#
# Cases:
#   pipe_*  gen_cuda_golden.py's kernels through the reference get_program with PTXRenderer(sm_89),
#           except those in a dtype PTXRenderer has no registers for (bfloat16, fp8: the reference
#           raises, and is_dtype_supported says no under CUDA_PTX); the generator checks that
#           exactly those are left out.
#   tc_*    matmuls with a TC opt (or the heuristic's) on every tensor core PTXRenderer offers:
#           sm_75's m16n8k8 half shapes, and from sm_80 cuda_sm80's half and tf32 ones (the
#           reference leaves out bf16 there, and has no fp8 table for sm_89+).
#   lin_*   linear lists built by hand in the form the PTX extra matcher leaves them (INDEX is a
#           byte address in int64, bools are loaded and stored as uint8) and rendered with
#           PTXRenderer(arch).render(uops): every asm_for_op spelling per register type, casts
#           between every pair of types, vectors, registers, loops, gates, shared memory, and a
#           WMMA per tensor core. Each uses only what the PTX ISA accepts for its arch, so every
#           golden .ptx assembles (//tinygrad/renderer/ptx:ptx_assemble_test).
import argparse, math, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tinygrad import Tensor, dtypes
from tinygrad.dtype import AddrSpace, INVERSE_DTYPES_DICT
from tinygrad.uop.ops import Ops, AxisType
from tinygrad.codegen.opt import Opt, OptOps
from tinygrad.renderer.ptx import PTXRenderer
import gen_cuda_golden as g

g.TARGET.update(renderer=PTXRenderer, name="PTXRenderer", test="//tinygrad/renderer/ptx:ptx_test",
                script="gen_ptx_golden.py", ext="ptx", arch="sm_89")

# gen_cuda_golden.py's pipeline cases in a dtype PTXRenderer cannot render (its `types` has no
# bfloat16 or fp8 entry: the reference raises a KeyError)
UNSUPPORTED = {"pipe_bf16", "pipe_bf16_math", "pipe_to_bf16", "pipe_fp8", "pipe_fp8_vec", "pipe_fp8_to_half",
               "pipe_consts_bf16"}
skipped = []
_pipe_ast = g.pipe_ast


def pipe_ast_or_skip(out, name, ast, *args, **kw):
  if name in UNSUPPORTED:
    try: _pipe_ast(out, name, ast, *args, **kw)
    except KeyError as e: skipped.append(name); print(f"skipped {name}: PTXRenderer has no register type {e}"); return
    raise AssertionError(f"{name} was expected to fail on PTXRenderer, but rendered")
  _pipe_ast(out, name, ast, *args, **kw)
g.pipe_ast = pipe_ast_or_skip


def tc_cases(out):
  def mm(dt, n=64, acc=None): return Tensor.empty(n, n, dtype=dt).matmul(Tensor.empty(n, n, dtype=dt), dtype=acc)
  TCO = lambda select=-1, opt=0, use=1: Opt(OptOps.TC, 0, (select, opt, use))
  for arch in ("sm_80", "sm_89"):
    a = arch.replace("_", "")
    g.pipe(out, f"tc_{a}_half_float", mm(dtypes.half), [TCO()], arch=arch)
    g.pipe(out, f"tc_{a}_half_half", mm(dtypes.half, acc=dtypes.half), [TCO()], arch=arch)
    g.pipe(out, f"tc_{a}_tf32", mm(dtypes.float), [TCO()], arch=arch, allow_tf32=1)
    # the m16n8k8 half shapes (PTXRenderer.tc_sm80[2] and [3])
    g.pipe(out, f"tc_{a}_half_float_k8", mm(dtypes.half), [TCO(2)], arch=arch)
    g.pipe(out, f"tc_{a}_half_half_k8", mm(dtypes.half, acc=dtypes.half), [TCO(3)], arch=arch)
  g.pipe(out, "tc_sm75_half_float", mm(dtypes.half), [TCO()], arch="sm_75")
  g.pipe(out, "tc_sm75_half_half", mm(dtypes.half, acc=dtypes.half), [TCO()], arch="sm_75")
  g.pipe(out, "tc_sm75_half_heuristic", mm(dtypes.half), arch="sm_75")
  for arch in ("sm_89", "sm_90"):
    g.pipe(out, f"tc_{arch.replace('_', '')}_half_heuristic", mm(dtypes.half, 256), arch=arch)
  g.pipe(out, "tc_sm90_tf32_heuristic", mm(dtypes.float, 256), arch="sm_90", allow_tf32=1)
  g.pipe(out, "tc_sm89_half_upcast_local", mm(dtypes.half), [TCO(), Opt(OptOps.UPCAST, 1, 2), Opt(OptOps.LOCAL, 0, 2)])
  g.pipe(out, "tc_sm89_half_unroll", mm(dtypes.half), [TCO(), Opt(OptOps.UNROLL, 0, 2)])
  g.pipe(out, "tc_sm89_half_emulated", mm(dtypes.half), [TCO(use=2)])
  g.pipe(out, "tc_sm89_half_pad", mm(dtypes.half, 60), [TCO(opt=2)])
  g.pipe(out, "tc_sm89_float_no_tf32", mm(dtypes.float), arch="sm_89")


# ** hand-built linear lists, in the form ptx_matcher leaves them **

class PtxLin(g.Lin):
  def addr(self, buf, i, *gate):
    # ptx_matcher's INDEX: (buf, buf as int64 + idx * itemsize[, gate]) with an int64 dtype
    off = self(Ops.MUL, dtypes.long, (self(Ops.CAST, dtypes.long, (i,)), self.c(dtypes.long, buf.dtype.itemsize)))
    return self(Ops.INDEX, dtypes.long, (buf, self(Ops.ADD, dtypes.long, (self(Ops.CAST, dtypes.long, (buf,)), off))) + gate)
  def ld(self, buf, i, dt=None, *rest):
    return self(Ops.LOAD, dt or buf.dtype.base, (self.addr(buf, self.c(dtypes.int32, i) if isinstance(i, int) else i),) + rest)
  def st(self, buf, i, v):
    return self(Ops.STORE, dtypes.void, (self.addr(buf, self.c(dtypes.int32, i) if isinstance(i, int) else i), v))


FLOAT_OPS = [Ops.ADD, Ops.MUL, Ops.MAX]
INT_OPS = [Ops.ADD, Ops.MUL, Ops.MAX, Ops.IDIV, Ops.MOD, Ops.XOR, Ops.OR, Ops.AND]
CMP_OPS = [Ops.CMPLT, Ops.CMPNE, Ops.CMPEQ]
FLOAT_UNARY = [Ops.RECIPROCAL, Ops.EXP2, Ops.LOG2, Ops.SIN, Ops.SQRT, Ops.TRUNC]
# PTX has f16 forms of these only (ptx_matcher does the others in float); its .approx
# transcendental functions have no f64 form at all (rcp.approx.f64 needs .ftz, ex2/lg2/sin/sqrt
# .approx are f32/f16 only): the reference renders them for doubles all the same, which ptxas
# rejects, so the goldens leave them out
UNARY = {dtypes.float: FLOAT_UNARY, dtypes.half: [Ops.EXP2, Ops.TRUNC], dtypes.double: [Ops.TRUNC]}


def lin_alu(out, name, dt):
  # every asm_for_op spelling for one register type; bool results are stored as uint8
  L = PtxLin()
  is_float = dtypes.is_float(dt)
  binary = FLOAT_OPS if is_float else INT_OPS
  unary = UNARY.get(dt, [])
  n = len(binary) + len(unary) + 4
  out_buf = L(Ops.DEFINE_GLOBAL, dt.ptr(n), (), 0)
  ob = L(Ops.DEFINE_GLOBAL, dtypes.uint8.ptr(len(CMP_OPS)), (), 1)
  in_buf = L(Ops.DEFINE_GLOBAL, dt.ptr(3), (), 2)
  x, y, z = L.ld(in_buf, 0), L.ld(in_buf, 1), L.ld(in_buf, 2)
  k = 0
  for op in binary:
    L.st(out_buf, k, L(op, dt, (x, y))); k += 1
  for op in unary:
    L.st(out_buf, k, L(op, dt, (x,))); k += 1
  if not is_float:
    # shifts take an unsigned 32-bit amount (ptx_matcher casts it)
    sh = L(Ops.CAST, dtypes.uint32, (y,)) if dt != dtypes.uint32 else y
    L.st(out_buf, k, L(Ops.SHL, dt, (x, sh))); L.st(out_buf, k + 1, L(Ops.SHR, dt, (x, sh))); k += 2
  L.st(out_buf, k, L(Ops.MULACC, dt, (x, y, z)))
  L.st(out_buf, k + 1, L(Ops.WHERE, dt, (L(Ops.CMPLT, dtypes.bool, (x, y)), x, y)))
  for i, op in enumerate(CMP_OPS):
    L.st(ob, i, L(Ops.CAST, dtypes.uint8, (L(op, dtypes.bool, (x, y)),)))
  L.render(out, name, name)


def lin_bool(out):
  # bool ALU is predicate logic (or/and/xor.pred, WHERE as two predicated movs); bools travel
  # through memory as uint8, and a bool register array is a set of .pred registers
  L = PtxLin()
  ob = L(Ops.DEFINE_GLOBAL, dtypes.uint8.ptr(8), (), 0)
  ib = L(Ops.DEFINE_GLOBAL, dtypes.uint8.ptr(3), (), 1)
  x, y, z = [L(Ops.CAST, dtypes.bool, (L.ld(ib, i),)) for i in range(3)]
  res = [L(Ops.ADD, dtypes.bool, (x, y)), L(Ops.MUL, dtypes.bool, (x, y)), L(Ops.XOR, dtypes.bool, (x, y)),
         L(Ops.AND, dtypes.bool, (x, z)), L(Ops.OR, dtypes.bool, (y, z)), L(Ops.WHERE, dtypes.bool, (x, y, z))]
  t = L.c(dtypes.bool, True)
  res.append(L(Ops.XOR, dtypes.bool, (x, t)))
  acc = L(Ops.DEFINE_REG, dtypes.bool.ptr(1, AddrSpace.REG), (), 0)
  ai = L(Ops.INDEX, acc.dtype, (acc, L.c(dtypes.int32, 0)))
  L(Ops.STORE, dtypes.void, (ai, L.c(dtypes.bool, False)))
  res.append(L(Ops.LOAD, dtypes.bool, (ai,)))
  for i, r in enumerate(res): L.st(ob, i, L(Ops.CAST, dtypes.uint8, (r,)))
  L.render(out, "lin_bool", "bools")


CAST_DTYPES = [dtypes.bool, dtypes.int8, dtypes.uint8, dtypes.int16, dtypes.uint16, dtypes.int32, dtypes.uint32,
               dtypes.int64, dtypes.uint64, dtypes.half, dtypes.float, dtypes.double]


def lin_casts(out, src_dt):
  # a value of `src_dt` cast to every other type (cvt with its rounding modifier, setp to bool,
  # selp from bool) and bit cast where the sizes match
  L = PtxLin()
  ib = L(Ops.DEFINE_GLOBAL, (dtypes.uint8 if src_dt == dtypes.bool else src_dt).ptr(1), (), 0)
  x = L.ld(ib, 0)
  if src_dt == dtypes.bool: x = L(Ops.CAST, dtypes.bool, (x,))
  for slot, dt in enumerate([d for d in CAST_DTYPES if d != src_dt], start=1):
    ob = L(Ops.DEFINE_GLOBAL, (dtypes.uint8 if dt == dtypes.bool else dt).ptr(2), (), slot)
    v = L(Ops.CAST, dt, (x,))
    L.st(ob, 0, L(Ops.CAST, dtypes.uint8, (v,)) if dt == dtypes.bool else v)
    if dt != dtypes.bool and src_dt != dtypes.bool and dt.itemsize == src_dt.itemsize:
      L.st(ob, 1, L(Ops.BITCAST, dt, (x,)))
  L.render(out, f"lin_cast_{INVERSE_DTYPES_DICT[src_dt.name]}", "casts")


def lin_vector(out):
  # vector loads and stores (ld/st .v2/.v4), GEP lanes, VECTORIZE, a gated vector load
  L = PtxLin()
  f4, h2, h4 = dtypes.float.vec(4), dtypes.half.vec(2), dtypes.half.vec(4)
  d0 = L(Ops.DEFINE_GLOBAL, dtypes.float.ptr(64), (), 0)
  d1 = L(Ops.DEFINE_GLOBAL, dtypes.float.ptr(64), (), 1)
  dh = L(Ops.DEFINE_GLOBAL, dtypes.half.ptr(16), (), 2)
  gidx = L(Ops.SPECIAL, dtypes.int32, (L.c(dtypes.int32, 4),), "gidx0")
  ld = L.ld(d1, 0, f4)
  gs = [L(Ops.GEP, dtypes.float, (ld,), (i,)) for i in range(4)]
  L.st(d0, 0, L(Ops.VECTORIZE, f4, (L(Ops.ADD, dtypes.float, (gs[3], gs[0])), gs[2], gs[1], gs[0])))
  hl = L.ld(dh, 0, h4)
  hg = [L(Ops.GEP, dtypes.half, (hl,), (i,)) for i in range(4)]
  L.st(dh, 4, L(Ops.VECTORIZE, h4, (hg[1], hg[0], hg[3], hg[2])))
  L.st(dh, 8, L(Ops.VECTORIZE, h2, (hg[3], hg[3])))
  valid = L(Ops.CMPLT, dtypes.bool, (gidx, L.c(dtypes.int32, 3)))
  gi = L(Ops.MUL, dtypes.int32, (gidx, L.c(dtypes.int32, 4)))
  gl = L(Ops.LOAD, f4, (L.addr(d1, gi, valid), L(Ops.VECTORIZE, f4, (L.c(dtypes.float, 0.0),) * 4)))
  L.st(d0, L(Ops.ADD, dtypes.int32, (gi, L.c(dtypes.int32, 4))), gl)
  L.render(out, "lin_vector", "vec")


def lin_control(out):
  # registers, a loop over a variable, a gated load with its alternative, shared memory behind a
  # barrier, IF/ENDIF, AFTER, and launch indices in every dimension
  L = PtxLin()
  d0 = L(Ops.DEFINE_GLOBAL, dtypes.float.ptr(64), (), 0)
  d1 = L(Ops.DEFINE_GLOBAL, dtypes.float.ptr(-1), (), 1)
  n = L(Ops.DEFINE_VAR, dtypes.int32, (), ("n", 1, 64))
  acc = L(Ops.DEFINE_REG, dtypes.float.ptr(2, AddrSpace.REG), (), 0)
  loc = L(Ops.DEFINE_LOCAL, dtypes.float.ptr(16, AddrSpace.LOCAL), (), 0)
  zero, one, four, eight = L.c(dtypes.int32, 0), L.c(dtypes.int32, 1), L.c(dtypes.int32, 4), L.c(dtypes.int32, 8)
  g0 = L(Ops.SPECIAL, dtypes.int32, (eight,), "gidx0")
  g1 = L(Ops.SPECIAL, dtypes.int32, (L.c(dtypes.int32, 3),), "gidx1")
  g2 = L(Ops.SPECIAL, dtypes.int32, (L.c(dtypes.int32, 2),), "gidx2")
  l0 = L(Ops.SPECIAL, dtypes.int32, (four,), "lidx0")
  l1 = L(Ops.SPECIAL, dtypes.int32, (L.c(dtypes.int32, 2),), "lidx1")
  l2 = L(Ops.SPECIAL, dtypes.int32, (L.c(dtypes.int32, 2),), "lidx2")
  for i in range(2):
    L(Ops.STORE, dtypes.void, (L(Ops.INDEX, acc.dtype, (acc, L.c(dtypes.int32, i))), L.c(dtypes.float, 0.0)))
  r = L(Ops.RANGE, dtypes.int32, (n,), (0, AxisType.REDUCE))
  idx = L(Ops.ADD, dtypes.int32, (L(Ops.MUL, dtypes.int32, (r, eight)), g0))
  valid = L(Ops.CMPLT, dtypes.bool, (idx, L.c(dtypes.int32, 60)))
  ld = L(Ops.LOAD, dtypes.float, (L.addr(d1, idx, valid), L.c(dtypes.float, -1.0)))
  ai = L(Ops.INDEX, acc.dtype, (acc, zero))
  st = L(Ops.STORE, dtypes.void, (ai, L(Ops.ADD, dtypes.float, (L(Ops.LOAD, dtypes.float, (ai,)), ld))))
  L(Ops.END, dtypes.void, (st, r))
  lidx = L(Ops.ADD, dtypes.int32, (L(Ops.MUL, dtypes.int32, (l1, four)), l0))
  lst = L.st(loc, lidx, L(Ops.LOAD, dtypes.float, (L(Ops.INDEX, acc.dtype, (acc, zero)),)))
  bar = L(Ops.BARRIER, dtypes.void, (lst,))
  after = L(Ops.AFTER, loc.dtype, (loc, bar))
  iff = L(Ops.IF, dtypes.void, (L(Ops.CMPLT, dtypes.bool, (l0, one)),))
  res = L.ld(after, L(Ops.MUL, dtypes.int32, (l1, four)), dtypes.float)
  at = L(Ops.ADD, dtypes.int32, (L(Ops.ADD, dtypes.int32, (L(Ops.MUL, dtypes.int32, (g0, L.c(dtypes.int32, 2))), l1)), g1))
  L.st(d0, L(Ops.ADD, dtypes.int32, (L(Ops.ADD, dtypes.int32, (at, g2)), l2)), res)
  L(Ops.ENDIF, dtypes.void, (iff,))
  L(Ops.NOOP, dtypes.void, ())
  L.render(out, "lin_control", "ctrl")


def lin_consts(out):
  # render_val per type: floats as their bits (0f/0d/0x), unsigned with a U, bool through setp
  L = PtxLin()
  vals = ((dtypes.float, (math.inf, -math.inf, math.nan, 1e-20, -0.0, 0.1)), (dtypes.double, (math.inf, math.nan, -0.0, 0.1)),
          (dtypes.half, (math.inf, -math.inf, math.nan, 0.1, 65504.0, 6e-8)), (dtypes.int32, (-2147483648, 7)),
          (dtypes.int64, (-9223372036854775807, 2**40)), (dtypes.uint32, (4294967295, 0)),
          (dtypes.uint64, (18446744073709551615, 2**63)), (dtypes.int8, (-128, 127)), (dtypes.uint8, (255, 0)),
          (dtypes.int16, (-32768, 32767)), (dtypes.uint16, (65535, 1)), (dtypes.bool, (True, False)))
  for slot, (dt, xs) in enumerate(vals):
    b = L(Ops.DEFINE_GLOBAL, (dtypes.uint8 if dt == dtypes.bool else dt).ptr(len(xs)), (), slot)
    for i, x in enumerate(xs):
      c = L.c(dt, x)
      L.st(b, i, L(Ops.CAST, dtypes.uint8, (c,)) if dt == dtypes.bool else c)
  L.render(out, "lin_consts", "consts")


def lin_wmma(out, name, t, arch):
  # one WMMA of tensor core `t` on vectors loaded from three buffers, its result stored
  L = PtxLin()
  ax = tuple(tuple((10 + j, 2) for j in range(int(math.log2(n)))) for n in t.elements_per_thread)
  na, nb, nc = t.elements_per_thread
  va, vb, vc = t.dtype_in.vec(na), t.dtype_in.vec(nb), t.dtype_out.vec(nc)
  bufs = [L(Ops.DEFINE_GLOBAL, d.ptr(64), (), i) for i, d in enumerate((t.dtype_out, t.dtype_in, t.dtype_in))]
  # elements loaded one by one (as the pipeline's devectorizer leaves a WMMA's operands)
  def vload(buf, vt): return L(Ops.VECTORIZE, vt, tuple(L.ld(buf, i) for i in range(vt.count)))
  a, b, c = vload(bufs[1], va), vload(bufs[2], vb), vload(bufs[0], vc)
  w = L(Ops.WMMA, vc, (a, b, c), (str(t), t.dims, t.dtype_in, t.dtype_out, "CUDA", t.threads, ax, ()))
  for i in range(nc): L.st(bufs[0], i, L(Ops.GEP, t.dtype_out, (w,), (i,)))
  L.render(out, name, "wmma", arch)


def main():
  ap = argparse.ArgumentParser()
  ap.add_argument("--out", required=True)
  args = ap.parse_args()
  os.makedirs(args.out, exist_ok=True)
  for dt in (dtypes.float, dtypes.double, dtypes.half, dtypes.int32, dtypes.uint32, dtypes.int64, dtypes.uint64,
             dtypes.int8, dtypes.uint8, dtypes.int16, dtypes.uint16):
    lin_alu(args.out, f"lin_alu_{INVERSE_DTYPES_DICT[dt.name]}", dt)
  lin_bool(args.out)
  for dt in CAST_DTYPES: lin_casts(args.out, dt)
  lin_vector(args.out)
  lin_control(args.out)
  lin_consts(args.out)
  for arch, tcs in (("sm_75", PTXRenderer("sm_75").tensor_cores), ("sm_80", PTXRenderer("sm_80").tensor_cores)):
    for t in tcs:
      dims, din, dout = "_".join(map(str, t.dims)), INVERSE_DTYPES_DICT[t.dtype_in.name], INVERSE_DTYPES_DICT[t.dtype_out.name]
      lin_wmma(args.out, f"lin_wmma_{arch.replace('_', '')}_{dims}_{din}_{dout}", t, arch)
  g.pipeline_cases(args.out)
  tc_cases(args.out)
  assert set(skipped) == UNSUPPORTED, f"skipped {sorted(skipped)}, expected {sorted(UNSUPPORTED)}"


if __name__ == "__main__":
  sys.setrecursionlimit(10000)
  main()
