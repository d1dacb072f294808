#!/usr/bin/env bash
# Runs `tg worker` (tg binary in $1): usage errors, and a worker that starts and exits on SIGTERM.
set -u
source tests/tg_test_lib.sh

tg="$1"
out="${TEST_TMPDIR:-$(mktemp -d)}/worker"
rm -rf "$out"
mkdir -p "$out"

run help 0 worker --help
expect_in "$out/help.out" "usage: tg worker --connect"
run listed 0 --help
expect_in "$out/listed.out" "worker"
run noconnect 2 worker
expect_in "$out/noconnect.err" "--connect ENDPOINT is required"
run badscheme 2 worker --connect http://x
expect_in "$out/badscheme.err" "tcp://HOST:PORT or ipc://PATH"
run plaintcp 2 worker --connect tcp://127.0.0.1:5555
expect_in "$out/plaintcp.err" "or --insecure"
run both 2 worker --connect ipc:///tmp/x --fake-timing --simulate-device-ms 1
expect_in "$out/both.err" "exclude each other"
run halfkey 2 worker --connect tcp://127.0.0.1:5555 --key a.key
expect_in "$out/halfkey.err" "--key and --server-key go together"
run badchildren 2 worker --connect ipc:///tmp/x --children 0
expect_in "$out/badchildren.err" "--children needs a count >= 1"
run badsim 2 worker --connect ipc:///tmp/x --simulate-device-ms -3
expect_in "$out/badsim.err" "--simulate-device-ms needs a time >= 0"
run badhb 2 worker --connect ipc:///tmp/x --heartbeat-ms x
expect_in "$out/badhb.err" "--heartbeat-ms needs a time >= 1"
run badfault 2 worker --connect ipc:///tmp/x --inject-fault 'boom:[]'
expect_in "$out/badfault.err" "fault 'boom:[]': expected crash:OPTS or hang:OPTS"
run badfaultopts 2 worker --connect ipc:///tmp/x --inject-fault 'crash:[["UPCAST",0'
expect_in "$out/badfaultopts.err" "fault 'crash:[[\"UPCAST\",0'"
run nofault 2 worker --connect ipc:///tmp/x --inject-fault
expect_in "$out/nofault.err" "--inject-fault needs crash:OPTS or hang:OPTS"
run nolock 2 worker --connect ipc:///tmp/x --device-lock
expect_in "$out/nolock.err" "--device-lock needs a lock file path, or none"
run badlock 1 worker --connect ipc:///tmp/x --device-lock /proc/no/such/device.lock
expect_in "$out/badlock.err" "device lock: cannot make /proc/no/such"
run badopt 2 worker --bogus
expect_in "$out/badopt.err" "unknown option '--bogus'"
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

finish "tg worker"
