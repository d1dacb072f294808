#!/usr/bin/env python3
# The reference side of tools/bench/train_bench.sh: times one training step of tg train's
# models (tinygrad/train/classifiers.h, built here from tinygrad's nn) in Python tinygrad on
# random data: Adam, sparse_categorical_crossentropy, the step as beautiful_mnist writes it
# (loss.realize(*opt.schedule_step()), then loss.item()), under TinyJit and without it, each
# the median of --steps timed calls after --warmup. Also the tiny MLP of
# tinygrad/tensor:tiny_jit_benchmark (batch 4, 8-16-4, mean squared error), whose kernels take
# next to no time, so its step time is the per-step overhead. Run from outside the checkout:
#   PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU python3 tools/bench/tinygrad_train_step.py \
#     [--steps N] [--warmup N] mlp:128 cnn:512 tiny ...
# Prints one JSON object per case.
import argparse, json, statistics, time
from tinygrad import Tensor, TinyJit, nn

class Mlp:
  def __init__(self): self.l1, self.l2 = nn.Linear(784, 128), nn.Linear(128, 10)
  def __call__(self, x): return self.l2(self.l1(x.flatten(1)).relu())

class Cnn:
  def __init__(self):
    self.c1, self.c2 = nn.Conv2d(1, 16, 3), nn.Conv2d(16, 32, 3)
    self.l1, self.l2 = nn.Linear(32 * 5 * 5, 128), nn.Linear(128, 10)
  def __call__(self, x):
    h = self.c1(x).relu().max_pool2d()
    h = self.c2(h).relu().max_pool2d()
    return self.l2(self.l1(h.flatten(1)).relu())

class Tiny:
  def __init__(self): self.l1, self.l2 = nn.Linear(8, 16), nn.Linear(16, 4)
  def __call__(self, x): return self.l2(self.l1(x).relu())

def median_ms(step, warmup, steps):
  for _ in range(warmup): step()
  ms = []
  for _ in range(steps):
    st = time.perf_counter()
    step()
    ms.append(1e3 * (time.perf_counter() - st))
  return statistics.median(ms)

def bench(case, warmup, steps):
  Tensor.manual_seed(1)
  if case == "tiny":
    model, batch = Tiny(), 4
    x, y = Tensor.rand(batch, 8).contiguous().realize(), Tensor.rand(batch, 4).contiguous().realize()
    loss_fn = lambda out, y: (out - y).square().mean()
  else:
    name, batch = case.split(":")
    model, batch = {"mlp": Mlp, "cnn": Cnn}[name](), int(batch)
    x = Tensor.rand(batch, 1, 28, 28).contiguous().realize()
    y = Tensor.randint(batch, high=10).contiguous().realize()
    loss_fn = lambda out, y: out.sparse_categorical_crossentropy(y)
  opt = nn.optim.Adam(nn.state.get_parameters(model), lr=1e-3)
  def step(x, y):
    with Tensor.train():
      opt.zero_grad()
      loss = loss_fn(model(x), y).backward()
      return loss.realize(*opt.schedule_step())
  jitted = TinyJit(step)
  jit_ms = median_ms(lambda: jitted(x, y).item(), max(warmup, 3), steps)
  eager_ms = median_ms(lambda: step(x, y).item(), warmup, steps)
  return {"side": "tinygrad", "model": case.split(":")[0], "batch": batch, "jit_ms": jit_ms, "eager_ms": eager_ms}

if __name__ == "__main__":
  ap = argparse.ArgumentParser()
  ap.add_argument("--warmup", type=int, default=5)
  ap.add_argument("--steps", type=int, default=30)
  ap.add_argument("cases", nargs="+", help="mlp:BATCH, cnn:BATCH or tiny")
  args = ap.parse_args()
  for c in args.cases: print(json.dumps(bench(c, args.warmup, args.steps)), flush=True)
