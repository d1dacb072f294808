#!/usr/bin/env bash
# How stable is a BEAM search's winner? Tunes each case REPEAT times from scratch (fresh
# searches: --ignore-cache, a throwaway database) and summarizes with stability.py: per kernel,
# how many distinct programs won, how often the most common one won, and the spread of the
# winners' times. Run on a quiet machine:
#   tools/bench/stability.sh OUT_DIR [REPEAT=5] [BEAM=2]
# CASES="matmul256 ..." picks the cases (tune_bench.sh's names); extra `tg tune` flags in
# TUNE_FLAGS (e.g. --simd).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:?usage: tools/bench/stability.sh OUT_DIR [REPEAT] [BEAM]}"
repeat="${2:-5}"
beam="${3:-2}"
mkdir -p "$out"
rm -f "$out/stability.jsonl" "$out/stability.db"

declare -A args=(
  [matmul256]="matmul --m 256 --n 256 --k 256"
  [matmul512]="matmul --m 512 --n 512 --k 512"
  [matmul1024]="matmul --m 1024 --n 1024 --k 1024"
  [sum4M]="sum --n 4194304"
  [rowsum4096x1024]="rowsum --rows 4096 --cols 1024"
  [softmax4096x1024]="softmax --rows 4096 --cols 1024"
  [conv2d_1x32x56x56_64x3x3]="conv2d --batch 1 --cin 32 --cout 64 --size 56 --kernel 3"
  [workload_mlp]="mlp"
  [workload_attention]="attention"
)
read -r -a cases <<<"${CASES:-matmul256 matmul512 rowsum4096x1024 softmax4096x1024 workload_mlp workload_attention}"

for c in "${cases[@]}"; do
  for ((i = 1; i <= repeat; i++)); do
    echo "stability: $c search $i/$repeat" >&2
    # shellcheck disable=SC2086  # the arguments are words
    "$root/tools/tg" tune ${args[$c]} --beam "$beam" ${TUNE_FLAGS:-} --ignore-cache --db "$out/stability.db" \
      --json "$out/stability.jsonl" >/dev/null
  done
done
python3 "$root/tools/bench/stability.py" "$out/stability.jsonl" | tee "$out/stability.md"
