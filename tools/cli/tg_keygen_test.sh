#!/usr/bin/env bash
# Runs `tg keygen` (tg binary in $1): key files, their modes, no overwriting, usage errors.
set -u
source tests/tg_test_lib.sh

tg="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"  # absolute: one check runs in another directory
out="${TEST_TMPDIR:-$(mktemp -d)}/keygen"
rm -rf "$out"
mkdir -p "$out"

expect_mode() {  # expect_mode PATH MODE
  local m
  m=$(stat -c %a "$1" 2>/dev/null)
  [[ "$m" == "$2" ]] || fail "$1 has mode '$m', want $2"
}

keys="$out/keys/farm"
run make 0 keygen --dir "$keys" coordinator
expect_mode "$keys" 700
expect_mode "$keys/coordinator.key" 600
expect_mode "$keys/coordinator.pub" 644
pub=$(tail -n 1 "$out/make.out")
[[ ${#pub} -eq 40 ]] || fail "last stdout line should be the 40-character public key, got '$pub'"
expect_in "$keys/coordinator.pub" "curve-public-key = $pub"
expect_in "$keys/coordinator.key" "curve-public-key = $pub"
expect_in "$keys/coordinator.key" "curve-secret-key = "
grep -q "curve-secret-key" "$keys/coordinator.pub" && fail "the .pub file holds a secret key"
expect_in "$out/make.out" "$keys/coordinator.key"

# Never overwrites, and leaves both files as they were.
before=$(cat "$keys/coordinator.key" "$keys/coordinator.pub" | md5sum)
run again 1 keygen --dir "$keys" coordinator
expect_in "$out/again.err" "already exists"
after=$(cat "$keys/coordinator.key" "$keys/coordinator.pub" | md5sum)
[[ "$before" == "$after" ]] || fail "a refused keygen changed the key files"

# --dir=DIR, and the current directory by default; every pair is new.
run eq 0 keygen "--dir=$keys" worker-1
(cd "$out" && "$tg" keygen here >"$out/here.out" 2>"$out/here.err") || fail "tg keygen here failed"
[[ -f "$out/here.key" && -f "$out/here.pub" ]] || fail "tg keygen NAME should write into the current directory"
[[ "$(tail -n 1 "$out/eq.out")" != "$pub" ]] || fail "two key pairs share a public key"

run help 0 keygen --help
expect_in "$out/help.out" "Usage: tg keygen [OPTIONS] NAME"
run listed 0 --help
expect_in "$out/listed.out" "keygen"

run noname 2 keygen
expect_in "$out/noname.err" "tg keygen: NAME is required"
run twonames 2 keygen a b
expect_in "$out/twonames.err" "The following argument was not expected: b"
run badopt 2 keygen --bogus x
expect_in "$out/badopt.err" "The following argument was not expected: --bogus"
run badname 2 keygen --dir "$out" ../escape
expect_in "$out/badname.err" "bad key name"
run nodir 2 keygen --dir
expect_in "$out/nodir.err" "--dir: 1 required"
[[ ! -e "$out/../escape.key" ]] || fail "a bad name escaped the directory"

finish "tg keygen"
