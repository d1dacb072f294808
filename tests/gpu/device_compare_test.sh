#!/usr/bin/env bash
# device_compare (binary in $1) on this machine's CPU: record on CPU, check on CPU:1 (all within
# bounds), a changed value is caught, a bad file and bad arguments are errors.
set -u
tool="$1"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

"$tool" record "$dir/cpu.txt" --device CPU || fail "record exited $?"
"$tool" check "$dir/cpu.txt" --device CPU:1 >"$dir/check.out" || fail "check exited $?: $(cat "$dir/check.out")"
grep -q "0 of .* programs outside their bound on CPU:1" "$dir/check.out" || fail "check summary: $(tail -1 "$dir/check.out")"

# --only: the programs named, and an unknown name is an error naming it.
"$tool" check "$dir/cpu.txt" --device CPU --only train_mlp,softmax >"$dir/only.out" || fail "check --only exited $?"
grep -q "0 of 2 programs outside their bound on CPU" "$dir/only.out" || fail "--only summary: $(tail -1 "$dir/only.out")"
[[ $(grep -c "rel err" "$dir/only.out") -eq 2 ]] || fail "--only ran other programs: $(cat "$dir/only.out")"
"$tool" check "$dir/cpu.txt" --device CPU --only train_mlp,nope >/dev/null 2>"$dir/only.err"
[[ $? -eq 2 ]] || fail "--only with an unknown program: want exit 2"
grep -q "no program 'nope'" "$dir/only.err" || fail "--only message: $(cat "$dir/only.err")"

# A device that does not open: each program an ERROR line naming it, exit 1 (never a crash).
"$tool" check "$dir/cpu.txt" --device NOPE --only add_mul,backward_conv_pool,train_mlp >"$dir/nope.out" 2>&1
rc=$?
[[ $rc -eq 1 ]] || fail "an unknown device: exit $rc, want 1: $(cat "$dir/nope.out")"
[[ $(grep -c "ERROR.*NOPE" "$dir/nope.out") -eq 3 ]] || fail "an unknown device: $(cat "$dir/nope.out")"

# One value of matmul_f32 changed by a lot: caught, exit 1.
awk '$1 == "matmul_f32" { $3 = $3 + 1000 } { print }' "$dir/cpu.txt" >"$dir/bad.txt"
"$tool" check "$dir/bad.txt" --device CPU >"$dir/bad.out"
rc=$?
[[ $rc -eq 1 ]] || fail "a changed value: exit $rc, want 1"
grep -q "^matmul_f32 .*FAIL" "$dir/bad.out" || fail "the changed program is not named: $(cat "$dir/bad.out")"

# A training run's losses changed (the first value of its line): caught.
awk '$1 == "train_cnn" { $3 = $3 * 1.01 } { print }' "$dir/cpu.txt" >"$dir/bad_train.txt"
"$tool" check "$dir/bad_train.txt" --device CPU --only train_cnn >"$dir/bad_train.out"
[[ $? -eq 1 ]] || fail "a changed training loss: want exit 1: $(cat "$dir/bad_train.out")"

# A truncated record and a missing file: exit 2 with a message.
head -c 300 "$dir/cpu.txt" >"$dir/cut.txt"
"$tool" check "$dir/cut.txt" --device CPU >/dev/null 2>"$dir/cut.err"
rc=$?
[[ $rc -eq 2 ]] || fail "a cut record: exit $rc, want 2"
grep -q "cut short" "$dir/cut.err" || fail "cut record message: $(cat "$dir/cut.err")"
"$tool" check "$dir/none.txt" --device CPU 2>"$dir/none.err"
[[ $? -eq 2 ]] || fail "a missing file: want exit 2"
"$tool" bogus 2>/dev/null
[[ $? -eq 2 ]] || fail "a bad mode: want exit 2"

# The tensor-core check on the CPU (no tensor cores: the same products in plain code). Clang 14
# has no bfloat16 arithmetic on x86, so only the half line must pass here.
"$tool" tc --device CPU --n 64 >"$dir/tc.out" 2>&1
grep -q "tc matmul 64 dtypes.half *ok" "$dir/tc.out" || fail "tc half: $(head -c 2000 "$dir/tc.out")"

[[ $fails -eq 0 ]] && echo "device_compare_test: all passed"
exit $((fails > 0))
