# File: autotune/proto/farm.capnp
# The worker-farm protocol of the distributed autotuner: measurement requests and results, and
# the messages a coordinator and its workers exchange, all in one FarmMessage union.
# Same rules as kernel.capnp: explicit, never-changing ordinals; new fields get new ordinals.
@0xed34df0beb40c452;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("tg::autotune::proto");

using Kernel = import "kernel.capnp";

# One DEFINE_GLOBAL of the kernel: slot, element dtype, elements.
struct BufferSpec {
  slot @0 :Int64;
  dtype @1 :Kernel.DType;
  size @2 :Int64;
}

struct VarVal {
  name @0 :Text;
  value @1 :Int64;
}

# One kernel to tune (autotune/measure/measurer.h KernelTask).
struct KernelTask {
  ast @0 :Kernel.KernelAst;
  buffers @1 :List(BufferSpec);  # sorted by slot
  varVals @2 :List(VarVal);      # sorted by name
  seed @3 :UInt64;
  # How candidates lower (tinygrad/codegen/codegen_options.h CodegenOptions::KeyText); empty
  # (a coordinator from before the field): the defaults. A worker lowers with these, never
  # with its own environment.
  codegen @4 :Text;
}

struct MeasureOptions {
  runs @0 :Int32;
  earlyStopS @1 :Float64;        # inf: no early stop
  interleaved @2 :Bool;
  checkResults @3 :Bool;
  uopsMax @4 :Int64;
  maxComputeRatio @5 :Float64;
  timeoutS @6 :Float64;
  knownPrograms @7 :List(UInt64);  # sorted
  keep @8 :Int32;
  refineRatio @9 :Float64 = inf;
  firstRunStopS @10 :Float64 = inf;
}

struct MeasureRequest {
  jobId @0 :UInt64;
  searchId @1 :UInt64;
  taskDigest @2 :UInt64;         # KernelTaskDigest of the task
  task :union {
    full @3 :KernelTask;
    byDigest @4 :Void;           # the worker has seen this task: it keeps tasks by digest
  }
  candidates @5 :List(Kernel.OptList);
  options @6 :MeasureOptions;
  runDeadlineS @7 :Float64;      # a run taking longer is killed (the worker's isolation)
}

# autotune::Outcome, plus what only a farm knows.
enum Outcome {
  ok @0;
  invalidOpts @1;
  loweringError @2;
  rejected @3;
  compileError @4;
  runtimeError @5;
  timeout @6;
  tooSlow @7;
  wrongResult @8;
  duplicate @9;
  workerLost @10;                # the worker (or its child) died measuring it
}

struct MeasureCost {
  lowerS @0 :Float64;
  compileS @1 :Float64;
  runS @2 :Float64;
  lowerCpuS @3 :Float64;         # the lowering thread's CPU time in lowerS
}

struct CandidateResult {
  outcome @0 :Outcome;
  error @1 :Text;
  samplesS @2 :List(Float64);
  minS @3 :Float64;
  programHash @4 :UInt64;
  uops @5 :Int64;
  duplicateOf @6 :Int32;
  cost @7 :MeasureCost;
}

# A batch-level failure (absl::Status): the task itself could not run.
struct BatchStatus {
  code @0 :UInt32;               # absl::StatusCode; 0 is OK
  message @1 :Text;
}

struct MeasureResult {
  jobId @0 :UInt64;
  searchId @1 :UInt64;
  status @2 :BatchStatus;
  results @3 :List(CandidateResult);  # one per candidate, in order
  prepareWallS @4 :Float64;
  runWallS @5 :Float64;
}

# Worker -> coordinator, first: who it is and what it can run.
struct Hello {
  protocolVersion @0 :UInt32;
  buildId @1 :Text;              # tinygrad-cc build id
  device @2 :Kernel.DeviceDescription;
  workerId @3 :Text;
  capacity @4 :UInt32;           # jobs it can hold at once
  host @5 :Text;                 # its host name, for the provenance of what it measures
  incarnation @6 :UInt64;        # random per worker process; 0: not given (treated as a restart)
  holding @7 :List(UInt64);      # on a reconnect: the job ids it still holds (results follow)
}

# Worker -> coordinator: it can take `credits` more jobs.
struct Ready {
  credits @0 :UInt32;
}

# Either way: still alive.
struct Heartbeat {
  seq @0 :UInt64;
  inFlight @1 :UInt32;           # jobs the sender holds
}

struct Bye {
  reason @0 :Text;
  refused @1 :Bool;              # coordinator -> worker: no more work for it, do not come back
}

struct FarmMessage {
  union {
    hello @0 :Hello;
    ready @1 :Ready;
    heartbeat @2 :Heartbeat;
    job @3 :MeasureRequest;
    result @4 :MeasureResult;
    bye @5 :Bye;
  }
}
