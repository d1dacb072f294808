#!/usr/bin/env bash
# `tg devices` (tg binary in $1): every kind listed, the default marked (DEV here, else the first
# that opens), the CPU computing right with its device class; the fake libcuda ($2: memory and
# launches, no GPU code run) opens as a GPU but computes nothing, so CUDA is a FAIL that still
# shows its class; without a driver CUDA is a FAIL naming the library; the exit code says
# whether the default device works.
set -u
source tests/tg_test_lib.sh

tg="$1"
fake="$PWD/$2"
fake_before_12="$PWD/$3"  # a driver before CUDA 12: no graphs
out="${TEST_TMPDIR:-$(mktemp -d)}/devices"
rm -rf "$out"
mkdir -p "$out"

run help 0 devices --help
expect_in "$out/help.out" "Usage: tg devices"
run listed 0 --help
expect_in "$out/listed.out" "devices"
run extra 2 devices CPU
expect_in "$out/extra.err" "CPU"

# no driver anywhere: CUDA fails naming it; CPU (DEV=CPU) is the default and works
DEV=CPU CUDA_DRIVER_PATH=/nonexistent/libcuda.so.1 run nodriver 0 devices
expect_count "$out/nodriver.out" "^\* CPU +PASS$" 1
expect_count "$out/nodriver.out" "^  (CUDA|PYTHON) " 2
expect_in "$out/nodriver.out" "/nonexistent/libcuda.so.1"
expect_count "$out/nodriver.out" "^ +class [0-9a-f]{16}: CPU \| " 1
expect_in "$out/nodriver.out" "also: CPU_LLVM=1"

# the fake GPU: it opens (its class shows) but runs no kernel, so its Tensor([1, 2, 3]) * 2 is
# wrong (or, without NVRTC here, not compiled): FAIL, and as the default (nothing set: an empty
# DEV is unset) exit 1
DEV= CUDA_DRIVER_PATH="$fake" run fake 1 devices
expect_count "$out/fake.out" "^\* CUDA +FAIL " 1
expect_in "$out/fake.out" "tinygrad-cc fake GPU"
expect_count "$out/fake.out" "^  CPU +PASS$" 1
# a GPU says how TinyJit replays there: as CUDA graphs, or kernel by kernel on an old driver
expect_count "$out/fake.out" "^ +jit replays: as graphs" 1
expect_count "$out/fake.out" "jit replays" 1
DEV=CPU CUDA_DRIVER_PATH="$fake_before_12" run before12 0 devices
expect_count "$out/before12.out" "^ +jit replays: kernel by kernel \(the driver has no graphs" 1

# three fake GPUs: each listed after CUDA, the one DEV names marked (its own check's exit code)
DEV=cuda:2 TG_FAKE_CUDA_DEVICES=3 CUDA_DRIVER_PATH="$fake" run three 1 devices
expect_count "$out/three.out" "^  CUDA +FAIL " 1
expect_count "$out/three.out" "^  CUDA:1 +FAIL " 1
expect_count "$out/three.out" "^\* CUDA:2 +FAIL " 1
expect_count "$out/three.out" "^ +class [0-9a-f]{16}: CUDA \| tinygrad-cc fake GPU" 3
expect_count "$out/three.out" "also: CUDA_PTX=1" 1
# a GPU this machine lacks, and a default that is none of the kinds: said, exit 1
DEV=cuda:7 CUDA_DRIVER_PATH="$fake" run nogpu7 1 devices
expect_in "$out/nogpu7.out" "the default device CUDA:7 is none of these"

DEV=nope run nope 1 devices
expect_in "$out/nope.out" "the default device NOPE is none of these"

finish tg_devices_test
