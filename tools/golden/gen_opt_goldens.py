#!/usr/bin/env python3
# File: tools/golden/gen_opt_goldens.py
# Generates tinygrad/codegen/opt/testdata/opt_goldens.txt, which //tinygrad/codegen/opt:
# scheduler_golden_test and apply_opts_golden_test replay: the reference's Scheduler
# (tinygrad/codegen/opt/postrange.py) applying opt sequences to kernel ASTs, on ClangRenderer
# (CPU_COUNT=8, THREADS=1), CUDARenderer("sm_89") and AMDHIPRenderer (RDNA3, CDNA3), all
# instantiable without a GPU.
#
# Usage (from anywhere; the reference checkout must be importable, and this script imports
# gen_codegen_pipeline.py from its own directory):
#   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU CPU_COUNT=8 THREADS=1 python3 \
#     <repo>/tools/golden/gen_opt_goldens.py > <repo>/tinygrad/codegen/opt/testdata/opt_goldens.txt
#
# Format ('#' lines are comments; ASTs use gen_codegen_pipeline.py's "ast" line format):
#   sched <renderer clang|cuda|amd_rdna3|amd_cdna3> <case> <kernel index> <sequence name>
#     ast ... end          the AST apply_opts receives (after the pre-opt range passes)
#     opt <op> <axis|None> <arg|None|a,b,c> ok <shape_str,...> <full_shape,...>
#     opt <op> <axis|None> <arg|None|a,b,c> error <message>   (later opts are not applied)
#     name <function_name>   (of get_optimized_ast, kernel counts reset per sequence)
#     <index> | <Ops.X> | <dtype repr> | <srcs or -> | <arg repr (SINK: -)>[ | tag=<tag repr>]
#     end                  (the optimized AST, as gen_codegen_stages.py dumps it)
#   replay <renderer cpu|gpu|clang> <case> <kernel index>
#     ast ... end          the unoptimized kernel AST of gen_codegen_pipeline.py's opt_<r>_<case>
#     opts <op> <axis> <arg>; ...   (the opts the reference applied to it)
#     end
#   tcprog <case> <kernel index>   (gen_codegen_pipeline.py's GpuTest + cuda_sm89 tensor cores:
#                                   get_program with opts_to_apply)
#     ast ... end
#     opts ...
#     name <function_name>
#     global <g0> <g1> <g2>
#     local <l0> <l1> <l2>
#     estimates <ops> <lds> <mem>
#     <index> | <Ops.X> | <dtype repr> | <srcs or -> | <arg repr (SINK: -)>
#     end
#   csrc <case> <kernel index>     (ClangRenderer: get_program with opts_to_apply)
#     ast ... end
#     opts ...
#     <C source lines, each prefixed by "| ">
#     end
# Messages escape ANSI ESC as \e and newlines as \n.
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_codegen_pipeline import _opt_cases, optimize, write_ast  # noqa: E402
from tinygrad import Tensor, dtypes  # noqa: E402
from tinygrad.uop.ops import Ops, graph_rewrite, KernelInfo  # noqa: E402
from tinygrad.uop.symbolic import sym  # noqa: E402
from tinygrad.codegen import pm_syntactic_sugar, get_program  # noqa: E402
from tinygrad.codegen.simplify import pm_load_collapse, pm_split_ranges, pm_flatten_range, pm_simplify_ranges, pm_split_store  # noqa: E402
from tinygrad.codegen.opt import Opt, OptOps, KernelOptError  # noqa: E402
from tinygrad.codegen.opt.postrange import Scheduler  # noqa: E402
from tinygrad.schedule.rangeify import pm_mops  # noqa: E402
from tinygrad.renderer.cstyle import ClangRenderer, CUDARenderer, AMDHIPRenderer  # noqa: E402

def esc(s): return s.replace("\\", "\\\\").replace("\x1b", "\\e").replace("\n", "\\n")

def pre_opt(ast, ren):
  sink = ast if ast.arg is not None else ast.replace(arg=KernelInfo())
  sink = graph_rewrite(sink, pm_mops+pm_syntactic_sugar, name="early movement ops", bottom_up=True)
  sink = graph_rewrite(sink, pm_load_collapse, name="load collapse")
  sink = graph_rewrite(sink, pm_split_ranges+pm_flatten_range, ctx={}, name="split ranges")
  sink = graph_rewrite(sink, sym+pm_flatten_range, name="initial symbolic")
  sink = graph_rewrite(sink, pm_simplify_ranges, name="simplify ranges")
  return graph_rewrite(sink, pm_split_store, ctx=ren.device, name="cut store ranges")

def ospec(o):
  arg = "None" if o.arg is None else ",".join(map(str, o.arg)) if isinstance(o.arg, tuple) else str(o.arg)
  return f"{o.op.name} {o.axis} {arg}"

def dump(sink):
  topo = list(sink.toposort())
  idx = {u: j for j, u in enumerate(topo)}
  for j, u in enumerate(topo):
    srcs = ",".join(str(idx[s]) for s in u.src) if u.src else "-"
    arg = "-" if u.op is Ops.SINK else repr(u.arg)
    print(f"{j} | {u.op} | {u.dtype!r} | {srcs} | {arg}" + (f" | tag={u.tag!r}" if u.tag is not None else ""))

O = Opt
U, R, L, G, GT, T, P, S, N, TC = (OptOps.UPCAST, OptOps.UNROLL, OptOps.LOCAL, OptOps.GROUP, OptOps.GROUPTOP, OptOps.THREAD,
                                  OptOps.PADTO, OptOps.SWAP, OptOps.NOLOCALS, OptOps.TC)
mm = lambda: Tensor.empty(16,32) @ Tensor.empty(32,8)
mm_odd = lambda: Tensor.empty(17,32) @ Tensor.empty(32,8)
mm_half = lambda: (Tensor.empty(64,64, dtype=dtypes.half) @ Tensor.empty(64,64, dtype=dtypes.half))
mm_half_odd = lambda: (Tensor.empty(60,64, dtype=dtypes.half) @ Tensor.empty(64,60, dtype=dtypes.half))
rowsum = lambda: Tensor.empty(64,32).sum(axis=1)
bigrow = lambda: Tensor.empty(4,16384).sum(axis=1)
fullsum = lambda: Tensor.empty(64,64).sum()
ew = lambda: Tensor.empty(64,64) + Tensor.empty(64,64)
conv = lambda: Tensor.empty(1,4,10,10).conv2d(Tensor.empty(8,4,3,3))
softmax = lambda: Tensor.empty(8,32).softmax(-1)
mm_rowsum = lambda: (Tensor.empty(8,8) @ Tensor.empty(8,8)).sum(1)  # one kernel, a REDUCE inside a REDUCE

# (renderer, case, program, kernel index or None for all, {sequence name: opts}); renderers:
# clang, cuda (CUDARenderer("sm_89")), amd_rdna3 / amd_cdna3 (AMDHIPRenderer("gfx1100"/"gfx942")).
SCHED = [
  ("clang", "matmul", mm, None, {
    "upcast_unroll": [O(U, 0, 4), O(U, 1, 4), O(R, 0, 4)],
    "whole_axes": [O(U, 1, 0), O(R, 0, 0)],
    "thread": [O(T, 0, 4), O(U, 1, 2)],
    "too_big_upcast": [O(U, 0, 32)],
    "not_divisible": [O(U, 0, 3)],
    "local_on_cpu": [O(L, 0, 4)],
    "group_on_cpu": [O(G, 0, 4)],
    "tc_no_tensor_cores": [O(TC, 0, (-1, 0, 1))],
    "too_many_threads": [O(T, 0, 16)],
    "thread_twice": [O(T, 0, 2), O(T, 1, 2)],
    "upcast_reduce": [O(U, 2, 4)],
    "unroll_bad_axis": [O(R, 1, 2)],
    "bad_axis": [O(U, 7, 2)],
    "swap_not_global": [O(S, 0, 1)],
    "unroll_loop_axis_upcast_again": [O(U, 0, 4), O(U, 0, 4)],
    "nolocals": [O(N), O(U, 0, 2)],
    "padto": [O(P, 1, 16), O(U, 1, 4)],
  }),
  ("clang", "matmul_odd", mm_odd, None, {
    "padto": [O(P, 0, 32), O(U, 0, 4)],
    "padto_quadruple": [O(P, 0, 128)],
    "padto_upcasted": [O(U, 1, 8), O(P, 2, 16)],
  }),
  ("clang", "rowsum", rowsum, None, {
    "upcast_unroll": [O(U, 0, 4), O(R, 0, 8)],
    "unroll_too_much": [O(R, 0, 0)],
  }),
  ("clang", "elementwise", ew, None, {"upcast2": [O(U, 0, 4), O(U, 1, 4), O(T, 0, 8)]}),
  ("clang", "conv", conv, None, {"upcast_unroll": [O(U, 0, 2), O(U, 2, 8), O(R, 0, 4)]}),
  ("clang", "softmax", softmax, None, {
    "upcast": [O(U, 0, 8)],
    "pad_max": [O(P, 1, 64)],
  }),
  ("cuda", "matmul", mm, None, {
    "local_group_upcast": [O(L, 0, 4), O(G, 0, 8), O(U, 1, 2)],
    "grouptop": [O(GT, 0, 16)],
    "swap": [O(S, 0, 1), O(U, 0, 2)],
    "tc_float_no_tf32": [O(TC, 0, (-1, 0, 1))],
    "nolocals_then_local": [O(N), O(L, 0, 4)],
    "local_then_nolocals": [O(L, 0, 4), O(N)],
    "thread_on_gpu": [O(T, 0, 2)],
    "tc_bad_select": [O(TC, 0, (99, 0, 1))],
    "tc_bad_opt": [O(TC, 0, (-1, 3, 1))],
    "tc_bad_use": [O(TC, 0, (-1, 0, 0))],
    "tc_not_first": [O(U, 0, 2), O(TC, 0, (-1, 0, 1))],
    "group_after_local": [O(L, 1, 8), O(GT, 0, 4)],
  }),
  ("cuda", "matmul_half", mm_half, None, {
    "tc": [O(TC, 0, (-1, 0, 1)), O(U, 1, 2), O(L, 0, 2)],
    "tc_select0": [O(TC, 0, (0, 0, 1))],
    "tc_emulated": [O(TC, 0, (-1, 0, 2))],
    "tc_then_group": [O(TC, 0, (-1, 0, 1)), O(G, 0, 2)],
  }),
  ("cuda", "matmul_half_odd", mm_half_odd, None, {
    "tc_no_pad": [O(TC, 0, (-1, 0, 1))],
    "tc_pad": [O(TC, 0, (-1, 2, 1))],
  }),
  ("cuda", "rowsum", rowsum, None, {
    "grouptop_upcast": [O(GT, 0, 16), O(U, 0, 4)],
    "local_unroll": [O(L, 0, 32), O(R, 0, 4)],
  }),
  ("cuda", "bigrow", bigrow, None, {"group_smem": [O(G, 0, 0)]}),
  ("cuda", "fullsum", fullsum, None, {"grouptop": [O(GT, 0, 256)]}),
  ("cuda", "elementwise", ew, None, {
    "group_no_reduce": [O(G, 0, 4)],
    "local_upcast": [O(L, 0, 16), O(U, 1, 4), O(L, 1, 4)],
  }),
  ("cuda", "conv", conv, None, {"local_upcast_unroll": [O(L, 2, 8), O(U, 0, 2), O(R, 1, 3)]}),
  ("cuda", "softmax", softmax, None, {"grouptop": [O(GT, 0, 16)]}),
  ("cuda", "matmul_rowsum", mm_rowsum, None, {
    "group_inner": [O(G, 0, 2)],
    "group_outer": [O(G, 1, 2), O(U, 0, 2)],
  }),
  ("amd_rdna3", "matmul_half", mm_half, None, {
    "tc": [O(TC, 0, (-1, 0, 1)), O(U, 1, 2)],
    "tc_select2": [O(TC, 0, (2, 0, 1))],
  }),
  ("amd_rdna3", "bigrow", bigrow, None, {"group_smem": [O(G, 0, 0)]}),
  ("amd_cdna3", "matmul_half", mm_half, None, {"tc": [O(TC, 0, (-1, 0, 1)), O(L, 0, 2)]}),
]

TCPROG = [
  ("matmul_half_tc", mm_half, [O(TC, 0, (-1, 0, 1))]),
  ("matmul_half_tc_upcast_local", mm_half, [O(TC, 0, (-1, 0, 1)), O(U, 1, 2), O(L, 0, 2)]),
  ("matmul_half_odd_tc_pad", mm_half_odd, [O(TC, 0, (-1, 2, 1))]),
]

CSRC = [
  ("matmul_upcast_unroll", lambda: Tensor.empty(16,32) @ Tensor.empty(32,8), [O(U, 0, 4), O(U, 1, 4), O(R, 0, 4)]),
  ("rowsum_upcast_unroll", rowsum, [O(U, 0, 4), O(R, 0, 4)]),
]

def run_sched(rname, ren, case, ast, i, seqname, opts):
  Scheduler.kernel_cnt.clear()
  sink = pre_opt(ast, ren)
  print(f"sched {rname} {case} {i} {seqname}")
  write_ast("pre", 0, sink)
  k = Scheduler(sink, ren)
  k.convert_loop_to_global()
  for o in opts:
    try:
      k.apply_opt(o)
    except KernelOptError as e:
      print(f"opt {ospec(o)} error {esc(str(e))}")
      break
    print(f"opt {ospec(o)} ok {','.join(k.shape_str())} {','.join(x.render() if hasattr(x, 'render') else str(x) for x in k.full_shape)}")
  out = k.get_optimized_ast()
  print(f"name {out.arg.function_name}")
  dump(out)
  print("end")

def main():
  print("# Generated by tools/golden/gen_opt_goldens.py (reference tinygrad 35900290, CPU_COUNT=8 THREADS=1); do not edit.")
  rens = {"clang": ClangRenderer(), "cuda": CUDARenderer("sm_89"), "amd_rdna3": AMDHIPRenderer("gfx1100"),
          "amd_cdna3": AMDHIPRenderer("gfx942")}
  assert rens["clang"].global_max[0] == 8 and rens["clang"].has_threads
  for rname, case, fn, only, seqs in SCHED:
    asts = [ei.ast for ei in fn().schedule_with_vars()[0]]
    for i, ast in enumerate(asts):
      if only is not None and i != only: continue
      for seqname, opts in seqs.items(): run_sched(rname, rens[rname], case, ast, i, seqname, opts)
  # replays of gen_codegen_pipeline.py's optimized kernels
  from gen_codegen_pipeline import CpuTest, GpuTest, ClangTest
  byname = {"cpu": CpuTest(), "gpu": GpuTest(), "clang": ClangTest()}
  for rname, case, fn, opts in _opt_cases():
    Scheduler.kernel_cnt.clear()
    for i, ei in enumerate(fn().schedule_with_vars()[0]):
      oast = optimize(ei.ast, byname[rname], opts)
      print(f"replay {rname} {case} {i}")
      write_ast("raw", i, ei.ast)
      print("opts " + "; ".join(ospec(o) for o in oast.arg.applied_opts))
      print("end")
  # lowered tensor-core kernels
  from tinygrad.codegen.opt import tc
  class GpuTC(GpuTest): tensor_cores = tc.cuda_sm89
  for case, fn, opts in TCPROG:
    Scheduler.kernel_cnt.clear()
    for i, ei in enumerate(fn().schedule_with_vars()[0]):
      print(f"tcprog {case} {i}")
      write_ast("raw", i, ei.ast)
      print("opts " + "; ".join(ospec(o) for o in opts))
      p = get_program(ei.ast.replace(arg=KernelInfo(opts_to_apply=tuple(opts))), GpuTC())
      print(f"name {p.function_name}")
      print("global " + " ".join(map(str, p.global_size)))
      print("local " + " ".join(map(str, p.local_size)))
      print(f"estimates {p.estimates.ops} {p.estimates.lds} {p.estimates.mem}")
      idx = {u: j for j, u in enumerate(p.uops)}
      for j, u in enumerate(p.uops):
        srcs = ",".join(str(idx[s]) for s in u.src) if u.src else "-"
        arg = "-" if u.op is Ops.SINK else repr(u.arg)
        print(f"{j} | {u.op} | {u.dtype!r} | {srcs} | {arg}")
      print("end")
  # C source of UPCAST/UNROLL kernels on the real ClangRenderer
  for case, fn, opts in CSRC:
    Scheduler.kernel_cnt.clear()
    for i, ei in enumerate(fn().schedule_with_vars()[0]):
      print(f"csrc {case} {i}")
      write_ast("raw", i, ei.ast)
      print("opts " + "; ".join(ospec(o) for o in opts))
      p = get_program(ei.ast.replace(arg=KernelInfo(opts_to_apply=tuple(opts))), rens["clang"])
      for line in p.src.splitlines(): print("| " + line)
      print("end")

if __name__ == "__main__":
  sys.setrecursionlimit(10000)
  main()
