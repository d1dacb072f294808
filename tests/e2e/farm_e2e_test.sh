#!/usr/bin/env bash
# File: tests/e2e/farm_e2e_test.sh
# The tuning farm end to end with real processes (the tg binary's path in $1): a coordinator
# (`tg tune --workers 3`) and 3 `tg worker` processes on ipc:// tune the mlp workload and pick
# the same opts as the in-process search; then again while one worker is SIGKILLed and another
# SIGSTOPped and resumed; then a coordinator SIGKILLed mid-search and restarted resumes from the
# measurement journal. Timing is the farm's deterministic fake timing (--fake-timing: outputs
# are checked for real, times come from each program's hash), so every run must agree exactly.
set -u
source tests/tg_test_lib.sh

tg="$1"
out="${TEST_TMPDIR:-$(mktemp -d)}"
export TG_CACHE_DIR="$out/cache"
tune=(tune mlp --batch 16 --hidden 128 --beam 2 --fake-timing)

# 1. In-process reference, then the farm.
"$tg" "${tune[@]}" --in-process --db "$out/inproc.db" --json "$out/inproc.jsonl" >"$out/inproc.out" 2>&1 ||
  fail "in-process tune failed: $(tail -3 "$out/inproc.out")"
"$tg" "${tune[@]}" --workers 3 --db "$out/farm.db" --json "$out/farm.jsonl" >"$out/farm.out" 2>&1 ||
  fail "farm tune failed: $(tail -3 "$out/farm.out")"
same_opts "$out/inproc.jsonl" "$out/farm.jsonl" "farm"
grep -q "farm: workers connect to ipc://" "$out/farm.out" || fail "no farm line in the output"

# The local workers of a coordinator, from its output file $1 (pgrep cannot see the parent
# relation inside the test sandbox's pid namespace).
workers_of() {
  wait_for "no local worker pids in $1" grep -q "^farm: local worker pids:" "$1" >&2
  sed -n 's/^farm: local worker pids: //p' "$1"
}

measuring() { grep -qE '[1-9][0-9]* measured' "$1" 2>/dev/null; }  # measuring OUT_FILE
gone() {  # gone PID...: none of them is alive
  local p
  for p in "$@"; do kill -0 "$p" 2>/dev/null && return 1; done
  return 0
}

# 2. Chaos: SIGKILL one worker and SIGSTOP/SIGCONT another during the search.
"$tg" "${tune[@]}" --workers 3 --db "$out/chaos.db" --json "$out/chaos.jsonl" >"$out/chaos.out" 2>&1 &
coord=$!
read -r -a ws <<<"$(workers_of "$out/chaos.out")"
wait_for "chaos: the search never started measuring" measuring "$out/chaos.out"
if [[ ${#ws[@]} -ge 3 ]]; then
  kill -STOP "${ws[1]}"
  kill -KILL "${ws[0]}"
  sleep 2  # how long the stopped worker stays stopped (chaos, not a wait for anything)
  kill -CONT "${ws[1]}"
else
  fail "chaos: expected 3 local workers, found ${#ws[@]} (the search may have ended already)"
fi
wait "$coord" || fail "chaos tune failed: $(tail -3 "$out/chaos.out")"
same_opts "$out/inproc.jsonl" "$out/chaos.jsonl" "chaos"

# 3. The coordinator SIGKILLed once the journal holds measurements, then started again.
"$tg" "${tune[@]}" --workers 2 --db "$out/resume.db" --json "$out/resume1.jsonl" >"$out/resume1.out" 2>&1 &
coord=$!
wait_for "resume: the first run never measured anything" measuring "$out/resume1.out"
read -r -a ws <<<"$(workers_of "$out/resume1.out")"
kill -KILL "$coord"
wait "$coord" 2>/dev/null
grep -q "kernel .* -> " "$out/resume1.out" && fail "resume: the first run finished before it was killed"
# a SIGKILLed coordinator cannot remove its private socket directory: do it here
killed_dir=$(sed -n 's|^farm: workers connect to ipc://\(/tmp/tg-farm-[A-Za-z0-9]*\)/farm.*|\1|p' "$out/resume1.out")
[[ -n $killed_dir ]] && rm -rf "$killed_dir"
wait_for "workers ${ws[*]} outlived their SIGKILLed coordinator" gone "${ws[@]}"
"$tg" "${tune[@]}" --workers 2 --db "$out/resume.db" --json "$out/resume2.jsonl" >"$out/resume2.out" 2>&1 ||
  fail "resumed tune failed: $(tail -3 "$out/resume2.out")"
grep -qE '[1-9][0-9]* from journal' "$out/resume2.out" || fail "the resumed search took nothing from the journal"
same_opts "$out/inproc.jsonl" "$out/resume2.jsonl" "resume"

finish "farm"
