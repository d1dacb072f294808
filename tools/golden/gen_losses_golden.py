#!/usr/bin/env python3
# File: tools/golden/gen_losses_golden.py
# Prints the reference's sparse_categorical_crossentropy values that
# tinygrad/nn/losses_test.cc holds (pasted into its kGolden* constants by hand).
#
# Usage:
#   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU python3 \
#     <repo>/tools/golden/gen_losses_golden.py
from tinygrad import Tensor

LOGITS = [[-1.0, 2.0, -3.0, 0.5], [1.0, -2.0, 3.0, 0.25], [0.0, 0.0, 0.0, 0.0]]
LABELS = [1, 2, 3]

t = Tensor(LOGITS, requires_grad=True)
loss = t.sparse_categorical_crossentropy(Tensor(LABELS))
loss.backward()
print("mean", repr(loss.item()))
print("grad", t.grad.tolist())
sce = lambda **kw: Tensor(LOGITS).sparse_categorical_crossentropy(Tensor(LABELS), **kw)
print("label_smoothing=0.1", repr(sce(label_smoothing=0.1).item()))
print("ignore_index=2", repr(sce(ignore_index=2).item()))
print("sum", repr(sce(reduction="sum").item()))
print("none", sce(reduction="none").tolist())
