#!/usr/bin/env bash
# Produces README's training step table: ms per training step of tg train's models (MLP and
# CNN, batch 128 and 512) on random data, under TinyJit on both sides, from one run:
#   1. ours with the heuristic's opts (an empty tuning database),
#   2. ours with BEAM-tuned kernels: each step tuned by `tg tune train_mlp` / `tg tune train_cnn`
#      at its batch (the workloads' kernels are tg train's: tests/e2e:train_workload_coverage_test),
#   3. Python tinygrad on the same machine (DEV=CPU), the same models, Adam and batches,
#   and each side's TinyJit replay overhead per step (the tiny MLP of
#   tinygrad/tensor:tiny_jit_benchmark, whose kernels take next to no time).
#   tools/bench/train_bench.sh OUT_DIR [TINYGRAD_CHECKOUT]
# Without TINYGRAD_CHECKOUT (a checkout of tinygrad at 35900290) the reference columns are
# left out. The tuning database and compile cache are fresh ones under OUT_DIR (cache: tuned;
# cache-heuristic: empty); after all the tuning, each case's three timings run back to back
# (the load of a shared machine changes by the minute). BEAM (default 1) is the search width,
# STEPS (default 30) the timed steps per case (the median is shown), CASES (default
# "mlp:128 mlp:512 cnn:128 cnn:512") the cases. No dataset is needed; about 4 minutes on 2 cores.
# OUT_DIR gets ours.jsonl, tinygrad.jsonl, tiny_ours.json, tune.log and table.md.
set -euo pipefail
# CPU numbers: on a machine with a GPU the default device would be the GPU
export DEV=CPU
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:?usage: tools/bench/train_bench.sh OUT_DIR [TINYGRAD_CHECKOUT]}"
tinygrad="${2:-}"
beam="${BEAM:-1}"
steps="${STEPS:-30}"
read -r -a cases <<<"${CASES:-mlp:128 mlp:512 cnn:128 cnn:512}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
rm -rf "$out/cache" "$out/cache-heuristic" "$out/ours.jsonl" "$out/tinygrad.jsonl" "$out/tune.log"
export TG_CACHE_DIR="$out/cache"  # a fresh tuning database and compile cache
unset BEAM                         # the tuning step's width is passed explicitly

(cd "$root" && bazel build -c opt --ui_event_filters=-info,-stdout,-stderr --noshow_progress \
  //tools/bench:train_step_bench //tools/cli:tg //tinygrad/tensor:tiny_jit_benchmark) >&2
bin="$root/bazel-bin"

machine="$(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
echo "machine: $machine; $(date -u +'%Y-%m-%d %H:%M UTC')" >&2

step_bench() {  # MODEL:BATCH, more flags
  local model="${1%%:*}" batch="${1##*:}"
  shift
  "$bin/tools/bench/train_step_bench" --model "$model" --batch "$batch" "$@"
}

echo "tuning (BEAM=$beam; log: $out/tune.log)" >&2
for c in "${cases[@]}"; do
  st=$(date +%s)
  "$bin/tools/cli/tg" tune "train_${c%%:*}" --batch "${c##*:}" --beam "$beam" --in-process >>"$out/tune.log" 2>&1
  echo "  $c: $(($(date +%s) - st)) s" >&2
done

for c in "${cases[@]}"; do
  echo "timing $c" >&2
  # The heuristic: another cache directory, whose tuning database is empty.
  TG_CACHE_DIR="$out/cache-heuristic" step_bench "$c" --steps "$steps" |
    sed 's/"beam": [0-9]*/"kernels": "heuristic"/' >>"$out/ours.jsonl"
  step_bench "$c" --steps "$steps" | sed "s/\"beam\": [0-9]*/\"kernels\": \"beam$beam\"/" >>"$out/ours.jsonl"
  if [[ -n $tinygrad ]]; then
    (cd "$out" && PYTHONPATH="$tinygrad" DEV=CPU python3 "$root/tools/bench/tinygrad_train_step.py" \
      --steps "$steps" "$c" >>"$out/tinygrad.jsonl")
  fi
done

# The replay overhead: google benchmark's median of 5 repetitions of the tiny MLP's steps.
TG_CACHE_DIR="$out/cache-heuristic" "$bin/tinygrad/tensor/tiny_jit_benchmark" --benchmark_filter='/4/8/16/4$' \
  --benchmark_repetitions=5 --benchmark_report_aggregates_only=true --benchmark_format=json \
  2>/dev/null >"$out/tiny_ours.json"
if [[ -n $tinygrad ]]; then
  (cd "$out" && PYTHONPATH="$tinygrad" DEV=CPU python3 "$root/tools/bench/tinygrad_train_step.py" \
    --steps "$steps" tiny >>"$out/tinygrad.jsonl")
fi
machine="$machine, $(cut -d' ' -f1-3 /proc/loadavg) at the end"
python3 "$root/tools/bench/train_table.py" --machine "$machine" "$out" | tee "$out/table.md"
