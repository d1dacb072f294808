#!/usr/bin/env bash
# gemm_check (binary in $1) without a GPU: it prints the generated kernels, and every bad input
# (a tiling it cannot parse or generate, an unreadable --source, an unknown flag or value) is
# exit 2 with a message naming it; a GPU run itself is tools/gpu_check's.
set -u
tool="$1"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

"$tool" --print 256x128x4 >"$dir/k.cu" || fail "--print exited $?"
grep -q 'wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16' "$dir/k.cu" || fail "--print: no wgmma in the kernel"
grep -q '__launch_bounds__(512, 1) gemm(' "$dir/k.cu" || fail "--print: not the 4-warpgroup kernel named gemm"
"$tool" --print 256x128x4 --dtype bfloat16 | grep -q 'k16.f32.bf16.bf16' || fail "--dtype bfloat16: no bf16 wgmma"
# the copy-engine loaders: TMA loads, and a producer warpgroup more for tma-ws
"$tool" --print 128x256x4 --loader tma-ws >"$dir/ws.cu" || fail "--loader tma-ws exited $?"
grep -q 'cp.async.bulk.tensor.2d' "$dir/ws.cu" || fail "--loader tma-ws: no copy-engine load"
grep -q '__launch_bounds__(384, 1) gemm(' "$dir/ws.cu" || fail "--loader tma-ws: not 3 warpgroups"

expect_usage_error() {
  local what="$1" want="$2"
  shift 2
  "$tool" "$@" >/dev/null 2>"$dir/err"
  local rc=$?
  [[ $rc -eq 2 ]] || fail "$what: exit $rc, want 2"
  grep -q -- "$want" "$dir/err" || fail "$what: message '$(cat "$dir/err")' lacks '$want'"
}
expect_usage_error "a malformed tiling" "want BMxBNxSTAGES" --print 128x128
expect_usage_error "a tiling it cannot generate" "96 rows" --print 96x128x3
expect_usage_error "an unreadable --source" "cannot read it" --source "$dir/none.cu" --tilings 128x128x3
expect_usage_error "an unknown flag" "not expected: --bogus" --bogus
expect_usage_error "a bad dtype" "--dtype: float32 not in" --dtype float32
expect_usage_error "a bad block count" "--blocks: want a number of blocks" --blocks 0 --print 128x128x3
expect_usage_error "an unknown loader" "--loader: tma2 not in" --loader tma2 --print 128x128x3
expect_usage_error "a tiling the loader cannot fit" "(tma-ws): its accumulators" --print 256x128x4 --loader tma-ws

if ((fails)); then
  echo "$fails check(s) failed"
  exit 1
fi
echo "gemm_check_test: all checks passed"
