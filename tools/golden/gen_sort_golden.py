#!/usr/bin/env python3
# File: tools/golden/gen_sort_golden.py
# Prints the expected values of tinygrad/tensor/sort_test.cc: sort / argsort / topk of small
# float, int, uint8, int64, float16 and bool tensors (ties, odd sizes, each dim, descending),
# the reference's errors for bad input, and Tensor.randperm / multinomial after
# Tensor.manual_seed (our generator is bit-exact with the reference's, so the draws match).
# Each line is "name dtype shape values".
#
# Usage:
#   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU python3 \
#     <repo>/tools/golden/gen_sort_golden.py
from tinygrad import Tensor, dtypes
def show(name, t):
  print(name, t.dtype, t.shape, t.tolist())
def s(name, data, dtype, **kw):
  v, i = Tensor(data, dtype=dtype).sort(**kw)
  show(name+".v", v); show(name+".i", i)
f1 = [3.0, 1.0, 2.0, 1.0, 5.0, 2.0, -1.0]
s("f1", f1, dtypes.float32)
s("f1d", f1, dtypes.float32, descending=True)
f2 = [[0.1, 0.5, 1.2, 3.4, 2.1], [2.2, 1.9, 0.3, 4.5, 0.8], [2.2, -1.0, 0.3, 0.3, 7.0]]
s("f2d1", f2, dtypes.float32, dim=1)
s("f2d0", f2, dtypes.float32, dim=0)
s("f2dm2desc", f2, dtypes.float32, dim=-2, descending=True)
i3 = [[[5,1,4,1,5,9],[2,6,5,3,5,8],[9,7,9,3,2,3]],[[8,4,6,2,6,4],[3,3,8,3,2,7],[9,5,0,2,8,8]]]
s("i3d1", i3, dtypes.int32, dim=1)
s("i3dm1desc", i3, dtypes.int32, dim=-1, descending=True)
s("i3d0desc", i3, dtypes.int32, dim=0, descending=True)
i8 = [7, -3, 7, 0, 2147483647, -2147483648, 7, 1]
s("i8", i8, dtypes.int32)
s("i8d", i8, dtypes.int32, descending=True)
s("one", [4.0], dtypes.float32)
s("two", [4, 3], dtypes.int32)
i64 = [9223372036854775807, -5, 3, -9223372036854775808, 3]
s("i64", i64, dtypes.int64)
s("i64d", i64, dtypes.int64, descending=True)
u8 = [200, 3, 255, 0, 3, 17]
s("u8", u8, dtypes.uint8)
s("u8d", u8, dtypes.uint8, descending=True)
try: s("bool", [True, False, True, False, False], dtypes.bool)
except Exception as e: print("bool err", type(e).__name__, e)
try: s("bool_d", [True, False, True, False, False], dtypes.bool, descending=True)
except Exception as e: print("bool err", type(e).__name__, e)
s("f13", [float((i*7)%13) - 6.5 for i in range(13)], dtypes.float32)
s("f16", [0.5, -2.0, 1.5, 0.5, 3.25, -2.0, 0.0], dtypes.float16, descending=True)
show("argsort", Tensor([[2, 3, 4, 1], [1, 4, 3, 2]]).argsort())
show("argsort_d0_desc", Tensor([[2, 3, 4, 1], [1, 4, 3, 2], [1, 1, 5, 2]]).argsort(0, True))
v,i = Tensor(f2).topk(2, dim=1); show("topk2.v", v); show("topk2.i", i)
v,i = Tensor(f2).topk(2, dim=0, largest=False); show("topk2s0.v", v); show("topk2s0.i", i)
v,i = Tensor(i3, dtype=dtypes.int32).topk(3); show("topk3i.v", v); show("topk3i.i", i)
v,i = Tensor(f1).topk(7, largest=False); show("topk7.v", v); show("topk7.i", i)
for a in [lambda: Tensor(f1).topk(8), lambda: Tensor(f1).topk(2, sorted_=False), lambda: Tensor(f1).sort(1), lambda: Tensor(3.0).sort(), lambda: Tensor(f1).topk(0)]:
  try: r = a(); print("ok", [x.shape for x in r])
  except Exception as e: print("err", type(e).__name__, e)
Tensor.manual_seed(42)
show("randperm10", Tensor.randperm(10))
show("randperm7", Tensor.randperm(7))
show("randperm1", Tensor.randperm(1))
Tensor.manual_seed(0)
show("randperm33_i64", Tensor.randperm(33, dtype=dtypes.int64))
Tensor.manual_seed(42)
show("mn20", Tensor([1, 2, 3, 4]).multinomial(20, replacement=True))
show("mn1", Tensor([0.1, 0.0, 0.6, 0.3]).multinomial())
show("mn2d", Tensor([[1.0, 0.0, 3.0], [0.0, 5.0, 1.0]]).multinomial(6, replacement=True))
show("mn2d1", Tensor([[1, 0, 3], [0, 5, 1]]).multinomial())
for a in [lambda: Tensor([1.0, 2.0]).multinomial(2), lambda: Tensor([1.0]).multinomial(0, True), lambda: Tensor([[[1.0]]]).multinomial(), lambda: Tensor(1.0).multinomial()]:
  try: r = a(); print("ok", r.shape)
  except Exception as e: print("err", type(e).__name__, e)
show("empty", Tensor.zeros(0, 3).sort(1)[1])
show("emptydim", Tensor.zeros(2, 0).sort(1)[1])
# a longer row with many ties: the indices are those of a stable sort (the C++ test checks it
# against std::stable_sort)
big = [[(i * i * 7 + 3 * r) % 5 for i in range(37)] for r in range(3)]
show("big.i", Tensor(big, dtype=dtypes.int32).sort(1, descending=True)[1])
st = [sorted(range(37), key=lambda i: -row[i]) for row in big]
print("big.i equals python's stable sort:", st == Tensor(big, dtype=dtypes.int32).sort(1, descending=True)[1].tolist())
st0 = [[r for r in sorted(range(3), key=lambda r: big[r][c])] for c in range(37)]
print("big.T dim0 equals python's stable sort:", [list(x) for x in zip(*st0)] == Tensor(big, dtype=dtypes.int32).sort(0)[1].tolist())
