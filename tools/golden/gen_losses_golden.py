#!/usr/bin/env python3
# File: tools/golden/gen_losses_golden.py
# Prints the reference's loss values (sparse_categorical_crossentropy, cross_entropy, nll_loss,
# binary_crossentropy(_logits), logsigmoid) that tinygrad/nn/losses_test.cc holds (pasted into
# it by hand).
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

# cross_entropy, nll_loss, binary_crossentropy(_logits), logsigmoid
PROBS = [[0.1, 0.6, 0.2, 0.1], [0.0, 0.0, 1.0, 0.0], [0.25, 0.25, 0.25, 0.25]]
r = lambda t: [repr(v) for v in (t.tolist() if isinstance(t.tolist(), list) else [t.tolist()])]
L = lambda: Tensor(LOGITS)
print("ce mean", r(L().cross_entropy(Tensor(LABELS))))
print("ce sum ls0.2", r(L().cross_entropy(Tensor(LABELS), reduction="sum", label_smoothing=0.2)))
print("ce none", r(L().cross_entropy(Tensor(LABELS), reduction="none")))
print("ce probs", r(L().cross_entropy(Tensor(PROBS))))
print("ce 1d", r(Tensor([0.5, -1.0, 2.0]).cross_entropy(Tensor(2))))
t = Tensor(LOGITS, requires_grad=True); l = t.cross_entropy(Tensor(PROBS), label_smoothing=0.1); l.backward()
print("ce grad", r(l), r(t.grad.flatten()))
LP = lambda: Tensor(LOGITS).log_softmax()
print("nll mean", r(LP().nll_loss(Tensor(LABELS))))
W = [0.5, 1.0, 2.0, 4.0]
print("nll weight", r(LP().nll_loss(Tensor(LABELS), weight=Tensor(W))))
print("nll ignore", r(LP().nll_loss(Tensor([1, -100, 3]), ignore_index=-100)))
print("nll weight ignore sum", r(LP().nll_loss(Tensor([1, 2, 3]), weight=Tensor(W), ignore_index=2, reduction="sum")))
print("nll none", r(LP().nll_loss(Tensor(LABELS), weight=Tensor(W), reduction="none")))
# (N, C, d) spatial
X3 = Tensor([[[0.1, 0.2], [0.3, -0.4], [0.5, 0.6]], [[-0.7, 0.8], [0.9, 1.0], [-1.1, 1.2]]]).log_softmax(1)
print("nll 3d", r(X3.nll_loss(Tensor([[0, 2], [1, 1]]))))
P = [0.1, 0.9, 0.2, 0.7]; Y = [0.0, 1.0, 0.0, 1.0]
print("bce", r(Tensor(P).binary_crossentropy(Tensor(Y))))
print("bce sum", r(Tensor(P).binary_crossentropy(Tensor(Y), reduction="sum")))
print("bce none", r(Tensor(P).binary_crossentropy(Tensor(Y), reduction="none")))
Z = [-1.0, 2.0, -3.0, 0.5]
print("bcel", r(Tensor(Z).binary_crossentropy_logits(Tensor(Y))))
print("bcel pw", r(Tensor(Z).binary_crossentropy_logits(Tensor(Y), pos_weight=Tensor([2.0, 2.0, 0.5, 3.0]))))
print("bcel none", r(Tensor(Z).binary_crossentropy_logits(Tensor(Y), reduction="none")))
t = Tensor(Z, requires_grad=True); l = t.binary_crossentropy_logits(Tensor(Y)); l.backward()
print("bcel grad", r(t.grad))
print("logsigmoid", r(Tensor([-30.0, -3.0, -1.0, 0.0, 1.0, 3.0, 30.0]).logsigmoid()))
try: L().cross_entropy(Tensor([1, 2]))
except Exception as e: print("ce err", type(e).__name__, e)
