#!/usr/bin/env python3
# File: tools/golden/gen_nn_modules_golden.py
# Writes tinygrad/nn/testdata/nn_modules_golden.txt: the reference tinygrad's nn modules and
# init functions, built from a fixed seed, with their parameters and their outputs on random
# inputs. tinygrad/nn/modules_golden_test.cc makes the same calls in the same order (our
# generator is bit-exact with the reference's), so the weights must match exactly and the
# outputs within float32 rounding.
#
# Usage:
#   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU python3 \
#     <repo>/tools/golden/gen_nn_modules_golden.py > <repo>/tinygrad/nn/testdata/nn_modules_golden.txt
#
# Records:
#   T|case|name|d0,d1,...|dtype|v,v,...   a tensor (parameter, buffer or output), row-major,
#                                         each value a Python float (exact for float32)
#   S|model|name|d0,d1,...|dtype          one entry of a nested model's get_state_dict
from tinygrad import Tensor, dtypes, nn
from tinygrad.nn.state import get_state_dict

def emit(case, name, t):
  t = t.realize()
  vals = t.flatten().tolist() if t.shape != () else [t.item()]
  shape = ",".join(str(d) for d in t.shape)
  print(f"T|{case}|{name}|{shape}|{t.dtype.name}|" + ",".join(repr(float(v)) for v in vals))

def emit_state(case, m):
  for k, v in get_state_dict(m).items(): emit(case, k, v)

def affine_randn(m, *shape):
  # Random affine parameters, so that the norms' scale and shift are exercised.
  m.weight = Tensor.randn(*shape)
  if getattr(m, "bias", None) is not None: m.bias = Tensor.randn(*shape)

def main():
  # init functions (tensor.py): one seed each.
  Tensor.manual_seed(11); emit("init", "kaiming_uniform", Tensor.kaiming_uniform(4, 3, 2))
  Tensor.manual_seed(12); emit("init", "kaiming_normal", Tensor.kaiming_normal(3, 5, a=0.2))
  Tensor.manual_seed(13); emit("init", "glorot_uniform", Tensor.glorot_uniform(3, 4))
  Tensor.manual_seed(14); emit("init", "scaled_uniform", Tensor.scaled_uniform(2, 3))
  Tensor.manual_seed(15); emit("init", "normal", Tensor.normal(2, 3, mean=1.0, std=2.0))
  Tensor.manual_seed(16); emit("init", "uniform", Tensor.uniform(5, low=-2.0, high=3.0))

  Tensor.manual_seed(1)
  m = nn.Linear(5, 3); x = Tensor.randn(2, 5)
  emit_state("linear", m); emit("linear", "out", m(x))

  Tensor.manual_seed(2)
  m = nn.Linear(4, 2, bias=False); x = Tensor.randn(3, 4)
  emit_state("linear_nobias", m); emit("linear_nobias", "out", m(x))

  Tensor.manual_seed(3)
  m = nn.Conv2d(2, 4, 3, padding=1); x = Tensor.randn(1, 2, 5, 5)
  emit_state("conv2d", m); emit("conv2d", "out", m(x))

  Tensor.manual_seed(4)
  m = nn.Conv2d(4, 2, (3, 2), stride=2, dilation=1, groups=2, padding=(1, 0)); x = Tensor.randn(2, 4, 6, 5)
  emit_state("conv2d_grouped", m); emit("conv2d_grouped", "out", m(x))

  Tensor.manual_seed(5)
  m = nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1, output_padding=1); x = Tensor.randn(1, 4, 3, 3)
  emit_state("conv_transpose2d", m); emit("conv_transpose2d", "out", m(x))

  Tensor.manual_seed(21)
  m = nn.Conv1d(2, 3, 3, stride=2, padding=1); x = Tensor.randn(1, 2, 7)
  emit_state("conv1d", m); emit("conv1d", "out", m(x))

  Tensor.manual_seed(22)
  m = nn.Conv2d(2, 2, (3, 4), padding="same", dilation=2); x = Tensor.randn(1, 2, 6, 7)
  emit_state("conv2d_same", m); emit("conv2d_same", "out", m(x))

  Tensor.manual_seed(23)
  m = nn.ConvTranspose2d(4, 4, (2, 3), stride=(1, 2), padding=(1, 0), dilation=2, groups=2, bias=False)
  x = Tensor.randn(2, 4, 3, 4)
  emit_state("conv_transpose2d_grouped", m); emit("conv_transpose2d_grouped", "out", m(x))

  Tensor.manual_seed(24)
  m = nn.BatchNorm(2, affine=False, track_running_stats=False); x = Tensor.randn(3, 2, 5)
  emit_state("batchnorm_untracked", m); emit("batchnorm_untracked", "out", m(x))

  Tensor.manual_seed(6)
  m = nn.BatchNorm(3); affine_randn(m, 3); x = Tensor.randn(2, 3, 4, 4)
  m.running_mean = Tensor.randn(3); m.running_var = Tensor.rand(3) + 0.5
  emit_state("batchnorm_eval", m); emit("batchnorm_eval", "out", m(x))

  Tensor.manual_seed(7)
  m = nn.BatchNorm(3); affine_randn(m, 3); x = Tensor.randn(4, 3, 2, 2)
  with Tensor.train():
    out = m(x)
    emit("batchnorm_train", "out", out)
  emit_state("batchnorm_train", m)

  Tensor.manual_seed(8)
  m = nn.LayerNorm(5); affine_randn(m, 5); x = Tensor.randn(2, 3, 5)
  emit_state("layernorm", m); emit("layernorm", "out", m(x))

  Tensor.manual_seed(9)
  m = nn.LayerNorm((3, 4), eps=1e-3, elementwise_affine=False); x = Tensor.randn(2, 3, 4)
  emit("layernorm_2d", "out", m(x))

  Tensor.manual_seed(21)
  m = nn.LayerNorm2d(3); affine_randn(m, 3); x = Tensor.randn(2, 3, 4, 2)
  emit_state("layernorm2d", m); emit("layernorm2d", "out", m(x))

  Tensor.manual_seed(10)
  m = nn.RMSNorm(6); m.weight = Tensor.randn(6); x = Tensor.randn(2, 6)
  emit_state("rmsnorm", m); emit("rmsnorm", "out", m(x))

  Tensor.manual_seed(17)
  m = nn.GroupNorm(2, 4); affine_randn(m, 4); x = Tensor.randn(2, 4, 3, 3)
  emit_state("groupnorm", m); emit("groupnorm", "out", m(x))

  Tensor.manual_seed(18)
  m = nn.InstanceNorm(3); affine_randn(m, 3); x = Tensor.randn(2, 3, 4, 2)
  emit_state("instancenorm", m); emit("instancenorm", "out", m(x))

  Tensor.manual_seed(19)
  m = nn.Embedding(10, 4); idx = Tensor([[1, 2, 9], [0, 2, 5]], dtype=dtypes.int32)
  emit_state("embedding", m); emit("embedding", "out", m(idx))

  Tensor.manual_seed(20)
  m = nn.LSTMCell(3, 4); b = Tensor.randn(2, 16); m.bias_ih, m.bias_hh = b[0], b[1]  # one draw, as below
  # One draw for both inputs: two lazy draws realized out of order can give the reference the
  # same values twice (its counter update is a lazy assign).
  xs = Tensor.randn(2, 2, 3); x0, x1 = xs[0], xs[1]
  emit_state("lstmcell", m); emit("lstmcell", "x0", x0); emit("lstmcell", "x1", x1)
  h, c = m(x0)
  emit("lstmcell", "h0", h); emit("lstmcell", "c0", c)
  h, c = m(x1, (h, c))
  emit("lstmcell", "h1", h); emit("lstmcell", "c1", c)

  # The names a nested model's state dict has (modules_test.cc builds the same model).
  class Block:
    def __init__(self):
      self.conv = nn.Conv2d(3, 4, 3)
      self.bn = nn.BatchNorm(4)
  class Net:
    def __init__(self):
      self.blocks = [Block(), Block()]
      self.norm = nn.LayerNorm(4, elementwise_affine=True)
      self.head = nn.Linear(4, 2, bias=False)
      self.layers = [nn.Linear(2, 2), nn.Embedding(3, 2)]
      self.cell = nn.LSTMCell(2, 2, bias=False)
  for k, v in get_state_dict(Net()).items():
    print(f"S|net|{k}|{','.join(str(d) for d in v.shape)}|{v.dtype.name}")

if __name__ == "__main__":
  main()
