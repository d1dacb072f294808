#!/usr/bin/env bash
# `tg tune` on a CUDA device whose driver is the fake libcuda ($2; tinygrad/runtime/cuda/
# fake_cuda_driver.cc: memory and launches, no GPU code run): a BEAM=1 search of a half matmul
# for the fake's compute 9.0, in-process and through the farm (a local worker whose sandboxed
# children compile with NVRTC and launch on the fake), and in-process with a compile server
# (tg compile-server for sm_90 on this machine: it lowers and compiles every batch, the tuning
# process only loads and launches). Every candidate, the GEMM opt's generated
# kernels among them, must compile, load and launch: no compile or runtime errors. Skipped,
# saying so, where NVRTC is not installed. Real GPUs: tools/gpu_check.
set -u
source tests/tg_test_lib.sh

tg="$1"
export DEV=CUDA CUDA_DRIVER_PATH="$PWD/$2" BEAM_DEBUG=2
out="${TEST_TMPDIR:-$(mktemp -d)}/cuda_fake_tune"
rm -rf "$out"
mkdir -p "$out"
matmul=(matmul --m 128 --n 128 --k 128 --dtype half)

# NVRTC here? `tg compile` for sm_90 says "not found" where it is not (as tg_compile_test asks)
if ! "$tg" compile matmul --device CUDA --arch sm_90 --m 64 --n 64 --k 64 >"$out/probe.out" 2>"$out/probe.err" &&
  grep -q "not found" "$out/probe.err"; then
  echo "SKIPPED: no NVRTC here: $(head -c 300 "$out/probe.err")"
  exit 0
fi
run in_process 0 tune --beam 1 --in-process --ignore-cache --db "$out/t.db" "${matmul[@]}"
# the farm with its default size: one local worker for a GPU (not one per core)
run farm 0 tune --beam 1 --ignore-cache --db "$out/t.db" "${matmul[@]}"
grep -qE "^farm: local worker pids: [0-9]+$" "$out/farm.out" ||
  fail "one local worker for a GPU: $(grep "local worker pids" "$out/farm.out")"

# a compile server on a private ipc:// socket (mktemp -d makes it 0700, the ipc rule; short,
# for the 107 bytes of a socket path)
cs=$(mktemp -d /tmp/tg-cs-XXXXXX)
trap 'rm -rf "$cs"' EXIT
"$tg" compile-server --device CUDA --arch sm_90 --bind "ipc://$cs/sock" --threads 2 2>"$out/server.err" &
server=$!
wait_for "the compile server says it serves" grep -q "serving CUDA sm_90" "$out/server.err"
run compile_server 0 tune --beam 1 --in-process --compile-with "ipc://$cs/sock" --ignore-cache --db "$out/t.db" "${matmul[@]}"
# a farm worker whose sandboxed children ask the same server through the worker's relay
"$tg" tune --beam 1 --bind "ipc://$cs/farm" --ignore-cache --db "$out/t.db" "${matmul[@]}" \
  >"$out/worker_compile.out" 2>"$out/worker_compile.err" &
coordinator=$!
"$tg" worker --connect "ipc://$cs/farm" --device CUDA --children 1 --exit-on-bye --compile-with "ipc://$cs/sock" \
  >"$out/worker.out" 2>"$out/worker.err" &
worker=$!
wait "$coordinator" || { fail "tg tune --bind with a compile-server worker exited $?"; cat "$out/worker_compile.err" >&2; }
wait "$worker" || { fail "the worker exited $?"; cat "$out/worker.err" >&2; }
expect_not_in "$out/worker.err" "preparing batches here"
served_before_local=$(grep -cE "prepared [0-9]+ candidates" "$out/server.err")
# tg tune's own local workers, told the server
run local_workers_compile 0 tune --beam 1 --workers 1 --compile-with "ipc://$cs/sock" --ignore-cache --db "$out/t.db" "${matmul[@]}"
served_after_local=$(grep -cE "prepared [0-9]+ candidates" "$out/server.err")
((served_after_local > served_before_local)) || fail "tg tune --workers 1 --compile-with: no batch came from the compile server"
run compile_with_bind 2 tune --beam 1 --bind "ipc://$cs/x" --compile-with "ipc://$cs/sock" matmul
expect_in "$out/compile_with_bind.err" "--bind excludes --compile-with"
kill -TERM "$server"
wait "$server" || fail "tg compile-server exited with $? on SIGTERM"
# every batch was prepared there, none here (the in-process tune's and the worker's)
grep -qE "compile server ipc://.*: [1-9][0-9]* batches prepared there, 0 here" "$out/compile_server.out" ||
  { fail "not every batch came from the compile server:"; tail -3 "$out/compile_server.out" >&2; cat "$out/server.err" >&2; }
# the server answered the worker's children too: more batches than the in-process tune's
inproc=$(grep -oE "[0-9]+ batches prepared there" "$out/compile_server.out" | grep -oE "^[0-9]+")
served=$served_before_local
((served > ${inproc:-0})) || fail "the compile server answered $served batches, the in-process tune asked ${inproc:-0}: none from the worker"
expect_in "$out/server.err" "stopped after"
# a server for CUDA_PTX=1 devices answers PTX text, which the device's driver loads
"$tg" compile-server --device CUDA --arch sm_90 --ptx --bind "ipc://$cs/ptx" --threads 1 2>"$out/server_ptx.err" &
server=$!
wait_for "the PTX compile server says it serves" grep -q "serving CUDA sm_90 (ptx" "$out/server_ptx.err"
CUDA_PTX=1 run ptx_server 0 tune --beam 1 --in-process --compile-with "ipc://$cs/ptx" --ignore-cache --db "$out/t.db" matmul --m 64 --n 64 --k 64
kill -TERM "$server"
wait "$server"
grep -qE "[1-9][0-9]* batches prepared there, 0 here" "$out/ptx_server.out" ||
  { fail "the PTX compile server did not prepare every batch:"; tail -3 "$out/ptx_server.out" >&2; cat "$out/ptx_server.err" >&2; }
if awk '/ uops / {print $9}' "$out/ptx_server.out" | grep -vqE '^(ok|too_slow|duplicate|rejected)$'; then
  fail "PTX candidates from the server that failed on the fake GPU:"
  grep -E ' uops .*(compile_error|runtime_error|wrong_result|timeout)' "$out/ptx_server.out" | head -5 >&2
fi
# and it refuses a target it does not compile for, the search going on here
"$tg" compile-server --device CUDA --arch sm_80 --bind "ipc://$cs/sock80" --threads 1 2>"$out/server80.err" &
server=$!
wait_for "the sm_80 compile server says it serves" grep -q "serving CUDA sm_80" "$out/server80.err"
run other_target 0 tune --beam 1 --in-process --compile-with "ipc://$cs/sock80" --ignore-cache --db "$out/t.db" matmul --m 64 --n 64 --k 64
kill -TERM "$server"
wait "$server"
expect_in "$out/other_target.err" "arch: server sm_80, client sm_90"
grep -qE "0 batches prepared there, [1-9][0-9]* here" "$out/other_target.out" ||
  { fail "a compile server of another target prepared batches:"; tail -3 "$out/other_target.out" >&2; }

for how in in_process farm compile_server worker_compile local_workers_compile; do
  f="$out/$how.out"
  expect_in "$f" "kernel 1/1 "
  # BEAM_DEBUG=2: a line per candidate, its outcome in the ninth field
  awk '/ uops / {print $9}' "$f" | sort | uniq -c >"$out/$how.outcomes"
  [[ -s $out/$how.outcomes ]] || fail "$how: no candidate lines"
  if grep -vqE ' (ok|too_slow|duplicate|rejected)$' "$out/$how.outcomes"; then
    fail "$how: candidates that failed on the fake GPU: $(tr '\n' ' ' <"$out/$how.outcomes")"
    grep -E ' uops .*(compile_error|runtime_error|wrong_result|timeout)' "$f" | head -5 >&2
  fi
  # the 16 GEMM tilings of a 128 x 128 matmul (bm, bn 64 or 128; 3-6 stages), each launched
  gemms=$(grep -cE ' uops .* (ok|too_slow) +\[Opt\(op=OptOps.GEMM' "$f")
  [[ $gemms -eq 16 ]] || fail "$how: $gemms GEMM candidates measured, want 16"
done
finish tg_cuda_fake_tune_test
