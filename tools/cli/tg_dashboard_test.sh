#!/usr/bin/env bash
# The tuning pages from the command line (tg binary in $1): `tg tune --dashboard` on a tiny
# workload with a local farm (fake timing), its /api/state read while it runs and once it has
# finished (--dashboard-wait), then Ctrl-C; without --dashboard-wait the page goes with the
# command; `tg db serve` over the database that tune filled; `tg farm status --web` against a
# coordinator waiting for workers, and against none; the same page for an in-process tune; bad
# flags are usage errors. Every wait has a deadline (wait_for), nothing depends on the
# machine's speed.
set -u
source tests/tg_test_lib.sh

tg="$1"
out="${TEST_TMPDIR:-$(mktemp -d)}/dashboard"
rm -rf "$out"
mkdir -p "$out"
export TG_CACHE_DIR="$out/cache"  # not the user's compile caches
wait_limit_s=120

# JSON from a page: get URL PATH FILE (fails quietly: the caller waits or checks).
get() { curl -sf --max-time 10 "$1${2#/}" -o "$3"; }
# py FILE EXPR: prints EXPR evaluated with j = the JSON in FILE.
py() { python3 -c 'import json,sys; j = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
url_of() { sed -n "s|^$2\(http://127\.0\.0\.1:[0-9]*/\).*|\1|p" "$1" | head -n 1; }

run tune_help 0 tune --help
expect_in "$out/tune_help.out" "--dashboard"
expect_in "$out/tune_help.out" "--dashboard-wait"
expect_in "$out/tune_help.out" "--dashboard-port"
expect_in "$out/tune_help.out" "stops when tg tune ends, unless --dashboard-wait"
run db_help 0 db serve --help
expect_in "$out/db_help.out" "--allow-remote"
expect_in "$out/db_help.out" "--port"
run farm_help 0 farm status --help
expect_in "$out/farm_help.out" "--web"

# Bad input: a clear message and exit code 2, before anything runs.
run remote 2 tune sum --n 64 --dashboard --dashboard-host 0.0.0.0
expect_in "$out/remote.err" "tg tune: refusing to serve on 0.0.0.0"
expect_in "$out/remote.err" "--allow-remote"
run nodash 2 tune sum --n 64 --dashboard-port 8080
expect_in "$out/nodash.err" "--dashboard-port requires --dashboard"
run badport 2 tune sum --n 64 --dashboard --dashboard-port 70000
expect_in "$out/badport.err" "--dashboard-port"
run dbremote 2 db --db "$out/none.db" serve --host 10.1.2.3
expect_in "$out/dbremote.err" "tg db serve: refusing to serve on 10.1.2.3"
run dbmissing 1 db --db "$out/none.db" serve
expect_not_in "$out/dbmissing.out" "http://"
run farmremote 2 farm status --connect "ipc://$out/x" --web --host 0.0.0.0
expect_in "$out/farmremote.err" "tg farm status: refusing to serve on 0.0.0.0"
run farmnoweb 2 farm status --connect "ipc://$out/x" --port 1234
expect_in "$out/farmnoweb.err" "--port requires --web"

# A live tune: a local farm of one fake-timing worker, the page kept after the tune.
"$tg" tune sum --n 4096 --beam 1 --workers 1 --fake-timing --db "$out/t.db" --dashboard --dashboard-wait \
  >"$out/tune.out" 2>"$out/tune.err" &
tune=$!
wait_for "tg tune --dashboard printed no URL" grep -q "^dashboard: http://127.0.0.1:" "$out/tune.out"
url=$(url_of "$out/tune.out" "dashboard: ")
# While it runs (or already done: the JSON is whole either way).
wait_for "no /api/state while tuning" get "$url" /api/state "$out/live.json"
[[ $(py "$out/live.json" 'j["title"]') == "sum: n=4096, BEAM=1" ]] || fail "title: $(cat "$out/live.json")"
finished() { get "$url" /api/state "$out/state.json" && [[ $(py "$out/state.json" 'j["finished"]') == True ]]; }
wait_for "the dashboard never said the tune finished" finished
n=$(py "$out/state.json" 'len(j["kernels"])')
((n >= 1)) || fail "no kernels: $(cat "$out/state.json")"
[[ $(py "$out/state.json" 'all(k["state"] == "done" and k["best_s"] is not None and k["round"] >= 1 for k in j["kernels"])') == True ]] ||
  fail "kernels not all searched with a best time: $(cat "$out/state.json")"
[[ $(py "$out/state.json" 'all(k["best_over_time"] and k["noopt_s"] is not None for k in j["kernels"])') == True ]] ||
  fail "no best-time curve or baseline: $(cat "$out/state.json")"
[[ $(py "$out/state.json" 'j["states"]["done"]') == "$n" ]] || fail "states: $(cat "$out/state.json")"
# The farm's part: its worker with a device class, every job answered.
[[ $(py "$out/state.json" 'len(j["farm"]["workers"])') == 1 ]] || fail "farm workers: $(cat "$out/state.json")"
[[ $(py "$out/state.json" 'j["farm"]["workers"][0]["device"] != ""') == True ]] || fail "worker device class"
[[ $(py "$out/state.json" 'j["farm"]["counters"]["completed"] >= 1') == True ]] || fail "farm counters"
get "$url" / "$out/index.html" || fail "no page at $url"
expect_in "$out/index.html" 'src="page.js"'
get "$url" /page.js "$out/page.js" || fail "no page.js"
expect_in "$out/page.js" "/api/state"
kill -INT "$tune"
wait "$tune"
rc=$?
[[ $rc -eq 0 ]] || { fail "tg tune --dashboard-wait exited $rc after Ctrl-C"; cat "$out/tune.err" >&2; }
expect_in "$out/tune.out" "shows the final table until Ctrl-C"
expect_in "$out/tune.out" "kernel 1/$n"

# In-process (one search at a time through the Tuner): the same rows, and no farm.
"$tg" tune sum --n 2048 --beam 1 --in-process --fake-timing --db "$out/i.db" --dashboard --dashboard-wait \
  >"$out/inproc.out" 2>"$out/inproc.err" &
tune=$!
wait_for "tg tune --in-process --dashboard printed no URL" grep -q "^dashboard: http://127.0.0.1:" "$out/inproc.out"
url=$(url_of "$out/inproc.out" "dashboard: ")
wait_for "the in-process dashboard never said the tune finished" finished
[[ $(py "$out/state.json" 'j["farm"] is None and len(j["kernels"]) >= 1') == True ]] || fail "in-process: $(cat "$out/state.json")"
[[ $(py "$out/state.json" 'all(k["state"] == "done" and k["best_s"] is not None for k in j["kernels"])') == True ]] ||
  fail "in-process kernels: $(cat "$out/state.json")"
kill -INT "$tune"
wait "$tune" || { fail "tg tune --in-process --dashboard-wait exited $? after Ctrl-C"; cat "$out/inproc.err" >&2; }

# Without --dashboard-wait the page goes with the command (here: every kernel from the db).
run cached 0 tune sum --n 4096 --beam 1 --workers 1 --fake-timing --db "$out/t.db" --dashboard
expect_in "$out/cached.out" "dashboard: http://127.0.0.1:"
expect_in "$out/cached.out" "(cached)"
url=$(url_of "$out/cached.out" "dashboard: ")
! get "$url" /api/state "$out/gone.json" || fail "the dashboard still answers after tg tune ended"

# tg db serve over that database: one record per kernel, with its times and speedups.
"$tg" db --db "$out/t.db" serve >"$out/db.out" 2>"$out/db.err" &
db=$!
wait_for "tg db serve printed no URL" grep -q "^db serve: http://127.0.0.1:" "$out/db.out"
url=$(url_of "$out/db.out" "db serve: ")
get "$url" /api/records "$out/records.json" || fail "no /api/records"
[[ $(py "$out/records.json" 'len(j["records"])') == "$n" ]] || fail "records: $(cat "$out/records.json")"
[[ $(py "$out/records.json" 'all(r["tuned_s"] > 0 and r["vs_noopt"] is not None for r in j["records"])') == True ]] ||
  fail "records without times: $(cat "$out/records.json")"
kill -INT "$db"
wait "$db" || fail "tg db serve exited $? after Ctrl-C"

# tg farm status --web against a coordinator that waits for workers (its status socket answers).
"$tg" tune sum --n 4096 --beam 1 --db "$out/f.db" --bind 'tcp://127.0.0.1:*' --insecure \
  --status-bind 'tcp://127.0.0.1:*' >"$out/coord.out" 2>"$out/coord.err" &
coord=$!
wait_for "the coordinator printed no status endpoint" grep -q "tg farm status --connect tcp://" "$out/coord.out"
status_ep=$(sed -n 's/.*tg farm status --connect \(tcp:[^ ]*\).*/\1/p' "$out/coord.out")
"$tg" farm status --connect "$status_ep" --insecure --web >"$out/web.out" 2>"$out/web.err" &
web=$!
wait_for "tg farm status --web printed no URL" grep -q "^farm status: http://127.0.0.1:" "$out/web.out"
url=$(url_of "$out/web.out" "farm status: ")
get "$url" /api/farm "$out/farm.json" || fail "no /api/farm"
[[ $(py "$out/farm.json" 'j["ok"]') == True ]] || fail "farm page: $(cat "$out/farm.json")"
[[ $(py "$out/farm.json" 'j["endpoint"]') == "$status_ep" ]] || fail "farm page endpoint: $(cat "$out/farm.json")"
[[ $(py "$out/farm.json" 'j["status"]["workers"]') == "[]" ]] || fail "farm workers: $(cat "$out/farm.json")"
kill -INT "$web"
wait "$web" || fail "tg farm status --web exited $? after Ctrl-C"
kill -TERM "$coord" 2>/dev/null
wait "$coord" 2>/dev/null

# ... and against nothing: served anyway, the page says why there is no status. (An ipc://
# path must be short: Bazel's TEST_TMPDIR is too long for a Unix socket.)
sockdir=$(mktemp -d)
"$tg" farm status --connect "ipc://$sockdir/nobody" --timeout 0.2 --web >"$out/none.out" 2>"$out/none.err" &
web=$!
wait_for "tg farm status --web (no coordinator) printed no URL" grep -q "^farm status: http://127.0.0.1:" "$out/none.out"
expect_in "$out/none.err" "the page keeps asking"
url=$(url_of "$out/none.out" "farm status: ")
get "$url" /api/farm "$out/nofarm.json" || fail "no /api/farm"
[[ $(py "$out/nofarm.json" 'j["ok"]') == False ]] || fail "no coordinator, yet: $(cat "$out/nofarm.json")"
expect_in "$out/nofarm.json" "no answer from ipc://"
kill -INT "$web"
wait "$web" || fail "tg farm status --web exited $? after Ctrl-C"
rm -rf "$sockdir"

finish "tg dashboard"
