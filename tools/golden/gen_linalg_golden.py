#!/usr/bin/env python3
# File: tools/golden/gen_linalg_golden.py
# Prints the expected values of tinygrad/tensor/linalg_test.cc: Tensor.qr, Tensor.svd and
# Tensor.newton_schulz of small float32 matrices (square, tall, wide, batched; svd with an
# even and an odd number of columns, full_matrices true and false). Inputs are (k % 19 - 9) / 4
# for k = 7 * index + 3 (row-major index), so they are exact in float32 and the test makes the
# same ones. Each case prints C++ initializers, "// name: shape" then one vector per output.
#
# Usage:
#   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU python3 \
#     <repo>/tools/golden/gen_linalg_golden.py
import math
from tinygrad import Tensor

def make(shape):
  n = math.prod(shape)
  return Tensor([((7 * i + 3) % 19 - 9) / 4 for i in range(n)]).reshape(shape).contiguous()

def flat(t):
  v = t.tolist()
  while v and isinstance(v[0], list): v = [x for r in v for x in r]
  return v

def lit(x):
  s = f"{x:.9g}"
  return (s if "." in s or "e" in s else s + ".0") + "f"

def show(name, shape, outs):
  print(f"// {name}: {shape}")
  for label, t in outs:
    vals = ", ".join(lit(x) for x in flat(t))
    print(f"const std::vector<float> k{name}{label} = {{{vals}}};  // {tuple(t.shape)}")

for name, shape in [("Qr3x3", (3, 3)), ("Qr4x3", (4, 3)), ("Qr2x4", (2, 4)), ("Qr2x3x2", (2, 3, 2))]:
  q, r = make(shape).qr()
  show(name, shape, [("Q", q), ("R", r)])

for name, shape, full in [("Svd3x3", (3, 3), True), ("Svd4x4", (4, 4), True), ("Svd4x2", (4, 2), True),
                          ("Svd4x2Reduced", (4, 2), False), ("Svd2x3", (2, 3), True),
                          ("Svd3x5Reduced", (3, 5), False), ("Svd2x3x3", (2, 3, 3), True)]:
  u, s, v = make(shape).svd(full_matrices=full)
  show(name, shape, [("U", u), ("S", s), ("V", v)])

for name, shape, steps, params in [("Ns3x3", (3, 3), 3, (2, -1.5, 0.5)), ("Ns4x2", (4, 2), 2, (2, -1.5, 0.5)),
                                   ("Ns2x2x3", (2, 2, 3), 5, (3.4445, -4.7750, 2.0315))]:
  show(name, shape, [("", make(shape).newton_schulz(steps, params))])
