# File: autotune/proto/compile.capnp
# The compile-service protocol: a GPU machine hands a batch of candidates to a CPU compile
# server, which answers each candidate's program and binary, ready to load and time
# (autotune/codec/compile_messages.h), all in one CompileMessage union. Tasks, options, opt
# lists, outcomes and costs are the farm protocol's own structs.
# Same rules as kernel.capnp: explicit, never-changing ordinals; new fields get new ordinals.
@0x995c3e8173f75100;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("tg::autotune::proto");

using Kernel = import "kernel.capnp";
using Farm = import "farm.capnp";

# A launch size or a limit, x y z.
struct Dims3 {
  x @0 :Int64;
  y @1 :Int64;
  z @2 :Int64;
}

# What decides the programs and binaries a candidate becomes; a server prepares only for a
# client whose target equals its own.
struct CompileTargetInfo {
  device @0 :Text;               # "CUDA"
  arch @1 :Text;                 # "sm_90"
  renderer @2 :Text;             # RendererName: "CUDA", "PTX"
  compilerId @3 :Text;           # the compiler and its version
  globalMax :union {             # Renderer::global_max
    none @4 :Void;
    value @5 :Dims3;
  }
  localMax :union {              # Renderer::local_max
    none @6 :Void;
    value @7 :Dims3;
  }
  sharedMax @8 :Int64;
}

# Client -> server.
struct PrepareRequest {
  protocolVersion @0 :UInt32;    # checked by the server, not the codec
  requestId @1 :UInt64;
  target @2 :CompileTargetInfo;  # the client's
  task @3 :Farm.KernelTask;
  candidates @4 :List(Kernel.OptList);
  options @5 :Farm.MeasureOptions;
}

# A variable argument of a program (its DEFINE_VAR), in launch order.
struct ProgramVar {
  name @0 :Text;
  min @1 :Int64;
  max @2 :Int64;
  dtype @3 :Kernel.DType;
}

# tinygrad/codegen/tensor_map_spec.h TensorMapSpec: buffer argument `buffer` as a row-major
# rows x cols matrix of `element`, copied in boxRows x boxCols boxes.
struct TensorMap {
  buffer @0 :Int64;
  element @1 :Kernel.DType;
  rows @2 :Int64;
  cols @3 :Int64;
  boxRows @4 :Int64;
  boxCols @5 :Int64;
}

# One candidate, prepared: ok with its program and binary, or what stopped it before any run.
struct PreparedProgram {
  outcome @0 :Farm.Outcome;      # never one only a run gives (runtimeError, tooSlow, ...)
  error @1 :Text;
  duplicateOf @2 :Int32 = -1;    # duplicate: the candidate it repeats; -1: a known program
  programHash @3 :UInt64;        # of the rendered source; 0: it never rendered
  uops @4 :Int64;
  cost @5 :Farm.MeasureCost;     # lowerS, lowerCpuS and compileS on the server
  # ok: the program as the client loads and launches it (ProgramSpec's fields), sizes and
  # estimates at the task's variable values.
  name @6 :Text;
  functionName @7 :Text;
  src @8 :Text;
  globalSize @9 :Dims3;
  localSize :union {
    none @10 :Void;              # the runtime picks
    value @11 :Dims3;
  }
  vars @12 :List(ProgramVar);
  globals @13 :List(Int64);      # buffer slots, in argument order
  outs @14 :List(Int64);
  ins @15 :List(Int64);
  ops @16 :Float64;
  mem @17 :Float64;
  lds @18 :Float64;
  dynamicSharedBytes @19 :Int64;
  tensorMaps @20 :List(TensorMap);
  binary @21 :Data;              # what the device loads (a CUBIN; PTX for the driver's JIT)
}

# Server -> client, one per request.
struct PrepareReply {
  requestId @0 :UInt64;          # the request's
  status @1 :Farm.BatchStatus;   # not OK: the request failed as a whole; programs is empty
  target @2 :CompileTargetInfo;  # the server's
  programs @3 :List(PreparedProgram);  # one per candidate, in order
  prepareWallS @4 :Float64;
}

struct CompileMessage {
  union {
    request @0 :PrepareRequest;
    reply @1 :PrepareReply;
  }
}
