#!/usr/bin/env bash
# Runs `tg viz` (tg binary in $1) end to end: serves a hand-written trace on a free loopback
# port, prints its URL, answers the page and the API over HTTP, stops on Ctrl-C (SIGINT) with
# exit code 0; the same after `VIZ=1 tg run sum --viz-port P` (on port P; a port in use is an
# error before the run); bad traces, bad addresses and --help.
set -u
source tests/tg_test_lib.sh

tg="$1"
out="${TEST_TMPDIR:-$(mktemp -d)}/viz"
rm -rf "$out"
mkdir -p "$out"
trace=tools/viz/testdata/small_trace.json

# fetch URL: "<status> <body>" (python3: no curl needed); status 0 when nothing answers.
fetch() {
  python3 - "$1" <<'PY'
import sys, urllib.request, urllib.error
try:
    with urllib.request.urlopen(sys.argv[1], timeout=30) as r: print(r.status, r.read().decode())
except urllib.error.HTTPError as e: print(e.code, e.read().decode())
except Exception as e: print(0, e)
PY
}

"$tg" viz "$trace" --port 0 >"$out/serve.out" 2>"$out/serve.err" &
pid=$!
url_printed() { grep -qs '^VIZ: http://127.0.0.1:[0-9]*/$' "$out/serve.out"; }
if wait_for "tg viz prints its URL" url_printed; then
  url=$(sed -n 's/^VIZ: //p' "$out/serve.out")
  fetch "${url}" >"$out/index.txt"
  expect_in "$out/index.txt" "200 "
  expect_in "$out/index.txt" 'id="kernel-list"'
  fetch "${url}api/kernels" >"$out/kernels.txt"
  expect_in "$out/kernels.txt" '"name":"E_16"'
  expect_in "$out/kernels.txt" '"name":"Schedule 1 Kernel"'
  fetch "${url}api/step?rewrite=0&step=1" >"$out/step1.txt"
  expect_in "$out/step1.txt" '200 '
  expect_in "$out/step1.txt" '"rule":"tinygrad/uop/symbolic/symbolic.cc:41"'
  expect_in "$out/step1.txt" '"node_count":8'
  expect_in "$out/step1.txt" '<svg'
  fetch "${url}api/step?rewrite=0&step=3" >"$out/step3.txt"
  expect_in "$out/step3.txt" '404 {"error":"rewrite 0 (symbolic) has steps 0..2, not 3"}'
  fetch "${url}api/program?kernel=0" >"$out/program.txt"
  expect_in "$out/program.txt" 'void E_16('
fi
kill -INT "$pid"
wait "$pid"
rc=$?
[[ $rc -eq 0 ]] || fail "tg viz ended with exit code $rc after Ctrl-C, want 0"
expect_in "$out/serve.err" "until Ctrl-C"

# A loopback port that something else holds until `kill $holder`: its number in $held_port.
hold_port() {
  python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(); print(s.getsockname()[1], flush=True)
time.sleep(3600)' >"$out/held_port" &
  holder=$!
  port_printed() { [[ -s "$out/held_port" ]]; }
  wait_for "a port is held" port_printed
  held_port=$(cat "$out/held_port")
}
# A port free a moment ago (the OS hands out another one each time).
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# VIZ=1 tg run: the run, then the viewer on its trace, on the port --viz-port names, until Ctrl-C.
viz_port=$(free_port)
TG_CACHE_DIR="$out/cache" VIZ=1 "$tg" run sum --runs 1 --viz-port "$viz_port" >"$out/run.out" 2>"$out/run.err" &
pid=$!
run_url_printed() { grep -qs "^VIZ: http://127.0.0.1:$viz_port/\$" "$out/run.out"; }
if wait_for "VIZ=1 tg run prints the viewer's URL" run_url_printed; then
  url=$(sed -n 's/^VIZ: //p' "$out/run.out")
  expect_in "$out/run.out" "run 1: sum"
  fetch "${url}api/kernels" >"$out/run_kernels.txt"
  expect_in "$out/run_kernels.txt" '"program":true'
  expect_in "$out/run_kernels.txt" '"rewrites":[{'
  fetch "${url}api/step?rewrite=0&step=0" >"$out/run_step.txt"
  expect_in "$out/run_step.txt" '200 '
  expect_in "$out/run_step.txt" '<svg'
  # the first kernel that made a program (groups also hold schedules)
  kernel=$(sed 's/^200 //' "$out/run_kernels.txt" | python3 -c 'import json,sys
print(next(k["kernel"] for k in json.load(sys.stdin)["kernels"] if k["program"]))')
  fetch "${url}api/program?kernel=${kernel}" >"$out/run_program.txt"
  expect_in "$out/run_program.txt" '200 '
  expect_in "$out/run_program.txt" '"device":"CPU"'
fi
kill -INT "$pid"
wait "$pid"
rc=$?
[[ $rc -eq 0 ]] || { fail "VIZ=1 tg run ended with exit code $rc after Ctrl-C, want 0"; cat "$out/run.err" >&2; }

# VIZ=1 tg run on a port in use: an error that names the address and the flag, before the run.
hold_port
TG_CACHE_DIR="$out/cache" VIZ=1 run busy 1 run sum --runs 1 --viz-port "$held_port"
expect_in "$out/busy.err" "tg run: VIZ: cannot listen on 127.0.0.1:$held_port (the port is in use"
expect_in "$out/busy.err" "--viz-port N serves on another port"
expect_not_in "$out/busy.out" "run 1:"
kill "$holder"
wait "$holder" 2>/dev/null
# The viewer's flags without VIZ=1 are a usage error; a bad port or remote host too.
run noviz 2 run sum --runs 1 --viz-port 8123
expect_in "$out/noviz.err" "set VIZ=1"
VIZ=1 run vizbadport 2 run sum --runs 1 --viz-port 70000
VIZ=1 run vizremote 2 run sum --runs 1 --viz-host 0.0.0.0
expect_in "$out/vizremote.err" "--allow-remote"
run runhelp 0 run --help
expect_in "$out/runhelp.out" "--viz-port"

# Bad traces: a clear message naming the file, exit code 1, no crash.
run missing 1 viz "$out/nothing.json"
expect_in "$out/missing.err" "nothing.json"
printf 'not json' >"$out/garbage.json"
run garbage 1 viz "$out/garbage.json"
expect_in "$out/garbage.err" "garbage.json"
printf '{"version": 1, "nodes": [{"op": "ADD", "dtype": "dtypes.int", "arg": "", "src": [5]}]}' >"$out/badsrc.json"
run badsrc 1 viz "$out/badsrc.json"
expect_in "$out/badsrc.err" "badsrc.json"
# No FILE: the cache directory's viz.json, with a hint how to make one.
TG_CACHE_DIR="$out/nocache" run nodefault 1 viz
expect_in "$out/nodefault.err" "$out/nocache/viz.json"
expect_in "$out/nodefault.err" "VIZ=-1"

# Addresses: other than loopback only with --allow-remote; ports in range.
run remote 2 viz "$trace" --host 0.0.0.0
expect_in "$out/remote.err" "--allow-remote"
run badport 2 viz "$trace" --port 70000

run help 0 viz --help
expect_in "$out/help.out" "Usage: tg viz [OPTIONS] [FILE]"
expect_in "$out/help.out" "--allow-remote"
expect_in "$out/help.out" "--max-nodes"
run badmax 2 viz "$trace" --max-nodes 0
run listed 0 --help
expect_in "$out/listed.out" "viz"

finish "tg viz"
