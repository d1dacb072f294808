#!/usr/bin/env bash
# Runs the tg binary (path in $1) and checks --help, version and error handling.
set -u
source tests/tg_test_lib.sh

tg="$1"
out="${TEST_TMPDIR:-$(mktemp -d)}"

run help 0 --help
expect_in "$out/help.out" "usage: tg <command>"
expect_in "$out/help.out" "version"
expect_empty "$out/help.err"

run help_short 0 -h
expect_in "$out/help_short.out" "usage: tg <command>"

run help_cmd 0 help
expect_in "$out/help_cmd.out" "usage: tg <command>"

run version 0 version
expect_in "$out/version.out" "tinygrad-cc "
expect_in "$out/version.out" "35900290b246ec5f5eb49d2677c41db5e8b108d3"
expect_in "$out/version.out" "compiler "
expect_empty "$out/version.err"

run unknown 2 frobnicate
expect_in "$out/unknown.err" "unknown command 'frobnicate'"
expect_in "$out/unknown.err" "usage: tg <command>"
expect_empty "$out/unknown.out"

run none 2
expect_in "$out/none.err" "no command given"

run version_extra 2 version extra
expect_in "$out/version_extra.err" "version takes no arguments"

# Every subcommand has CLI11's --help (exit 0, on stdout), and a flag it does not know is a
# usage error (exit 2) whose message names the flag.
for cmd in run tune compile db keygen farm worker; do
  run "help_$cmd" 0 $cmd --help
  expect_in "$out/help_$cmd.out" "Usage: tg $cmd"
  expect_empty "$out/help_$cmd.err"
  run "badflag_$cmd" 2 $cmd --no-such-flag
  expect_in "$out/badflag_$cmd.err" "--no-such-flag"
  expect_in "$out/badflag_$cmd.err" "tg $cmd: "
done
run help_farm_status 0 farm status --help
expect_in "$out/help_farm_status.out" "Usage: tg farm status"
run help_db_export 0 db export -h
expect_in "$out/help_db_export.out" "--out FILE"

# tg tune --cpu-target: an unknown ISA is a clear error (from the flag or CPU_TARGET); with one
# this CPU runs, the records say which ISA they were tuned for (through local workers:
# tests/e2e/tg_tune_test.sh).
run cpu_target_unknown 1 tune matmul --m 16 --n 16 --k 16 --in-process --cpu-target x86-64-v9
expect_in "$out/cpu_target_unknown.err" "unknown CPU target 'x86-64-v9'"
expect_in "$out/cpu_target_unknown.err" "x86-64-v3"
CPU_TARGET=x86-64-v9 run cpu_target_env 1 tune matmul --m 16 --n 16 --k 16
expect_in "$out/cpu_target_env.err" "unknown CPU target 'x86-64-v9'"
# the flag overrides the environment
CPU_TARGET=x86-64-v9 run cpu_target_flag_wins 1 tune matmul --m 16 --n 16 --k 16 --cpu-target x86-64-v7
expect_in "$out/cpu_target_flag_wins.err" "unknown CPU target 'x86-64-v7'"
if grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo; then
  CACHELEVEL=0 run cpu_target_v3 0 tune matmul --m 16 --n 16 --k 16 --in-process --fake-timing \
    --cpu-target x86-64-v3 --json "$out/cpu_target_v3.jsonl"
  expect_in "$out/cpu_target_v3.out" "CPU target x86-64-v3"
  expect_in "$out/cpu_target_v3.jsonl" '"cpu_target":"x86-64-v3"'
  # the search's costs: the lowering threads' CPU time, and the stages' summed wall times
  expect_in "$out/cpu_target_v3.jsonl" '"lower_cpu_s":'
  expect_in "$out/cpu_target_v3.jsonl" '"lower_wall_sum_s":'
  expect_in "$out/cpu_target_v3.jsonl" '"compile_wall_sum_s":'
fi

finish "tg"
