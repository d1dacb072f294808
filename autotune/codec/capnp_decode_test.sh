#!/bin/bash
# File: autotune/codec/capnp_decode_test.sh
# The real Cap'n Proto tool (`capnp decode`, package capnproto) prints messages our codec
# wrote, with our schemas: the wire format is plain Cap'n Proto, readable without our code.
set -euo pipefail

out="${TEST_TMPDIR:-$(mktemp -d)}/corpus"
mkdir -p "$out"
autotune/codec/make_corpus "$out" > /dev/null

fail=0
# decode <schema> <root struct> <file> <expected text>...
check() {
  local schema="$1" root="$2" file="$3"
  shift 3
  local text
  if ! text="$(capnp decode -I/usr/include "autotune/proto/$schema" "$root" < "$out/$file" 2>&1)"; then
    echo "FAIL: capnp decode $schema $root < $file: $text"
    fail=1
    return
  fi
  for want in "$@"; do
    if [[ "$text" != *"$want"* ]]; then
      echo "FAIL: capnp decode of $file lacks '$want'; it printed:"
      echo "$text" | head -c 3000
      fail=1
    fi
  done
}

check farm.capnp FarmMessage farm_job.bin \
  "job = (" "jobId = 7" "searchId = 3" "full = (" "op = defineGlobal" "op = sink" \
  "scalar = float32" "isPtr = true" "candidates = [" "op = tc" "tcSelect = -1" "op = noLocals" \
  "knownPrograms = [5, 9]" "runDeadlineS = 0.5"
check farm.capnp FarmMessage farm_hello.bin \
  "hello = (" "protocolVersion = 1" "buildId = \"tg-corpus\"" "workerId = \"worker-1\"" \
  "isaFlags = [\"avx2\", \"fma\"]" "capacity = 4" "digest = \"" "incarnation = 24301" "holding = [7, 8]"
check farm.capnp FarmMessage farm_result.bin \
  "result = (" "outcome = ok" "outcome = workerLost" "outcome = compileError" "samplesS = [0.001, 0.002]"
check compile.capnp CompileMessage compile_request.bin \
  "request = (" "protocolVersion = 1" "requestId = 11" "arch = \"sm_90\"" "globalMax = (none = void)" \
  "value = (x = 1024, y = 1024, z = 64)" "task = (" "op = sink" "candidates = [" "op = tc" \
  "knownPrograms = [5, 9]"
check compile.capnp CompileMessage compile_reply.bin \
  "reply = (" "outcome = ok" "outcome = compileError" "outcome = duplicate" "duplicateOf = 0" \
  "localSize = (none = void)" "x = 4, y = 1, z = 1" "name = \"n\"" "boxRows = 8" \
  "binary = \"\\177ELF\\000\\000\"" "prepareWallS = 0.5"
check farm.capnp FarmMessage farm_ready.bin "ready = (credits = 2)"
check farm.capnp FarmMessage farm_heartbeat.bin "heartbeat = (seq = 5, inFlight = 1)"
check farm.capnp FarmMessage farm_bye.bin "bye = (reason = \"done\", refused = true)"
check kernel.capnp KernelAst ast_add.bin \
  "nodes = [" "op = defineGlobal" "op = range" "axisType = loop" "op = index" "op = load" \
  "op = add" "op = store" "op = end" "op = sink" "string = \"E_16\""
check kernel.capnp KernelAst trusted_ast_zoo.bin \
  "bigInt = (" "float = nan" "invalid = void" "op = mul" "op = defineVar" "addrSpace = local"
check kernel.capnp OptList opts_tc.bin "op = tc" "tc = (tcSelect = -1, tcOpt = 2, useTensorCores = 1)" \
  "axis = (value = 1)" "int = 4"
check farm.capnp KernelTask task_add.bin "ast = (" "buffers = [" "seed = 1234"
check kernel.capnp DeviceDescription device_cpu.bin "device = \"CPU\"" "cores = 4"

if [[ $fail -ne 0 ]]; then exit 1; fi
echo "capnp decode printed every message as expected"
