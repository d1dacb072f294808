#!/usr/bin/env bash
# File: tests/e2e/tg_tune_test.sh
# `tg tune` end to end (the tg binary's path in $1): a small matmul is tuned with BEAM=2 into a
# fresh database (in-process, then on the default local farm), the records carry the kernels'
# names (tg db show), a second run answers from it,
# `tg run` then uses the tuned opts (and warns about a record whose opts do not apply, which
# `tg db drop` removes and `tg tune` searches again), a GPU's search runs on the UOp emulator, and bad input
# exits 2 with a message.
set -u
source tests/tg_test_lib.sh

tg="$1"
out="${TEST_TMPDIR:-$(mktemp -d)}"
export TG_CACHE_DIR="$out/cache"   # the default database lives here, not in the user's cache
db="$out/tune.db"

# First run searches in this process (progress lines, not a terminal: one per step), then the table.
BEAM_UPCAST_MAX=16 run first 0 tune matmul --m 32 --n 32 --k 32 --beam 2 --db "$db" --in-process
expect_in "$out/first.out" "matmul: k=32 m=32 n=32, 1 kernels, BEAM=2, on CPU, database sqlite:$db"
expect_in "$out/first.out" "kernel 1/1  baselines"
expect_in "$out/first.out" "kernel 1/1  round 1"
expect_in "$out/first.out" "kernel 1/1  finalists"
expect_count "$out/first.out" '^kernel +baseline +heuristic +tuned +vs base +vs heur +cands +search +opts$' 1
expect_count "$out/first.out" ' candidates, [0-9.]+ s\)$' 1
[[ -s $db ]] || fail "no database file at $db"
# The record carries the kernel's name, as the table printed it.
first_name=$(grep -E '^kernel 1/1 .* -> ' "$out/first.out" | awk '{print $3}')
[[ $first_name =~ ^r_[0-9_]+$ ]] || fail "in-process: kernel name '$first_name', want r_<sizes>"
run show_first 0 db --db "$db" show ""
expect_count "$out/show_first.out" "^kernel: +$first_name\$" 1

# Second run (the default, a farm): answered from the database without starting one.
BEAM_UPCAST_MAX=16 run second 0 tune matmul --m 32 --n 32 --k 32 --beam 2 --db "$db"
expect_count "$out/second.out" '\(cached\)$' 1
expect_count "$out/second.out" 'round 1' 0
expect_not_in "$out/second.out" "farm:"
# The same tuned opts in both tables.
first_opts=$(tail -1 "$out/first.out" | awk '{print $NF}')
second_opts=$(tail -1 "$out/second.out" | awk '{print $NF}')
[[ $first_opts == "$second_opts" ]] || fail "cached opts '$second_opts' differ from tuned '$first_opts'"

# --ignore-cache searches again, by default on local workers (one per core) sharing the
# machine's device lock.
BEAM_UPCAST_MAX=16 run ignore 0 tune matmul --m 32 --n 32 --k 32 --beam 2 --db "$db" --ignore-cache
expect_in "$out/ignore.out" "farm: workers connect to ipc://"
expect_in "$out/ignore.out" "farm: local worker pids: "
expect_in "$out/ignore.out" "kernels 1/1 done"
expect_in "$out/ignore.out" " jobs answered, 0 requeued"
expect_in "$out/ignore.out" " backup copies sent ("
expect_count "$out/ignore.out" ' candidates, [0-9.]+ s\)$' 1
[[ -e $TG_CACHE_DIR/device-CPU.lock ]] || fail "no device lock at $TG_CACHE_DIR/device-CPU.lock"
BEAM_UPCAST_MAX=16 run in_process_again 0 tune matmul --m 32 --n 32 --k 32 --beam 2 --db "$db" --ignore-cache --in-process
expect_in "$out/in_process_again.out" "round 1"
expect_not_in "$out/in_process_again.out" "farm:"

# --simd is another search setting: a new search (not the cached one), marked in the JSON.
BEAM_UPCAST_MAX=16 run simd 0 tune matmul --m 32 --n 32 --k 32 --beam 2 --db "$db" --simd --json "$out/simd.jsonl"
expect_count "$out/simd.out" '\(cached\)$' 0
expect_in "$out/simd.jsonl" '"simd":true'
expect_in "$out/simd.jsonl" '"tiles":true'  # the ISA's register tiles come with --simd
expect_in "$out/simd.jsonl" '"compile_wall_sum_s":'  # where the search's thread time went
expect_in "$out/simd.jsonl" '"block":false'
expect_in "$out/simd.jsonl" '"flops":65536'  # 2*32^3: the unoptimized kernel's work, whatever the opts pad
# --blocking (the BLOCK opt) too: its key differs from the plain search's, so it searches again.
BEAM_UPCAST_MAX=16 run blocking 0 tune matmul --m 32 --n 32 --k 32 --beam 2 --db "$db" --blocking --json "$out/blocking.jsonl"
expect_count "$out/blocking.out" '\(cached\)$' 0
expect_in "$out/blocking.jsonl" '"block":true'
expect_in "$out/blocking.jsonl" '"pack":false'
# BEAM_BLOCK=1 is --blocking: the same search settings, so the same record answers.
BEAM_BLOCK=1 BEAM_UPCAST_MAX=16 run blocking_env 0 tune matmul --m 32 --n 32 --k 32 --beam 2 --db "$db" \
  --json "$out/blocking_env.jsonl"
expect_count "$out/blocking_env.out" '\(cached\)$' 1
expect_in "$out/blocking_env.jsonl" '"block":true'
# --pack (the PACK opt) likewise, with --blocking: another key again.
BEAM_UPCAST_MAX=16 run pack 0 tune matmul --m 32 --n 32 --k 32 --beam 2 --db "$db" --blocking --pack --json "$out/pack.jsonl"
expect_count "$out/pack.out" '\(cached\)$' 0
expect_in "$out/pack.jsonl" '"pack":true'
# Records stored by the farm are named too: no blank "kernel:" in the database.
simd_name=$(grep -E '^kernel 1/1 .* -> ' "$out/simd.out" | awk '{print $3}')
run show_all 0 db --db "$db" show ""
[[ -n $simd_name ]] && grep -qE "^kernel: +$simd_name\$" "$out/show_all.out" ||
  fail "tg db show lacks the farm's kernel '$simd_name': $(grep '^kernel:' "$out/show_all.out")"
expect_count "$out/show_all.out" '^kernel: *$' 0

# --cpu-target through local workers (the default farm): the workers compile for the target and
# announce its device class, and the records are stored under it (its compiler flags, and none
# of the ISA flags the target lacks).
if grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo && grep -qw bmi2 /proc/cpuinfo; then
  tdb="$out/target.db"
  run target_farm 0 tune matmul --m 16 --n 16 --k 16 --beam 1 --db "$tdb" --workers 1 --fake-timing \
    --cpu-target x86-64-v3 --json "$out/target_farm.jsonl"
  expect_in "$out/target_farm.out" "CPU target x86-64-v3"
  expect_in "$out/target_farm.out" "farm: local worker pids: "
  expect_in "$out/target_farm.out" "kernels 1/1 done"
  expect_in "$out/target_farm.jsonl" '"cpu_target":"x86-64-v3"'
  run target_stats 0 db --db "$tdb" stats
  expect_count "$out/target_stats.out" "x86-64-v3" 1
  expect_count "$out/target_stats.out" "avx2" 1
  expect_count "$out/target_stats.out" "avx512f" 0
  # CPU_TARGET is the same setting: its tuning answers from those records
  CPU_TARGET=x86-64-v3 run target_env 0 tune matmul --m 16 --n 16 --k 16 --beam 1 --db "$tdb"
  expect_count "$out/target_env.out" '\(cached\)$' 1
  # and tg run's BEAM looks them up under the same class
  CPU_TARGET=x86-64-v3 BEAM=1 TG_CACHE_DIR="$out/target_cache" run target_run 0 run matmul --m 16 --n 16 --k 16 --runs 1
  run target_run_stats 0 db --db "$out/target_cache/tuning.db" stats
  expect_count "$out/target_run_stats.out" "x86-64-v3" 1
fi

# tg run picks the tuned opts up from the default database (tune into it first).
BEAM_UPCAST_MAX=16 run tune_default 0 tune matmul --m 32 --n 32 --k 32 --beam 2
DEBUG=3 run use 0 run matmul --m 32 --n 32 --k 32 --runs 1
tuned=$(grep -E '^kernel 1/1 .* -> ' "$out/tune_default.out" | awk '{print $3}')
sed 's/\x1b\[[0-9;]*m//g' "$out/use.out" >"$out/use.plain"   # kernel names are colored
expect_count "$out/use.plain" "^\*\*\* CPU +[0-9]+ $tuned " 1

# A record whose opts do not apply (a hand-edited or corrupted row of a shared database) does not
# stop tg run: a warning names the opts, why and the record, the kernel runs with the default
# opts, and `tg db drop` removes the record.
run export_default 0 db export --out "$out/default.jsonl"
sed -e 's/"opts":\[\(\[[^]]*\],\{0,1\}\)*\]/"opts":[["UPCAST",9,4]]/' -e 's/"time_s":[0-9.e+-]*/"time_s":1e-09/' \
  "$out/default.jsonl" >"$out/broken.jsonl"
expect_in "$out/broken.jsonl" '"opts":[["UPCAST",9,4]]'
run import_broken 0 db import "$out/broken.jsonl"
expect_in "$out/import_broken.out" "1 records read, 1 stored"
run broken 0 run matmul --m 32 --n 32 --k 32 --runs 1
key=$(sed -n 's/^{"key":"\([0-9a-f]\{16\}\).*/\1/p' "$out/broken.jsonl")
expect_in "$out/broken.err" "the opts [Opt(op=OptOps.UPCAST, axis=9, arg=4)] of record $key of the tuning database sqlite:$TG_CACHE_DIR/tuning.db"
expect_in "$out/broken.err" "invalid axis"
expect_in "$out/broken.err" "it runs with the default opts; \`tg db show $key\` shows the record, \`tg db drop $key\` drops it"
run drop_broken 0 db drop "$key"
expect_in "$out/drop_broken.out" "dropped $key"
run after_drop 0 run matmul --m 32 --n 32 --k 32 --runs 1
expect_not_in "$out/after_drop.err" "do not work here"
# tg tune does not trust such a record: it searches again (on the local farm) and replaces it.
run import_broken_again 0 db import "$out/broken.jsonl"
BEAM_UPCAST_MAX=16 run retune 0 tune matmul --m 32 --n 32 --k 32 --beam 2
expect_in "$out/retune.out" "kernel 1/1: record $key held opts [[\"UPCAST\",9,4]] that do not apply (Opt(op=OptOps.UPCAST, axis=9, arg=4): invalid axis"
expect_in "$out/retune.out" "searched again, the winner replaced it"
expect_count "$out/retune.out" '\(cached\)$' 0
run after_retune 0 run matmul --m 32 --n 32 --k 32 --runs 1
expect_not_in "$out/after_retune.err" "do not work here"

# A GPU's search space without a GPU: the UOp emulator (DEV=PYTHON) with CUDA's tensor cores, on
# the local farm (each candidate checked against the unoptimized kernel, as on a GPU); the
# records are the emulator's class, not a GPU's.
DEV=PYTHON EMULATE=CUDA run emulated 0 tune matmul --m 32 --n 32 --k 32 --dtype half --beam 2 --db "$out/emulated.db"
expect_in "$out/emulated.out" "kernels 1/1 done"
expect_count "$out/emulated.out" '^r_[0-9_]+ .* TC[0-9]' 1
run emulated_stats 0 db --db "$out/emulated.db" stats
expect_in "$out/emulated_stats.out" "PYTHON"
DEV=PYTHON EMULATE=NOPE run emulated_bad 1 tune matmul --m 8 --n 8 --k 8
expect_in "$out/emulated_bad.err" "can't EMULATE device 'NOPE'"

# Bad input.
run nope 2 tune nope
expect_in "$out/nope.err" "unknown workload 'nope'"
run badbeam 2 tune matmul --beam 0
expect_in "$out/badbeam.err" "tg tune: --beam: needs an integer >= 1, got '0'"
run badparam 2 tune matmul --bogus 3
run both 2 tune matmul --in-process --workers 2
expect_in "$out/both.err" "--workers excludes --in-process"
expect_in "$out/badparam.err" "The following arguments were not expected: 3 --bogus"
run halfkey 2 tune matmul --bind tcp://127.0.0.1:1 --key k.key
expect_in "$out/halfkey.err" "tg tune: --key requires --allow"
run baddb 1 tune matmul --m 8 --n 8 --k 8 --db /proc/no/such/dir/t.db
expect_count "$out/baddb.err" '^tg tune: ' 1
# A --db in a folder that does not exist: an error naming the folder, and no folder made.
run nodir 1 tune matmul --m 8 --n 8 --k 8 --db "$out/no/such/t.db"
expect_in "$out/nodir.err" "its directory $out/no/such does not exist"
[[ ! -e $out/no ]] || fail "tg tune --db made $out/no"
run help 0 tune --help
expect_in "$out/help.out" "Usage: tg tune [OPTIONS] WORKLOAD"
expect_in "$out/help.out" "--insecure"

finish "tg tune"
