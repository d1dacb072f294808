#!/usr/bin/env python3
# Times Python tinygrad's per-candidate CPU cost on the GPU search's tensor-core candidates, the
# reference side of //autotune/measure:tc_lower_benchmark (lowering) and
# //tinygrad/runtime/cuda:compile_benchmark (NVRTC): get_program (opts applied, full rewrite,
# CUDA render) for a 4096 half matmul with CUDARenderer('sm_90') and each candidate's opts, and,
# where NVRTC loads, its CUDACompiler (PTX, as tinygrad's CUDA device) and NVCompiler (CUBIN) on
# the rendered source. No GPU needed. CPU time of this process, best of --reps after a first call.
# Run from outside the tinygrad checkout:
#   PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU python3 tools/bench/tinygrad_tc_lower.py \
#     [--reps 3] [--no-compile] [--dump DIR]
# --dump writes each rendered source to DIR/<candidate>.cu (ours: tc_lower_benchmark --dump).
import argparse, os, resource
from tinygrad import Tensor, dtypes
from tinygrad.codegen import get_program
from tinygrad.codegen.opt import Opt, OptOps
from tinygrad.renderer.cstyle import CUDARenderer

U, R, L, TC = OptOps.UPCAST, OptOps.UNROLL, OptOps.LOCAL, OptOps.TC
TC0 = Opt(TC, 0, (-1, 0, 1))
# The same candidates, in the same order, as tc_lower_benchmark.cc.
CANDIDATES = {
  "tc": [TC0],
  "tc_u0": [TC0, Opt(U, 0, 4)],
  "tc_u1u0": [TC0, Opt(U, 1, 4), Opt(U, 0, 4)],
  "heuristic": [TC0, Opt(U, 0, 4), Opt(U, 1, 4), Opt(L, 1, 4)],
  "tc_u1u0_l0l1": [TC0, Opt(U, 1, 4), Opt(U, 0, 4), Opt(L, 0, 4), Opt(L, 1, 2)],
  "tc_u1u0_r0": [TC0, Opt(U, 1, 4), Opt(U, 0, 4), Opt(R, 0, 4)],
  "winner": [TC0, Opt(U, 1, 4), Opt(U, 0, 4), Opt(U, 1, 2), Opt(R, 0, 4), Opt(L, 0, 4), Opt(L, 1, 2)],
}

def cpu_s():
  r = resource.getrusage(resource.RUSAGE_SELF)
  return r.ru_utime + r.ru_stime

def best_of(reps, fn):
  fn()
  best = float("inf")
  for _ in range(reps):
    t = cpu_s()
    fn()
    best = min(best, cpu_s() - t)
  return best

def main():
  ap = argparse.ArgumentParser()
  ap.add_argument("--n", type=int, default=4096)
  ap.add_argument("--reps", type=int, default=3)
  ap.add_argument("--no-compile", action="store_true")
  ap.add_argument("--dump")
  args = ap.parse_args()
  a, b = Tensor.empty(args.n, args.n, dtype=dtypes.half), Tensor.empty(args.n, args.n, dtype=dtypes.half)
  ast = (a @ b).schedule_with_vars()[0][-1].ast
  ren = CUDARenderer("sm_90")
  compilers = []
  if not args.no_compile:
    try:
      from tinygrad.runtime.support.compiler_cuda import CUDACompiler, NVCompiler
      compilers = [("CUDACompiler (PTX)", CUDACompiler("sm_90")), ("NVCompiler (CUBIN)", NVCompiler("sm_90"))]
    except Exception as e:  # no NVRTC: lowering only
      print(f"no NVRTC ({e}): lowering only")
  for name, opts in CANDIDATES.items():
    p = get_program(ast, ren, opts)
    line = f"{name:14s} get_program {best_of(args.reps, lambda: get_program(ast, ren, opts)) * 1e3:7.1f} ms  uops {len(p.uops):5d}"
    for cname, c in compilers:
      line += f"  {cname} {best_of(args.reps, lambda: c.compile(p.src)) * 1e3:7.1f} ms"
    print(line, flush=True)
    if args.dump:
      with open(os.path.join(args.dump, f"{name}.cu"), "w") as f: f.write(p.src)

if __name__ == "__main__":
  main()
