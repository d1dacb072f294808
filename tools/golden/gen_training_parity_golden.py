#!/usr/bin/env python3
# File: tools/golden/gen_training_parity_golden.py
# Training parity goldens: the losses the reference tinygrad computes when it trains tg train's
# models (tinygrad/train/classifiers.h) with tg train's step (tinygrad/train/trainer.h), for the
# C++ tests that train the same models from the same seed and compare step by step. Two modes,
# sharing the models and the step:
#
#   synthetic (default): writes tests/e2e/testdata/training_parity_golden.txt, for
#     tests/e2e/training_parity_test.cc. Both models, 20 Adam steps on synthetic batches (no
#     dataset), with checksums of the inputs and of the initial and final parameters, so the
#     test can demand bit-equality.
#   fashion-mnist [dir]: writes tinygrad/train/testdata/train_parity_golden.txt, for
#     tinygrad/train/trainer_test.cc's MlpLossesEqualTheReferences. The MLP on the real
#     Fashion-MNIST (Debian's dataset-fashion-mnist, or its IDX files in `dir`) with batches drawn
#     as tg train's BatchSampler draws them (randint after the model's weights, every step), as
#     tg train runs it.
#
# Usage:
#   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU python3 \
#     <repo>/tools/golden/gen_training_parity_golden.py > <repo>/tests/e2e/testdata/training_parity_golden.txt
#   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU python3 \
#     <repo>/tools/golden/gen_training_parity_golden.py fashion-mnist > <repo>/tinygrad/train/testdata/train_parity_golden.txt
#
# The random generator advances as tensors are created (its counter is an assigned tensor), so
# both sides must draw in one order. Each mode's order:
#   synthetic: Tensor.manual_seed(SEED); the model's layers in declaration order (each
#     Linear/Conv2d draws weight, then bias, with the reference's default init), each realized
#     as it is made; then BATCHES input batches, each Tensor.rand(BATCH, 1, 28, 28), realized.
#     Labels are arithmetic, no generator: (7*b + 3*i + i//4) % 10 for sample i of batch b.
#     Step s trains on batch s % BATCHES (so the loss falls as the model learns the batches).
#     Adam(get_parameters(model), lr=1e-3). Each model starts from the seed again.
#   fashion-mnist: Tensor.manual_seed(42); the MLP's layers as above (not realized one by one:
#     tg train makes the model and realizes nothing before the first step); then each step
#     draws Tensor.randint(128, high=60000) (tg train's BatchSampler) and trains on those
#     images: pixels / 255 as float32 (in a kernel here, on the host in tg train: at most
#     4.8e-7 apart in the losses), labels int32. Adam(get_parameters(model), lr=3e-3).
# Each step (tg train's TrainStep): under Tensor.train(), opt.zero_grad(),
# loss = model(x).sparse_categorical_crossentropy(y) (mean), loss.backward(), then
# Tensor.realize(loss, *opt.schedule_step()) (one schedule); Adam's other options default.
#
# Records of synthetic:
#   M|model|steps|batch|batches          a case
#   I|model|name|n|sum|fnv               a parameter as initialized (state-dict name): element
#                                        count, exact float64 sum of its float32 values
#                                        (math.fsum), FNV-1a 64 of its float32 bytes
#                                        (little-endian, row-major) as 16 hex digits
#   X|model|batch|n|sum|fnv              an input batch, the same checksums
#   L|model|step|loss                    the loss computed in that step (before its update)
#   P|model|name|n|sum|fnv               a parameter after the last step, the same checksums
# Records of fashion-mnist: one line per step, "step loss" (loss with repr()).
import gzip, math, os, struct, sys
from tinygrad import Tensor, nn, dtypes
from tinygrad.nn.state import get_parameters, get_state_dict

# tg train's models (tinygrad/train/classifiers.h). realize_each: realize each layer's
# parameters as it is made.
class Mlp:
  # 784-128-10 with a relu.
  def __init__(self, realize_each=False):
    self.l1 = layer(nn.Linear(784, 128), realize_each)
    self.l2 = layer(nn.Linear(128, 10), realize_each)
  def __call__(self, x): return self.l2(self.l1(x.flatten(1)).relu())

class Cnn:
  # conv 3x3 (16) -> relu -> max_pool 2 -> conv 3x3 (32) -> relu -> max_pool 2 -> flatten
  # (32*5*5) -> linear (128) -> relu -> linear (10).
  def __init__(self, realize_each=False):
    self.c1 = layer(nn.Conv2d(1, 16, 3), realize_each)
    self.c2 = layer(nn.Conv2d(16, 32, 3), realize_each)
    self.l1 = layer(nn.Linear(32 * 5 * 5, 128), realize_each)
    self.l2 = layer(nn.Linear(128, 10), realize_each)
  def __call__(self, x):
    h = self.c1(x).relu().max_pool2d()
    h = self.c2(h).relu().max_pool2d()
    return self.l2(self.l1(h.flatten(1)).relu())

def layer(l, realize):
  if realize: Tensor.realize(*get_parameters(l))
  return l

def train_step(model, opt, x, y):
  # tg train's TrainStep: returns the loss, computed before the update.
  with Tensor.train():
    opt.zero_grad()
    loss = model(x).sparse_categorical_crossentropy(y)
    loss.backward()
    Tensor.realize(loss, *opt.schedule_step())
  return loss.item()

# --- synthetic ---
SEED = 20260
STEPS = 20
BATCH = 32
BATCHES = 4

def fnv1a64(data):
  h = 0xcbf29ce484222325
  for b in data: h = ((h ^ b) * 0x100000001b3) & ((1 << 64) - 1)
  return h

def checksum(t):
  vals = t.flatten().tolist()
  return f"{len(vals)}|{math.fsum(vals)!r}|{fnv1a64(struct.pack(f'<{len(vals)}f', *vals)):016x}"

def synthetic(name, make):
  Tensor.manual_seed(SEED)
  model = make(realize_each=True)
  xs = [Tensor.rand(BATCH, 1, 28, 28).realize() for _ in range(BATCHES)]
  ys = [Tensor([(7 * b + 3 * i + i // 4) % 10 for i in range(BATCH)]).realize() for b in range(BATCHES)]
  opt = nn.optim.Adam(get_parameters(model), lr=1e-3)
  print(f"M|{name}|{STEPS}|{BATCH}|{BATCHES}")
  for k, v in get_state_dict(model).items(): print(f"I|{name}|{k}|{checksum(v)}")
  for b, x in enumerate(xs): print(f"X|{name}|{b}|{checksum(x)}")
  for step in range(STEPS):
    print(f"L|{name}|{step}|{train_step(model, opt, xs[step % BATCHES], ys[step % BATCHES])!r}")
  for k, v in get_state_dict(model).items(): print(f"P|{name}|{k}|{checksum(v)}")

# --- fashion-mnist ---
def read_idx(d, name):
  data = gzip.open(os.path.join(d, name)).read()
  ndim = data[3]
  dims = struct.unpack(">" + "I" * ndim, data[4:4 + 4 * ndim])
  return data[4 + 4 * ndim:], dims

def fashion_mnist(d, steps=20, batch=128):
  pixels, (n, rows, cols) = read_idx(d, "train-images-idx3-ubyte.gz")
  labels, _ = read_idx(d, "train-labels-idx1-ubyte.gz")
  size = rows * cols
  Tensor.manual_seed(42)
  model = Mlp()
  opt = nn.optim.Adam(get_parameters(model), lr=3e-3)
  print(f"# The reference's losses of the first {steps} steps of tg train's MLP (seed 42, batch {batch}, Adam lr 3e-3),")
  print("# from tools/golden/gen_training_parity_golden.py fashion-mnist: \"step loss\".")
  for step in range(steps):
    samples = Tensor.randint(batch, high=n).tolist()
    x = Tensor(b"".join(pixels[i * size:(i + 1) * size] for i in samples)).reshape(batch, 1, rows, cols)
    x = x.cast(dtypes.float32) / 255
    y = Tensor([labels[i] for i in samples], dtype=dtypes.int32)
    print(step, repr(train_step(model, opt, x, y)))

if __name__ == "__main__":
  mode = sys.argv[1] if len(sys.argv) > 1 else "synthetic"
  if mode == "synthetic":
    print("# Generated by tools/golden/gen_training_parity_golden.py with tinygrad 35900290 (DEV=CPU):")
    print("# losses of 20 Adam steps of tg train's MLP and CNN from a fixed seed on synthetic batches;")
    print("# checksums of the inputs and of the initial and final parameters.")
    synthetic("mlp", Mlp)
    synthetic("cnn", Cnn)
  elif mode == "fashion-mnist":
    fashion_mnist(sys.argv[2] if len(sys.argv) > 2 else "/usr/share/datasets/fashion-mnist")
  else:
    sys.exit(f"unknown mode {mode!r}: synthetic or fashion-mnist [dir]")
