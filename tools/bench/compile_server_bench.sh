#!/usr/bin/env bash
# What a compile server buys a GPU machine whose CPUs are few or busy: the same fresh BEAM=2
# search of a half matmul, `tg tune --in-process`, pinned to the "GPU machine's" CPUs (A) with
# taskset, run in turns
#   A: preparing (lowering, rendering, NVRTC) its candidates itself, on those CPUs alone;
#   B: with --compile-with a `tg compile-server` pinned to other CPUs (B), --threads their
#      count, the tuning process only loading and timing.
# Prints each run's search wall time (--json's search_s; the process's wall time beside it), the
# CPU time the GPU machine's side spent (the tune and its workers, getrusage of the children),
# its candidates and the time a candidate, min and median per mode, and the ratios B/A of the
# medians of this one run (searches that take different paths compare by the time a candidate).
# On the fake driver both modes time with --fake-timing (a fixed time per program), so they
# search the same candidates and must pick the same winner (checked); on a GPU they time for
# real and may pick different winners among close candidates.
# With --workers N the tune runs on N local farm workers (their sandboxed children, on the GPU
# machine's CPUs: the affinity is inherited) instead of in-process: there B's children wait on
# the server while the others time, where A's compile on the CPUs the timing needs.
#
#   tools/bench/compile_server_bench.sh [--tg PATH] [--cpus-gpu LIST] [--cpus-server LIST]
#       [--repeats R] [--size M N K] [--fake-driver PATH] [--workers N]
# Defaults: bazel-bin/tools/cli/tg; the allowed CPUs split in halves (first half the GPU
# machine's); 3 repeats; 512 512 512; the real GPU where nvidia-smi works, else the fake CUDA
# driver (tinygrad/runtime/cuda/fake_cuda_driver.cc: launches cost nothing, so only the CPU
# side is measured) from bazel-bin. Needs NVRTC (NVRTC_PATH where it is not installed). On the
# GPU machine it runs from tools/gpu_check's bundle (its compile_server step).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
usage="usage: tools/bench/compile_server_bench.sh [--tg PATH] [--cpus-gpu LIST] [--cpus-server LIST] [--repeats R] [--size M N K] [--fake-driver PATH] [--workers N]"

tg="$root/bazel-bin/tools/cli/tg" cpus_gpu="" cpus_server="" repeats=3 size=(512 512 512) fake="" workers=0
while (($#)); do
  case "$1" in
    --tg) tg="${2:?$usage}"; shift 2 ;;
    --cpus-gpu) cpus_gpu="${2:?$usage}"; shift 2 ;;
    --cpus-server) cpus_server="${2:?$usage}"; shift 2 ;;
    --repeats) repeats="${2:?$usage}"; shift 2 ;;
    --size) size=("${2:?$usage}" "${3:?$usage}" "${4:?$usage}"); shift 4 ;;
    --fake-driver) fake="${2:?$usage}"; shift 2 ;;
    --workers) workers="${2:?$usage}"; shift 2 ;;
    -h | --help) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "compile_server_bench: unknown option '$1'" >&2; echo "$usage" >&2; exit 2 ;;
  esac
done
[[ $workers =~ ^[0-9]+$ ]] || { echo "compile_server_bench: --workers wants a count, got '$workers'" >&2; exit 2; }
[[ $repeats =~ ^[1-9][0-9]*$ ]] || { echo "compile_server_bench: --repeats wants a positive count, got '$repeats'" >&2; exit 2; }
for v in "${size[@]}"; do
  [[ $v =~ ^[1-9][0-9]*$ ]] || { echo "compile_server_bench: --size wants three positive sizes, got '${size[*]}'" >&2; exit 2; }
done
[[ -x $tg ]] || { echo "compile_server_bench: no tg binary at $tg (bazel build //tools/cli:tg, or --tg PATH)" >&2; exit 2; }

# a CPU list as taskset reads it ("0-7,12") expanded, one id a line
expand_cpus() {
  tr ',' '\n' <<<"$1" | awk -F- '
    /^[0-9]+$/ { print; next }
    /^[0-9]+-[0-9]+$/ && $1 <= $2 { for (i = $1; i <= $2; i++) print i; next }
    { print "bad" }'
}
if [[ -z $cpus_gpu || -z $cpus_server ]]; then
  # the CPUs this process may use, the first half the GPU machine's, the rest the server's
  mapfile -t allowed < <(expand_cpus "$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)")
  n=${#allowed[@]}
  ((n >= 2)) || { echo "compile_server_bench: needs at least 2 CPUs to split (this process may use $n)" >&2; exit 2; }
  half=$((n / 2))
  [[ -z $cpus_gpu ]] && cpus_gpu=$(IFS=,; echo "${allowed[*]:0:half}")
  [[ -z $cpus_server ]] && cpus_server=$(IFS=,; echo "${allowed[*]:half}")
fi
for list in "$cpus_gpu" "$cpus_server"; do
  if expand_cpus "$list" | grep -q bad; then
    echo "compile_server_bench: '$list' is not a CPU list (like 0-7 or 0,2,4)" >&2
    exit 2
  fi
done
server_threads=$(expand_cpus "$cpus_server" | sort -u | wc -l)
if [[ -n $(comm -12 <(expand_cpus "$cpus_gpu" | sort -u) <(expand_cpus "$cpus_server" | sort -u)) ]]; then
  echo "compile_server_bench: warning: the GPU's CPUs ($cpus_gpu) and the server's ($cpus_server) overlap" >&2
fi

# the GPU: the real one where nvidia-smi answers, else the fake driver
if [[ -z $fake ]] && nvidia-smi -L >/dev/null 2>&1; then
  gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
  cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1)
  arch="sm_${cap/./}"
else
  if [[ -z $fake ]]; then
    fake="$root/bazel-bin/tinygrad/runtime/cuda/libfake_cuda.so"
    [[ -f $fake ]] || {
      echo "compile_server_bench: no GPU (nvidia-smi does not answer) and no fake CUDA driver at $fake" \
        "(bazel build //tinygrad/runtime/cuda:libfake_cuda.so, or --fake-driver PATH)" >&2
      exit 2
    }
  fi
  [[ -f $fake ]] || { echo "compile_server_bench: --fake-driver $fake: no such file" >&2; exit 2; }
  CUDA_DRIVER_PATH="$(cd "$(dirname "$fake")" && pwd)/$(basename "$fake")"
  export CUDA_DRIVER_PATH
  gpu="fake CUDA driver (launches cost nothing: the CPU side alone; fake timing)"
  arch=sm_90  # the fake's compute capability 9.0
fi
timing=()
[[ -n $fake ]] && timing=(--fake-timing)
how=(--in-process)
((workers > 0)) && how=(--workers "$workers")
# every run compiles afresh: no compile cache (a later run would find the earlier one's)
export DEV=CUDA CACHELEVEL=0

work="$(mktemp -d)"
# ipc:// wants a 0700 folder (mktemp -d's) and a short path (107 bytes of a socket address)
sock_dir="$(mktemp -d /tmp/tg-cs-XXXXXX)"
server=""
cleanup() {
  [[ -n $server ]] && kill -TERM "$server" 2>/dev/null && wait "$server" 2>/dev/null
  rm -rf "$work" "$sock_dir"
}
trap cleanup EXIT

echo "# CPU: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) allowed, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# GPU: $gpu ($arch)"
echo "# matmul ${size[0]}x${size[1]}x${size[2]} half, BEAM=2, $repeats repeats, tg tune ${how[*]} ${timing[*]}; A: on CPUs $cpus_gpu;" \
  "B: the same with tg compile-server on CPUs $cpus_server ($server_threads threads)"

: >"$work/server.err"  # the wait below may read it before the server's redirection makes it
taskset -c "$cpus_server" "$tg" compile-server --device CUDA --arch "$arch" --bind "ipc://$sock_dir/sock" \
  --threads "$server_threads" 2>"$work/server.err" &
server=$!
for ((i = 0; i < 300; i++)); do
  grep -q "serving CUDA" "$work/server.err" && break
  kill -0 "$server" 2>/dev/null || break
  sleep 0.1
done
if ! grep -q "serving CUDA" "$work/server.err"; then
  echo "compile_server_bench: the compile server did not start:" >&2
  cat "$work/server.err" >&2
  exit 1
fi

# one tune: prints "search_s wall_s candidates opts..." (search_s summed over the kernels)
tune() {  # tune NAME [tg tune flags...]
  local name="$1" start end
  shift
  start=$(date +%s.%N)
  # (the CPU seconds of the tune and every process under it, which their parents reaped: what
  # the GPU machine's CPUs spent, in $work/$name.cpu)
  python3 -c 'import resource, subprocess, sys
rc = subprocess.run(sys.argv[2:]).returncode
r = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write("%.2f\n" % (r.ru_utime + r.ru_stime))
sys.exit(rc)' "$work/$name.cpu" \
    taskset -c "$cpus_gpu" "$tg" tune "${how[@]}" "${timing[@]}" --ignore-cache --beam 2 --db "$work/$name.db" \
    --json "$work/$name.jsonl" "$@" matmul --m "${size[0]}" --n "${size[1]}" --k "${size[2]}" \
    --dtype half >"$work/$name.out" 2>&1
  local rc=$?
  end=$(date +%s.%N)
  if ((rc != 0)) || [[ ! -s $work/$name.jsonl ]]; then
    echo "compile_server_bench: $name: tg tune exited with $rc:" >&2
    tail -5 "$work/$name.out" >&2
    exit 1
  fi
  awk -v wall="$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" '
    { match($0, /"search_s":[-0-9.e+]+/); s += substr($0, RSTART + 11, RLENGTH - 11)
      match($0, /"candidates":[0-9]+/); c += substr($0, RSTART + 13, RLENGTH - 13)
      match($0, /"opts":\[[^]]*\]/); o = o substr($0, RSTART + 7, RLENGTH - 7) }
    END {  # the opts as "UPCAST0:4 TC0:(-1,0,1)"
      gsub(/[]["]/, "", o); gsub(/Opt\(op=OptOps\./, "", o); gsub(/, axis=/, "", o); gsub(/, arg=/, ":", o)
      gsub(/, /, ",", o); gsub(/\),/, " ", o); sub(/\)$/, "", o)
      printf "%.2f %.2f %d %s\n", s, wall, c, (o == "" ? "(none)" : o) }' "$work/$name.jsonl"
}

# min and median of numbers, one a line
stats() { sort -g | awk '{ v[NR] = $1 } END { printf "%.2f %.2f\n", v[1], NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for ((r = 1; r <= repeats; r++)); do
  for mode in A B; do
    if [[ $mode == A ]]; then
      read -r search wall cands opts < <(tune "A$r") || exit 1
    else
      read -r search wall cands opts < <(tune "B$r" --compile-with "ipc://$sock_dir/sock") || exit 1
      # every batch prepared there: a batch the server refused was prepared on the GPU's CPUs
      if ((workers == 0)); then
        batches=$(grep -o "[0-9]* batches prepared there, [0-9]* here" "$work/B$r.out")
        [[ $batches =~ ^[1-9][0-9]*\ batches\ prepared\ there,\ 0\ here$ ]] ||
          echo "compile_server_bench: warning: B$r: not every batch came from the server ($batches)" >&2
      elif grep -q "preparing batches here" "$work/B$r.out"; then
        echo "compile_server_bench: warning: B$r: a worker prepared batches itself: $(grep -m1 "preparing batches here" "$work/B$r.out")" >&2
      fi
    fi
    [[ -n ${search:-} ]] || { echo "compile_server_bench: $mode$r: no search time in its --json output" >&2; exit 1; }
    per=$(awk -v s="$search" -v c="$cands" 'BEGIN { print (c > 0 ? 1000 * s / c : 0) }')
    cpu=$(cat "$work/$mode$r.cpu")
    printf '%s run %d: search %8.2f s, process %8.2f s, GPU-side CPU %8.2f s, %4d candidates (%6.1f ms each), winner %s\n' \
      "$mode" "$r" "$search" "$wall" "$cpu" "$cands" "$per" "$opts"
    echo "$cpu" >>"$work/$mode.cpu"
    echo "$per" >>"$work/$mode.per"
    echo "$search" >>"$work/$mode.search"
    echo "$wall" >>"$work/$mode.wall"
    echo "$cands" >>"$work/$mode.cands"
    echo "$opts" >>"$work/winners"
  done
done

read -r a_min a_med < <(stats <"$work/A.search")
read -r b_min b_med < <(stats <"$work/B.search")
read -r _ aw_med < <(stats <"$work/A.wall")
read -r _ bw_med < <(stats <"$work/B.wall")
read -r _ ac_med < <(stats <"$work/A.cpu")
read -r _ bc_med < <(stats <"$work/B.cpu")
read -r _ ap_med < <(stats <"$work/A.per")
read -r _ bp_med < <(stats <"$work/B.per")
printf 'A (prepares itself, CPUs %s): search min %.2f s, median %.2f s; process median %.2f s; %.1f ms a candidate (median); candidates %s\n' \
  "$cpus_gpu" "$a_min" "$a_med" "$aw_med" "$ap_med" "$(paste -sd/ "$work/A.cands")"
printf 'B (compile server, CPUs %s): search min %.2f s, median %.2f s; process median %.2f s; %.1f ms a candidate (median); candidates %s\n' \
  "$cpus_server" "$b_min" "$b_med" "$bw_med" "$bp_med" "$(paste -sd/ "$work/B.cands")"
# searches whose timings differ take different paths (more or fewer candidates): the time a
# candidate compares them where their candidates counts differ
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b / a }'; }
echo "ratio B/A of the medians: search $(ratio "$a_med" "$b_med"), process $(ratio "$aw_med" "$bw_med")," \
  "per candidate $(ratio "$ap_med" "$bp_med"), the GPU machine's CPU time $(ratio "$ac_med" "$bc_med")" \
  "($ac_med s -> $bc_med s)"
if ((${#timing[@]})) && (($(sort -u "$work/winners" | wc -l) > 1)); then
  echo "compile_server_bench: with fake timing every run must pick the same winner; they differ:" >&2
  sort | uniq -c <"$work/winners" >&2
  exit 1
fi
grep -h "prepared .* candidates" "$work/server.err" | awk '{ n++; c += $4; s += $7 } END { if (n) printf "server: %d batches, %d candidates prepared in %.1f s\n", n, c, s }'
