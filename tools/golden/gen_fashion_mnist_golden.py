#!/usr/bin/env python3
# File: tools/golden/gen_fashion_mnist_golden.py
# Prints the values tinygrad/nn/datasets_test.cc checks on Debian's dataset-fashion-mnist files,
# computed by the reference's own nn.datasets.mnist(fashion=True). Its downloads are replaced by
# the package's files: `fetch` (what Tensor.from_url calls) is patched to gunzip the local file
# of the same name, so the reference's slicing, reshaping and dtypes are what run.
#
# Usage:
#   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU python3 \
#     <repo>/tools/golden/gen_fashion_mnist_golden.py [<dataset dir>]
# The dataset dir defaults to where dpkg says dataset-fashion-mnist put its files.
import gzip, pathlib, subprocess, sys, tempfile

import tinygrad.tensor
from tinygrad.nn.datasets import mnist

def package_dir():
  files = subprocess.run(["dpkg-query", "-L", "dataset-fashion-mnist"], check=True, capture_output=True, text=True).stdout
  return next(pathlib.Path(f).parent for f in files.split() if f.endswith("train-images-idx3-ubyte.gz"))

data_dir = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else package_dir()
tmp = pathlib.Path(tempfile.mkdtemp())

def local_fetch(url, gunzip=False, **kwargs):
  name = url.rsplit("/", 1)[1]
  out = tmp / name.removesuffix(".gz")
  out.write_bytes(gzip.decompress((data_dir / name).read_bytes()) if gunzip else (data_dir / name).read_bytes())
  return out

tinygrad.tensor.fetch = local_fetch
x_train, y_train, x_test, y_test = mnist(fashion=True)
for name, t in [("x_train", x_train), ("y_train", y_train), ("x_test", x_test), ("y_test", y_test)]:
  print(name, "shape", t.shape, "dtype", t.dtype)
print("y_train[:5]", y_train[:5].tolist(), "y_test[:5]", y_test[:5].tolist())
print("x_train[0].sum()", x_train[0].cast("int32").sum().item(), "x_test[0].sum()", x_test[0].cast("int32").sum().item())
print("x_train[0,0,14,14]", x_train[0, 0, 14, 14].item())
print("y_train.sum()", y_train.cast("int32").sum().item(), "y_test.sum()", y_test.cast("int32").sum().item())
