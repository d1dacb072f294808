#!/usr/bin/env bash
# Every kernel experiment in tools/bench/gemm_experiments (files after $1, the gemm_check binary)
# compiles for sm_90a with NVRTC at the tiling its name starts with; skipped, saying so, where
# NVRTC is not installed.
set -u
tool="$1"
shift
fails=0
for f in "$@"; do
  name="$(basename "$f" .cu)"
  out="$("$tool" --compile-only --source "$f" --tilings "${name%%-*}" 2>&1)"
  rc=$?
  if [[ $rc -eq 3 ]]; then
    echo "SKIPPED: $out"
    exit 0
  fi
  if [[ $rc -ne 0 ]]; then
    echo "FAIL: $name: $out"
    fails=$((fails + 1))
  else
    echo "ok: $name: $out"
  fi
done
(($# > 0)) || { echo "FAIL: no experiments given"; exit 1; }
exit $((fails > 0))
