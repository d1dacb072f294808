#!/usr/bin/env python3
# File: tools/golden/gen_scatter_golden.py
# Prints the expected values of tinygrad/tensor/scatter_test.cc: tinygrad's scatter,
# scatter_reduce, masked_fill, masked_select and max_unpool2d (and gradients through
# scatter_reduce and masked_fill) on the test's programs, one line per case:
#   name | dtype | shape | values (row-major, C++ initializer-list form)
# The test's expectations were pasted from this output.
#
# Usage:
#   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU python3 \
#     <repo>/tools/golden/gen_scatter_golden.py
from tinygrad import Tensor, dtypes

def fmt(v):
  if isinstance(v, bool): return "true" if v else "false"
  if isinstance(v, float): return repr(v)
  return str(v)

def flat(x):
  if isinstance(x, list): return [y for e in x for y in flat(e)]
  return [x]

def show(name, t):
  vals = flat(t.tolist())
  print(f"{name} | {t.dtype} | {tuple(t.shape)} | {{{', '.join(fmt(v) for v in vals)}}}")

def src25(): return Tensor.arange(1, 11).reshape(2, 5)
def idx(v): return Tensor(v, dtype=dtypes.int32)

# ** scatter **
show("scatter_dim0", Tensor.zeros(3, 5, dtype=dtypes.int32).scatter(0, idx([[0, 1, 2, 0]]), src25()))
show("scatter_dim1", Tensor.zeros(3, 5, dtype=dtypes.int32).scatter(1, idx([[0, 1, 2], [0, 1, 4]]), src25()))
# repeated positions: the last one wins
show("scatter_dups", Tensor.arange(12).float().reshape(3, 4).scatter(
  1, idx([[1, 1, 0], [3, 3, 3], [0, 2, 2]]), (Tensor.arange(9).float().reshape(3, 3) + 0.5) * -1))
show("scatter_3d_neg_dim", Tensor.ones(2, 3, 4).scatter(
  -2, idx([[[2, 0, 1], [0, 0, 2]], [[1, 1, 1], [2, 1, 0]]]), Tensor.arange(24).float().reshape(2, 3, 4) / 4))
# out of range values (3 and -1 along a dim of 3) write nothing
show("scatter_out_of_range", Tensor.zeros(3, 2).scatter(0, idx([[3, 0], [-1, 2]]), Tensor([[1.0, 2.0], [3.0, 4.0]])))
show("scatter_scalar", Tensor.full((2, 4), 2.0).scatter(1, idx([[2], [3]]), 1.25))
show("scatter_scalar_multiply", Tensor.full((2, 4), 2.0).scatter(1, idx([[2, 2], [3, 0]]), 1.25, reduce='multiply'))
show("scatter_scalar_add", Tensor.full((2, 4), 2.0).scatter(1, idx([[2, 2], [3, 0]]), 1.25, reduce='add'))
show("scatter_int64_index", Tensor([True, False, False, True]).scatter(0, Tensor([1, 2], dtype=dtypes.int64), Tensor([True, True])))

# ** scatter_reduce: duplicates along dim 0, every reduce, include_self both ways **
def sr_self(): return Tensor([[1.0, -2.0, 3.0, 4.0], [5.0, 6.0, -7.0, 8.0], [9.0, 10.0, 11.0, -12.0]])
def sr_src(): return Tensor([[0.5, 1.5, -2.5, 3.5], [4.5, -5.5, 6.5, 7.5], [-8.5, 9.5, 10.5, 0.25]])
SR_IDX = [[0, 0, 2, 1], [0, 2, 2, 1], [2, 0, 2, 0]]
for red in ("sum", "prod", "mean", "amax", "amin"):
  for inc in (True, False):
    show(f"sr_f32_{red}_{inc}", sr_self().scatter_reduce(0, idx(SR_IDX), sr_src(), red, include_self=inc))
def sri_self(): return Tensor([[3, -1, 4], [1, -5, 9]], dtype=dtypes.int32)
def sri_src(): return Tensor([[2, 7, -1, 8], [-2, 8, 1, 8]], dtype=dtypes.int32)
SRI_IDX = [[0, 2, 0], [1, 1, 1]]
for red in ("sum", "prod", "mean", "amax", "amin"):
  for inc in (True, False):
    show(f"sr_i32_{red}_{inc}", sri_self().scatter_reduce(1, idx(SRI_IDX), sri_src(), red, include_self=inc))
show("sr_i8_sum", Tensor([1, 2, 3], dtype=dtypes.int8).scatter_reduce(0, idx([0, 0, 2]), Tensor([100, 100, -4], dtype=dtypes.int8), "sum"))
show("sr_i8_amax", Tensor([1, 2, 3], dtype=dtypes.int8).scatter_reduce(0, idx([0, 0, 2]), Tensor([100, 50, -4], dtype=dtypes.int8), "amax", include_self=False))
show("sr_3d_dim2_amin", Tensor.arange(24).float().reshape(2, 3, 4).scatter_reduce(
  2, idx([[[3, 3], [0, 1]], [[2, 2], [1, 1]]]), Tensor.arange(12).float().reshape(2, 3, 2) - 6, "amin", include_self=False))

# ** masked_fill, masked_select **
def mf_x(): return Tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
show("masked_fill_scalar", mf_x().masked_fill(Tensor([[True, False, True], [False, False, True]]), -12.0))
show("masked_fill_broadcast", mf_x().masked_fill(Tensor([[False, True, False]]), Tensor([-1.0, -2.0, -3.0])))
show("masked_fill_int", Tensor([1, 2, 3, 4, 5]).masked_fill(Tensor([True, False, True, False, False]), 7))
show("masked_select", Tensor([[0, 1, 2], [3, 4, 5], [6, 7, 8]]).masked_select(
  Tensor([[True, False, True], [False, True, False], [False, False, True]])))
show("masked_select_broadcast", Tensor.arange(6).float().reshape(2, 3).masked_select(Tensor([False, True, True])))
show("masked_select_none", Tensor([1.0, 2.0, 3.0]).masked_select(Tensor([False, False, False])))

# ** max_unpool2d **
t = Tensor.arange(1, 17).reshape(1, 1, 4, 4).float()
out, ind = Tensor.max_pool2d(t, return_indices=True)
show("unpool_out", out)
show("unpool_ind", ind)
show("unpool_default", Tensor.max_unpool2d(out, ind))
show("unpool_output_size", Tensor.max_unpool2d(out, ind, output_size=(5, 5)))
t2 = Tensor([[[[3.0, 1.0, 4.0, 1.0, 5.0], [9.0, 2.0, 6.0, 5.0, 3.0], [5.0, 8.0, 9.0, 7.0, 9.0]]]])
out2, ind2 = Tensor.max_pool2d(t2, kernel_size=(2, 2), stride=1, padding=1, return_indices=True)
show("unpool2_out", out2)
show("unpool2_ind", ind2)
show("unpool2", Tensor.max_unpool2d(out2, ind2, kernel_size=(2, 2), stride=1, padding=1))

# ** gradients **
x = Tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], requires_grad=True)
s = Tensor([[0.5, -1.0, 2.0], [3.0, 0.25, -4.0]], requires_grad=True)
w = Tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0], [4.0, -3.0, 1.5]])
(x.scatter_reduce(0, idx([[2, 0, 2], [2, 1, 0]]), s, "sum", include_self=False) * w).sum().backward()
show("grad_sum_x", x.grad)
show("grad_sum_src", s.grad)
x = Tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], requires_grad=True)
s = Tensor([[0.5, -1.0, 2.0], [3.0, 0.25, -4.0]], requires_grad=True)
(x.scatter_reduce(1, idx([[2, 2, 0], [1, 1, 1]]), s, "mean") * w).sum().backward()
show("grad_mean_x", x.grad)
show("grad_mean_src", s.grad)
x = Tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
v = Tensor([10.0, 20.0, 30.0], requires_grad=True)
(x.masked_fill(Tensor([[True, False, True], [False, False, True]]), v) * Tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum().backward()
show("grad_mf_x", x.grad)
show("grad_mf_v", v.grad)
x = Tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], requires_grad=True)
s = Tensor([[0.5, -1.0, 2.0], [3.0, 0.25, -4.0]], requires_grad=True)
(x.scatter(0, idx([[2, 0, 2], [2, 1, 0]]), s) * w).sum().backward()
show("grad_scatter_x", x.grad)
show("grad_scatter_src", s.grad)

# ** errors (the reference's message) **
def err(name, f):
  try:
    f()
    print(f"{name} | no error")
  except Exception as e: print(f"{name} | {type(e).__name__}: {e}")
err("err_rank", lambda: Tensor.zeros(3, 4).scatter(0, idx([0, 1]), Tensor.ones(2)))
err("err_index_shape", lambda: Tensor.zeros(3, 4).scatter(0, idx([[0, 1, 2, 0, 1]]), Tensor.ones(1, 5)))
err("err_src_shape", lambda: Tensor.zeros(3, 4).scatter(0, idx([[0, 1, 2]]), Tensor.ones(1, 2)))
err("err_dtype", lambda: Tensor.zeros(3, 4).scatter(0, idx([[0, 1]]), Tensor.ones(1, 2, dtype=dtypes.int32)))
err("err_float_index", lambda: Tensor.zeros(3, 4).scatter(0, Tensor([[0.0, 1.0]]), Tensor.ones(1, 2)).realize())
err("err_dim", lambda: Tensor.zeros(3, 4).scatter(2, idx([[0, 1]]), Tensor.ones(1, 2)))
err("err_masked_select_dtype", lambda: Tensor.zeros(3).masked_select(Tensor([1, 0, 1])))
err("err_masked_select_shape", lambda: Tensor.zeros(3).masked_select(Tensor([True, False])))
err("err_masked_fill_shape", lambda: Tensor.zeros(3).masked_fill(Tensor([True, False]), 1.0))
