#!/usr/bin/env python3
# File: tools/golden/gen_schedule_golden.py
# Writes tinygrad/schedule/testdata/schedule_golden.txt: the reference scheduler's kernels
# (complete_create_schedule_with_vars) for the graphs of tinygrad/schedule/schedule_test.cc,
# built here with the Tensor API (the C++ test builds the same graphs with UOp builders).
#
# Usage:
#   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU CORRECT_DIVMOD_FOLDING=1 python3 \
#     <repo>/tools/golden/gen_schedule_golden.py > <repo>/tinygrad/schedule/testdata/schedule_golden.txt
#
# Format: "== <case>", "kernels <n>", then per kernel "-- bufs <size@device,...>" and the
# kernel AST as tinygrad's pretty_print, ended by "--".
import os, sys
if os.environ.get("CORRECT_DIVMOD_FOLDING") != "1": sys.exit("run with CORRECT_DIVMOD_FOLDING=1")
from tinygrad import Tensor, dtypes
from tinygrad.uop.ops import UOp, pretty_print
from tinygrad.engine.schedule import complete_create_schedule_with_vars

def case(name, *ts):
  tm, sched, vv = complete_create_schedule_with_vars(UOp.sink(*[t.uop for t in ts]))
  print(f"== {name}")
  print(f"kernels {len(sched)}")
  for si in sched:
    print("-- bufs " + ",".join(f"{b.size}@{b.device}" for b in si.bufs))
    print(pretty_print(si.ast))
  print("--")

E = lambda *s: Tensor.empty(*s, dtype=dtypes.float)
a, b = E(16, 16), E(16, 16)
case("elementwise", ((a+b)*a).sqrt())
case("sum1", E(64, 32).sum(1))
case("softmax", E(8, 32).softmax(-1))
case("matmul_relu", (E(16, 32) @ E(32, 8)).relu())
case("conv2d", E(1, 4, 10, 10).conv2d(E(8, 4, 3, 3)))
case("sum_big", E(4096, 4096).sum())
x = E(16, 32)
case("sub_mean", x - x.mean(1, keepdim=True))
case("pad_add", E(4, 4).pad(((1, 1), (1, 1))) + 1.0)
case("permute_contiguous", E(8, 16).permute(1, 0).contiguous())
y = E(16, 16)
case("multi_output", y + 1.0, y * 2.0)
z = E(8, 8).exp2()
case("two_views_inlined", z + z.permute(1, 0))
w = E(8, 8) @ E(8, 8)
case("two_views_reduce", w + w.permute(1, 0))
case("bound_var", Tensor.empty(16, dtype=dtypes.int) + Tensor(UOp.variable("pos", 0, 100).bind(3)).cast(dtypes.int))
a2, b2 = E(16, 16), E(16, 16)
case("assign", a2.assign(a2 + b2))
case("arange", Tensor.arange(16).float() * E(16))
case("kv_shrink", E(16, 8)[:UOp.variable("pos", 1, 16).bind(5)].sum(0))
case("layernorm", E(4, 32).layernorm())
case("sum0", E(32, 16).sum(0))
case("flip_shrink", E(8, 8).flip(0)[2:6] * 2.0)
case("cast_half", E(16).cast(dtypes.half) + 1)
case("copy", (E(16) + 1.0).to("CPU:1"))
case("contiguous_buffer", E(4, 4).contiguous())
a3, b3 = E(16), E(16)
case("war_assign", a3 + 1.0, a3.assign(b3 * 2.0))
