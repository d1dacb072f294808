#!/usr/bin/env bash
# How stable is a BEAM search's winner? Tunes each case REPEAT times from scratch (fresh
# searches: --ignore-cache, a throwaway database) and summarizes with stability.py: per kernel,
# how many distinct programs won, how often the most common one won, and the spread of the
# winners' times. Run on a quiet machine:
#   tools/bench/stability.sh OUT_DIR [REPEAT=5] [BEAM=2]
# CASES="matmul256 ..." picks the cases (tune_bench.sh's names); extra `tg tune` flags in
# TUNE_FLAGS (e.g. --simd).
set -euo pipefail
# CPU numbers: on a machine with a GPU the default device would be the GPU
export DEV=CPU
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:?usage: tools/bench/stability.sh OUT_DIR [REPEAT] [BEAM]}"
repeat="${2:-5}"
beam="${3:-2}"
mkdir -p "$out"
rm -f "$out/stability.jsonl" "$out/stability.db"

source "$root/tools/bench/cases.sh"
read -r -a cases <<<"${CASES:-matmul256 matmul512 rowsum4096x1024 softmax4096x1024 workload_mlp workload_attention}"
check_cases "${cases[@]}"

for c in "${cases[@]}"; do
  for ((i = 1; i <= repeat; i++)); do
    echo "stability: $c search $i/$repeat" >&2
    # shellcheck disable=SC2086  # the arguments are words
    "$root/tools/tg" tune ${case_args[$c]} $tune_mode --beam "$beam" ${TUNE_FLAGS:-} --ignore-cache --db "$out/stability.db" \
      --json "$out/stability.jsonl" >/dev/null
  done
done
python3 "$root/tools/bench/stability.py" "$out/stability.jsonl" | tee "$out/stability.md"
