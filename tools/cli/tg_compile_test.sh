#!/usr/bin/env bash
# `tg compile` end to end (path of tg in $1): a workload's kernels for CUDA (NVRTC) and HIP
# (comgr for gfx90a, clang for gfx1100) on a machine without those GPUs; half matmuls on tensor
# cores; --source, DEBUG=4, DEBUG=7 / --disassemble; exit codes of bad targets and missing toolchains. A device whose
# compiler is not installed here is skipped with a SKIP line.
set -u
source tests/tg_test_lib.sh

tg="$1"
out="${TEST_TMPDIR:-$(mktemp -d)}"
small=(--m 64 --n 64 --k 64)

# have DEVICE ARCH: whether this machine can compile for the target (else prints SKIP).
have() {
  "$tg" compile matmul --device "$1" --arch "$2" "${small[@]}" >"$out/probe.out" 2>"$out/probe.err"
  local rc=$?
  if [[ $rc -ne 0 ]] && grep -qE "not found|no clang|cannot run" "$out/probe.err"; then
    echo "SKIP: $1 $2: its compiler is not installed here: $(head -c 300 "$out/probe.err")"
    return 1
  fi
  return 0
}

if have CUDA sm_90; then
  run cuda_half 0 compile matmul --device CUDA --arch sm_90 --dtype half "${small[@]}"
  expect_in "$out/cuda_half.out" "-> CUDA sm_90 (nvrtc "
  expect_in "$out/cuda_half.out" "dtype=dtypes.half"
  expect_count "$out/cuda_half.out" "^kernel 1 r_.* TC0:-1,0,1.* cubin +[1-9][0-9]* B " 1
  expect_in "$out/cuda_half.out" "1 kernels, 0 failed"

  run cuda_source 0 compile matmul --device CUDA --arch sm_90 --dtype half --source "${small[@]}"
  expect_in "$out/cuda_source.out" "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
  expect_in "$out/cuda_source.out" "#include <cuda_fp16.h>"
  expect_count "$out/cuda_source.out" "^// kernel 1 r_" 1

  # DEBUG=4 prints the source with the summary line (the engine's convention).
  DEBUG=4 run cuda_debug4 0 compile matmul --device CUDA --arch sm_90 --dtype half "${small[@]}"
  expect_in "$out/cuda_debug4.out" "mma.sync.aligned"
  expect_count "$out/cuda_debug4.out" "^kernel 1 r_" 1

  # DEBUG=7 (and --disassemble) print each kernel's SASS: from a stand-in nvdisasm put first on
  # PATH (it prints the file it is given), then from whatever this machine has: SASS, or one
  # line saying no disassembler is installed, and the compile still succeeds.
  mkdir -p "$out/fakebin"
  printf '#!/bin/sh\necho "STAND-IN SASS of $(head -c 4 "$1" | tail -c 3), $(wc -c <"$1") bytes"\n' >"$out/fakebin/nvdisasm"
  chmod +x "$out/fakebin/nvdisasm"
  PATH="$out/fakebin:$PATH" DEBUG=7 run cuda_debug7_fake 0 compile matmul --device CUDA --arch sm_90 "${small[@]}"
  expect_count "$out/cuda_debug7_fake.out" "^STAND-IN SASS of ELF, [1-9][0-9]* bytes" 1
  expect_count "$out/cuda_debug7_fake.out" "^kernel 1 r_" 1
  PATH="$out/fakebin:$PATH" run cuda_disasm_ptx 0 compile matmul --device CUDA --arch sm_89 --ptx --disassemble "${small[@]}"
  expect_count "$out/cuda_disasm_ptx.out" "^STAND-IN SASS of ELF" 1
  DEBUG=7 run cuda_debug7 0 compile matmul --device CUDA --arch sm_90 "${small[@]}"
  if grep -q "no disassembly" "$out/cuda_debug7.out"; then
    expect_count "$out/cuda_debug7.out" "^kernel 1: no disassembly: no disassembler for a CUBIN: none of nvdisasm, cuobjdump" 1
    echo "SKIP: real SASS: no nvdisasm or cuobjdump here"
  else
    expect_in "$out/cuda_debug7.out" "EXIT"
  fi

  run cuda_bf16 0 compile matmul --device CUDA --arch sm_89 --dtype bfloat16 --source "${small[@]}"
  expect_in "$out/cuda_bf16.out" "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"

  run cuda_ptx 0 compile matmul --device CUDA --arch sm_89 --dtype half --ptx --source "${small[@]}"
  expect_in "$out/cuda_ptx.out" ".entry r_"
  expect_in "$out/cuda_ptx.out" "mma.sync.aligned"
  CUDA_PTX=1 run cuda_ptx_env 0 compile matmul --device CUDA --arch sm_89 "${small[@]}"
  expect_in "$out/cuda_ptx_env.out" "(nvjitlink "
  # PTX has no bfloat16 registers: an error for the kernel, not a crash
  run cuda_ptx_bf16 1 compile matmul --device CUDA --arch sm_89 --dtype bfloat16 --ptx "${small[@]}"
  expect_in "$out/cuda_ptx_bf16.err" "PTX has no register type for dtypes.bfloat16"

  run cuda_softmax 0 compile softmax --device cuda --arch sm_80 --rows 32 --cols 64
  expect_count "$out/cuda_softmax.out" "^kernel [0-9]+ " 3
  expect_in "$out/cuda_softmax.out" "3 kernels, 0 failed"

  # An arch NVRTC does not know: a usage error naming it.
  run cuda_old 2 compile matmul --device CUDA --arch sm_30 "${small[@]}"
  expect_in "$out/cuda_old.err" "sm_30"
  expect_in "$out/cuda_old.err" "tg compile: "
fi

if have HIP gfx1100; then
  run hip_rdna3 0 compile matmul --device HIP --arch gfx1100 --dtype half "${small[@]}"
  expect_in "$out/hip_rdna3.out" "-> HIP gfx1100 ("
  expect_count "$out/hip_rdna3.out" "^kernel 1 r_.* TC0:-1,0,1.* code object +[1-9][0-9]* B " 1
  run hip_rdna3_source 0 compile matmul --device HIP --arch gfx1100 --dtype half --source "${small[@]}"
  expect_in "$out/hip_rdna3_source.out" "__builtin_amdgcn_wmma_f32_16x16x16_f16_w32"
fi

if have HIP gfx90a; then
  "$tg" compile matmul --device HIP --arch gfx90a --hip-compiler comgr "${small[@]}" >/dev/null 2>"$out/comgr_probe.err"
  if grep -q "sanitizer" "$out/comgr_probe.err"; then
    echo "SKIP: comgr: $(head -c 300 "$out/comgr_probe.err")"
  else
    run hip_cdna2 0 compile matmul --device HIP --arch gfx90a --hip-compiler comgr "${small[@]}"
    expect_in "$out/hip_cdna2.out" "(comgr "
    expect_in "$out/hip_cdna2.out" "1 kernels, 0 failed"
  fi
  run hip_cdna2_disasm 0 compile matmul --device HIP --arch gfx90a --disassemble "${small[@]}"
  if grep -q "no disassembly" "$out/hip_cdna2_disasm.out"; then
    echo "SKIP: AMD assembly: $(grep "no disassembly" "$out/hip_cdna2_disasm.out")"
  else
    expect_in "$out/hip_cdna2_disasm.out" "s_endpgm"
  fi
  # comgr 2.4 does not know gfx1100: asking for it there is a usage error naming what it knows.
  if ! grep -q "sanitizer" "$out/comgr_probe.err"; then
    run hip_comgr_gfx1100 2 compile matmul --device HIP --arch gfx1100 --hip-compiler comgr "${small[@]}"
    expect_in "$out/hip_comgr_gfx1100.err" "gfx1100"
  fi
fi

# Errors that need no toolchain.
run no_device 2 compile matmul --arch sm_90
expect_in "$out/no_device.err" "--device"
run bad_device 2 compile matmul --device METAL --arch m1
expect_in "$out/bad_device.err" "METAL"
run bad_cuda_arch 2 compile matmul --device CUDA --arch gfx1100
expect_in "$out/bad_cuda_arch.err" "gfx1100"
run bad_hip_arch 2 compile matmul --device HIP --arch sm_90
expect_in "$out/bad_hip_arch.err" "sm_90"
run bad_dtype 2 compile matmul --device CUDA --arch sm_90 --dtype int8
expect_in "$out/bad_dtype.err" "unknown dtype 'int8'"
run bad_workload 2 compile nothing --device CUDA --arch sm_90
expect_in "$out/bad_workload.err" "unknown workload 'nothing'"

# Missing toolchain pieces: exit 1, naming where they were looked for. (An explicit *_PATH is
# the only place looked in.)
HIP_DEVICE_LIB_PATH=/nonexistent/bitcode run hip_no_libs 1 compile matmul --device HIP --arch gfx1100 "${small[@]}"
expect_in "$out/hip_no_libs.err" "/nonexistent/bitcode"
expect_in "$out/hip_no_libs.err" "rocm-device-libs"
COMGR_PATH=/nonexistent/libamd_comgr.so HIP_CLANG_PATH=/nonexistent/clang \
  run hip_no_compiler 1 compile matmul --device HIP --arch gfx90a "${small[@]}"
if ! grep -q "device libraries" "$out/hip_no_compiler.err"; then
  # a sanitizer build never loads comgr, so it names no path for it
  grep -q "sanitizer" "$out/hip_no_compiler.err" || expect_in "$out/hip_no_compiler.err" "/nonexistent/libamd_comgr.so"
  expect_in "$out/hip_no_compiler.err" "/nonexistent/clang"
fi
expect_empty "$out/hip_no_compiler.out"

finish tg_compile_test
