# File: tests/tg_test_lib.sh
# Helpers for the shell tests of the tg command line, sourced (the test's working directory is
# the runfiles root) after the test sets
#   tg        the tg binary          out   a directory for output files
#   tg_args   (optional) words put before every `run`'s arguments, e.g. (db)
# A check that fails prints FAIL and counts; `finish NAME` ends the test.
failures=0
tg_args=()

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# run NAME EXPECTED_RC ARGS...: runs tg, stdout -> $out/NAME.out, stderr -> $out/NAME.err.
run() {
  local name="$1" want="$2"
  shift 2
  "$tg" "${tg_args[@]}" "$@" >"$out/$name.out" 2>"$out/$name.err"
  local rc=$?
  [[ $rc -eq $want ]] || { fail "tg ${tg_args[*]:+${tg_args[*]} }$*: exit code $rc, want $want"; cat "$out/$name.err" >&2; }
}

expect_in() {  # expect_in FILE TEXT
  grep -qF -- "$2" "$1" || { fail "$1 lacks '$2'; it holds:"; cat "$1" >&2; }
}

expect_not_in() {  # expect_not_in FILE TEXT
  ! grep -qF -- "$2" "$1" || { fail "$1 should not hold '$2'; it holds:"; cat "$1" >&2; }
}

expect_empty() {  # expect_empty FILE
  [[ ! -s "$1" ]] || { fail "$1 should be empty; it holds:"; cat "$1" >&2; }
}

expect_count() {  # expect_count FILE REGEX N: N lines of FILE match REGEX
  local n
  n=$(grep -cE -- "$2" "$1")
  [[ $n -eq $3 ]] || { fail "$1 has $n lines matching '$2', want $3; it holds:"; cat "$1" >&2; }
}

# The winning opts of every kernel of a `tg tune --json` file, a line per kernel in order.
opts_of() {
  python3 -c 'import json,sys
rows = sorted((json.loads(l) for l in open(sys.argv[1]) if l.strip()), key=lambda r: r["kernel"])
for r in rows: print(r["kernel"], r["name"], " ".join(r["opts"]))' "$1"
}

# same_opts A.jsonl B.jsonl WHAT: both searches picked the same opts for every kernel.
same_opts() {
  if ! diff <(opts_of "$1") <(opts_of "$2") >"$out/diff.txt"; then
    fail "$3: winners differ from $(basename "$1"):"
    cat "$out/diff.txt" >&2
  fi
}

# wait_for WHAT CMD...: runs CMD every 50 ms until it succeeds (then returns 0), for up to
# $wait_limit_s seconds; then fails with WHAT and returns 1. A test waits for what must happen
# this way, never for a fixed time: a fast machine goes on at once, a slow one still passes.
wait_limit_s=60
wait_for() {
  local what="$1" give_up=$((SECONDS + wait_limit_s))
  shift
  until "$@"; do
    if ((SECONDS >= give_up)); then
      fail "$what (waited ${wait_limit_s} s)"
      return 1
    fi
    sleep 0.05
  done
}

finish() {  # finish NAME: exit 1 if any check failed
  if [[ $failures -ne 0 ]]; then
    echo "$failures check(s) failed" >&2
    exit 1
  fi
  echo "all $1 checks passed"
}
