#!/usr/bin/env bash
# File: tests/e2e/tg_run_test.sh
# `tg run` end to end (the tg binary's path in $1): a small workload runs, prints its kernels
# and a line per run (the second run from the caches), and bad input exits 2 with a message.
set -u
source tests/tg_test_lib.sh

tg="$1"
out="${TEST_TMPDIR:-$(mktemp -d)}"
export TG_CACHE_DIR="$out/cache"   # caches and the tuning database, not the user's

# A small matmul twice: one kernel line (DEBUG=2 style) on the first run only, then a line per
# run; the second run builds nothing new.
run matmul 0 run matmul --m 8 --n 8 --k 8 --runs 2
expect_in "$out/matmul.out" "matmul: k=8 m=8 n=8"
expect_count "$out/matmul.out" '^\*\*\* CPU ' 1
expect_in "$out/matmul.out" "run 1: matmul"
expect_in "$out/matmul.out" "run 2: matmul"
expect_count "$out/matmul.out" '^run [0-9]+: matmul .* 1 kernels' 2
expect_in "$out/matmul.out" "(0 new programs)"
expect_count "$out/matmul.out" '^run 3' 0

# Unknown workload.
run nope 2 run nope
expect_in "$out/nope.err" "unknown workload 'nope'"
expect_in "$out/nope.err" "Run 'tg run --help' for the usage."
expect_count "$out/nope.out" '.' 0

# Unknown parameter: CLI11's message names it; the workload's help lists its parameters.
run bogus 2 run matmul --bogus 3
expect_in "$out/bogus.err" "tg run: The following arguments were not expected: 3 --bogus"
run matmul_help 0 run matmul --help
expect_in "$out/matmul_help.out" "matmul's m (default "
expect_count "$out/bogus.out" '.' 0

# A parameter that is not a positive integer.
run zero 2 run matmul --m 0
expect_in "$out/zero.err" "tg run: --m: needs an integer >= 1, got '0'"
# Sizes the tensors cannot hold: a clean error (exit 1), never an abort (issue 16).
run huge_matmul 1 run matmul --m 100000000
expect_in "$out/huge_matmul.err" "rand: 51200000000 numbers of dtypes.float need 51200000000 32-bit words"
run huge_sum 1 run sum --n 5000000000
expect_in "$out/huge_sum.err" "more than the generator's uint32 counter can count"
run overflowing_conv 1 run conv2d --size 3037000500
expect_in "$out/overflowing_conv.err" "has more elements than an int64 counts"
run missing_value 2 run matmul --m
expect_in "$out/missing_value.err" "tg run: --m: 1 required"
run badruns 2 run matmul --runs x
expect_in "$out/badruns.err" "--runs: needs an integer >= 1, got 'x'"

# No workload, and help listing every workload with its parameters.
run none 2 run
expect_in "$out/none.err" "tg run: WORKLOAD is required"
run help 0 run --help
for w in matmul conv2d mlp attention resnet_block; do expect_in "$out/help.out" "  $w "; done
expect_in "$out/help.out" "--heads 4"

finish "tg run"
