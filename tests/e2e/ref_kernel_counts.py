# Prints the number of kernels (SINK schedule items) tinygrad's scheduler makes for the cases in
# tests/e2e/kernel_count_test.cc. Run from outside the tinygrad checkout:
#   PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU python3 tests/e2e/ref_kernel_counts.py
import math, sys
from tinygrad import Tensor

def n(*outs): return len([si for si in Tensor.schedule(*outs) if si.ast.op.name == 'SINK'])
def R(*s): return Tensor.rand(*s).realize()
def weight(shape, fan_in):
  b = 1 / math.sqrt(fan_in)
  return Tensor.uniform(*shape, low=-b, high=b).realize()

print("softmax_8x32", n(R(8, 32).softmax(-1)))
print("matmul_relu_16x32x8", n((R(16, 32) @ R(32, 8)).relu()))
print("conv2d_1x4x10x10_8x4x3x3", n(R(1, 4, 10, 10).conv2d(R(8, 4, 3, 3))))
print("sum_4096x4096", n(Tensor.ones(4096, 4096).contiguous().realize().sum()))
print("layernorm_8x32", n(R(8, 32).layernorm()))
x = R(8, 32); print("center_8x32", n(x - x.mean(1, keepdim=True)))
x = R(4, 32); print("log_softmax_4x32", n(x.log_softmax(-1)))
x = R(6, 10); print("var_6x10_axis1", n(x.var(1)))
x = R(64); print("cumsum_64", n(x.cumsum()))
x = R(5, 7); print("argmax_5x7_axis1", n(x.argmax(1)))
x = R(1, 2, 8, 8); print("max_pool2d_1x2x8x8", n(x.max_pool2d()))
x = R(6, 10); print("sum0_sum1_together", n(x.sum(0), x.sum(1)))
x = R(6, 10); a = (x*2).contiguous(); print("shared_contig_sum_max", n(a.sum(), a.max()))
x = R(6, 10); print("softmax_and_logsoftmax", n(x.softmax(), x.log_softmax()))
x = R(3, 0); print("zero_size_sum", n(x.sum(1)))
x = R(16); print("scalar_mul_add", n(x * 2 + 1))
x = R(8, 8); print("transpose_contig", n(x.T.contiguous()))
x = R(8, 8); print("matmul_self_T", n(x @ x.T))
x = R(2, 3, 4); print("permute_sum", n(x.permute(2, 0, 1).sum(2)))
x = R(4, 4); print("cat", n(x.cat(x * 2, dim=0)))
x = R(12); print("pad_shrink", n(x.pad(((2, 3),)).shrink(((1, 15),)) + 1))
x = R(4, 5); print("std", n(x.std(1)))
x = R(4, 5); print("argmax_all", n(x.argmax()))
x = R(10); print("cumsum_then_max", n(x.cumsum().max()))

def matmul(m, n_, k):
  a, b = R(m, k), R(k, n_); return a @ b
def conv2d(batch, cin, cout, size, kernel):
  x, w = R(batch, cin, size, size), weight((cout, cin, kernel, kernel), cin*kernel*kernel)
  return x.conv2d(w, padding=kernel//2)
def mlp(batch, inp, hidden, out):
  x = R(batch, inp)
  w1, b1, w2, b2 = weight((hidden, inp), inp), weight((hidden,), inp), weight((hidden, hidden), hidden), weight((hidden,), hidden)
  w3, b3 = weight((out, hidden), hidden), weight((out,), hidden)
  h = x.linear(w1.T, b1).relu()
  h = h.linear(w2.T, b2).relu()
  return h.linear(w3.T, b3)
def attention(batch, seq, dim, heads):
  hd = dim // heads
  x, wqkv, wo = R(batch, seq, dim), weight((dim, 3*dim), dim), weight((dim, dim), dim)
  q, k, v = x.layernorm().matmul(wqkv).split(dim, 2)
  hs = lambda z: z.reshape(batch, seq, heads, hd).transpose(1, 2)
  att = hs(q).scaled_dot_product_attention(hs(k), hs(v), is_causal=True)
  return x + att.transpose(1, 2).reshape(batch, seq, dim).matmul(wo)
def resnet_block(batch, channels, size):
  c = channels
  x, w1, w2 = R(batch, c, size, size), weight((c, c, 3, 3), c*9), weight((c, c, 3, 3), c*9)
  m1, m2 = weight((c,), 4), weight((c,), 4)
  ones, zeros = Tensor.ones(c), Tensor.zeros(c)
  bn = lambda h, m: h.batchnorm(ones, zeros, m, ones)
  h = bn(x.conv2d(w1, padding=1), m1).relu()
  h = bn(h.conv2d(w2, padding=1), m2)
  return (h + x).relu()

SMALL = [("matmul", matmul, (5, 7, 9)), ("conv2d", conv2d, (2, 3, 4, 6, 3)),
         ("mlp", mlp, (4, 16, 8, 3)), ("attention", attention, (2, 8, 16, 2)),
         ("resnet_block", resnet_block, (1, 4, 6))]
for name, fn, args in SMALL: print("workload_small", name, n(fn(*args)))
if "--defaults" in sys.argv:
  DEF = [("matmul", matmul, (512, 512, 512)), ("conv2d", conv2d, (8, 16, 32, 32, 3)),
         ("mlp", mlp, (64, 784, 512, 10)), ("attention", attention, (4, 64, 128, 4)),
         ("resnet_block", resnet_block, (1, 64, 32))]
  for name, fn, args in DEF: print("workload_default", name, n(fn(*args)))
