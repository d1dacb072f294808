#!/usr/bin/env bash
# File: tests/e2e/farm_chaos_test.sh
# Chaos on the tuning farm with real processes (the tg binary's path in $1): a coordinator
# (`tg tune --bind ipc://...`) and 3 `tg worker` processes that this script starts itself. The
# workers inject a crashing and a hanging candidate (--inject-fault, tests only). A clean run
# first; then the same search while, every 2 seconds, a random worker is SIGKILLed (and a
# replacement started) or SIGSTOPped for a while and resumed. The chaos run must complete with
# the clean run's winners, no job may be lost (jobs of dead workers are requeued), and the
# faulty candidates must be reported as failures, not stop anything. The first blow is a
# SIGKILL to a worker seen holding a job, so the chaos and a requeue happen however fast the
# machine finishes the search.
# Timing is the farm's deterministic fake timing, so both runs must agree exactly.
set -u
source tests/tg_test_lib.sh

tg="$1"
out="${TEST_TMPDIR:-$(mktemp -d)}"
export TG_CACHE_DIR="$out/cache"
export BEAM_TIMEOUT_SEC=1  # bounds the hanging candidate's run deadline (1 s floor per run)
tune=(tune mlp --batch 16 --hidden 128 --beam 2 --fake-timing)
# Candidates of the first round of every kernel of this workload.
faults=(--inject-fault 'crash:[["UPCAST",0,4]]' --inject-fault 'hang:[["UNROLL",0,4]]')

declare -a pids=()
declare -A pid_of=()
next_id=0
start_worker() {  # start_worker SOCKET_DIR RUN_NAME
  local id="w$next_id"
  next_id=$((next_id + 1))
  "$tg" worker --connect "ipc://$1/farm" --id "$id" --children 1 --fake-timing "${faults[@]}" \
    >"$out/$2.$id.log" 2>&1 &
  pids+=($!)
  pid_of[$id]=$!
}

# The ids of the workers that hold jobs now, from the coordinator's status socket.
busy_workers() {  # busy_workers SOCKET_DIR
  "$tg" farm status --connect "ipc://$1/status" 2>/dev/null |
    sed -nE 's/^  (w[0-9]+) +host=.* in_flight=[1-9][0-9]* .*/\1/p'
}

# SIGKILLs a worker that holds a job: stopped first, and killed only if the coordinator still
# counts a job on it (a stopped worker cannot answer it), so the job must be requeued.
kill_busy_worker() {  # kill_busy_worker SOCKET_DIR NAME
  local id pid
  id=$(busy_workers "$1" | head -1)
  [[ -n $id ]] || return 1
  pid=${pid_of[$id]}
  kill -STOP "$pid" 2>/dev/null || return 1
  if busy_workers "$1" | grep -qx "$id"; then
    kill -KILL "$pid" && echo "chaos: SIGKILL $pid ($id, holding a job)" >>"$out/$2.chaos"
    return 0
  fi
  kill -CONT "$pid"
  return 1
}

live_workers() {
  local p
  for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && echo "$p"; done
}

# run_farm NAME CHAOS(0|1): one search; the coordinator's output in $out/NAME.out.
run_farm() {
  local name="$1" chaos="$2" dir coord tick=0
  dir=$(mktemp -d /tmp/tg-chaos-XXXXXX)  # 0700: the ipc:// rule
  pids=()
  "$tg" "${tune[@]}" --bind "ipc://$dir/farm" --status-bind "ipc://$dir/status" \
    --db "$out/$name.db" --json "$out/$name.jsonl" >"$out/$name.out" 2>&1 &
  coord=$!
  for _ in 1 2 3; do start_worker "$dir" "$name"; done
  if [[ $chaos -eq 1 ]] && wait_for "$name: no worker was ever seen holding a job" kill_busy_worker "$dir" "$name"; then
    start_worker "$dir" "$name"
  fi
  while kill -0 "$coord" 2>/dev/null; do
    sleep 2  # the chaos' pace (and the clean run's look at the coordinator), not a wait for anything
    [[ $chaos -eq 1 ]] || continue
    kill -0 "$coord" 2>/dev/null || break
    read -r -a live <<<"$(live_workers | tr '\n' ' ')"
    [[ ${#live[@]} -gt 0 ]] || continue
    victim=${live[$((RANDOM % ${#live[@]}))]}
    tick=$((tick + 1))
    if [[ $((tick % 2)) -eq 1 ]]; then
      kill -KILL "$victim" 2>/dev/null && echo "chaos: SIGKILL $victim" >>"$out/$name.chaos"
      start_worker "$dir" "$name"
    else
      kill -STOP "$victim" 2>/dev/null && echo "chaos: SIGSTOP $victim" >>"$out/$name.chaos"
      (sleep 1.5; kill -CONT "$victim" 2>/dev/null) &
    fi
  done
  wait "$coord" || fail "$name: the search failed: $(tail -3 "$out/$name.out")"
  for p in "${pids[@]}"; do kill -CONT "$p" 2>/dev/null; kill -TERM "$p" 2>/dev/null; done
  wait 2>/dev/null
  rm -rf "$dir"
}

run_farm clean 0
run_farm chaos 1

# The same winners.
same_opts "$out/clean.jsonl" "$out/chaos.jsonl" "chaos"
[[ $(opts_of "$out/clean.jsonl" | wc -l) -ge 2 ]] || fail "clean: expected the workload's kernels in --json"

# The chaos happened, and the killed workers' jobs were taken over: requeued when the worker was
# declared dead, or answered before that by a speculative backup copy on another worker (then
# there is nothing left to requeue; which comes first depends on the machine's speed).
grep -q "SIGKILL" "$out/chaos.chaos" 2>/dev/null || fail "chaos: no worker was killed (the search ended too soon)"
grep -qE "farm: .* [1-9][0-9]* workers declared dead" "$out/chaos.out" ||
  fail "chaos: no worker was declared dead: $(grep '^farm:' "$out/chaos.out")"
grep -qE "farm: .* ([1-9][0-9]* requeued|\([1-9][0-9]* answered first)" "$out/chaos.out" ||
  fail "chaos: no job was requeued or answered by a backup copy: $(grep '^farm:' "$out/chaos.out")"

# The faults were hit, reported by the workers, and did not stop the clean search.
grep -qh "crashed" "$out"/clean.w*.log || fail "clean: no worker reported the crashing candidate"
grep -qh "timeout" "$out"/clean.w*.log || fail "clean: no worker reported the hanging candidate"

finish "chaos"
