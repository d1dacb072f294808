#!/usr/bin/env python3
# File: tools/golden/gen_autograd_golden.py
# Writes tinygrad/tensor/testdata/autograd_golden.txt: gradients of random Tensor programs and
# kernel counts of backward passes, computed by the reference tinygrad.
#
# Usage:
#   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU python3 \
#     <repo>/tools/golden/gen_autograd_golden.py > <repo>/tinygrad/tensor/testdata/autograd_golden.txt
#
# A program is drawn from its seed with splitmix64 (so the C++ test draws the same one: see
# tinygrad/tensor/autograd_golden_test.cc, which mirrors OPS below op by op): R x C inputs
# from Tensor.manual_seed(seed) + Tensor.randn(R, C, requires_grad=True) (our generator is
# bit-exact with the reference's), then ops that each take two tensors of the pool and add an
# R x C result to it; the loss is the sum of the results' sums. After loss.backward(), every
# pool tensor (inputs and live intermediates) has a grad, or none when the loss does not
# depend on it.
#
# Records:
#   P|seed|R|C|inputs|op,op,...            the program
#   C|seed|n                               kernels run to realize the loss and all grads at once
#   L|seed|loss                            float32 value as a Python float (exact)
#   G|seed|index|v,v,...  or  G|seed|index|none    grad of pool tensor `index`, row-major
#   H|seed|index|OP:n,OP:n,...             op histogram of that grad's graph before realizing
#                                          (inputs realized first)
#   K|name|n                               kernels run to realize a fixed program's loss and
#                                          grads after loss.backward() (inputs realized first)
import functools
from collections import Counter
from tinygrad import Tensor, dtypes, GlobalCounters

M = (1 << 64) - 1

class SplitMix64:
  def __init__(self, seed): self.s = seed & M
  def next(self):
    self.s = (self.s + 0x9E3779B97F4A7C15) & M
    z = self.s
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    return z ^ (z >> 31)
  def below(self, n): return self.next() % n

# name -> f(a, b, R, C); every result is R x C. The order is the C++ table's.
OPS = [
  ("add", lambda a, b, R, C: a + b),
  ("mul", lambda a, b, R, C: a * b),
  ("sub", lambda a, b, R, C: a - b),
  ("div", lambda a, b, R, C: a / (b.abs() + 1)),
  ("maximum", lambda a, b, R, C: a.maximum(b)),
  ("exp", lambda a, b, R, C: (a * 0.5).exp()),
  ("sin", lambda a, b, R, C: a.sin()),
  ("relu", lambda a, b, R, C: a.relu()),
  ("sigmoid", lambda a, b, R, C: a.sigmoid()),
  ("tanh", lambda a, b, R, C: a.tanh()),
  ("log", lambda a, b, R, C: (a * a + 1).log()),
  ("sqrt", lambda a, b, R, C: (a * a + 1).sqrt()),
  ("reciprocal", lambda a, b, R, C: (a * a + 1).reciprocal()),
  ("pow", lambda a, b, R, C: (a.abs() + 0.5).pow(b * 0.5)),
  ("where", lambda a, b, R, C: (a > b).where(a, b * 2)),
  ("softmax", lambda a, b, R, C: a.softmax(1)),
  ("log_softmax", lambda a, b, R, C: a.log_softmax(0)),
  ("sub_rowsum", lambda a, b, R, C: a - a.sum(1, keepdim=True) * 0.1),
  ("sub_colmax", lambda a, b, R, C: a - a.max(0, keepdim=True)),
  ("flip_mul", lambda a, b, R, C: a.flip(0) * b),
  ("transpose_reshape", lambda a, b, R, C: a.T.reshape(R, C)),
  ("pad_shrink", lambda a, b, R, C: a.pad(((1, 0), (0, 2))).shrink(((0, R), (2, C + 2)))),
  ("matmul", lambda a, b, R, C: a.matmul(b.T).matmul(b) * 0.1),
  ("conv2d", lambda a, b, R, C: a.reshape(1, 1, R, C).conv2d(b.shrink(((0, 3), (0, 3))).reshape(1, 1, 3, 3), padding=1).reshape(R, C)),
  ("mul_mean", lambda a, b, R, C: a * b.mean()),
  ("cast_half", lambda a, b, R, C: a.cast(dtypes.float16).cast(dtypes.float32) * b),
  ("cumsum", lambda a, b, R, C: a.cumsum(1)),
  ("mul_max", lambda a, b, R, C: a * a.max()),
  ("clip", lambda a, b, R, C: a.clip(-0.5, 0.5)),
  ("gelu", lambda a, b, R, C: a.gelu()),
]

def hist(u): return ",".join(f"{k}:{v}" for k, v in sorted(Counter(x.op.name for x in u.toposort()).items()))

def program(seed):
  rng = SplitMix64(seed)
  R, C, k, nops = 3 + rng.below(4), 3 + rng.below(5), 2 + rng.below(2), 5 + rng.below(4)
  Tensor.manual_seed(seed)
  pool = [Tensor.randn(R, C, requires_grad=True) for _ in range(k)]
  Tensor.realize(*pool)
  names = []
  for _ in range(nops):
    name, fn = OPS[rng.below(len(OPS))]
    a, b = pool[rng.below(len(pool))], pool[rng.below(len(pool))]
    names.append(name)
    pool.append(fn(a, b, R, C))
  loss = functools.reduce(lambda x, y: x + y, [t.sum() for t in pool[k:]])
  print(f"P|{seed}|{R}|{C}|{k}|{','.join(names)}")
  loss.backward()
  for i, t in enumerate(pool):
    if t.grad is not None: print(f"H|{seed}|{i}|{hist(t.grad.uop)}")
  before = GlobalCounters.kernel_count
  Tensor.realize(loss, *[t.grad for t in pool if t.grad is not None])
  print(f"C|{seed}|{GlobalCounters.kernel_count - before}")
  print(f"L|{seed}|{loss.item()!r}")
  for i, t in enumerate(pool):
    print(f"G|{seed}|{i}|" + ("none" if t.grad is None else ",".join(repr(v) for v in t.grad.flatten().tolist())))

# ** kernel counts of fixed backward passes (the C++ test builds the same programs) **
def kernels(name, build):
  Tensor.manual_seed(0)
  params, loss = build()
  Tensor.realize(*params)
  loss = loss()
  loss.backward()
  before = GlobalCounters.kernel_count
  Tensor.realize(loss, *[p.grad for p in params if p.requires_grad])
  print(f"K|{name}|{GlobalCounters.kernel_count - before}")

def mlp_mse():
  x, t = Tensor.randn(16, 8), Tensor.randn(16, 4)
  w1, b1, w2, b2 = Tensor.randn(8, 32, requires_grad=True), Tensor.randn(32, requires_grad=True), Tensor.randn(32, 4, requires_grad=True), Tensor.randn(4, requires_grad=True)
  return [x, t, w1, b1, w2, b2], lambda: (x.linear(w1, b1).relu().linear(w2, b2) - t).square().mean()

def mlp_logsoftmax():
  x, y = Tensor.randn(16, 8), Tensor.randint(16, high=4)
  w1, w2 = Tensor.randn(8, 32, requires_grad=True), Tensor.randn(32, 4, requires_grad=True)
  return [x, y, w1, w2], lambda: -(x.matmul(w1).relu().matmul(w2).log_softmax(1) * y.one_hot(4)).sum(1).mean()

def conv_relu_mean():
  x, w = Tensor.randn(2, 3, 8, 8), Tensor.randn(4, 3, 3, 3, requires_grad=True)
  return [x, w], lambda: x.conv2d(w, padding=1).relu().mean()

if __name__ == "__main__":
  print("# Generated by tools/golden/gen_autograd_golden.py with tinygrad 35900290 (DEV=CPU): gradients of")
  print("# random programs (splitmix64 from the seed) and kernel counts of backward passes.")
  for seed in range(16): program(seed)  # 16 seeds use every op in OPS
  kernels("mlp_mse", mlp_mse)
  kernels("mlp_logsoftmax", mlp_logsoftmax)
  kernels("conv_relu_mean", conv_relu_mean)
