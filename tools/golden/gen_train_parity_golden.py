#!/usr/bin/env python3
# File: tools/golden/gen_train_parity_golden.py
# Writes tinygrad/train/testdata/train_parity_golden.txt: the losses of the first 20 training
# steps of tg train's MLP on Fashion-MNIST, computed by the reference tinygrad, for
# tinygrad/train/trainer_test.cc's parity test.
#
# Usage (Debian's dataset-fashion-mnist installed, or its directory as the first argument):
#   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU python3 \
#     <repo>/tools/golden/gen_train_parity_golden.py > <repo>/tinygrad/train/testdata/train_parity_golden.txt
#
# The run, as the C++ test does it: Tensor.manual_seed(42); l1 = Linear(784, 128),
# l2 = Linear(128, 10) (in that order: the same initial weights); Adam(lr=3e-3) over
# get_parameters; each step under Tensor.train(): samples = Tensor.randint(128, high=60000),
# the batch gathered on the host (x = pixels / 255 as float32, y = labels), zero_grad,
# loss = l2(l1(x.flatten(1)).relu()).sparse_categorical_crossentropy(y), backward, and the loss
# realized with opt.schedule_step(). nn.datasets.mnist downloads, so the IDX files are read here.
#
# Records: one line per step, "step loss" (loss with repr()).
import gzip, os, struct, sys
from tinygrad import Tensor, nn, dtypes

d = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/datasets/fashion-mnist"
def idx(name):
  data = gzip.open(os.path.join(d, name)).read()
  ndim = data[3]
  dims = struct.unpack(">" + "I" * ndim, data[4:4 + 4 * ndim])
  return data[4 + 4 * ndim:], dims
pixels, (n, rows, cols) = idx("train-images-idx3-ubyte.gz")
labels, _ = idx("train-labels-idx1-ubyte.gz")

class Mlp:
  def __init__(self): self.l1, self.l2 = nn.Linear(784, 128), nn.Linear(128, 10)
  def __call__(self, x): return self.l2(self.l1(x.flatten(1)).relu())

Tensor.manual_seed(42)
model = Mlp()
opt = nn.optim.Adam(nn.state.get_parameters(model), lr=3e-3)
size = rows * cols
with Tensor.train():
  for step in range(20):
    samples = Tensor.randint(128, high=n).tolist()
    x = Tensor(b"".join(pixels[i * size:(i + 1) * size] for i in samples)).reshape(128, 1, rows, cols)
    x = x.cast(dtypes.float32) / 255
    y = Tensor([labels[i] for i in samples], dtype=dtypes.int32)
    opt.zero_grad()
    loss = model(x).sparse_categorical_crossentropy(y).backward()
    loss.realize(*opt.schedule_step())
    print(step, repr(loss.item()))
