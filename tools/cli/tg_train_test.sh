#!/usr/bin/env bash
# File: tools/cli/tg_train_test.sh
# `tg train` end to end (the tg binary's path in $1): a short run on a small synthetic
# Fashion-MNIST (IDX files written here: each class a bright bar at its own rows) prints plain
# progress lines into a pipe, a falling loss, the test accuracy and the saved weights; bad
# flags exit 2 and a missing dataset exits 1, each with a clear message and never an abort.
set -u
source tests/tg_test_lib.sh

tg="$1"
out="${TEST_TMPDIR:-$(mktemp -d)}"
export TG_CACHE_DIR="$out/cache"   # caches and the tuning database, not the user's
data="$out/fashion"

python3 - "$data" <<'PY'
import gzip, os, random, struct, sys
d = sys.argv[1]
os.makedirs(d, exist_ok=True)
rng = random.Random(0)
def write(name, n):
  labels = bytes(i % 10 for i in range(n))
  pixels = bytearray()
  for l in labels:
    for r in range(28):
      pixels += bytes(255 if r in (2 * l + 4, 2 * l + 5) else rng.randrange(81) for _ in range(28))
  with gzip.open(os.path.join(d, f"{name}-images-idx3-ubyte.gz"), "wb") as f:
    f.write(struct.pack(">IIII", 0x803, n, 28, 28) + bytes(pixels))
  with gzip.open(os.path.join(d, f"{name}-labels-idx1-ubyte.gz"), "wb") as f:
    f.write(struct.pack(">II", 0x801, n) + labels)
write("train", 200)
write("t10k", 100)
PY

# 40 steps into a pipe: 20 plain progress lines (every 2nd step), no carriage returns.
run mlp 0 train fashion_mnist --data "$data" --steps 40 --batch 32 --lr 3e-3 --seed 1 \
  --out "$out/mlp.safetensors"
expect_in "$out/mlp.out" "fashion_mnist: model mlp, 200 training images, batch 32, 40 steps under TinyJit, Adam lr 0.003 decaying linearly to 0, seed 1, on CPU"
expect_count "$out/mlp.out" '^step [0-9]+/40  loss [0-9.]+  [0-9.]+ steps/s$' 20
expect_in "$out/mlp.out" "trained: 40 steps in "
expect_in "$out/mlp.out" " ms/step), loss "
# A fresh tuning database has nothing for the step's kernels.
expect_in "$out/mlp.out" " compiled, 0 with tuned opts (tuning database or --beam)"
expect_in "$out/mlp.out" "step 40/40"
expect_count "$out/mlp.out" $'\r' 0
expect_in "$out/mlp.out" "test accuracy: "
expect_in "$out/mlp.out" "saved weights to $out/mlp.safetensors"
[[ -s "$out/mlp.safetensors" ]] || fail "no weights file"
# "trained: 40 steps in ... loss FIRST -> LAST": the loss fell by half at least, and the bars
# are learned.
read -r first last < <(sed -nE 's/^trained: .* loss ([0-9.]+) -> ([0-9.]+)$/\1 \2/p' "$out/mlp.out")
awk -v a="${first:-0}" -v b="${last:-9}" 'BEGIN { exit !(b < a / 2) }' || fail "loss ${first:-?} -> ${last:-?} did not halve"
accuracy=$(sed -nE 's/^test accuracy: ([0-9.]+)% of 100 images.*/\1/p' "$out/mlp.out")
awk -v a="${accuracy:-0}" 'BEGIN { exit !(a >= 90) }' || fail "test accuracy ${accuracy:-?} < 90"
grep -qF '"test_accuracy":"'"$accuracy"'"' "$out/mlp.safetensors" || fail "metadata lacks the accuracy"

# The same seed trains the same model, with TinyJit or without: the same losses and accuracy.
run mlp_again 0 train fashion_mnist --data "$data" --steps 40 --batch 32 --lr 3e-3 --seed 1 \
  --out "$out/mlp_again.safetensors" --no-jit
expect_in "$out/mlp_again.out" "40 steps without TinyJit"
diff <(grep -E '^(trained|test accuracy)' "$out/mlp.out" | sed -E 's/ in .* ms\/step\)//; s/ \([0-9.]+ s\)//') \
     <(grep -E '^(trained|test accuracy)' "$out/mlp_again.out" | sed -E 's/ in .* ms\/step\)//; s/ \([0-9.]+ s\)//') \
  >"$out/seed.diff" || { fail "the same seed trained differently:"; cat "$out/seed.diff" >&2; }

# Data-parallel on two CPU devices: each batch split between them; it trains and evaluates as on
# one (losses within float rounding: the batch's gradients are summed in another order).
run mlp_dp 0 train fashion_mnist --data "$data" --steps 40 --batch 32 --lr 3e-3 --seed 1 \
  --out "$out/mlp_dp.safetensors" --devices CPU,CPU:1
expect_in "$out/mlp_dp.out" "seed 1, data-parallel on (CPU, CPU:1)"
expect_in "$out/mlp_dp.out" "saved weights to $out/mlp_dp.safetensors"
dp_accuracy=$(sed -nE 's/^test accuracy: ([0-9.]+)% of 100 images.*/\1/p' "$out/mlp_dp.out")
awk -v a="${dp_accuracy:-0}" 'BEGIN { exit !(a >= 90) }' || fail "data-parallel test accuracy ${dp_accuracy:-?} < 90"
# A batch that does not split evenly, a device that does not exist: exit 1, saying which.
run dp_uneven 1 train fashion_mnist --data "$data" --steps 1 --batch 33 --devices CPU,CPU:1
expect_in "$out/dp_uneven.err" "tg train: --batch 33 does not split evenly among 2 devices"
run dp_nodevice 1 train fashion_mnist --data "$data" --steps 1 --devices CPU,NOSUCH
expect_in "$out/dp_nodevice.err" "tg train: device NOSUCH: "

# A batch larger than the training set: exit 1 at the first step, never an abort.
run big_batch 1 train fashion_mnist --data "$data" --batch 1000000000 --steps 1
expect_in "$out/big_batch.err" "tg train: step 1: a batch of 1000000000 from 200 images: at most 200"

# The dataset is missing: exit 1, saying what to install.
run missing 1 train fashion_mnist --data "$out/nowhere"
expect_in "$out/missing.err" "tg train: Fashion-MNIST directory $out/nowhere not found"
expect_in "$out/missing.err" "dataset-fashion-mnist"
# A directory without the files.
mkdir -p "$out/empty"
run empty 1 train fashion_mnist --data "$out/empty"
expect_in "$out/empty.err" "tg train: "
expect_in "$out/empty.err" "train-images-idx3-ubyte.gz"

# Bad flags: usage errors (exit 2), as every tg command's.
run model 2 train fashion_mnist --model resnet
expect_in "$out/model.err" "tg train: --model: resnet not in {mlp,cnn}"
run steps 2 train fashion_mnist --steps 0
expect_in "$out/steps.err" "tg train: --steps: needs an integer >= 1, got '0'"
run batch 2 train fashion_mnist --batch -3
expect_in "$out/batch.err" "--batch"
run lr 2 train fashion_mnist --lr 0
expect_in "$out/lr.err" "--lr"
run dataset 2 train cifar10
expect_in "$out/dataset.err" "tg train: DATASET: cifar10 not in {fashion_mnist}"
run none 2 train
expect_in "$out/none.err" "tg train: DATASET is required"
run help 0 train --help
expect_in "$out/help.out" "--model"
expect_in "$out/help.out" "--out"

finish "tg train"
