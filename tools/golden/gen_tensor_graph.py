#!/usr/bin/env python3
# File: tools/golden/gen_tensor_graph.py
# Writes tinygrad/tensor/testdata/tensor_graph.txt: for a table of Tensor expressions, the
# shape, dtype and the op histogram of the lazy UOp graph tinygrad builds (nothing is realized),
# plus the dtype promotion table of elementwise ops.
#
# Usage:
#   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU python3 \
#     <repo>/tools/golden/gen_tensor_graph.py > <repo>/tinygrad/tensor/testdata/tensor_graph.txt
#
# Records:
#   G|name|shape|dtype|OP:n,OP:n,...   (ops sorted by name; counts over the graph's toposort)
#   P|op|dtype_a|dtype_b|result        (b is a dtype, or py_int / py_float / py_bool scalars)
# The case names match the C++ table in tinygrad/tensor/graph_test.cc.
import math
from collections import Counter
from tinygrad import Tensor, dtypes

E = lambda *s, dtype=dtypes.float32: Tensor.empty(*s, dtype=dtype)

CASES = {
  "add_bcast": lambda: E(3, 1) + E(4),
  "add_int_scalar": lambda: E(3, dtype=dtypes.int32) + 2,
  "add_int8_tensors": lambda: E(3, dtype=dtypes.int8) + E(3, dtype=dtypes.int8),
  "mul_float_scalar_int_tensor": lambda: E(3, dtype=dtypes.int32) * 1.5,
  "sub": lambda: E(2, 3) - E(3),
  "rsub_scalar": lambda: 1 - E(2, 3),
  "div_int": lambda: E(4, dtype=dtypes.int32) / E(4, dtype=dtypes.int32),
  "floordiv_int_const": lambda: E(5, dtype=dtypes.int32) // 3,
  "mod_int_const": lambda: E(5, dtype=dtypes.int32) % 3,
  "floordiv_float": lambda: E(5) // E(5),
  "neg": lambda: -E(3),
  "neg_bool": lambda: -E(3, dtype=dtypes.bool),
  "abs": lambda: E(3).abs(),
  "exp": lambda: E(3).exp(),
  "exp_half": lambda: E(3, dtype=dtypes.float16).exp(),
  "log": lambda: E(3).log(),
  "sqrt_int": lambda: E(3, dtype=dtypes.int32).sqrt(),
  "sin": lambda: E(3).sin(),
  "cos": lambda: E(3).cos(),
  "tan": lambda: E(3).tan(),
  "relu": lambda: E(3).relu(),
  "leaky_relu": lambda: E(3).leaky_relu(0.1),
  "sigmoid": lambda: E(3).sigmoid(),
  "tanh": lambda: E(3).tanh(),
  "gelu": lambda: E(3).gelu(),
  "silu": lambda: E(3).silu(),
  "erf": lambda: E(3).erf(),
  "softplus": lambda: E(3).softplus(),
  "pow_float": lambda: E(3).pow(2.5),
  "maximum": lambda: E(3).maximum(E(2, 1)),
  "minimum": lambda: E(3).minimum(0.5),
  "minimum_int": lambda: E(3, dtype=dtypes.int32).minimum(E(3, dtype=dtypes.int32)),
  "clip": lambda: E(3).clip(-1, 1),
  "where": lambda: E(3, dtype=dtypes.bool).where(E(3), 0.0),
  "where_scalars": lambda: E(3, dtype=dtypes.bool).where(1, 2),
  "lt": lambda: E(3) < E(3),
  "ge_scalar": lambda: E(3) >= 1,
  "eq_int": lambda: E(3, dtype=dtypes.int32) == 2,
  "logical_not": lambda: E(3, dtype=dtypes.int32).logical_not(),
  "bitwise_not_int": lambda: ~E(3, dtype=dtypes.int32),
  "xor_bool": lambda: E(3, dtype=dtypes.bool) ^ E(3, dtype=dtypes.bool),
  "isnan": lambda: E(3).isnan(),
  "floor": lambda: E(3).floor(),
  "round": lambda: E(3).round(),
  "sum_all": lambda: E(4, 5).sum(),
  "sum_axis_keepdim": lambda: E(4, 5, 6).sum(1, keepdim=True),
  "sum_axes": lambda: E(4, 5, 6).sum((0, 2)),
  "sum_int8": lambda: E(4, dtype=dtypes.int8).sum(),
  "sum_half": lambda: E(4, dtype=dtypes.float16).sum(),
  "sum_bool": lambda: E(4, dtype=dtypes.bool).sum(),
  "prod": lambda: E(4, 3).prod(0),
  "max": lambda: E(4, 3).max(1),
  "min": lambda: E(4, 3).min(),
  "min_int": lambda: E(4, 3, dtype=dtypes.int32).min(),
  "any": lambda: E(4, 3).any(1),
  "all": lambda: E(4, 3).all(),
  "mean": lambda: E(4, 3).mean(1),
  "mean_int": lambda: E(4, 3, dtype=dtypes.int32).mean(),
  "var": lambda: E(4, 3).var(0),
  "std": lambda: E(4, 3).std(correction=0),
  "argmax": lambda: E(4, 3).argmax(1),
  "argmax_all": lambda: E(4, 3).argmax(),
  "argmin": lambda: E(4, 3).argmin(0, keepdim=True),
  "softmax": lambda: E(4, 3).softmax(),
  "log_softmax": lambda: E(4, 3).log_softmax(0),
  "logsumexp": lambda: E(4, 3).logsumexp(1),
  "cumsum": lambda: E(4, 5).cumsum(1),
  "cumsum_split": lambda: E(600).cumsum(),
  "cummax": lambda: E(7).cummax(0),
  "reshape": lambda: E(4, 6).reshape(2, -1, 3),
  "permute": lambda: E(2, 3, 4).permute(2, 0, 1),
  "transpose": lambda: E(2, 3, 4).transpose(0, 2),
  "expand": lambda: E(3, 1).expand(2, 3, 4),
  "pad": lambda: E(3, 4).pad(((1, 2), (0, 1))),
  "pad_value": lambda: E(3, 4).pad(((1, 2), None), value=1.5),
  "pad_negative": lambda: E(3, 4).pad(((-1, 2), (0, -2))),
  "shrink": lambda: E(5, 6).shrink(((1, 3), None)),
  "flip": lambda: E(3, 4).flip(1),
  "slice_step": lambda: E(10, 4)[1:8:2],
  "slice_neg_step": lambda: E(10, 4)[::-3, 1],
  "slice_ellipsis": lambda: E(2, 3, 4)[..., 2],
  "slice_newaxis": lambda: E(3, 4)[None, 1:, -1],
  "cat": lambda: E(2, 3).cat(E(4, 3), E(1, 3)),
  "stack": lambda: E(2, 3).stack(E(2, 3), dim=1),
  "split": lambda: E(7, 3).split(3)[2],
  "chunk": lambda: E(7, 3).chunk(2, 1)[1],
  "squeeze": lambda: E(1, 3, 1).squeeze(),
  "unsqueeze": lambda: E(3).unsqueeze(-1),
  "flatten": lambda: E(2, 3, 4).flatten(1),
  "repeat": lambda: E(2, 3).repeat(2, 1, 3),
  "repeat_interleave": lambda: E(2, 3).repeat_interleave(2, 1),
  "gather": lambda: E(3, 4).gather(1, E(3, 2, dtype=dtypes.int32)),
  "one_hot": lambda: E(5, dtype=dtypes.int32).one_hot(4),
  "tril": lambda: E(3, 4).tril(),
  "triu": lambda: E(3, 4).triu(1),
  "matmul": lambda: E(3, 4) @ E(4, 5),
  "matmul_batched": lambda: E(2, 1, 3, 4) @ E(5, 4, 6),
  "matmul_vec": lambda: E(4) @ E(4, 5),
  "dot_vec_vec": lambda: E(4).dot(E(4)),
  "matmul_int": lambda: E(3, 4, dtype=dtypes.int32) @ E(4, 2, dtype=dtypes.int32),
  "linear": lambda: E(2, 4).linear(E(4, 3), E(3)),
  "conv2d": lambda: E(1, 3, 8, 8).conv2d(E(4, 3, 3, 3)),
  "conv2d_full": lambda: E(2, 4, 9, 7).conv2d(E(6, 2, 3, 2), E(6), groups=2, stride=2, dilation=(1, 2), padding=(1, 2)),
  "max_pool2d": lambda: E(1, 2, 6, 6).max_pool2d(),
  "max_pool2d_ceil": lambda: E(1, 1, 7, 7).max_pool2d(3, stride=2, padding=1, ceil_mode=True),
  "avg_pool2d": lambda: E(1, 2, 6, 6).avg_pool2d((3, 3), stride=1, padding=1),
  "avg_pool2d_nopad": lambda: E(1, 1, 7, 7).avg_pool2d(3, stride=2, padding=1, ceil_mode=True, count_include_pad=False),
  "avg_pool2d_ceil": lambda: E(1, 1, 7, 7).avg_pool2d(2, ceil_mode=True),
  "layernorm": lambda: E(2, 5).layernorm(),
  "batchnorm": lambda: E(2, 3, 4).batchnorm(E(3), E(3), E(3), E(3)),
  "sdpa": lambda: E(2, 4, 8).scaled_dot_product_attention(E(2, 4, 8), E(2, 4, 8)),
  "sdpa_causal": lambda: E(2, 4, 8).scaled_dot_product_attention(E(2, 4, 8), E(2, 4, 8), is_causal=True),
  "sdpa_mask": lambda: E(2, 4, 8).scaled_dot_product_attention(E(2, 4, 8), E(2, 4, 8), attn_mask=E(4, 4, dtype=dtypes.bool)),
  "arange": lambda: Tensor.arange(10),
  "arange_step": lambda: Tensor.arange(2, 11, 3),
  "arange_float": lambda: Tensor.arange(0.5, 3.0, 0.5),
  "eye": lambda: Tensor.eye(3, 4),
  "full": lambda: Tensor.full((2, 3), 7),
  "zeros_int": lambda: Tensor.zeros(2, 3, dtype=dtypes.int32),
  "linspace": lambda: Tensor.linspace(0, 1, 5),
  "cast": lambda: E(3).cast(dtypes.int32),
  "cast_uint8": lambda: E(3).cast(dtypes.uint8),
  "bitcast": lambda: E(3).bitcast(dtypes.int32),
  "bitcast_split": lambda: E(3, dtype=dtypes.uint32).bitcast(dtypes.uint8),
  "bitcast_merge": lambda: E(4, dtype=dtypes.uint8).bitcast(dtypes.uint16),
  "contiguous": lambda: E(3, 4).T.contiguous(),
}

def hist(t):
  c = Counter(u.op.name for u in t.uop.toposort())
  return ",".join(f"{k}:{c[k]}" for k in sorted(c))

for name, f in CASES.items():
  t = f()
  print(f"G|{name}|{tuple(t.shape)}|{t.dtype}|{hist(t)}")

DTS = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
       "float16", "bfloat16", "float32", "float64"]
SCALARS = {"py_int": 3, "py_float": 1.5, "py_bool": True}
for op, fn in [("add", lambda a, b: a + b), ("div", lambda a, b: a / b), ("lt", lambda a, b: a < b),
               ("maximum", lambda a, b: a.maximum(b))]:
  for a in DTS:
    for b in DTS + list(SCALARS):
      x = E(2, dtype=getattr(dtypes, a))
      y = SCALARS[b] if b in SCALARS else E(2, dtype=getattr(dtypes, b))
      try: r = str(fn(x, y).dtype)
      except Exception as e: r = "error"
      print(f"P|{op}|{a}|{b}|{r}")
