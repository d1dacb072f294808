#!/usr/bin/env python3
# File: tools/golden/gen_heuristic_goldens.py
# Usage: cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU THREADS=1 CPU_COUNT=2 python3 \
#   <repo>/tools/golden/gen_heuristic_goldens.py <repo>/tinygrad/codegen/opt/testdata
#
# Writes two files that //tinygrad/codegen/opt:heuristic_test replays:
#
#   heuristic_opts.txt: for every codegen kernel (SINK AST; kernel indices count all) of the Tensor programs in CASES and for two renderers
#     (cpu: ClangRenderer with THREADS=1 and CPU_COUNT=2, so results do not depend on the
#     machine; cuda: CUDARenderer("sm_89"), which needs no GPU and exercises LOCAL, GROUP and
#     tensor cores), the kernel AST exactly as apply_opts receives it (after early movement
#     ops, load collapse, split ranges, initial symbolic, simplify ranges and cut store ranges
#     for that renderer's device), and the applied_opts of
#       k = Scheduler(ast, ren); k.convert_loop_to_global(); hand_coded_optimizations(k)
#     Format ('#' lines are comments):
#       kernel <renderer> <case> <kernel index>
#       <index> | <Ops.X> | <dtype spec> | <srcs or -> | <arg>        (codegen/ast_text.h lines)
#       opts <n>
#       Opt(op=OptOps.UPCAST, axis=0, arg=4)                           (n lines, in order)
#       end
#     Then the same for renderer variants (settings the heuristic reads), declared first by
#       variant <name> <base renderer> <SETTING>=<value>
#     whose kernel blocks have the line `ast-of <base renderer>` (the AST is the base's block of
#     that case and index) instead of AST lines.
#
#   heuristic_c.txt: a few CPU kernels end to end: the scheduled kernel AST (before any codegen
#     pass) and the C source get_program(ast, ClangRenderer()) renders with the heuristic on.
#       csrc <case> <kernel index>
#       <ast lines>
#       src <number of lines>
#       <C source lines>
#       end
import os, sys
from tinygrad import Tensor, dtypes, Variable, nn
from tinygrad.helpers import CPU_COUNT, Context
from tinygrad.uop.ops import KernelInfo, Ops, graph_rewrite
from tinygrad.uop.symbolic import sym
from tinygrad.renderer.cstyle import ClangRenderer, CUDARenderer
from tinygrad.codegen import pm_syntactic_sugar, get_program
from tinygrad.codegen.simplify import pm_load_collapse, pm_split_ranges, pm_flatten_range, pm_simplify_ranges, pm_split_store
from tinygrad.codegen.opt.postrange import Scheduler
from tinygrad.codegen.opt.heuristic import hand_coded_optimizations
from tinygrad.schedule.rangeify import pm_mops
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_codegen_pipeline import dspec, aspec  # noqa: E402  (the golden files' dtype and arg forms)

def _mlp():
  x = Tensor.empty(32, 784)
  l1, l2 = nn.Linear(784, 128), nn.Linear(128, 10)
  return l2(l1(x).relu()).log_softmax()

def _attention():
  q, k, v = Tensor.empty(1, 4, 64, 32), Tensor.empty(1, 4, 64, 32), Tensor.empty(1, 4, 64, 32)
  return q.scaled_dot_product_attention(k, v)

def _resnet_block():
  x = Tensor.empty(1, 16, 32, 32)
  c1, c2 = nn.Conv2d(16, 16, 3, padding=1, bias=False), nn.Conv2d(16, 16, 3, padding=1, bias=False)
  bn = nn.BatchNorm(16)
  bn.training = False
  return (bn(c2(c1(x).relu())) + x).relu()

def _symbolic_sum():
  n = Variable("n", 1, 128).bind(64)
  return Tensor.empty(n, 256).sum(1)

def _symbolic_add():
  n = Variable("n", 1, 4096).bind(100)
  return Tensor.empty(n, 64) * 2 + 1

# (case name, Tensor program): every scheduled kernel of each is recorded
CASES = [
  ("matmul_256", lambda: Tensor.empty(256, 256) @ Tensor.empty(256, 256)),
  ("matmul_512", lambda: Tensor.empty(512, 512) @ Tensor.empty(512, 512)),
  ("matmul_1024", lambda: Tensor.empty(1024, 1024) @ Tensor.empty(1024, 1024)),
  ("matmul_odd", lambda: Tensor.empty(33, 65) @ Tensor.empty(65, 17)),
  ("matmul_rect", lambda: Tensor.empty(64, 1024) @ Tensor.empty(1024, 48)),
  ("matmul_batched", lambda: Tensor.empty(8, 64, 64) @ Tensor.empty(8, 64, 64)),
  ("matmul_half", lambda: Tensor.empty(256, 256, dtype=dtypes.half) @ Tensor.empty(256, 256, dtype=dtypes.half)),
  ("matmul_half_acc_float", lambda: Tensor.empty(128, 256, dtype=dtypes.half).matmul(Tensor.empty(256, 64, dtype=dtypes.half), dtype=dtypes.float)),
  ("matmul_half_odd", lambda: Tensor.empty(40, 72, dtype=dtypes.half) @ Tensor.empty(72, 24, dtype=dtypes.half)),
  ("matmul_half_batched", lambda: Tensor.empty(4, 64, 128, dtype=dtypes.half) @ Tensor.empty(4, 128, 32, dtype=dtypes.half)),
  ("conv2d_half", lambda: Tensor.empty(1, 16, 16, 16, dtype=dtypes.half).conv2d(Tensor.empty(32, 16, 3, 3, dtype=dtypes.half))),
  ("matmul_int", lambda: Tensor.empty(64, 64, dtype=dtypes.int32) @ Tensor.empty(64, 64, dtype=dtypes.int32)),
  ("matvec", lambda: Tensor.empty(1, 4096) @ Tensor.empty(4096, 4096)),
  ("vecmat_t", lambda: Tensor.empty(4096, 4096) @ Tensor.empty(4096, 1)),
  ("sum_4M", lambda: Tensor.empty(4 * 1024 * 1024).sum()),
  ("sum_small", lambda: Tensor.empty(100).sum()),
  ("row_sum", lambda: Tensor.empty(4096, 1024).sum(1)),
  ("col_sum", lambda: Tensor.empty(4096, 1024).sum(0)),
  ("row_max_small", lambda: Tensor.empty(64, 7).max(1)),
  ("sum_3d_mid", lambda: Tensor.empty(16, 64, 32).sum(1)),
  ("sum_int", lambda: Tensor.empty(1024, 256, dtype=dtypes.int32).sum(1)),
  ("sum_half", lambda: Tensor.empty(2048, 512, dtype=dtypes.half).sum(1)),
  ("mean_var", lambda: Tensor.empty(256, 512).var(1)),
  ("softmax", lambda: Tensor.empty(4096, 1024).softmax(-1)),
  ("softmax_small", lambda: Tensor.empty(8, 10).softmax(-1)),
  ("layernorm", lambda: Tensor.empty(512, 768).layernorm()),
  ("conv2d", lambda: Tensor.empty(1, 32, 56, 56).conv2d(Tensor.empty(64, 32, 3, 3))),
  ("conv2d_pad", lambda: Tensor.empty(1, 32, 56, 56).conv2d(Tensor.empty(64, 32, 3, 3), padding=1)),
  ("conv2d_stride", lambda: Tensor.empty(2, 3, 32, 32).conv2d(Tensor.empty(16, 3, 5, 5), stride=2)),
  ("conv1x1", lambda: Tensor.empty(1, 64, 28, 28).conv2d(Tensor.empty(128, 64, 1, 1))),
  ("depthwise", lambda: Tensor.empty(1, 32, 28, 28).conv2d(Tensor.empty(32, 1, 3, 3), groups=32, padding=1)),
  ("maxpool", lambda: Tensor.empty(1, 16, 32, 32).max_pool2d()),
  ("avgpool", lambda: Tensor.empty(1, 16, 32, 32).avg_pool2d(3)),
  ("ew_1m", lambda: Tensor.empty(1024, 1024) + 1),
  ("ew_exp", lambda: Tensor.empty(4096, 256).exp()),
  ("ew_small_odd", lambda: Tensor.empty(3, 5, 7) * 2),
  ("ew_1d_odd", lambda: Tensor.empty(1000003).sqrt()),
  ("ew_3d", lambda: Tensor.empty(64, 32, 48).relu()),
  ("ew_int", lambda: Tensor.empty(512, 512, dtype=dtypes.int32) * 3 + 7),
  ("ew_half", lambda: (Tensor.empty(1024, 512, dtype=dtypes.half) * 2).cast(dtypes.float32)),
  ("ew_where", lambda: (Tensor.empty(256, 256) > 0).where(Tensor.empty(256, 256), 0.5)),
  ("bcast_outer", lambda: Tensor.empty(1024, 1) + Tensor.empty(1, 1024)),
  ("bcast_row", lambda: Tensor.empty(512, 256) * Tensor.empty(256)),
  ("bcast_3d", lambda: Tensor.empty(64, 1, 64) * Tensor.empty(1, 64, 1)),
  ("bcast_small", lambda: Tensor.empty(4, 1, 3) + Tensor.empty(1, 5, 3)),
  ("transpose", lambda: Tensor.empty(512, 256).permute(1, 0).contiguous()),
  ("permute_3d", lambda: Tensor.empty(32, 64, 16).permute(2, 0, 1).contiguous()),
  ("stack3", lambda: Tensor.stack(Tensor.empty(256, 256), Tensor.empty(256, 256), Tensor.empty(256, 256), dim=-1).contiguous()),
  ("cat", lambda: Tensor.empty(128, 100).cat(Tensor.empty(128, 28), dim=1).contiguous()),
  ("pad", lambda: Tensor.empty(64, 64).pad(((1, 1), (2, 2))) + 1),
  ("arange", lambda: Tensor.arange(4096).contiguous()),
  ("cumsum", lambda: Tensor.empty(256).cumsum()),
  ("argmax", lambda: Tensor.empty(64, 1000).argmax(1)),
  ("gather", lambda: Tensor.empty(1000, 64)[Tensor.empty(32, dtype=dtypes.int32)]),
  ("mlp", _mlp),
  ("attention", _attention),
  ("resnet_block", _resnet_block),
  ("symbolic_sum", _symbolic_sum),
  ("symbolic_add", _symbolic_add),
]

# (variant name, base renderer, settings): heuristic settings besides the defaults
VARIANTS = [
  ("cuda_nolocals", "cuda", dict(NOLOCALS=1)),
  ("cuda_tcopt2", "cuda", dict(TC_OPT=2)),
  ("cuda_tc2", "cuda", dict(TC=2)),
  ("cuda_tc0", "cuda", dict(TC=0)),
  ("cpu_nothreads", "cpu", dict(THREADS=0)),
]

# Kernels whose rendered C source goes to heuristic_c.txt: (case, kernel index)
C_KERNELS = [("matmul_256", 0), ("row_sum", 0), ("ew_1m", 0), ("conv2d", 0)]

def ast_lines(ast):
  topo = list(ast.toposort())
  idx = {u: j for j, u in enumerate(topo)}
  out = []
  for j, u in enumerate(topo):
    assert u.tag is None, u
    # the heuristic only runs on kernels without opts yet
    assert not isinstance(u.arg, KernelInfo) or (not u.arg.applied_opts and u.arg.opts_to_apply is None), u.arg
    srcs = ",".join(str(idx[s]) for s in u.src) if u.src else "-"
    out.append(f"{j} | {u.op} | {dspec(u.dtype)} | {srcs} | {aspec(u.arg)}")
  return out

# full_rewrite_to_sink up to (not including) apply_opts; make_images is a no-op on these devices
def pre_opt(ast, ren):
  sink = graph_rewrite(ast, pm_mops+pm_syntactic_sugar, name="early movement ops", bottom_up=True)
  sink = graph_rewrite(sink, pm_load_collapse, name="load collapse")
  sink = graph_rewrite(sink, pm_split_ranges+pm_flatten_range, ctx={}, name="split ranges")
  sink = graph_rewrite(sink, sym+pm_flatten_range, name="initial symbolic")
  sink = graph_rewrite(sink, pm_simplify_ranges, name="simplify ranges")
  return graph_rewrite(sink, pm_split_store, ctx=ren.device, name="cut store ranges")

def main():
  assert CPU_COUNT.value == 2 and ClangRenderer.global_max == (2, 0, 0) and ClangRenderer.has_threads, "run with THREADS=1 CPU_COUNT=2"
  outdir = sys.argv[1]
  rens = [("cpu", ClangRenderer()), ("cuda", CUDARenderer("sm_89"))]
  hdr = "# Generated by tools/golden/gen_heuristic_goldens.py (reference tinygrad 35900290, DEV=CPU THREADS=1 CPU_COUNT=2); do not edit."
  asts = {}
  nk = 0
  with open(os.path.join(outdir, "heuristic_opts.txt"), "w") as f:
    print(hdr, file=f)
    for case, fn in CASES:
      for i, ei in enumerate(fn().schedule_with_vars()[0]):
        asts[(case, i)] = ei.ast
        if ei.ast.op is not Ops.SINK: continue  # COPY kernels are not codegen kernels
        for rname, ren in rens:
          ast = pre_opt(ei.ast, ren)
          k = Scheduler(ast, ren)
          k.convert_loop_to_global()
          k = hand_coded_optimizations(k)
          print(f"kernel {rname} {case} {i}", file=f)
          for line in ast_lines(ast): print(line, file=f)
          print(f"opts {len(k.applied_opts)}", file=f)
          for o in k.applied_opts: print(repr(o), file=f)
          print("end", file=f)
          nk += 1
    for vname, base, cfg in VARIANTS:
      print(f"variant {vname} {base} " + " ".join(f"{k}={v}" for k, v in cfg.items()), file=f)
    for vname, base, cfg in VARIANTS:
      ren = dict(rens)[base]
      if "THREADS" in cfg:  # a ClangRenderer class attribute, read at import
        ren = ClangRenderer()
        ren.has_threads = bool(cfg["THREADS"])
      ctx = {k: v for k, v in cfg.items() if k != "THREADS"}
      for (case, i), sast in asts.items():
        if sast.op is not Ops.SINK: continue
        with Context(**ctx):
          k = Scheduler(pre_opt(sast, ren), ren)
          k.convert_loop_to_global()
          k = hand_coded_optimizations(k)
        print(f"kernel {vname} {case} {i}", file=f)
        print(f"ast-of {base}", file=f)
        print(f"opts {len(k.applied_opts)}", file=f)
        for o in k.applied_opts: print(repr(o), file=f)
        print("end", file=f)
        nk += 1
  with open(os.path.join(outdir, "heuristic_c.txt"), "w") as f:
    print(hdr, file=f)
    for case, i in C_KERNELS:
      Scheduler.kernel_cnt.clear()
      ast = asts[(case, i)]
      p = get_program(ast, ClangRenderer())
      print(f"csrc {case} {i}", file=f)
      for line in ast_lines(ast): print(line, file=f)
      src = p.src.splitlines()
      print(f"src {len(src)}", file=f)
      for line in src: print(line, file=f)
      print("end", file=f)
  print(f"{nk} kernels", file=sys.stderr)

if __name__ == "__main__":
  sys.setrecursionlimit(10000)
  main()
