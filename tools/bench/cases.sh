# File: tools/bench/cases.sh
# The benchmark cases of tune_bench.sh and stability.sh (sourced): name -> `tg tune`
# arguments, the same sizes as perf_table.py's CASES and tinygrad_beam.py.
declare -A case_args=(
  [matmul256]="matmul --m 256 --n 256 --k 256"
  [matmul512]="matmul --m 512 --n 512 --k 512"
  [matmul1024]="matmul --m 1024 --n 1024 --k 1024"
  [sum4M]="sum --n 4194304"
  [rowsum4096x1024]="rowsum --rows 4096 --cols 1024"
  [softmax4096x1024]="softmax --rows 4096 --cols 1024"
  [conv2d_1x32x56x56_64x3x3]="conv2d --batch 1 --cin 32 --cout 64 --size 56 --kernel 3"
  [workload_conv2d]="conv2d"
  [workload_mlp]="mlp"
  [workload_attention]="attention"
  [workload_resnet_block]="resnet_block"
)
# How the cases are tuned: in this process, one kernel at a time (README's tables) unless
# TUNE_MODE says otherwise: "--workers 2", or "" for tg tune's default (one local worker per core).
tune_mode="${TUNE_MODE---in-process}"
# README's order.
case_order=(matmul256 matmul512 matmul1024 sum4M rowsum4096x1024 softmax4096x1024 conv2d_1x32x56x56_64x3x3
            workload_conv2d workload_mlp workload_attention workload_resnet_block)

check_cases() {  # check_cases NAME...: exit 2 naming any unknown case
  local c
  for c in "$@"; do
    [[ -n ${case_args[$c]:-} ]] || { echo "unknown case '$c' (cases: ${case_order[*]})" >&2; exit 2; }
  done
}
