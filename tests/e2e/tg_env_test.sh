#!/usr/bin/env bash
# File: tests/e2e/tg_env_test.sh
# tinygrad's debug settings through `tg run` (the tg binary's path in $1), each checked for
# taking effect: TRACK_MATCH_STATS 1..3, SPEC 0..2, DEBUG=5 and 7, and colour only on a
# terminal and never with NO_COLOR.
set -u
source tests/tg_test_lib.sh

tg="$1"
out="${TEST_TMPDIR:-$(mktemp -d)}"
export TG_CACHE_DIR="$out/cache"   # caches and the tuning database, not the user's
unset NO_COLOR
small=(run matmul --m 8 --n 8 --k 8 --runs 1)

expect_at_least() {  # expect_at_least FILE REGEX N: at least N lines of FILE match REGEX
  local n
  n=$(grep -cE -- "$2" "$1")
  [[ $n -ge $3 ]] || { fail "$1 has $n lines matching '$2', want at least $3; it holds:"; cat "$1" >&2; }
}

# ** TRACK_MATCH_STATS **
row='^ *[0-9]+ / +[0-9]+ -- +[0-9]+\.[0-9]{2} / +[0-9]+\.[0-9]{2} ms -- [a-z_]+\.cc:[0-9]+ '

# 1: the per-rule table at exit (matches / attempts, ms, file:line, source line), slowest last.
TRACK_MATCH_STATS=1 run stats1 0 "${small[@]}"
expect_at_least "$out/stats1.out" "$row" 10
expect_count "$out/stats1.out" '^ *[0-9]+ / +[0-9]+ -- .* ms -- TOTAL$' 1
expect_count "$out/stats1.out" '^[0-9]+ rules, [0-9]+ matched once$' 1
expect_count "$out/stats1.out" '^rewrote ' 0
expect_count "$out/stats1.out" ' us -- ' 0
expect_not_in "$out/stats1.err" "not supported"
# sorted by all time (the 4th number), ascending
grep -E "$row" "$out/stats1.out" | awk '{print $6}' >"$out/times.txt"
sort -g -c "$out/times.txt" 2>/dev/null || fail "the match-stats rows are not sorted by time"
# the table comes after the workload's own lines: it is printed at exit
tail -n 1 "$out/stats1.out" | grep -qE '^[0-9]+ rules' || fail "the table is not the last output"

# 2: also the rewrite trace, summarized at exit.
TRACK_MATCH_STATS=2 run stats2 0 "${small[@]}"
expect_count "$out/stats2.out" '^rewrote [1-9][0-9]* graphs and matched [1-9][0-9]* times$' 1
expect_at_least "$out/stats2.out" "$row" 10

# 3: also a line per match with its time.
TRACK_MATCH_STATS=3 run stats3 0 "${small[@]}"
expect_at_least "$out/stats3.out" '^ *[0-9]+\.[0-9]{2} us -- ' 10

# Off: none of it.
run stats0 0 "${small[@]}"
expect_count "$out/stats0.out" ' -- TOTAL' 0

# ** SPEC **
# 2: every node the pipeline's rewrites make passes full_spec (a bad one would abort naming its
# rule); the result is the same kernel.
SPEC=2 run spec2 0 "${small[@]}"
expect_count "$out/spec2.out" '^\*\*\* CPU .* r_8_8_8 ' 1
SPEC=0 run spec0 0 "${small[@]}"
expect_count "$out/spec0.out" '^\*\*\* CPU .* r_8_8_8 ' 1

# ** DEBUG **
# 5: the kernel AST as the Python that builds it (tinygrad's pyrender).
DEBUG=5 run debug5 0 "${small[@]}"
expect_in "$out/debug5.out" "c0 = UOp(Ops.DEFINE_GLOBAL, dtypes.float.ptr(64), (), 0)"
expect_at_least "$out/debug5.out" '^c[0-9]+ = UOp\.range\(8, [0-9]+, AxisType\.(LOOP|REDUCE)\)$' 3
expect_at_least "$out/debug5.out" '^ast = c[0-9]+\.sink\(' 1
# 7: the disassembly of each compiled program (an object file of the kernel's function).
DEBUG=7 run debug7 0 "${small[@]}"
if grep -q "no disassembly" "$out/debug7.out"; then
  echo "note: no objdump here; DEBUG=7 said so: $(grep -m1 'no disassembly' "$out/debug7.out")"
else
  expect_at_least "$out/debug7.out" '<r_8_8_8>:$' 1
fi

# ** colour **
esc=$'\x1b'
# Piped: no ANSI escapes anywhere, at every DEBUG level that prints kernel names or ASTs.
for level in 2 3 5 6; do
  DEBUG=$level run "plain$level" 0 "${small[@]}"
  expect_count "$out/plain$level.out" "$esc" 0
  expect_in "$out/plain$level.out" "r_8_8_8"
done
# On a terminal (a pty from script(1)): coloured kernel names, unless NO_COLOR is set and not
# empty.
if command -v script >/dev/null; then
  cmd="$(printf '%q ' "$tg" "${small[@]}")"
  script -qec "$cmd" /dev/null >"$out/tty.out" 2>&1 || fail "tg on a terminal failed: $(cat "$out/tty.out")"
  expect_at_least "$out/tty.out" "r${esc}\\[90m_${esc}\\[0m${esc}\\[[0-9]+m8" 1
  NO_COLOR=1 script -qec "$cmd" /dev/null >"$out/tty_nocolor.out" 2>&1 || fail "tg with NO_COLOR failed"
  expect_count "$out/tty_nocolor.out" "$esc" 0
  expect_in "$out/tty_nocolor.out" "r_8_8_8"
  NO_COLOR= script -qec "$cmd" /dev/null >"$out/tty_empty.out" 2>&1 || fail "tg with NO_COLOR= failed"
  expect_at_least "$out/tty_empty.out" "$esc" 1
else
  echo "note: no script(1) here; the terminal half of the colour checks is skipped"
fi

# ** our search extensions **
# BEAM_BLOCK=1: BEAM's search has BLOCK actions, so its records carry block=1 in their search
# settings (as BEAM_SIMD=1's carry simd=1, with tiles=1: the ISA's register tiles); without it
# they do not.
BEAM=1 BEAM_BLOCK=1 run beam_block 0 "${small[@]}"
BEAM=1 BEAM_SIMD=1 run beam_simd 0 "${small[@]}"
BEAM=1 run beam_plain 0 "${small[@]}"
run beam_db 0 db --db "$TG_CACHE_DIR/tuning.db" show ""
# (a record per kernel of each run; every run has the same kernels)
n_block=$(grep -cE '^search settings: .* simd=0 block=1$' "$out/beam_db.out")
[[ $n_block -ge 1 ]] || fail "BEAM_BLOCK=1 stored no record with block=1"
expect_count "$out/beam_db.out" '^search settings: .* simd=1 tiles=1$' "$n_block"
expect_count "$out/beam_db.out" '^search settings: .* simd=0$' "$n_block"
expect_count "$out/beam_db.out" 'block=1' "$n_block"
# CPU_TARGET: the CPU device compiles for it; an unknown one is an error of tg run naming it, a
# known one this CPU runs runs (BEAM's records are then under the target's device class:
# tests/e2e/tg_tune_test.sh).
CPU_TARGET=x86-64-v9 run cpu_target_bad 1 "${small[@]}"
expect_in "$out/cpu_target_bad.err" "unknown CPU target 'x86-64-v9'"
if grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo && grep -qw bmi2 /proc/cpuinfo; then
  CPU_TARGET=x86-64-v3 run cpu_target_v3 0 "${small[@]}"
  expect_count "$out/cpu_target_v3.out" '^\*\*\* CPU .* r_8_8_8 ' 1
fi

finish "tg env"
