#!/usr/bin/env python3
# Tunes the benchmark kernels with Python tinygrad's BEAM, for the side-by-side columns of
# README's Performance table (our side: `tools/bench/tune_bench.sh`). Run from outside the
# tinygrad checkout, on a quiet machine:
#   PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU IGNORE_BEAM_CACHE=1 CACHELEVEL=0 \
#     python3 tools/bench/tinygrad_beam.py [--beam 2,4] [case ...]
# The kernels run on tinygrad's default device (DEV=CUDA for the GPU check's cases).
# Prints one JSON object per kernel and setting: case, kernel index, name, flops, bytes, the
# kernel time (min of 10 runs at full size) under NOOPT, the hand-coded opts and each BEAM
# width, the BEAM search wall time, and how many candidates BEAM timed.
import argparse, json, math, sys, time
from tinygrad import Tensor, Device, dtypes
from tinygrad.codegen import get_program
from tinygrad.codegen.opt import search
from tinygrad.codegen.opt.heuristic import hand_coded_optimizations
from tinygrad.codegen.opt.postrange import Scheduler, bufs_from_ast
from tinygrad.engine.realize import CompiledRunner
from tinygrad.helpers import Context
from tinygrad.uop.ops import Ops, sym_infer

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import tinygrad_workloads  # noqa: E402  (the `tg run` workloads)

def half_matmul(n):
  a, b = Tensor.rand(n, n, dtype=dtypes.half), Tensor.rand(n, n, dtype=dtypes.half)
  return [a, b], [a @ b]

def conv2d_56():
  x, w = Tensor.rand(1, 32, 56, 56), Tensor.rand(64, 32, 3, 3)
  return [x, w], [x.conv2d(w, padding=1)]

CASES = {
  "matmul256": lambda: tinygrad_workloads.matmul(256, 256, 256),
  "matmul512": lambda: tinygrad_workloads.matmul(512, 512, 512),
  "matmul1024": lambda: tinygrad_workloads.matmul(1024, 1024, 1024),
  # tools/gpu_check's matmuls (fp16 takes the tensor cores)
  "matmul4096": lambda: tinygrad_workloads.matmul(4096, 4096, 4096),
  "matmul4096_half": lambda: half_matmul(4096),
  "sum4M": lambda: (lambda x: ([x], [x.sum()]))(Tensor.rand(4 * 1024 * 1024)),
  "rowsum4096x1024": lambda: (lambda x: ([x], [x.sum(1)]))(Tensor.rand(4096, 1024)),
  "softmax4096x1024": lambda: (lambda x: ([x], [x.softmax(-1)]))(Tensor.rand(4096, 1024)),
  "conv2d_1x32x56x56_64x3x3": conv2d_56,
}
CASES.update({f"workload_{k}": v for k, v in tinygrad_workloads.WORKLOADS.items()})

def kernel_time(ast, ren, opts, rawbufs, var_vals):
  """Min of 10 timed runs (after one warm-up) of `ast` with `opts` applied (None: the heuristic)."""
  k = Scheduler(ast, ren)
  k.convert_loop_to_global()
  if opts is None: k = hand_coded_optimizations(k)
  else:
    for o in opts: k.apply_opt(o)
  p = get_program(k.get_optimized_ast(), ren)
  runner = CompiledRunner(p)
  bufs = [rawbufs[i] for i in runner.p.globals]
  runner(bufs, var_vals, wait=True)
  tm = min(runner(bufs, var_vals, wait=True) for _ in range(10))
  return tm, p, list(k.applied_opts)

def tune(case, widths):
  inputs, outputs = CASES[case]()
  Tensor.realize(*inputs)
  sched, var_vals = Tensor.schedule_with_vars(*outputs)
  dev = Device[Device.DEFAULT]
  ren = dev.renderer
  kernels = [ei for ei in sched if ei.ast.op is Ops.SINK]
  for idx, ei in enumerate(kernels):
    rawbufs = [b.ensure_allocated() for b in bufs_from_ast(ei.ast, ren.device)]
    noopt_tm, p, _ = kernel_time(ei.ast, ren, [], rawbufs, var_vals)
    heur_tm, _, heur_opts = kernel_time(ei.ast, ren, None, rawbufs, var_vals)
    flops, mem = sym_infer(p.estimates.ops, var_vals), sym_infer(p.estimates.mem, var_vals)
    row = {"case": case, "kernel": idx, "name": p.function_name, "flops": flops, "bytes": mem,
           "noopt_s": noopt_tm, "heuristic_s": heur_tm, "heuristic_opts": [str(o) for o in heur_opts]}
    for w in widths:
      timed = [0]
      inner = search._time_program
      def counting(*a, **kw):
        timed[0] += 1
        return inner(*a, **kw)
      search._time_program = counting
      k = Scheduler(ei.ast, ren)
      k.convert_loop_to_global()
      st = time.perf_counter()
      with Context(IGNORE_BEAM_CACHE=1):
        best = search.beam_search(k, rawbufs, w, disable_cache=True)
      search_s = time.perf_counter() - st
      search._time_program = inner
      tm, _, opts = kernel_time(ei.ast, ren, best.applied_opts, rawbufs, var_vals)
      row[f"beam{w}_s"], row[f"beam{w}_search_s"], row[f"beam{w}_timed"] = tm, search_s, timed[0]
      row[f"beam{w}_opts"] = [str(o) for o in opts]
    print(json.dumps(row), flush=True)

if __name__ == "__main__":
  ap = argparse.ArgumentParser()
  ap.add_argument("--beam", default="2,4", help="comma-separated BEAM widths")
  ap.add_argument("cases", nargs="*", help=f"of: {' '.join(CASES)}")
  args = ap.parse_args()
  widths = [int(w) for w in args.beam.split(",") if w]
  for c in args.cases or list(CASES): tune(c, widths)
