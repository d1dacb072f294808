#!/usr/bin/env python3
# File: tools/golden/gen_codegen_pipeline.py
# Generates tinygrad/codegen/testdata/pipeline_noopt.txt, which
# //tinygrad/codegen:pipeline_golden_test replays: for each kernel AST of the design note's
# section 4.5 (a)-(g), the linear program the reference get_program produces with NOOPT=1.
#
# Usage (from anywhere; the reference checkout must be importable):
#   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU NOOPT=1 python3 \
#     <repo>/tools/golden/gen_codegen_pipeline.py > <repo>/tinygrad/codegen/testdata/pipeline_noopt.txt
#
# The kernel ASTs come from scheduling small Tensor programs. Each is written out (an "ast"
# block, same line format as the programs below but with dtype specs as in
# gen_clang_golden.py: "float ptr:64:GLOBAL", and arg Invalid for the invalid index) and as a
# pyrender comment; the C++ test builds (a)-(g) by hand too and checks they are the same graphs.
# Each is lowered with three test renderers that
# render nothing (only the linear program is compared):
#   cpu      device "CPU", no locals, threads, global_max (8, 0, 0) (ClangRenderer, CPU_COUNT=8)
#   gpu      device "GPU" (not CPU: no store-range cut), locals, launch limits
#   clang    as cpu, with ClangRenderer's code_for_op (decompositions: shifts, fast idiv, ...)
# cpu and gpu render EXP2/LOG2/SIN/SQRT/RECIPROCAL natively and nothing else, so the late
# decompositions leave those programs alone.
#
# Output format: '#' lines are comments. Each renderer is described once by
#   renderer <name> <device> <has_local 0|1> <global_max a,b,c|none> <local_max a,b,c|none> <code_for_op OP,OP,...>
# and a kernel is
#   kernel <renderer> <case> <kernel index>
#   name <function_name>
#   global <g0> <g1> <g2>   (a symbolic size as its render())
#   local <l0> <l1> <l2> | local none
#   estimates <ops> <lds> <mem>            (Estimates, render() when symbolic)
#   buffers <globals> <outs> <ins> <vars>  (comma-separated slots / variable names, - if none)
#   <index> | <Ops.X> | <dtype repr> | <src indices, comma-separated, or -> | <arg repr (SINK: -)>
# (an optimized AST's SINK line has a sixth field, tag=1).
# Config variants of a renderer (its kernels are lowered under those settings) are declared by
#   variant <name> <base renderer> <setting>=<value> ...   (devectorize, transcendental)
#   end
import sys
from tinygrad import Tensor, dtypes, Variable
from tinygrad.dtype import PtrDType, INVERSE_DTYPES_DICT, Invalid
from tinygrad.uop.ops import AxisType, KernelInfo, UOp
from tinygrad.uop.ops import Ops, pyrender
from tinygrad.renderer import Renderer
from tinygrad.renderer.cstyle import ClangRenderer
from tinygrad.codegen import get_program

UNARY = {Ops.EXP2: None, Ops.LOG2: None, Ops.SIN: None, Ops.SQRT: None, Ops.RECIPROCAL: None}

class CpuTest(Renderer):
  device = "CPU"
  has_local = False
  has_threads = True
  global_max = (8, 0, 0)  # ClangRenderer with CPU_COUNT=8
  code_for_op = UNARY
  def render(self, uops): return ""

class GpuTest(Renderer):
  device = "GPU"
  has_local = True
  global_max = (2147483647, 65535, 65535)
  local_max = (1024, 1024, 64)
  code_for_op = UNARY
  def render(self, uops): return ""

class ClangTest(CpuTest):
  code_for_op = {k: None for k in ClangRenderer.code_for_op}

CASES = [
  ("a_matmul_relu", lambda: (Tensor.empty(16,32) @ Tensor.empty(32,8)).relu()),
  ("b_sum", lambda: Tensor.empty(64,32).sum(axis=1)),
  ("c_softmax", lambda: Tensor.empty(8,32).softmax(-1)),
  ("d_conv", lambda: Tensor.empty(1,4,10,10).conv2d(Tensor.empty(8,4,3,3))),
  ("d2_conv_pad_relu", lambda: Tensor.empty(1,4,10,10).conv2d(Tensor.empty(8,4,3,3), padding=1).relu()),
  ("e_pad_add", lambda: Tensor.empty(4,4).pad(((1,1),(1,1))) + 1),
  ("g_sub_mean", lambda: (lambda x: x - x.mean(1, keepdim=True))(Tensor.empty(8,32))),
  # more kernels, read from their "ast" blocks only
  ("h_pad1d", lambda: Tensor.empty(8).pad((1,1)) + 1),
  ("i_permute", lambda: Tensor.empty(4,6).permute(1,0).contiguous()),
  ("j_permute_reshape", lambda: Tensor.empty(2,3,4).permute(2,0,1).reshape(4,6).contiguous()),
  ("k_arange", lambda: Tensor.arange(16).contiguous()),
  ("l_gather", lambda: Tensor.empty(10,4)[Tensor.empty(3, dtype=dtypes.int32)]),
  ("m_big_elementwise", lambda: Tensor.empty(64,64) + 1),
  ("n_cumsum", lambda: Tensor.empty(8).cumsum()),
  ("o_max", lambda: Tensor.empty(4,4).max(axis=0)),
  ("p_int_idiv", lambda: (Tensor.empty(16, dtype=dtypes.int32) // 3).cast(dtypes.float32)),
  ("q_where", lambda: (lambda a, b: (a < b).where(a, b))(Tensor.empty(8), Tensor.empty(8))),
  ("r_symbolic", lambda: Tensor.empty(Variable("n", 1, 10).bind(5), 4) + 1),
  ("s_shrink_mod", lambda: Tensor.empty(16).reshape(4,4)[:, 1:3].contiguous()),
  ("f_big_sum", lambda: Tensor.empty(4096,4096).sum()),
  ("t_half", lambda: (Tensor.empty(16, dtype=dtypes.half) * 2).cast(dtypes.float32)),
  ("v_bool_int", lambda: ((Tensor.empty(16, dtype=dtypes.int32) % 5) == 2).where(Tensor.empty(16, dtype=dtypes.int32), 7)),
]

def dspec(d):
  if isinstance(d, PtrDType):
    s = dspec(d.base) + f" ptr:{d.size}:{d.addrspace.name}"
    return s + (f" vec:{d.v}" if d.v != 1 else "")
  s = INVERSE_DTYPES_DICT[d.scalar().name]
  return s + (f" vec:{d.count}" if d.count != 1 else "")

def aspec(a):
  if a is Invalid: return "Invalid"
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

def write_ast(case, i, ast):
  print(f"ast {case} {i}")
  topo = list(ast.toposort())
  idx = {u: j for j, u in enumerate(topo)}
  for j, u in enumerate(topo):
    assert u.tag is None or u is ast, u
    srcs = ",".join(str(idx[s]) for s in u.src) if u.src else "-"
    print(f"{j} | {u.op} | {dspec(u.dtype)} | {srcs} | {aspec(u.arg)}" + (f" | tag={u.tag}" if u.tag is not None else ""))
  print("end")

# Kernels lowered *after* the reference optimizer: the pre-opt passes of full_rewrite_to_sink
# and apply_opts run here in Python (heuristic opts, or the listed ones), and the optimized AST
# (SINK tag 1) is written out; get_program then skips optimizing, in the reference and in the
# C++ test alike. This checks the passes after apply_opts (expander, group-for-reduce local
# buffers, gpudims locals, devectorizer) on real UPCAST/UNROLL/LOCAL/GROUP_REDUCE kernels.
# (renderer, case, Tensor program, opts or None for hand_coded_optimizations)
def _opt_cases():
  from tinygrad.codegen.opt import Opt, OptOps
  mm = lambda: (Tensor.empty(16,32) @ Tensor.empty(32,8)).relu()
  sm = lambda: Tensor.empty(8,32).softmax(-1)
  return [
    ("cpu", "hco_matmul_relu", mm, None),
    ("cpu", "hco_softmax", sm, None),
    ("cpu", "hco_pad_add", lambda: Tensor.empty(4,4).pad(((1,1),(1,1))) + 1, None),
    ("cpu", "hco_conv", lambda: Tensor.empty(1,4,10,10).conv2d(Tensor.empty(8,4,3,3)), None),
    ("cpu", "upcast_unroll_sum", lambda: Tensor.empty(64,32).sum(axis=1), [Opt(OptOps.UPCAST, 0, 4), Opt(OptOps.UNROLL, 0, 4)]),
    ("cpu", "thread_sum", lambda: Tensor.empty(64,32).sum(axis=1), [Opt(OptOps.THREAD, 0, 4)]),
    ("cpu", "hco_big_sum", lambda: Tensor.empty(4096,4096).sum(), None),
    ("gpu", "hco_matmul_relu", mm, None),
    ("gpu", "hco_softmax", sm, None),
    ("gpu", "local_sum", lambda: Tensor.empty(64,32).sum(axis=1), [Opt(OptOps.LOCAL, 0, 16)]),
    ("gpu", "grouptop_sum", lambda: Tensor.empty(64,32).sum(axis=1), [Opt(OptOps.GROUPTOP, 0, 16)]),
    ("gpu", "group_local_matmul", mm, [Opt(OptOps.LOCAL, 0, 4), Opt(OptOps.GROUP, 0, 8), Opt(OptOps.UPCAST, 1, 2)]),
    ("gpu", "hco_conv", lambda: Tensor.empty(1,4,10,10).conv2d(Tensor.empty(8,4,3,3)), None),
    ("gpu", "hco_big_sum", lambda: Tensor.empty(4096,4096).sum(), None),
    ("gpu", "hco_layernorm", lambda: Tensor.empty(16,64).layernorm(), None),
    ("cpu", "hco_layernorm", lambda: Tensor.empty(16,64).layernorm(), None),
    ("gpu", "hco_matmul_big", lambda: Tensor.empty(64,64) @ Tensor.empty(64,64), None),
    ("cpu", "hco_matmul_big", lambda: Tensor.empty(64,64) @ Tensor.empty(64,64), None),
    ("cpu", "hco_pad_conv", lambda: Tensor.empty(1,4,10,10).conv2d(Tensor.empty(8,4,3,3), padding=1).relu(), None),
    ("clang", "hco_matmul_relu", mm, None),
    ("clang", "hco_softmax", sm, None),
  ]

def optimize(ast, ren, opts):
  from tinygrad.uop.ops import graph_rewrite
  from tinygrad.helpers import Context
  from tinygrad.uop.symbolic import sym
  from tinygrad.codegen import pm_syntactic_sugar
  from tinygrad.codegen.simplify import pm_load_collapse, pm_split_ranges, pm_flatten_range, pm_simplify_ranges, pm_split_store
  from tinygrad.schedule.rangeify import pm_mops
  from tinygrad.codegen.opt.postrange import apply_opts
  sink = ast if ast.arg is not None else ast.replace(arg=KernelInfo(opts_to_apply=tuple(opts) if opts is not None else None))
  sink = graph_rewrite(sink, pm_mops+pm_syntactic_sugar, name="early movement ops", bottom_up=True)
  sink = graph_rewrite(sink, pm_load_collapse, name="load collapse")
  sink = graph_rewrite(sink, pm_split_ranges+pm_flatten_range, ctx={}, name="split ranges")
  sink = graph_rewrite(sink, sym+pm_flatten_range, name="initial symbolic")
  sink = graph_rewrite(sink, pm_simplify_ranges, name="simplify ranges")
  sink = graph_rewrite(sink, pm_split_store, ctx=ren.device, name="cut store ranges")
  with Context(NOOPT=0): return apply_opts(sink, ren)

def main():
  print("# Generated by tools/golden/gen_codegen_pipeline.py (reference tinygrad 35900290, NOOPT=1); do not edit.")
  asts = []
  for case, fn in CASES:
    for i, ei in enumerate(fn().schedule_with_vars()[0]):
      asts.append((case, i, ei.ast))
      print(f"# ast {case} {i}:")
      for line in pyrender(ei.ast).splitlines(): print(f"#   {line}")
      write_ast(case, i, ei.ast)
  rens = [("cpu", CpuTest()), ("gpu", GpuTest()), ("clang", ClangTest())]
  fmt = lambda t: "none" if t is None else ",".join(str(x) for x in t)
  for rname, ren in rens:
    ops = ",".join(sorted(op.name for op in ren.code_for_op))
    print(f"renderer {rname} {ren.device} {int(ren.has_local)} {fmt(ren.global_max)} {fmt(ren.local_max)} {ops}")
  from tinygrad.codegen.opt.postrange import Scheduler
  byname = dict(rens)
  opt_asts = []
  for rname, case, fn, opts in _opt_cases():
    Scheduler.kernel_cnt.clear()
    for i, ei in enumerate(fn().schedule_with_vars()[0]):
      oast = optimize(ei.ast, byname[rname], opts)
      opt_asts.append((rname, f"opt_{rname}_{case}", i, oast))
      print(f"# optimized ast opt_{rname}_{case} {i}: applied {oast.arg.applied_opts}")
      write_ast(f"opt_{rname}_{case}", i, oast)
  def emit(rname, ren, kernels):
    Scheduler.kernel_cnt.clear()
    for case, i, ast in kernels:
      p = get_program(ast, ren)
      print(f"kernel {rname} {case} {i}")
      print(f"name {p.function_name}")
      sz = lambda x: x.render() if isinstance(x, UOp) else str(x)
      print("global " + " ".join(sz(x) for x in p.global_size))
      print("local none" if p.local_size is None else "local " + " ".join(sz(x) for x in p.local_size))
      print(f"estimates {sz(p.estimates.ops)} {sz(p.estimates.lds)} {sz(p.estimates.mem)}")
      print(f"buffers {','.join(map(str, p.globals))} {','.join(map(str, p.outs)) or '-'} {','.join(map(str, p.ins)) or '-'} {','.join(v.arg[0] for v in p.vars) or '-'}")
      idx = {u: j for j, u in enumerate(p.uops)}
      for j, u in enumerate(p.uops):
        srcs = ",".join(str(idx[s]) for s in u.src) if u.src else "-"
        arg = "-" if u.op is Ops.SINK else repr(u.arg)
        print(f"{j} | {u.op} | {u.dtype!r} | {srcs} | {arg}")
      print("end")
  for rname, ren in rens:
    emit(rname, ren, asts + [(c, i, a) for r, c, i, a in opt_asts if r == rname])
  # config variants: DEVECTORIZE=0/2 on vector kernels, TRANSCENDENTAL=2 on the softmax
  from tinygrad.helpers import Context
  pick = lambda r, names: [(c, i, a) for rr, c, i, a in opt_asts if rr == r and c in names]
  variants = [
    ("cpu_dv0", "cpu", dict(DEVECTORIZE=0), pick("cpu", {"opt_cpu_hco_softmax", "opt_cpu_upcast_unroll_sum", "opt_cpu_hco_conv"})),
    ("cpu_dv2", "cpu", dict(DEVECTORIZE=2), pick("cpu", {"opt_cpu_hco_softmax", "opt_cpu_upcast_unroll_sum", "opt_cpu_hco_conv"})),
    ("clang_tr2", "clang", dict(TRANSCENDENTAL=2), [(c, i, a) for c, i, a in asts if c in {"c_softmax", "a_matmul_relu"}]),
  ]
  for vname, base, cfg, kernels in variants:
    print(f"variant {vname} {base} " + " ".join(f"{k.lower()}={v}" for k, v in cfg.items()))
  for vname, base, cfg, kernels in variants:
    with Context(**cfg): emit(vname, byname[base], kernels)

if __name__ == "__main__":
  sys.setrecursionlimit(10000)
  main()
