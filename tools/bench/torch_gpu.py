#!/usr/bin/env python3
# File: tools/bench/torch_gpu.py
# The vendor libraries' times for the GPU check's kernels (tools/gpu_check): PyTorch's matmul
# (cuBLAS), conv2d (cuDNN) and softmax on the GPU, timed with CUDA events, median of many
# runs after a warm-up, on random inputs. Prints one line per case:
#   torch <case> <dtype> <median ms> <GFLOP/s>
# Run where PyTorch sees a GPU (the lent GPU machines have it): python3 tools/bench/torch_gpu.py
# float32 matmuls run in true fp32 (TF32 off), as our float32 kernels do unless ALLOW_TF32.
import argparse
import statistics
import sys

import torch


def median_ms(fn, warmup=5, runs=30):
  for _ in range(warmup):
    fn()
  torch.cuda.synchronize()
  times = []
  for _ in range(runs):
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    end.synchronize()
    times.append(start.elapsed_time(end))
  return statistics.median(times)


def main():
  ap = argparse.ArgumentParser()
  ap.add_argument("--n", type=int, default=4096, help="square matmul size")
  args = ap.parse_args()
  if not torch.cuda.is_available():
    print("torch_gpu: PyTorch sees no GPU", file=sys.stderr)
    return 1
  torch.backends.cuda.matmul.allow_tf32 = False
  torch.backends.cudnn.allow_tf32 = False
  print(f"# {torch.cuda.get_device_name()} torch {torch.__version__}")
  n = args.n
  for dtype in (torch.float16, torch.bfloat16, torch.float32):
    a = torch.randn(n, n, device="cuda", dtype=dtype)
    b = torch.randn(n, n, device="cuda", dtype=dtype)
    ms = median_ms(lambda: torch.matmul(a, b))
    print(f"torch matmul{n} {str(dtype).split('.')[-1]} {ms:.4f} ms {2 * n**3 / ms / 1e6:.1f} GFLOP/s")
  # the workloads' default shapes (tinygrad/workloads): conv2d batch 8, 16 -> 32 channels, 32x32, 3x3
  x = torch.randn(8, 16, 32, 32, device="cuda")
  w = torch.randn(32, 16, 3, 3, device="cuda")
  ms = median_ms(lambda: torch.nn.functional.conv2d(x, w, padding=1))
  print(f"torch conv2d float32 {ms:.4f} ms {2 * 8 * 32 * 32 * 32 * 16 * 9 / ms / 1e6:.1f} GFLOP/s")
  # softmax over the rows of 4096 x 1024
  s = torch.randn(4096, 1024, device="cuda")
  ms = median_ms(lambda: torch.softmax(s, dim=1))
  print(f"torch softmax float32 {ms:.4f} ms {3 * s.numel() * 4 / ms / 1e6:.1f} GB/s (read twice, write once)")
  return 0


if __name__ == "__main__":
  sys.exit(main())
