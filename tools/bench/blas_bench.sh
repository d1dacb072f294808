#!/usr/bin/env bash
# How close tuned CPU kernels come to the machine's BLAS and to its FMA peak, per ISA (issue
# 18): in one run on the machine at hand,
#   1. the float32 FMA peak of each target's vector width on 1 and THREADS threads
#      (tools/bench/fma_peak.c),
#   2. OpenBLAS sgemm (Debian's libopenblas-dev) on every matmul shape, THREADS threads
#      (tools/bench/sgemm_bench.c; OPENBLAS_CORETYPE=Haswell for x86-64-v3, its AVX2 kernels,
#      SkylakeX for x86-64-v4),
#   3. `tg tune --in-process --cpu-target TARGET` at every BEAM width and mode on the same
#      shapes plus a conv2d and a batched matmul (fresh searches: --ignore-cache, CACHELEVEL=0,
#      a throwaway database),
# then prints GFLOP/s with the ratios to OpenBLAS and to the peak (tools/bench/blas_table.py),
# with lscpu's model and the load average before and after each target. Installs what it needs
# through tools/bootstrap, so it runs on a fresh machine:
#   tools/bench/blas_bench.sh OUT_DIR
# Knobs (environment):
#   TARGETS  CPU targets (default: x86-64-v3 and x86-64-v4 where this CPU runs them, else native)
#   SHAPES   matmul shapes, N for NxNxN or MxNxK (default: 256 512 1024 2048 4096x1024x64 64x1024x4096)
#   CASES    other `tg tune` cases, NAME=ARGS separated by ';' (default: a conv2d and a bmm)
#   BEAMS    BEAM widths (default: 2 4)
#   MODES    LABEL:FLAGS separated by ';' (default: "base:;simd:--simd;simd+pack:--simd --pack;
#            simd+blocking+pack:--simd --blocking --pack": the reference's search, ours with SIMD
#            (and the ISA's register tiles), with the PACK opt's packed panels too, and with the
#            cache-blocking BLOCK opt (output and K blocks) as well)
#   THREADS  cores for OpenBLAS, the peak and tg (CPU_COUNT; default: all of this process's)
# OUT_DIR gets bench.jsonl (machine, peak, OpenBLAS), ours.<mode>.jsonl (tg tune --json) and table.md.
set -euo pipefail
# CPU numbers: on a machine with a GPU the default device would be the GPU
export DEV=CPU
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:?usage: tools/bench/blas_bench.sh OUT_DIR}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
rm -f "$out"/bench.jsonl "$out"/ours.*.jsonl "$out"/bench.db "$out"/table.md

"$root/tools/bootstrap" -q  # clang, libopenblas-dev, and what tg needs

threads="${THREADS:-$(nproc)}"
read -r -a shapes <<<"${SHAPES:-256 512 1024 2048 4096x1024x64 64x1024x4096}"
read -r -a beams <<<"${BEAMS:-2 4}"
IFS=';' read -r -a modes <<<"${MODES-base:;simd:--simd;simd+pack:--simd --pack;simd+blocking+pack:--simd --blocking --pack}"
IFS=';' read -r -a cases <<<"${CASES-conv2d_1x32x56x56_64x3x3=conv2d --batch 1 --cin 32 --cout 64 --size 56 --kernel 3;bmm_8x256=bmm --batch 8 --m 256 --n 256 --k 256}"

has_flag() { grep -qw "$1" /proc/cpuinfo; }
if [[ -n ${TARGETS:-} ]]; then
  read -r -a targets <<<"$TARGETS"
else
  targets=()
  has_flag avx2 && has_flag fma && targets+=(x86-64-v3)
  has_flag avx512f && has_flag avx512bw && has_flag avx512vl && targets+=(x86-64-v4)
  [[ ${#targets[@]} -gt 0 ]] || targets=(native)
fi

# What each target compiles with, its float32 lanes and OpenBLAS's kernels for it.
march_of() {
  case "$1" in
    x86-64-v3) echo "-march=x86-64-v3" ;;
    x86-64-v4) echo "-march=x86-64-v4 -mprefer-vector-width=512" ;;
    native) echo "-march=native" ;;
    *) echo "blas_bench: unknown target '$1' (x86-64-v3, x86-64-v4, native)" >&2; exit 2 ;;
  esac
}
lanes_of() {
  case "$1" in
    x86-64-v3) echo 8 ;;
    x86-64-v4) echo 16 ;;
    *) if has_flag avx512f; then echo 16; elif has_flag avx; then echo 8; else echo 4; fi ;;
  esac
}
coretype_of() {
  case "$1" in
    x86-64-v3) echo Haswell ;;
    x86-64-v4) echo SkylakeX ;;
    *) echo "" ;;
  esac
}

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
json_str() { python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$1"; }

model="$(lscpu | sed -n 's/^Model name: *//p' | head -1)"
family="$(lscpu | sed -n 's/^CPU family: *//p' | head -1)"
cpumodel="$(lscpu | sed -n 's/^Model: *//p' | head -1)"
isa="$(grep -m1 -ow -E 'avx512f|avx2|avx|sse4_2' /proc/cpuinfo | sort -u | tr '\n' ' ')"
echo "{\"kind\": \"machine\", \"model\": $(json_str "$model (family $family, model $cpumodel)"), \"host_isa\": $(json_str "$isa"), \"cpus\": $(nproc), \"threads\": $threads}" >>"$out/bench.jsonl"

bin="$out/bin"
mkdir -p "$bin"
cc="${CC_BENCH:-clang}"
"$cc" -O2 -o "$bin/sgemm_bench" "$root/tools/bench/sgemm_bench.c" -lopenblas

for target in "${targets[@]}"; do
  march="$(march_of "$target")"
  lanes="$(lanes_of "$target")"
  coretype="$(coretype_of "$target")"
  # shellcheck disable=SC2086  # the flags are words
  "$cc" -O2 $march -DLANES="$lanes" -pthread -o "$bin/fma_peak_$target" "$root/tools/bench/fma_peak.c"
  echo "{\"kind\": \"load\", \"target\": \"$target\", \"when\": \"start\", \"loadavg\": \"$(loadavg)\"}" >>"$out/bench.jsonl"
  for t in 1 "$threads"; do
    "$bin/fma_peak_$target" "$t" | sed "s/^{/{\"target\": \"$target\", /" >>"$out/bench.jsonl"
    [[ $threads -eq 1 ]] && break
  done
  for s in "${shapes[@]}"; do
    if [[ $s == *x*x* ]]; then IFS=x read -r m n k <<<"$s"; else m=$s n=$s k=$s; fi
    OPENBLAS_NUM_THREADS="$threads" OPENBLAS_CORETYPE="$coretype" "$bin/sgemm_bench" "$m" "$n" "$k" |
      sed "s/^{/{\"target\": \"$target\", /" >>"$out/bench.jsonl"
  done
  target_flag=()
  [[ $target == native ]] || target_flag=(--cpu-target "$target")
  tune() {  # tune LABEL FLAGS BEAM WORKLOAD-ARGS...
    local label="$1" flags="$2" beam="$3"
    shift 3
    # shellcheck disable=SC2086  # the mode's flags are words
    CPU_COUNT="$threads" CACHELEVEL=0 "$root/tools/tg" tune "$@" --in-process --beam "$beam" $flags "${target_flag[@]}" \
      --ignore-cache --db "$out/bench.db" --json "$out/ours.$label.jsonl" >&2
  }
  for s in "${shapes[@]}"; do
    if [[ $s == *x*x* ]]; then IFS=x read -r m n k <<<"$s"; else m=$s n=$s k=$s; fi
    for mode in "${modes[@]}"; do
      for beam in "${beams[@]}"; do tune "${mode%%:*}" "${mode#*:}" "$beam" matmul --m "$m" --n "$n" --k "$k"; done
    done
  done
  for c in "${cases[@]}"; do
    for mode in "${modes[@]}"; do
      # shellcheck disable=SC2086  # the case's arguments are words
      for beam in "${beams[@]}"; do tune "${mode%%:*}" "${mode#*:}" "$beam" ${c#*=}; done
    done
  done
  echo "{\"kind\": \"load\", \"target\": \"$target\", \"when\": \"end\", \"loadavg\": \"$(loadavg)\"}" >>"$out/bench.jsonl"
done

python3 "$root/tools/bench/blas_table.py" "$out" | tee "$out/table.md"
