#!/usr/bin/env python3
# File: tools/golden/gen_codegen_stages.py
# Generates tinygrad/codegen/testdata/pipeline_stages.txt, which
# //tinygrad/codegen:pipeline_stages_test replays: the kernel graph after every graph_rewrite of
# the reference's full_rewrite_to_sink, for a few kernels of gen_codegen_pipeline.py, so that a
# difference in the final program is pinned to the pass that made it.
#
# Usage (from anywhere; the reference checkout must be importable, and this script imports
# gen_codegen_pipeline.py from its own directory):
#   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU NOOPT=1 python3 \
#     <repo>/tools/golden/gen_codegen_stages.py > <repo>/tinygrad/codegen/testdata/pipeline_stages.txt
#
# Format: '#' lines are comments. For each kernel
#   kernel <renderer> <case> <kernel index>     (the AST is that of pipeline_noopt.txt)
#   stage <pass name>
#   <index> | <Ops.X> | <dtype repr> | <srcs or -> | <arg repr (SINK: -)>[ | tag=<tag repr>]
#   ...
#   end
# Pass names are full_rewrite_to_sink's graph_rewrite names, and "apply_opts".
import itertools, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_codegen_pipeline import CASES, CpuTest, GpuTest, ClangTest, _opt_cases, optimize  # noqa: E402
from tinygrad.uop.ops import Ops, graph_rewrite, pm_lower_index_dtype, KernelInfo  # noqa: E402
from tinygrad.uop.symbolic import sym, symbolic, symbolic_simple, gep_pushing, pm_move_where_on_load  # noqa: E402
from tinygrad.uop.decompositions import get_late_rewrite_patterns  # noqa: E402
from tinygrad.codegen import pm_syntactic_sugar  # noqa: E402
from tinygrad.codegen.simplify import pm_load_collapse, pm_split_ranges, pm_flatten_range, pm_simplify_ranges, pm_split_store  # noqa: E402
from tinygrad.codegen.late.expander import expander, pm_pre_expander, pm_group_for_reduce  # noqa: E402
from tinygrad.codegen.late.devectorizer import load_store_folding, load_store_indexing, devectorize, pm_reduce, ReduceContext, \
  correct_load_store, pm_render, pm_add_loads  # noqa: E402
from tinygrad.codegen.late.linearizer import CFGContext, pm_split_ends, pm_add_control_flow  # noqa: E402
from tinygrad.codegen.gpudims import pm_add_gpudims  # noqa: E402
from tinygrad.codegen.opt.postrange import apply_opts, Scheduler  # noqa: E402
from tinygrad.schedule.rangeify import pm_add_buffers_local, rangeify_codegen, pm_mops  # noqa: E402

def dump(name, sink):
  print(f"stage {name}")
  topo = list(sink.toposort())
  idx = {u: j for j, u in enumerate(topo)}
  for j, u in enumerate(topo):
    srcs = ",".join(str(idx[s]) for s in u.src) if u.src else "-"
    arg = "-" if u.op is Ops.SINK else repr(u.arg)
    print(f"{j} | {u.op} | {u.dtype!r} | {srcs} | {arg}" + (f" | tag={u.tag!r}" if u.tag is not None else ""))

# full_rewrite_to_sink (codegen/__init__.py) with every graph_rewrite dumped; DEVECTORIZE=1,
# TRANSCENDENTAL=1, no pre/extra matcher, as the test renderers.
def traced(sink, ren):
  if sink.arg is None: sink = sink.replace(arg=KernelInfo())
  optimize = sink.tag is None
  sink = graph_rewrite(sink, pm_mops+pm_syntactic_sugar, name="early movement ops", bottom_up=True); dump("early movement ops", sink)
  if optimize:
    sink = graph_rewrite(sink, pm_load_collapse, name="load collapse"); dump("load collapse", sink)
    sink = graph_rewrite(sink, pm_split_ranges+pm_flatten_range, ctx={}, name="split ranges"); dump("split ranges", sink)
    sink = graph_rewrite(sink, sym+pm_flatten_range, name="initial symbolic"); dump("initial symbolic", sink)
    sink = graph_rewrite(sink, pm_simplify_ranges, name="simplify ranges"); dump("simplify ranges", sink)
    sink = graph_rewrite(sink, pm_split_store, ctx=ren.device, name="cut store ranges"); dump("cut store ranges", sink)
    sink = apply_opts(sink, ren); dump("apply_opts", sink)
  sink = graph_rewrite(sink, sym+pm_move_where_on_load, name="postopt symbolic"); dump("postopt symbolic", sink)
  sink = graph_rewrite(sink, sym+pm_pre_expander+pm_group_for_reduce+expander, name="expander"); dump("expander", sink)
  sink = graph_rewrite(sink, pm_add_buffers_local+rangeify_codegen, ctx=itertools.count(0), name="add local buffers"); dump("add local buffers", sink)
  sink = graph_rewrite(sink, pm_reduce+gep_pushing, ctx=ReduceContext(), name="remove_reduce"); dump("remove_reduce", sink)
  sink = graph_rewrite(sink, pm_add_gpudims, ctx=ren, name="add gpudims"); dump("add gpudims", sink)
  sink = graph_rewrite(sink, pm_add_loads, name="** add loads (code)"); dump("** add loads (code)", sink)
  sink = graph_rewrite(sink, sym+devectorize+load_store_folding+correct_load_store+load_store_indexing, ctx=ren, name="devectorize")
  dump("devectorize", sink)
  sink = graph_rewrite(sink, pm_lower_index_dtype+load_store_indexing, ctx=ren.device, name="lower all index dtypes")
  dump("lower all index dtypes", sink)
  sink = graph_rewrite(sink, symbolic, name="post index symbolic"); dump("post index symbolic", sink)
  pm_decomp = symbolic_simple+get_late_rewrite_patterns(tuple(ren.code_for_op.keys()), False)
  sink = graph_rewrite(sink, pm_decomp, ctx=ren.device, name="decompositions"); dump("decompositions", sink)
  sink = graph_rewrite(sink, pm_decomp+pm_render+pm_split_ends, ctx=ren.device, name="final rewrite"); dump("final rewrite", sink)
  sink = graph_rewrite(sink, pm_add_control_flow, ctx=CFGContext(sink), name="add control flow", bottom_up=True)
  dump("add control flow", sink)

# (renderer, case, kernel index): NOOPT kernels run the optimize passes, opt_* ones skip them
KERNELS = [("cpu", "e_pad_add", 0), ("cpu", "h_pad1d", 0), ("clang", "c_softmax", 2), ("gpu", "r_symbolic", 0),
           ("cpu", "l_gather", 0), ("cpu", "opt_cpu_hco_conv", 0), ("gpu", "opt_gpu_grouptop_sum", 0),
           ("cpu", "opt_cpu_thread_sum", 0)]

def main():
  print("# Generated by tools/golden/gen_codegen_stages.py (reference tinygrad 35900290, NOOPT=1); do not edit.")
  rens = {"cpu": CpuTest(), "gpu": GpuTest(), "clang": ClangTest()}
  asts = {}
  for case, fn in CASES:
    for i, ei in enumerate(fn().schedule_with_vars()[0]): asts[(case, i)] = ei.ast
  for rname, case, fn, opts in _opt_cases():
    Scheduler.kernel_cnt.clear()
    for i, ei in enumerate(fn().schedule_with_vars()[0]): asts[(f"opt_{rname}_{case}", i)] = optimize(ei.ast, rens[rname], opts)
  for rname, case, i in KERNELS:
    Scheduler.kernel_cnt.clear()
    print(f"kernel {rname} {case} {i}")
    traced(asts[(case, i)], rens[rname])
    print("end")

if __name__ == "__main__":
  sys.setrecursionlimit(10000)
  main()
