#!/usr/bin/env python3
# File: tools/golden/gen_emulator_golden.py
# Generates the golden files in tinygrad/emulator/testdata/ that
# //tinygrad/emulator:emulator_golden_test replays: kernel ASTs lowered by the reference
# get_program with its PythonRenderer (tinygrad/runtime/ops_python.py: the PYTHON device, whose
# EMULATE setting picks the device name and tensor cores the kernels are made for), and the
# linear program and launch sizes that came out. Same file formats as tools/golden/gen_cuda_golden.py
# (whose writers this reuses) minus the source file: the emulator's "source" is the linear program
# itself, so <case>.uops is what the test compares. <case>.meta's arch line is `EMULATE=<value>`
# (`EMULATE=` for none). <case>.launch: `global a b c` and `local a b c` (or `local None`), each
# size an int or the reference's render of a symbolic one.
#
# Usage (from anywhere; the reference checkout must be importable; no GPU needed):
#   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU python3 \
#     <repo>/tools/golden/gen_emulator_golden.py --out <repo>/tinygrad/emulator/testdata
#
# Cases:
#   py_pipe_*, cuda_pipe_*  gen_cuda_golden.py's pipeline kernels with EMULATE unset (device
#                           PYTHON, no tensor cores) and EMULATE=CUDA (sm_80's tensor cores):
#                           the hand-coded optimizer unless that file lists opts;
#   opts_*                  a reduction and a matmul under given LOCAL/GROUP/GROUPTOP/UPCAST/
#                           UNROLL lists;
#   tc_<target>_<i>_*       a matmul with a TC opt selecting each tensor core of each EMULATE
#                           target's table (tf32 with ALLOW_TF32), plus the heuristic's choice;
#                           a case the reference cannot lower is reported and skipped.
import argparse, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tinygrad import Tensor, dtypes
from tinygrad.dtype import INVERSE_DTYPES_DICT
from tinygrad.helpers import Context
from tinygrad.uop.ops import UOp
from tinygrad.codegen.opt import Opt, OptOps, tc
from tinygrad.runtime.ops_python import PythonRenderer
import gen_cuda_golden as g

ARCH_PREFIX = "EMULATE="


def python_renderer(arch):
  # the reference reads EMULATE when the renderer is built; nothing later reads it
  assert arch.startswith(ARCH_PREFIX), arch
  with Context(EMULATE=arch[len(ARCH_PREFIX):]): return PythonRenderer()


def size_spec(s): return s.render(simplify=False) if isinstance(s, UOp) else str(s)


def write_launch(out, name, p):
  with open(os.path.join(out, f"{name}.launch"), "w") as f:
    f.write(g.header("launch sizes", "ProgramSpec global_size, local_size"))
    f.write("global " + " ".join(size_spec(s) for s in p.global_size) + "\n")
    f.write("local " + ("None" if p.local_size is None else " ".join(size_spec(s) for s in p.local_size)) + "\n")


g.TARGET.update(renderer=python_renderer, name="PythonRenderer", test="//tinygrad/emulator:emulator_golden_test",
                script="gen_emulator_golden.py", ext=None, extra=write_launch)

# (case name part, EMULATE value, the reference's table for it)
TC_TARGETS = (("cuda", "CUDA", tc.cuda_sm80), ("cuda_sm75", "CUDA_SM75", tc.cuda_sm75), ("cuda_sm89", "CUDA_SM89", tc.cuda_sm89),
              ("amd", "AMD", tc.amd_rdna3), ("amd_rdna4", "AMD_RDNA4", tc.amd_rdna4), ("amd_mfma", "AMD_MFMA", tc.amd_cdna4),
              ("metal", "METAL", tc.metal), ("intel", "INTEL", tc.intel), ("amx", "AMX", tc.amx))

U, R, L, G, GT = OptOps.UPCAST, OptOps.UNROLL, OptOps.LOCAL, OptOps.GROUP, OptOps.GROUPTOP


def pipeline_cases(out):
  for prefix, emulate in (("py_", ""), ("cuda_", "CUDA")):
    g.TARGET.update(arch=ARCH_PREFIX + emulate, prefix=prefix)
    g.pipeline_cases(out)
  g.TARGET.update(arch=ARCH_PREFIX + "CUDA", prefix="")


def opts_cases(out):
  s = lambda: Tensor.empty(64, 64).sum(axis=1)
  mm = lambda: Tensor.empty(32, 64) @ Tensor.empty(64, 16)
  for emulate in ("", "CUDA"):
    arch, e = ARCH_PREFIX + emulate, emulate.lower() or "py"
    g.pipe(out, f"opts_{e}_sum_local_unroll", s(), [Opt(L, 0, 16), Opt(R, 0, 4)], arch=arch)
    g.pipe(out, f"opts_{e}_sum_group_upcast", s(), [Opt(G, 0, 16), Opt(U, 0, 4)], arch=arch)
    g.pipe(out, f"opts_{e}_sum_grouptop_local", s(), [Opt(L, 0, 8), Opt(GT, 0, 8), Opt(R, 0, 2)], arch=arch)
    g.pipe(out, f"opts_{e}_matmul_local_group", mm(), [Opt(L, 0, 4), Opt(L, 1, 4), Opt(G, 0, 4), Opt(U, 0, 2), Opt(R, 0, 4)], arch=arch)
    g.pipe(out, f"opts_{e}_matmul_grouptop_upcast", mm(), [Opt(GT, 0, 16), Opt(U, 1, 4), Opt(U, 0, 2)], arch=arch)


def tc_cases(out):
  def mm(dt, n=128, acc=None): return Tensor.empty(n, n, dtype=dt).matmul(Tensor.empty(n, n, dtype=dt), dtype=acc)
  TCO = lambda select=-1, opt=0, use=1: Opt(OptOps.TC, 0, (select, opt, use))
  def attempt(name, *args, **kw):
    try: g.pipe(out, name, *args, **kw)
    except Exception as e: print(f"skipped {name}: the reference can't lower it ({type(e).__name__}: {e})", file=sys.stderr)
  for part, emulate, tcs in TC_TARGETS:
    arch = ARCH_PREFIX + emulate
    for i, t in enumerate(tcs):
      din, dout = INVERSE_DTYPES_DICT[t.dtype_in.name], INVERSE_DTYPES_DICT[t.dtype_out.name]
      acc = None if t.dtype_out == dtypes.float else t.dtype_out
      attempt(f"tc_{part}_{i}_{'_'.join(map(str, t.dims))}_{din}_{dout}", mm(t.dtype_in, acc=acc), [TCO(i)], arch=arch,
              allow_tf32=int(t.dtype_in == dtypes.float))
    attempt(f"tc_{part}_half_heuristic", mm(dtypes.half, 256), arch=arch)
  arch = ARCH_PREFIX + "CUDA"
  attempt("tc_cuda_half_upcast_local", mm(dtypes.half, 64), [TCO(), Opt(U, 1, 2), Opt(L, 0, 2)], arch=arch)
  attempt("tc_cuda_half_unroll", mm(dtypes.half, 64), [TCO(), Opt(R, 0, 2)], arch=arch)
  attempt("tc_cuda_half_pad", mm(dtypes.half, 60), [TCO(opt=2)], arch=arch)
  attempt("tc_cuda_float_no_tf32", mm(dtypes.float, 64), arch=arch)


def main():
  ap = argparse.ArgumentParser()
  ap.add_argument("--out", required=True)
  args = ap.parse_args()
  os.makedirs(args.out, exist_ok=True)
  pipeline_cases(args.out)
  opts_cases(args.out)
  tc_cases(args.out)


if __name__ == "__main__":
  sys.setrecursionlimit(10000)
  main()
