#!/usr/bin/env bash
# Runs the tg binary (path in $1) and checks --help, version and error handling.
set -u

tg="$1"
failures=0
out="${TEST_TMPDIR:-$(mktemp -d)}"

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# run NAME EXPECTED_RC ARGS...: runs tg, stdout -> $out/NAME.out, stderr -> $out/NAME.err.
run() {
  local name="$1" want="$2"
  shift 2
  "$tg" "$@" >"$out/$name.out" 2>"$out/$name.err"
  local rc=$?
  [[ $rc -eq $want ]] || fail "tg $*: exit code $rc, want $want"
}

expect_in() {  # expect_in FILE TEXT
  grep -qF -- "$2" "$1" || { fail "$1 lacks '$2'; it holds:"; cat "$1" >&2; }
}

expect_empty() {  # expect_empty FILE
  [[ ! -s "$1" ]] || { fail "$1 should be empty; it holds:"; cat "$1" >&2; }
}

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

if [[ $failures -ne 0 ]]; then
  echo "$failures check(s) failed" >&2
  exit 1
fi
echo "all tg checks passed"
