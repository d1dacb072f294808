#!/usr/bin/env bash
# A farm tune over TCP with one worker, on a quiet machine and then with every other core kept
# busy by a spinning process (issue 16's scenario: heartbeats must not starve behind compiling
# and running). Prints the wall time of each and their ratio; also the farm's summary lines
# (requeues, workers declared dead). Numbers only: run it on an otherwise idle machine.
#
#   tools/bench/farm_under_load.sh [WORKLOAD [ARGS...]]     (default: mlp)
set -uo pipefail
# CPU numbers: on a machine with a GPU the default device would be the GPU
export DEV=CPU
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tg="$root/tools/tg"
workload=("${@:-mlp}")
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
port=$((20000 + RANDOM % 20000))

# one farm tune: the coordinator on tcp://127.0.0.1:port, one worker; prints seconds
farm_tune() {  # farm_tune NAME
  local start end
  "$tg" worker --connect "tcp://127.0.0.1:$port" --insecure >"$work/$1.worker.log" 2>&1 &
  local worker=$!
  start=$(date +%s.%N)
  "$tg" tune "${workload[@]}" --bind "tcp://127.0.0.1:$port" --insecure --ignore-cache \
    --db "$work/$1.db" >"$work/$1.out" 2>&1
  end=$(date +%s.%N)
  kill "$worker" 2>/dev/null
  wait "$worker" 2>/dev/null
  # the summaries to stderr: stdout is the time alone
  grep '^farm:' "$work/$1.out" | sed "s/^/  $1 /" >&2
  grep -h "no word" "$work/$1.worker.log" | head -3 | sed "s/^/  $1 worker: /" >&2
  awk -v a="$start" -v b="$end" 'BEGIN { print b - a }'
}

echo "# $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
"$tg" tune "${workload[@]}" --in-process --db "$work/warm.db" >/dev/null 2>&1  # warm caches
quiet=$(farm_tune quiet)
spinners=()
for ((i = 1; i < $(nproc); i++)); do
  (while :; do :; done) &
  spinners+=($!)
done
loaded=$(farm_tune loaded)
kill "${spinners[@]}" 2>/dev/null
printf 'farm tune %s: quiet %.1f s, %d other core(s) busy %.1f s, ratio %.2f\n' "${workload[*]}" "$quiet" \
  $(($(nproc) - 1)) "$loaded" "$(awk -v a="$quiet" -v b="$loaded" 'BEGIN { print b / a }')"
