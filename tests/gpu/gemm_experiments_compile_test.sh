#!/usr/bin/env bash
# Every kernel experiment of tools/bench/gemm_experiments ($3...: patches; $1 gemm_check, $2 the
# apply script) still applies to the generated kernel of its tiling and compiles for sm_90a with
# NVRTC, gemm_check taking the options of its `gemm_check:` line; the compile is skipped, saying
# so, where NVRTC is not installed.
set -u
tool="$1" apply="$2"
shift 2
(($# > 0)) || { echo "FAIL: no experiments given"; exit 1; }
dir="${TEST_TMPDIR:-$(mktemp -d)}"
fails=0
for patch in "$@"; do
  name="$(basename "$patch" .patch)"
  if ! "$apply" "$tool" "$patch" "$dir/$name.cu"; then
    echo "FAIL: $name does not apply"
    fails=$((fails + 1))
    continue
  fi
  args=()
  [[ -f $dir/$name.args ]] && read -ra args <"$dir/$name.args"
  # with the options its `gemm_check:` line gives (their spelling checked too)
  out="$("$tool" --compile-only --source "$dir/$name.cu" --tilings "${name%%-*}" "${args[@]}" 2>&1)"
  rc=$?
  if [[ $rc -eq 3 ]]; then
    echo "applies: $name; compile SKIPPED: $out"
  elif [[ $rc -ne 0 ]]; then
    echo "FAIL: $name: $out"
    fails=$((fails + 1))
  else
    echo "ok: $name: $out"
  fi
done
exit $((fails > 0))
