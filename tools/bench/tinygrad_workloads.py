#!/usr/bin/env python3
# Times the `tg run` workloads (tinygrad/workloads/workloads.cc) in Python tinygrad, for the
# ratios in the benchmark notes. Run from outside the tinygrad checkout:
#   PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU python3 tools/bench/tinygrad_workloads.py [workload ...]
# Prints, per workload: kernels, the time from Tensor graph to rendered source (scheduling +
# get_program with a compiler-less ClangRenderer: no clang), and end-to-end times of a cold
# and a warm run (tinygrad's own caches as they are; CACHELEVEL=0 keeps clang's disk cache out).
import math, sys, time
from tinygrad import Tensor, Device, dtypes
from tinygrad.codegen import get_program
from tinygrad.engine.realize import run_schedule
from tinygrad.renderer.cstyle import ClangRenderer
from tinygrad.uop.ops import Ops

def weight(shape, fan_in):
  b = 1 / math.sqrt(fan_in)
  return Tensor.uniform(*shape, low=-b, high=b)

def matmul(m=512, n=512, k=512):
  a, b = Tensor.rand(m, k), Tensor.rand(k, n)
  return [a, b], [a @ b]

def conv2d(batch=8, cin=16, cout=32, size=32, kernel=3):
  x, w = Tensor.rand(batch, cin, size, size), weight((cout, cin, kernel, kernel), cin*kernel*kernel)
  return [x, w], [x.conv2d(w, padding=kernel//2)]

def mlp(batch=64, inp=784, hidden=512, out=10):
  x = Tensor.rand(batch, inp)
  w1, b1, w2, b2 = weight((hidden, inp), inp), weight((hidden,), inp), weight((hidden, hidden), hidden), weight((hidden,), hidden)
  w3, b3 = weight((out, hidden), hidden), weight((out,), hidden)
  h = x.linear(w1.T, b1).relu()
  h = h.linear(w2.T, b2).relu()
  return [x, w1, b1, w2, b2, w3, b3], [h.linear(w3.T, b3)]

def attention(batch=4, seq=64, dim=128, heads=4):
  hd = dim // heads
  x, wqkv, wo = Tensor.rand(batch, seq, dim), weight((dim, 3*dim), dim), weight((dim, dim), dim)
  q, k, v = x.layernorm().matmul(wqkv).split(dim, 2)
  hs = lambda z: z.reshape(batch, seq, heads, hd).transpose(1, 2)
  att = hs(q).scaled_dot_product_attention(hs(k), hs(v), is_causal=True)
  return [x, wqkv, wo], [x + att.transpose(1, 2).reshape(batch, seq, dim).matmul(wo)]

def resnet_block(batch=1, channels=64, size=32):
  c = channels
  x, w1, w2 = Tensor.rand(batch, c, size, size), weight((c, c, 3, 3), c*9), weight((c, c, 3, 3), c*9)
  m1, m2 = weight((c,), 4), weight((c,), 4)
  bn = lambda h, m: h.batchnorm(Tensor.ones(c), Tensor.zeros(c), m, Tensor.ones(c))
  h = bn(x.conv2d(w1, padding=1), m1).relu()
  h = bn(h.conv2d(w2, padding=1), m2)
  return [x, w1, w2, m1, m2], [(h + x).relu()]

WORKLOADS = {"matmul": matmul, "conv2d": conv2d, "mlp": mlp, "attention": attention, "resnet_block": resnet_block}

def run(name, fn):
  ren = ClangRenderer()
  times, t_sched0, t_codegen, nkernels = [], 0.0, 0.0, 0
  for i in range(3):
    inputs, outputs = fn()
    Tensor.realize(*inputs)
    Device["CPU"].synchronize()
    st = time.perf_counter()
    sched, var_vals = Tensor.schedule_with_vars(*outputs)
    t_sched = time.perf_counter() - st
    kernels = [ei for ei in sched if ei.ast.op is Ops.SINK]
    if i == 0:
      # graph -> source without clang: a ClangRenderer has no compiler attached
      t_sched0, nkernels = t_sched, len(kernels)
      st = time.perf_counter()
      for ei in kernels: get_program(ei.ast, ren)
      t_codegen = time.perf_counter() - st
    st = time.perf_counter()
    run_schedule(sched, var_vals)
    Device["CPU"].synchronize()
    times.append(time.perf_counter() - st + t_sched)
  print(f"{name:13s} kernels {nkernels:3d}  schedule {t_sched0*1e3:8.2f} ms  codegen {t_codegen*1e3:8.2f} ms"
        f"  graph->source per kernel {(t_sched0+t_codegen)*1e3/max(1, nkernels):7.2f} ms"
        f"  e2e run1 {times[0]*1e3:8.2f} ms  run2 {times[1]*1e3:8.2f} ms  run3 {times[2]*1e3:8.2f} ms")

if __name__ == "__main__":
  for n in sys.argv[1:] or list(WORKLOADS): run(n, WORKLOADS[n])
