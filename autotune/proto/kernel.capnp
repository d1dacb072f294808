# File: autotune/proto/kernel.capnp
# The wire form of a kernel: the UOp DAG, dtypes, args, opt lists and the device description.
# Part of the distributed autotuner's protocol (issue 5, section 1); autotune/codec converts.
#
# Rules (they keep old messages readable and digests stable):
# - Every enum has explicit ordinals that never change; a new op or dtype gets the next free
#   ordinal. The C++ codec maps enumerants to our enums BY NAME, never by position, so the
#   order of tinygrad-cc's own enums may change freely.
# - A kernel AST is a list of nodes in a deterministic topological order (children before
#   parents, the root last); sources are indices into that list and must be smaller than the
#   node's own index, so a message can't describe a cycle.
# - Nothing is a string to parse: dtypes and args are typed structs/unions.
@0xd48194dd920ded36;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("tg::autotune::proto");

# tinygrad's Ops (tinygrad/uop/ops.h), by name.
enum Op {
  defineGlobal @0;
  defineVar @1;
  bind @2;
  special @3;
  defineLocal @4;
  defineReg @5;
  noop @6;
  rewriteError @7;
  program @8;
  linear @9;
  source @10;
  binary @11;
  sink @12;
  after @13;
  group @14;
  gep @15;
  vectorize @16;
  index @17;
  load @18;
  store @19;
  wmma @20;
  cast @21;
  bitcast @22;
  exp2 @23;
  log2 @24;
  sin @25;
  sqrt @26;
  reciprocal @27;
  neg @28;
  trunc @29;
  add @30;
  mul @31;
  shl @32;
  shr @33;
  idiv @34;
  max @35;
  mod @36;
  cmplt @37;
  cmpne @38;
  cmpeq @39;
  xor @40;
  or @41;
  and @42;
  threefry @43;
  sub @44;
  fdiv @45;
  pow @46;
  where @47;
  mulacc @48;
  barrier @49;
  range @50;
  if @51;
  end @52;
  endif @53;
  vconst @54;
  const @55;
  custom @56;
  customi @57;
  unique @58;
  device @59;
  kernel @60;
  assign @61;
  customKernel @62;
  lunique @63;
  contiguous @64;
  contiguousBackward @65;
  detach @66;
  bufferize @67;
  copy @68;
  buffer @69;
  bufferView @70;
  mselect @71;
  mstack @72;
  encdec @73;
  reshape @74;
  permute @75;
  expand @76;
  pad @77;
  shrink @78;
  flip @79;
  multi @80;
  reduceAxis @81;
  reduce @82;
  allreduce @83;
  unroll @84;
  contract @85;
  cat @86;
  ptrcat @87;
}

# The scalar kinds of tinygrad/dtype/dtype.h.
enum ScalarType {
  void @0;
  index @1;
  bool @2;
  int8 @3;
  uint8 @4;
  int16 @5;
  uint16 @6;
  int32 @7;
  uint32 @8;
  int64 @9;
  uint64 @10;
  fp8e4m3 @11;
  fp8e5m2 @12;
  float16 @13;
  bfloat16 @14;
  float32 @15;
  float64 @16;
}

enum AddrSpace {
  global @0;
  local @1;
  reg @2;
}

# tinygrad's AxisType.
enum AxisType {
  global @0;
  warp @1;
  local @2;
  loop @3;
  groupReduce @4;
  reduce @5;
  upcast @6;
  unroll @7;
  thread @8;
  outer @9;
  placeholder @10;
}

# A DType: scalar kind, vector width, and the PtrDType fields when isPtr.
struct DType {
  scalar @0 :ScalarType;
  count @1 :UInt16;        # vector width of the value (of the pointee for pointers); 1: scalar
  isPtr @2 :Bool;
  addrSpace @3 :AddrSpace; # pointers only (global otherwise)
  v @4 :UInt16;            # pointers: how many pointers (PtrDType.v); 1 otherwise
  size @5 :Int64;          # pointers: elements, -1 unlimited; -1 otherwise
}

# An integer outside int64 (ConstValue ints are 128-bit, saturating at +-2**120).
struct BigInt {
  hi @0 :Int64;
  lo @1 :UInt64;
}

# A UOp arg or tag: tinygrad-cc's Arg variant (None, a ConstValue, a string, an Ops, an
# AxisType, or a tuple of those).
struct Arg {
  union {
    none @0 :Void;
    bool @1 :Bool;
    int @2 :Int64;        # ints that fit int64
    bigInt @3 :BigInt;    # the others
    float @4 :Float64;    # NaN is tinygrad's one canonical NaN
    invalid @5 :Void;     # tinygrad's Invalid
    string @6 :Text;
    op @7 :Op;
    axisType @8 :AxisType;
    tuple @9 :List(Arg);
  }
}

struct UOpNode {
  op @0 :Op;
  dtype @1 :DType;
  src @2 :List(UInt32);  # indices of earlier nodes of the same KernelAst
  arg @3 :Arg;           # null: None
  tag @4 :Arg;           # null: None
}

# A kernel AST (a SINK): every node once, children before parents, the root last.
struct KernelAst {
  nodes @0 :List(UOpNode);
}

# tinygrad's OptOps.
enum OptOp {
  tc @0;
  upcast @1;
  unroll @2;
  local @3;
  thread @4;
  group @5;
  groupTop @6;
  noLocals @7;
  padTo @8;
  swap @9;
  simd @10;  # ours: tinygrad/codegen/opt/opt.h OptOps::SIMD
  block @11;  # ours: tinygrad/codegen/opt/opt.h OptOps::BLOCK
  pack @12;  # ours: tinygrad/codegen/opt/opt.h OptOps::PACK
  gemm @13;  # ours: tinygrad/codegen/opt/opt.h OptOps::GEMM
}

# TC's arg: (tc_select, tc_opt, use_tensor_cores); GEMM's triple (bm, bn, stages) travels in the
# same three fields.
struct TcArg {
  tcSelect @0 :Int64;
  tcOpt @1 :Int64;
  useTensorCores @2 :Int64;
}

struct Opt {
  op @0 :OptOp;
  axis :union {
    none @1 :Void;
    value @2 :Int64;
  }
  arg :union {
    none @3 :Void;
    int @4 :Int64;
    tc @5 :TcArg;
  }
}

struct OptList {
  opts @0 :List(Opt);
}

# The device class a timing is valid for (autotune/key/device_class.h), plus its digest, which
# the reader recomputes and compares.
struct DeviceDescription {
  device @0 :Text;           # backend kind: "CPU", "CUDA", ...
  cpuModel @1 :Text;
  isaFlags @2 :List(Text);   # sorted
  cores @3 :UInt32;
  gpuName @4 :Text;
  gpuArch @5 :Text;
  gpuDriver @6 :Text;
  compilerId @7 :Text;
  renderer @8 :Text;
  digest @9 :Text;           # DeviceClass::Digest()
}
