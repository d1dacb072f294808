#!/usr/bin/env bash
# VIZ=-1 tg run (path of tg in $1, of tinygrad/viz's viz_trace_check in $2): the run saves a
# trace to VIZ_PATH and says so; the trace loads, has a group with a program per kernel the run
# printed, and every rewrite replays to its output. A broken trace file is refused by name.
set -u
source tests/tg_test_lib.sh

tg="$1"
check="$2"
out="${TEST_TMPDIR:-$(mktemp -d)}"
export TG_CACHE_DIR="$out/cache"  # no tuning database from elsewhere

VIZ=-1 VIZ_PATH="$out/sum.json" run sum 0 run sum --n 4096 --runs 1
expect_in "$out/sum.out" "VIZ: trace saved to $out/sum.json"
expect_not_in "$out/sum.out" "-- TOTAL"  # the match table is not printed under VIZ

"$check" "$out/sum.json" >"$out/check.out" 2>"$out/check.err" || fail "viz_trace_check failed: $(cat "$out/check.err")"
expect_in "$out/check.out" "replay mismatches 0"
# A group with a program for each kernel the run printed (tg run prints a line per kernel at
# DEBUG=2: "*** CPU     2 r_128_2_4096_4 ..."; the kernels that make the random inputs run
# quietly, so the trace has more programs than lines).
grep -E '^\*\*\* ' "$out/sum.out" | awk '{print $4}' | sed 's/\x1b\[[0-9;]*m//g' | sort -u >"$out/kernel_names"
grep -E '^program ' "$out/check.out" | awk '{print $2}' | sort -u >"$out/program_names"
[[ -s "$out/kernel_names" ]] || fail "tg run printed no kernel lines: $(cat "$out/sum.out")"
missing=$(comm -23 "$out/kernel_names" "$out/program_names")
[[ -z "$missing" ]] || fail "kernels without a program in the trace: $missing (trace: $(cat "$out/check.out"))"

# Without VIZ nothing is saved.
VIZ_PATH="$out/none.json" run plain 0 run sum --n 4096 --runs 1
[[ ! -e "$out/none.json" ]] || fail "a trace was saved without VIZ"
expect_not_in "$out/plain.out" "VIZ:"

# A truncated trace is an error naming the file.
head -c 100 "$out/sum.json" >"$out/broken.json"
if "$check" "$out/broken.json" >/dev/null 2>"$out/broken.err"; then fail "a truncated trace loaded"; fi
expect_in "$out/broken.err" "$out/broken.json"

finish viz_run_test
