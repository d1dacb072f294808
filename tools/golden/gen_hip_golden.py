#!/usr/bin/env python3
# File: tools/golden/gen_hip_golden.py
# Generates the golden files in tinygrad/renderer/hip/testdata/ that
# //tinygrad/renderer/hip:hip_test replays, as tools/golden/gen_cuda_golden.py does for CUDA
# (same file formats, .hip for the source), with the reference AMDHIPRenderer(arch).
#
# Usage (from anywhere; the reference checkout must be importable; no GPU or ROCm needed: the
# renderer is built directly and nothing is compiled):
#   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU python3 \
#     <repo>/tools/golden/gen_hip_golden.py --out <repo>/tinygrad/renderer/hip/testdata
#
# Cases:
#   pipe_*  gen_cuda_golden.py's kernels on RDNA3 (gfx1100), a few on CDNA3 (gfx942), whose
#           string rewrites differ (fp8 casts);
#   tc_*    matmuls with TC opts (each tensor core of a table, by TC_SELECT) and the heuristic's
#           on RDNA3 (gfx1100), RDNA4 (gfx1200), CDNA3 (gfx942) and CDNA4 (gfx950);
#   lin_*   hand-built linear lists, and a WMMA of every tensor core of each family.
import argparse, math, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tinygrad import Tensor, dtypes
from tinygrad.dtype import INVERSE_DTYPES_DICT
from tinygrad.codegen.opt import Opt, OptOps, tc
from tinygrad.renderer.cstyle import AMDHIPRenderer
import gen_cuda_golden as g

def hip_renderer(arch):
  r = AMDHIPRenderer(arch)
  r.compiler = None  # get_program would compile with comgr: only the source is wanted
  return r
g.TARGET.update(renderer=hip_renderer, name="AMDHIPRenderer", test="//tinygrad/renderer/hip:hip_test",
                script="gen_hip_golden.py", ext="hip", arch="gfx1100")

FAMILIES = (("rdna3", "gfx1100", tc.amd_rdna3), ("rdna4", "gfx1200", tc.amd_rdna4), ("cdna3", "gfx942", tc.amd_cdna3),
            ("cdna4", "gfx950", tc.amd_cdna4))


def tc_cases(out):
  def mm(dt, n=64, acc=None): return Tensor.empty(n, n, dtype=dt).matmul(Tensor.empty(n, n, dtype=dt), dtype=acc)
  TCO = lambda select=-1, opt=0, use=1: Opt(OptOps.TC, 0, (select, opt, use))
  for fam, arch, tcs in FAMILIES:
    # every tensor core of the family's table, picked by its index (TC_SELECT)
    for i, t in enumerate(tcs):
      din, dout = INVERSE_DTYPES_DICT[t.dtype_in.name], INVERSE_DTYPES_DICT[t.dtype_out.name]
      acc = None if t.dtype_out == dtypes.float else t.dtype_out
      g.pipe(out, f"tc_{fam}_{i}_{'_'.join(map(str, t.dims))}_{din}_{dout}", mm(t.dtype_in, 128, acc), [TCO(i)], arch=arch)
    g.pipe(out, f"tc_{fam}_half_heuristic", mm(dtypes.half, 256), arch=arch)
  g.pipe(out, "tc_rdna3_half_upcast_local", mm(dtypes.half), [TCO(), Opt(OptOps.UPCAST, 1, 2), Opt(OptOps.LOCAL, 0, 2)])
  g.pipe(out, "tc_rdna3_half_emulated", mm(dtypes.half), [TCO(use=2)])
  g.pipe(out, "tc_rdna3_half_pad", mm(dtypes.half, 60), [TCO(opt=2)])
  g.pipe(out, "tc_cdna3_bf16_heuristic", mm(dtypes.bfloat16, 256), arch="gfx942")


def cdna_cases(out):
  # CDNA renders fp8 <-> float casts with its conversion builtins
  fa, fb = Tensor.empty(64, dtype=dtypes.fp8e4m3), Tensor.empty(64, dtype=dtypes.fp8e5m2)
  g.pipe(out, "pipe_cdna3_fp8", (fa.float() * fb.float() + 1).cast(dtypes.fp8e4m3), arch="gfx942")
  g.pipe(out, "pipe_cdna3_fp8_e5m2", (fa.cast(dtypes.fp8e5m2) + fb), arch="gfx942")
  g.pipe(out, "pipe_cdna3_bf16", (Tensor.empty(16, dtype=dtypes.bfloat16) * 2 + 1).float(), arch="gfx942")
  g.pipe(out, "pipe_gfx90a_softmax", Tensor.empty(8, 32).softmax(-1), arch="gfx90a:sramecc+:xnack-")


def lin_two_shapes(out):
  # two tensor-core shapes in one kernel on CDNA4: the reference's MFMA type map keeps the
  # 16x16x32 shape's suffixes (_f16) for the 16x16x16 one after it
  L = g.Lin()
  t32, t16 = [next(t for t in tc.amd_cdna4 if t.dims == d and t.dtype_in == dtypes.half) for d in ((16, 16, 32), (16, 16, 16))]
  bufs = [L(g.Ops.DEFINE_GLOBAL, d.ptr(64), (), i) for i, d in enumerate((dtypes.float, dtypes.half))]
  zero = L.c(dtypes.int32, 0)
  def vload(buf, vt): return L(g.Ops.LOAD, vt, (L(g.Ops.CAST, vt.ptr(64), (L(g.Ops.INDEX, buf.dtype, (buf, zero)),)),))
  acc = vload(bufs[0], dtypes.float.vec(4))
  for t in (t32, t16):
    na, nb, nc = t.elements_per_thread
    ax = tuple(tuple((10 + j, 2) for j in range(int(math.log2(n)))) for n in t.elements_per_thread)
    a, b = vload(bufs[1], dtypes.half.vec(na)), vload(bufs[1], dtypes.half.vec(nb))
    acc = L(g.Ops.WMMA, dtypes.float.vec(nc), (a, b, acc), (str(t), t.dims, t.dtype_in, t.dtype_out, "AMD", t.threads, ax, ()))
  L(g.Ops.STORE, dtypes.void, (L(g.Ops.CAST, dtypes.float.vec(4).ptr(64), (L(g.Ops.INDEX, bufs[0].dtype, (bufs[0], zero)),)), acc))
  L.render(out, "lin_wmma_cdna4_two_shapes", "wmma2", "gfx950")


def main():
  ap = argparse.ArgumentParser()
  ap.add_argument("--out", required=True)
  args = ap.parse_args()
  os.makedirs(args.out, exist_ok=True)
  for dt in (dtypes.float, dtypes.int32, dtypes.uint32, dtypes.int64, dtypes.double, dtypes.half, dtypes.bfloat16, dtypes.uint8):
    g.lin_alu(args.out, f"lin_alu_{INVERSE_DTYPES_DICT[dt.name]}", dt)
  g.lin_vector(args.out)
  g.lin_control(args.out)
  g.lin_misc(args.out)
  for fam, arch, tcs in FAMILIES:
    for t in tcs:
      dims, din, dout = "_".join(map(str, t.dims)), INVERSE_DTYPES_DICT[t.dtype_in.name], INVERSE_DTYPES_DICT[t.dtype_out.name]
      g.lin_wmma(args.out, f"lin_wmma_{fam}_{dims}_{din}_{dout}", t, arch)
  lin_two_shapes(args.out)
  g.pipeline_cases(args.out)
  cdna_cases(args.out)
  tc_cases(args.out)


if __name__ == "__main__":
  sys.setrecursionlimit(10000)
  main()
