#!/usr/bin/env python3
# File: tools/golden/gen_shape_extra_golden.py
# Prints the expected values of tinygrad/tensor/shape_extra_test.cc: tinygrad's roll, diag,
# diagonal, meshgrid, unfold, pad_to, einsum and interpolate on the test's inputs, each as two
# C++ lines to paste into the test, `const std::vector<double> kName = {...};` (the result's
# elements in row-major order, float32 widened to double) and
# `const std::vector<int64_t> kNameShape = {...};`.
# One einsum case ("iij->ij") is printed from the reference's "jii->ij" on the permuted input:
# the reference's own "iij->ij" comes out transposed (its diagonal bookkeeping keeps the letter
# where it was while the dim moved last); ours takes the right diagonal.
#
# Usage:
#   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU python3 \
#     <repo>/tools/golden/gen_shape_extra_golden.py
from tinygrad import Tensor, dtypes

def flat(x):
  if isinstance(x, list): return [e for y in x for e in flat(y)]
  return [x]

def fmt(v):
  if isinstance(v, bool): return "1" if v else "0"
  if isinstance(v, int): return str(v)
  return repr(float(v))

def emit(name, t):
  print(f"const std::vector<double> k{name} = {{{', '.join(fmt(v) for v in flat(t.tolist()))}}};")
  print(f"const std::vector<int64_t> k{name}Shape = {{{', '.join(str(s) for s in t.shape)}}};")

A = lambda: Tensor.arange(24).reshape(2, 3, 4)
# roll
emit("RollD0", A().roll(1, 0))
emit("RollNegLast", A().roll(-2, -1))
emit("RollTwo", A().roll((1, -5), (0, 2)))
emit("RollFlat", A().roll(7))
emit("RollFlatNeg", A().roll(-3))
emit("RollBig", A().roll(5, 1))
emit("RollRepeatedDim", A().roll((1, 2), (1, 1)))
# diag / diagonal
emit("Diag", Tensor([1, 2, 3]).diag())
emit("Diag1", Tensor([5.5]).diag())
emit("Diagonal", Tensor.arange(16).reshape(4, 4).diagonal())
# meshgrid
X, Y, Z = [1, 2, 3], [4, 5], [6, 7, 8, 9]
for name, ts, ix in (("MeshIJ", (X, Y), "ij"), ("MeshXY", (X, Y), "xy"), ("Mesh3IJ", (X, Y, Z), "ij"),
                     ("Mesh3XY", (X, Y, Z), "xy")):
  t = [Tensor(v) for v in ts]
  for i, g in enumerate(t[0].meshgrid(*t[1:], indexing=ix)): emit(f"{name}{i}", g)
for i, g in enumerate(Tensor(7).meshgrid(Tensor(X))): emit(f"MeshScalar{i}", g)
# unfold
emit("Unfold1", Tensor.arange(8).unfold(0, 2, 2))
emit("Unfold2", Tensor.arange(27).reshape(3, 3, 3).unfold(-1, 2, 3))
emit("Unfold3", A().unfold(1, 2, 1))
emit("Unfold4", A().unfold(0, 2, 1))
emit("UnfoldWhole", Tensor.arange(5).unfold(0, 5, 1))
emit("UnfoldZero", Tensor.arange(5).unfold(0, 0, 2))
# pad_to
B = lambda: Tensor.arange(6).reshape(2, 3)
emit("PadToKeep", B().pad_to(None, 5))
emit("PadTo", B().pad_to(4, 4))
emit("PadToShrink", B().pad_to(1, 2))
# einsum (inputs: arange(n) * 0.5 - 1, exact in float32)
F = lambda *s: (Tensor.arange(int(__import__("math").prod(s)), dtype=dtypes.float32) * 0.5 - 1).reshape(*s)
emit("EinMatmul", Tensor.einsum("ij,jk->ik", F(2, 3), F(3, 4)))
emit("EinMatmulImplicit", Tensor.einsum("ij,jk", F(2, 3), F(3, 4)))
emit("EinBatch", Tensor.einsum("bij,bjk->bik", F(2, 2, 3), F(2, 3, 2)))
emit("EinTrace", Tensor.einsum("ii->", F(3, 3)))
emit("EinTraceImplicit", Tensor.einsum("ii", F(3, 3)))
emit("EinDiag", Tensor.einsum("ii->i", F(3, 3)))
emit("EinBatchDiag", Tensor.einsum("bii->bi", F(2, 3, 3)))
emit("EinBatchTrace", Tensor.einsum("bii->b", F(2, 3, 3)))
emit("EinDiagFirst", Tensor.einsum("jii->ij", F(3, 3, 4).permute(2, 0, 1)))  # = "iij->ij" on F(3, 3, 4)
emit("EinTranspose", Tensor.einsum("ij->ji", F(2, 3)))
emit("EinTransposeImplicit", Tensor.einsum("ji", F(2, 3)))
emit("EinOuter", Tensor.einsum("i,j->ij", F(3), F(4)))
emit("EinSumJ", Tensor.einsum("ij->i", F(2, 3)))
emit("EinSumAll", Tensor.einsum("ijk->", F(2, 3, 4)))
emit("EinThree", Tensor.einsum("ij,jk,kl->il", F(2, 3), F(3, 2), F(2, 2)))
emit("EinOutPerm", Tensor.einsum("ij,jk->ki", F(2, 3), F(3, 4)))
emit("EinUpper", Tensor.einsum("Ab,bC->CA", F(2, 3), F(3, 2)))
emit("EinEllBatch", Tensor.einsum("...ij,...jk->...ik", F(2, 2, 3), F(2, 3, 2)))
emit("EinEllMixed", Tensor.einsum("...ij,jk", F(2, 2, 3), F(3, 2)))
emit("EinEllSum", Tensor.einsum("i...->...", F(2, 2, 3)))
emit("EinEllImplicit", Tensor.einsum("...i,i", F(2, 3, 4), F(4)))
emit("EinInt", Tensor.einsum("ij,ij->", Tensor.arange(6).reshape(2, 3), Tensor.arange(6).reshape(2, 3)))
emit("EinAccFloat", Tensor.einsum("i,i->", Tensor.arange(4), Tensor.arange(4), dtype=dtypes.float32))
emit("EinSpaces", Tensor.einsum(" ij , jk -> ik ", F(2, 3), F(3, 4)))
# interpolate
I1 = [1.0, 2.5, -3.0, 4.0]
I2 = [[1.0, 2.5, -3.0, 4.0], [0.5, 7.0, 2.0, -1.0], [3.0, 3.0, -2.0, 6.0]]
for mode, mname in (("linear", "Lin"), ("nearest", "Near"), ("nearest-exact", "NearEx")):
  emit(f"Interp1Up{mname}", Tensor([[I1]]).interpolate((7,), mode=mode))
  emit(f"Interp1Down{mname}", Tensor([[I1]]).interpolate((3,), mode=mode))
  emit(f"Interp2Up{mname}", Tensor([I2]).interpolate((5, 6), mode=mode))
  emit(f"Interp2Down{mname}", Tensor([I2]).interpolate((2, 3), mode=mode))
emit("Interp1UpAlign", Tensor([[I1]]).interpolate((7,), align_corners=True))
emit("Interp1DownAlign", Tensor([[I1]]).interpolate((3,), align_corners=True))
emit("Interp2UpAlign", Tensor([I2]).interpolate((5, 6), align_corners=True))
emit("Interp2DownAlign", Tensor([I2]).interpolate((2, 3), align_corners=True))
emit("Interp2NoBatch", Tensor(I2).interpolate((4, 3)))
emit("InterpLastOnly", Tensor(I2).interpolate((6,)))
emit("InterpInt", Tensor([[1, 2, 3, 4], [21, 22, 23, 24], [41, 42, 43, 44]]).interpolate((2, 3)))
emit("InterpU8", Tensor([1, 2, 3], dtype=dtypes.uint8).interpolate((5,)))
