#!/usr/bin/env bash
# Produces README's Performance table: tunes every benchmark case with `tg tune` at BEAM=2 and
# BEAM=4 (fresh searches: --ignore-cache, a throwaway database), optionally runs Python
# tinygrad's BEAM on the same cases (tools/bench/tinygrad_beam.py), and prints the Markdown
# table (tools/bench/perf_table.py). Run on a quiet machine:
#   tools/bench/tune_bench.sh OUT_DIR [TINYGRAD_CHECKOUT]
# Both sides run with CACHELEVEL=0: every search compiles its candidates afresh (a warm
# compile cache would answer most of BEAM=4's compiles from BEAM=2's search).
# OUT_DIR gets ours.jsonl, tinygrad.jsonl and table.md. CASES="matmul256 ..." limits the cases;
# SIMD_CASES (default: the matmuls and the conv2d case) are also tuned with `--simd` (our SIMD
# extension opt), which perf_table.py shows in a second table. TUNE_MODE (tools/bench/cases.sh)
# picks in-process (the default here) or farm tuning.
set -euo pipefail
# CPU numbers: on a machine with a GPU the default device would be the GPU
export DEV=CPU
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:?usage: tools/bench/tune_bench.sh OUT_DIR [TINYGRAD_CHECKOUT]}"
tinygrad="${2:-}"
mkdir -p "$out"
rm -f "$out/ours.jsonl" "$out/tinygrad.jsonl" "$out/bench.db"

source "$root/tools/bench/cases.sh"
read -r -a cases <<<"${CASES:-${case_order[*]}}"
check_cases "${cases[@]}"

for c in "${cases[@]}"; do
  for beam in 2 4; do
    # shellcheck disable=SC2086  # the arguments are words
    CACHELEVEL=0 "$root/tools/tg" tune ${case_args[$c]} $tune_mode --beam "$beam" --ignore-cache --db "$out/bench.db" --json "$out/ours.jsonl" >&2
  done
done

read -r -a simd_cases <<<"${SIMD_CASES-matmul256 matmul512 matmul1024 conv2d_1x32x56x56_64x3x3}"
check_cases "${simd_cases[@]}"
for c in "${simd_cases[@]}"; do
  for beam in 2 4; do
    # shellcheck disable=SC2086  # the arguments are words
    CACHELEVEL=0 "$root/tools/tg" tune ${case_args[$c]} $tune_mode --beam "$beam" --simd --ignore-cache --db "$out/bench.db" --json "$out/ours.jsonl" >&2
  done
done

if [[ -n $tinygrad ]]; then
  (cd "$out" && PYTHONPATH="$tinygrad" DEV=CPU CACHELEVEL=0 IGNORE_BEAM_CACHE=1 \
    python3 "$root/tools/bench/tinygrad_beam.py" --beam 2,4 "${cases[@]}" >"$out/tinygrad.jsonl")
fi
python3 "$root/tools/bench/perf_table.py" "$out/ours.jsonl" ${tinygrad:+"$out/tinygrad.jsonl"} | tee "$out/table.md"
