#!/usr/bin/env python3
# File: tools/golden/gen_math_extra_golden.py
# Prints the expected values of tinygrad/tensor/math_extra_test.cc: tinygrad's asin/acos/atan,
# hyperbolic functions, activations, lerp, copysign, isclose, var_mean/std_mean, cumprod and
# logcumsumexp on the test's inputs, and a few gradients (sum of the result times fixed
# weights, backward), as C++ `const std::vector<double> kName = {...};` lines to paste into
# the test (values are the float32 results widened to double; kInf and kNaN stand for inf, nan).
#
# Usage:
#   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU python3 \
#     <repo>/tools/golden/gen_math_extra_golden.py
import math
from tinygrad import Tensor, dtypes

def fmt(v):
  if isinstance(v, bool): return "1" if v else "0"
  if isinstance(v, int): return str(v)
  if math.isnan(v): return "kNaN"
  if math.isinf(v): return "kInf" if v > 0 else "-kInf"
  return repr(float(v))

def flat(x):
  if isinstance(x, list): return [e for y in x for e in flat(y)]
  return [x]

def emit(name, t):
  vals = flat(t.tolist()) if isinstance(t, Tensor) else flat(t)
  print(f"const std::vector<double> k{name} = {{{', '.join(fmt(v) for v in vals)}}};")

X = [-100., -50., -10., -3., -2., -1., -0.5, -0.1, 0., 0.1, 0.5, 1., 2., 3., 6., 9., 10., 50., 100.]
U = [-1., -0.999, -0.9, -0.5, -0.1, 0., 0.1, 0.5, 0.9, 0.999, 1.]
ACOSH = [0.5, 1., 1.001, 1.5, 2., 10., 100., 1000.]
ATAN = [-1000., -10., -1., -0.5, 0., 0.5, 1., 10., 1000.]
x = lambda: Tensor(X)
emit("Asin", Tensor(U).asin())
emit("Acos", Tensor(U).acos())
emit("Atanh", Tensor(U).atanh())
emit("Atan", Tensor(ATAN).atan())
emit("Acosh", Tensor(ACOSH).acosh())
emit("Asinh", x().asinh())
emit("Sinh", x().sinh())
emit("Cosh", x().cosh())
emit("Elu", x().elu())
emit("Elu05", x().elu(alpha=0.5))
emit("Celu", x().celu())
emit("Celu05", x().celu(alpha=0.5))
emit("Selu", x().selu())
emit("Mish", x().mish())
emit("Softsign", x().softsign())
emit("Hardsigmoid", x().hardsigmoid())
emit("Hardsigmoid0203", x().hardsigmoid(alpha=0.2, beta=0.3))
emit("Hardswish", x().hardswish())
emit("Hardtanh", x().hardtanh())
emit("HardtanhM2P05", x().hardtanh(-2, 0.5))
emit("Relu6", x().relu6())
emit("Swish", x().swish())
emit("QuickGelu", x().quick_gelu())
emit("AsinInt", Tensor([1, -2, 0]).asin())
emit("Relu6Int", Tensor([-3, 2, 7]).relu6())

# lerp
LA, LB, LW = [1., 2., 3., -4.], [4., 5., 6., 8.], [0., 0.25, 1., 1.5]
emit("LerpNum", Tensor(LA).lerp(Tensor(LB), 0.5))
emit("LerpTensor", Tensor(LA).lerp(Tensor(LB), Tensor(LW)))
U8A, U8B, U8W = [0, 10, 200, 100, 50], [100, 20, 100, 0, 60], [0.5, 0.25, 0.75, 1.0, 0.3]
emit("LerpU8", Tensor(U8A, dtype=dtypes.uint8).lerp(Tensor(U8B, dtype=dtypes.uint8), Tensor(U8W)))

# copysign
CA, CB = [1., -2., 3., -4., 0., 5.], [-1., -1., 1., 1., -1., -0.0]
emit("CopysignTensor", Tensor(CA).copysign(Tensor(CB)))
emit("CopysignNum", Tensor(CA).copysign(-1.0))
emit("CopysignBroadcast", Tensor(CA).reshape(2, 3).copysign(Tensor([-1., 2., -3.])))
emit("CopysignIntNum", Tensor([1, -2, 3]).copysign(-1))

# isclose / allclose
inf, nan = float("inf"), float("nan")
IA = [1.0, 1.0, 1e-7, 1e-9, inf, inf, -inf, nan, nan, 1.0, 100.0, 1.0]
IB = [1.0, 1.00001, 0.0, 0.0, inf, -inf, -inf, nan, 1.0, 1.1, 100.001, 1.0000101]
emit("Isclose", Tensor(IA).isclose(Tensor(IB)))
emit("IscloseEqualNan", Tensor(IA).isclose(Tensor(IB), equal_nan=True))
emit("IscloseRtol", Tensor(IA).isclose(Tensor(IB), rtol=0.1, atol=0.0))
print("// allclose:", Tensor([1.0, 2.0]).allclose(Tensor([1.0, 2.000001])),
      Tensor([1.0, 2.0]).allclose(Tensor([1.0, 2.1])),
      Tensor([nan]).allclose(Tensor([nan])), Tensor([nan]).allclose(Tensor([nan]), equal_nan=True))

# var_mean / std_mean
M = [[1., 2., 3., 4.], [-5., 6.5, 0., 2.], [3., 3., 8., -1.]]
m = lambda: Tensor(M)
for nm, kw in [("All", {}), ("Axis0", {"axis": 0}), ("Axis1Keep", {"axis": 1, "keepdim": True}),
               ("Axis01Corr0", {"axis": (0, 1), "correction": 0}), ("AxisM1Corr2", {"axis": -1, "correction": 2})]:
  v, mu = m().var_mean(**kw)
  emit(f"Var{nm}", v); emit(f"VarMean{nm}", mu)
  s, mu = m().std_mean(**kw)
  emit(f"Std{nm}", s); emit(f"StdMean{nm}", mu)
emit("StdMeanIntStd", Tensor([1, -2, 3, 4]).std_mean()[0])

# cumprod
emit("Cumprod1d", Tensor([2., -1., 0.5, 0., 3., -2.]).cumprod(0))
CP = [[2., -1., 0.5], [0., 3., -2.]]
emit("Cumprod2dAxis0", Tensor(CP).cumprod(0))
emit("Cumprod2dAxis1", Tensor(CP).cumprod(1))
emit("Cumprod2dAxisM1", Tensor(CP).cumprod(-1))
emit("CumprodInt", Tensor([1, -2, 3, 4, -1]).cumprod(0))
CYC = [2., -1., 0.5, 1., -2., 0.5]
LONG = [[CYC[i % 6] for i in range(600)], [0. if i == 400 else CYC[(i + 1) % 6] for i in range(600)]]
emit("CumprodLong", Tensor(LONG).cumprod(1))

# logcumsumexp
emit("Logcumsumexp1d", Tensor([1., 2., 3., 4.]).logcumsumexp())
LC = [[1., -2., 0.5], [3., 0., -1.]]
emit("Logcumsumexp2dAxis0", Tensor(LC).logcumsumexp(0))
emit("Logcumsumexp2dAxis1", Tensor(LC).logcumsumexp(1))
emit("LogcumsumexpLarge", Tensor([1000., 1000.5, -1000., 0., 1001.]).logcumsumexp())
emit("LogcumsumexpNegInf", Tensor([-inf, 0., -inf, 1.]).logcumsumexp())
emit("LogcumsumexpInt", Tensor([1, -2, 3]).logcumsumexp())

# gradients: (f(x) * w).sum().backward()
def grad(f, vals, w):
  t = Tensor(vals, requires_grad=True)
  (f(t) * Tensor(w)).sum().backward()
  return t.grad
G = [-0.5, 0.1, 0.7, 0.0]
GW = [1., -2., 0.5, 3.]
emit("GradAsin", grad(lambda t: t.asin(), G, GW))
emit("GradAtanh", grad(lambda t: t.atanh(), G, GW))
emit("GradSelu", grad(lambda t: t.selu(), [-1., 0., 2., -0.3], GW))
emit("GradElu", grad(lambda t: t.elu(), [-1., 0., 2., -0.3], GW))
emit("GradHardswish", grad(lambda t: t.hardswish(), [-4., -1., 0.5, 3.5], GW))
emit("GradMish", grad(lambda t: t.mish(), [-1., 0., 2., -0.3], GW))
emit("GradCumprod", grad(lambda t: t.cumprod(0), [2., -1., 0.5, 3.], GW))
emit("GradLogcumsumexp", grad(lambda t: t.logcumsumexp(0), [1., -2., 0.5, 3.], GW))
a = Tensor(LA, requires_grad=True); b = Tensor(LB, requires_grad=True); w = Tensor(LW, requires_grad=True)
(a.lerp(b, w) * Tensor(GW)).sum().backward()
emit("GradLerpA", a.grad); emit("GradLerpB", b.grad); emit("GradLerpW", w.grad)
t = Tensor(M, requires_grad=True)
s, mu = t.std_mean(axis=1)
(s * Tensor([1., -2., 0.5]) + mu).sum().backward()
emit("GradStdMean", t.grad)
