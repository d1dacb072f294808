#!/usr/bin/env bash
# Regenerates the sample VIZ traces in tinygrad/viz/testdata (real `tg run`s with VIZ=-1, for
# the viewer's tests): tinygrad/viz/make_samples.sh
# Each run also holds the kernel that fills the workload's random inputs (threefry, the big one).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cache="$(mktemp -d)"
trap 'rm -rf "$cache"' EXIT
run() {  # run NAME WORKLOAD ARGS...
  local name="$1"
  shift
  TG_CACHE_DIR="$cache" VIZ=-1 VIZ_PATH="$root/tinygrad/viz/testdata/$name.json" "$root/tools/tg" run "$@" --runs 1
}
run sum sum --n 4096
run softmax softmax --rows 16 --cols 32
