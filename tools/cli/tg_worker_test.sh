#!/usr/bin/env bash
# Runs `tg worker` (tg binary in $1): usage errors, a worker that starts and exits on SIGTERM,
# one whose key a real coordinator (tg tune --bind tcp://... --key --allow) refuses, and one a
# coordinator refuses for good (evicted; $2 is //workers:refusing_coordinator).
set -u
source tests/tg_test_lib.sh

tg="$1"
refusing_coordinator="$2"
out="${TEST_TMPDIR:-$(mktemp -d)}/worker"
rm -rf "$out"
mkdir -p "$out"

run help 0 worker --help
expect_in "$out/help.out" "Usage: tg worker [OPTIONS]"
expect_in "$out/help.out" "--server-key"
expect_in "$out/help.out" "--no-sandbox"
expect_in "$out/help.out" "--child-memory-limit"
expect_in "$out/help.out" "RLIMIT_DATA; not RLIMIT_AS"
expect_in "$out/help.out" "--job-cpu-s"
run listed 0 --help
expect_in "$out/listed.out" "worker"
run noconnect 2 worker
expect_in "$out/noconnect.err" "tg worker: --connect is required"
run badscheme 2 worker --connect http://x
expect_in "$out/badscheme.err" "--connect: takes tcp://HOST:PORT or ipc://PATH, not 'http://x'"
run plaintcp 2 worker --connect tcp://127.0.0.1:5555
expect_in "$out/plaintcp.err" "or --insecure"
run both 2 worker --connect ipc:///tmp/x --fake-timing --simulate-device-ms 1
expect_in "$out/both.err" "--fake-timing excludes --simulate-device-ms"
run halfkey 2 worker --connect tcp://127.0.0.1:5555 --key a.key
expect_in "$out/halfkey.err" "--key requires --server-key"
run keyinsecure 2 worker --connect tcp://127.0.0.1:5555 --key a.key --server-key b.pub --insecure
expect_in "$out/keyinsecure.err" "--key excludes --insecure"
run badchildren 2 worker --connect ipc:///tmp/x --children 0
expect_in "$out/badchildren.err" "--children: needs an integer >= 1, got '0'"
run badsim 2 worker --connect ipc:///tmp/x --simulate-device-ms -3
expect_in "$out/badsim.err" "--simulate-device-ms: needs a number >= 0"
run badhb 2 worker --connect ipc:///tmp/x --heartbeat-ms x
expect_in "$out/badhb.err" "--heartbeat-ms: needs an integer >= 1, got 'x'"
run badfault 2 worker --connect ipc:///tmp/x --inject-fault 'boom:[]'
expect_in "$out/badfault.err" "fault 'boom:[]': expected crash:OPTS, hang:OPTS, lose:OPTS, exec:OPTS, spin:OPTS or hog:OPTS"
run badmemory 2 worker --connect ipc:///tmp/x --child-memory-limit lots
expect_in "$out/badmemory.err" "--child-memory-limit"
run negmemory 2 worker --connect ipc:///tmp/x --child-memory-limit -5
expect_in "$out/negmemory.err" "--child-memory-limit: needs a size >= 0, got '-5'"
run badcpu 2 worker --connect ipc:///tmp/x --job-cpu-s -1
expect_in "$out/badcpu.err" "--job-cpu-s: needs a number >= 0"
run badfaultopts 2 worker --connect ipc:///tmp/x --inject-fault 'crash:[["UPCAST",0'
expect_in "$out/badfaultopts.err" "fault 'crash:[[\"UPCAST\",0'"
run nofault 2 worker --connect ipc:///tmp/x --inject-fault
expect_in "$out/nofault.err" "--inject-fault: 1 required"
run nolock 2 worker --connect ipc:///tmp/x --device-lock
expect_in "$out/nolock.err" "--device-lock: 1 required"
run badlock 1 worker --connect ipc:///tmp/x --device-lock /proc/no/such/device.lock
expect_in "$out/badlock.err" "device lock: cannot make /proc/no/such"
run nodevice 2 worker --connect ipc:///tmp/x --device
expect_in "$out/nodevice.err" "--device: 1 required"
run baddevice 1 worker --connect ipc:///tmp/x --device NOPE --device-lock none
expect_in "$out/baddevice.err" "NOPE"
# without --device, the default device (DEV here) is the one served
DEV=nope run baddefault 1 worker --connect ipc:///tmp/x --device-lock none
expect_in "$out/baddefault.err" "NOPE"
# --cpu-target: an unknown ISA is refused at start (one this CPU lacks too: workers/worker_test
# checks that with an injected feature list), from the flag or from CPU_TARGET.
run badtarget 1 worker --connect ipc:///tmp/x --device-lock none --cpu-target x86-64-v9
expect_in "$out/badtarget.err" "tg worker: unknown CPU target 'x86-64-v9'"
CPU_TARGET=x86-64-v8 run badtarget_env 1 worker --connect ipc:///tmp/x --device-lock none
expect_in "$out/badtarget_env.err" "unknown CPU target 'x86-64-v8'"
run targethelp 0 worker --help
expect_in "$out/targethelp.out" "--cpu-target"
# The sandbox forbids starting processes: a compiler that runs as one is refused at start.
CPU_CC=gcc run processcc 1 worker --connect ipc:///tmp/x --device-lock none
expect_in "$out/processcc.err" "(CPU_CC=gcc): unset CPU_CC, or turn the sandbox off (--no-sandbox runs candidates unconfined)"
run cpucompile 2 worker --connect ipc:///tmp/x --compile-with ipc:///tmp/y
expect_in "$out/cpucompile.err" "--compile-with needs a GPU device (--device CUDA)"
run halfcompilekey 2 worker --connect ipc:///tmp/x --device CUDA --compile-with tcp://h:1 --compile-key a.key
expect_in "$out/halfcompilekey.err" "--compile-key requires --compile-server-key"
run badopt 2 worker --bogus
expect_in "$out/badopt.err" "The following argument was not expected: --bogus"
run nokey 2 worker --connect tcp://127.0.0.1:5555 --key "$out/none.key" --server-key "$out/none.pub"

# A simulated worker with nobody listening starts, and exits 0 on SIGTERM.
sock="$(mktemp -d /tmp/tg-worker-sh-XXXXXX)"
chmod 700 "$sock"
"$tg" worker --connect "ipc://$sock/coord" --simulate-device-ms 1 --children 1 --id sh-worker \
  >"$out/sim.out" 2>"$out/sim.err" &
pid=$!
# "serving" comes after its SIGTERM handler is set
wait_for "the simulated worker never said it was serving" grep -q "serving ipc://" "$out/sim.err"
kill -TERM "$pid"
wait "$pid"
rc=$?
[[ $rc -eq 0 ]] || { fail "simulated worker exited $rc after SIGTERM"; cat "$out/sim.err" >&2; }
expect_in "$out/sim.err" "tg worker sh-worker: serving ipc://"
rm -rf "$sock"

# A worker with children says each one's memory limit (here given with a unit).
sock="$(mktemp -d /tmp/tg-worker-sh-XXXXXX)"
chmod 700 "$sock"
"$tg" worker --connect "ipc://$sock/coord" --fake-timing --children 1 --id limited-worker --device-lock none \
  --child-memory-limit 2GiB >"$out/limited.out" 2>"$out/limited.err" &
pid=$!
wait_for "the limited worker never said it was serving" grep -q "serving ipc://" "$out/limited.err"
kill -TERM "$pid"
wait "$pid"
expect_in "$out/limited.err" "tg worker limited-worker: serving ipc://$sock/coord with 1 children, each with a memory limit of 2.00 GiB"
rm -rf "$sock"

# A coordinator's refusal (a Bye saying `refused`: it evicted this worker) ends the worker even
# without --exit-on-bye: exit 1 naming the coordinator's reason, after one Hello (a worker that
# kept reconnecting would only be refused again).
sock="$(mktemp -d /tmp/tg-worker-sh-XXXXXX)"
chmod 700 "$sock"
reason="evicted: held 3 jobs past their deadline; this coordinator takes no more work from this worker id"
"$refusing_coordinator" "ipc://$sock/coord" "$reason" >"$out/refuser.out" 2>"$out/refuser.err" &
refuser=$!
wait_for "the refusing coordinator never bound" grep -q "^bound ipc://" "$out/refuser.out"
timeout 60 "$tg" worker --connect "ipc://$sock/coord" --simulate-device-ms 1 --children 1 --id evicted-worker \
  >"$out/evicted.out" 2>"$out/evicted.err"
rc=$?
[[ $rc -eq 1 ]] || { fail "the evicted worker exited $rc, want 1"; cat "$out/evicted.err" >&2; }
expect_in "$out/evicted.err" "tg worker: the coordinator refuses this worker: $reason"
kill -TERM "$refuser"
wait "$refuser" 2>/dev/null
expect_count "$out/refuser.out" "^hello from evicted-worker$" 1
rm -rf "$sock"

# A worker whose key the coordinator's allowlist lacks says so, naming its key, once per
# connection attempt, and keeps trying (a key allowed meanwhile gets in on the next attempt).
export TG_CACHE_DIR="$out/cache"  # the compile caches of the coordinator, not the user's
keys="$out/keys"
mkdir -p "$keys/allowed.d"
chmod 700 "$keys" "$keys/allowed.d"
"$tg" keygen --dir "$keys" coordinator >/dev/null || fail "keygen coordinator"
"$tg" keygen --dir "$keys/allowed.d" allowed >/dev/null || fail "keygen allowed"
"$tg" keygen --dir "$keys" stranger >"$out/stranger.out" || fail "keygen stranger"
stranger_pub=$(tail -n 1 "$out/stranger.out")
"$tg" tune matmul --m 8 --n 8 --k 8 --beam 1 --db "$out/coord.db" --bind 'tcp://127.0.0.1:*' \
  --key "$keys/coordinator.key" --allow "$keys/allowed.d" >"$out/coord.out" 2>"$out/coord.err" &
coord=$!
wait_for "the coordinator never said where workers connect" grep -q "farm: workers connect to tcp://" "$out/coord.out"
ep=$(sed -n 's/^farm: workers connect to \(tcp:[^,]*\).*/\1/p' "$out/coord.out")
# Short heartbeats: the worker gives up on the silent coordinator and reconnects after 5 x 100 ms
# (libzmq never retries a refused handshake itself).
"$tg" worker --connect "$ep" --key "$keys/stranger.key" --server-key "$keys/coordinator.pub" \
  --simulate-device-ms 1 --children 1 --id refused --heartbeat-ms 100 \
  >"$out/refused.out" 2>"$out/refused.err" &
worker=$!
refused_twice() { [[ $(grep -c "refused this worker's key" "$out/refused.err") -ge 2 ]]; }
wait_for "the refused worker never named its key on a second connection attempt" refused_twice
kill -TERM "$worker"
wait "$worker"
kill -TERM "$coord" 2>/dev/null
wait "$coord" 2>/dev/null
expect_in "$out/refused.err" "tg worker refused: the coordinator at $ep refused this worker's key $stranger_pub (ZAP status 400): is it in the coordinator's allowlist?"
# At most one line per connection attempt: the first, then one per reconnect.
refusals=$(grep -c "refused this worker's key" "$out/refused.err")
# (a coordinator that never answered: "connecting again"; one that went silent: "reconnecting")
reconnects=$(grep -cE "reconnecting|connecting again" "$out/refused.err")
((refusals <= reconnects + 1)) ||
  fail "$refusals refusal lines for $((reconnects + 1)) connection attempts: $(cat "$out/refused.err")"

finish "tg worker"
