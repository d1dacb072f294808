// File: autotune/codec/ast_codec_test.cc
// Kernel AST round trips (every workload kernel, optimized and fully rewritten), canonical
// bytes, pinned digests, and hostile inputs.
#include "autotune/codec/ast_codec.h"

#include <string>

#include "absl/strings/match.h"
#include "autotune/codec/ast_wire.h"
#include "autotune/codec/codec_test_kernels.h"
#include "autotune/codec/message_io.h"
#include "autotune/codec/value_wire.h"
#include "autotune/codec/wire_enums.h"
#include "gtest/gtest.h"
#include "tinygrad/uop/kernel_info.h"

namespace tg::autotune::codec {
namespace {

// Bytes this process wrote itself, which may carry source text (CUSTOMI).
const DecodeLimits kTrusted{.allow_source_text = true};

void ExpectRoundTrip(const UOp& k, const std::string& name, const DecodeLimits& limits = {}) {
  std::string bytes = EncodeAst(k);
  absl::StatusOr<UOp> back = DecodeAst(bytes, limits);
  ASSERT_TRUE(back.ok()) << name << ": " << back.status();
  EXPECT_EQ(*back, k) << name << ": decoding gave another node";
  EXPECT_EQ(back->key(), k.key()) << name;
  EXPECT_EQ(EncodeAst(*back), bytes) << name << ": bytes not canonical";
}

TEST(AstCodecTest, EveryWorkloadKernelRoundTrips) {
  std::vector<NamedKernel> ks = WorkloadKernels();
  ASSERT_GT(ks.size(), 20u);
  int optimized = 0, rewritten = 0;
  for (const NamedKernel& k : ks) {
    ExpectRoundTrip(k.ast, k.name);
    if (UOp o = OptimizedAst(k.ast)) {
      ExpectRoundTrip(o, k.name + " optimized");
      ++optimized;
    }
    if (UOp f = FullyRewritten(k.ast)) {
      ExpectRoundTrip(f, k.name + " rewritten");
      ++rewritten;
    }
  }
  EXPECT_GT(optimized, 0);
  EXPECT_GT(rewritten, 0);
  std::printf("%zu workload kernels, %d optimized, %d fully rewritten round-tripped\n", ks.size(),
              optimized, rewritten);
}

TEST(AstCodecTest, TensorKernelsRoundTrip) {
  std::vector<NamedKernel> ks = TensorKernels();
  ASSERT_GE(ks.size(), 4u);
  for (const NamedKernel& k : ks) {
    ExpectRoundTrip(k.ast, k.name);
    if (UOp o = OptimizedAst(k.ast)) ExpectRoundTrip(o, k.name + " optimized");
    if (UOp f = FullyRewritten(k.ast)) ExpectRoundTrip(f, k.name + " rewritten");
  }
}

TEST(AstCodecTest, HandBuiltGraphsRoundTrip) {
  ExpectRoundTrip(HandBuiltAddKernel(), "add");
  ExpectRoundTrip(HandBuiltArgZoo(), "zoo", kTrusted);
}

TEST(AstCodecTest, StringsWithNulBytesRoundTrip) {
  UOp u = UOp::Make(Ops::SINK, dtypes::void_, {}, Arg::Tuple({std::string("a\0b", 3), "\x1b[90m"}),
                    std::string("\0", 1));
  ExpectRoundTrip(u, "nul", kTrusted);
}

TEST(AstCodecTest, DecodeBuildsTheGraphWhenNothingElseHoldsIt) {
  std::string bytes = EncodeAst(HandBuiltArgZoo());  // the graph is released here
  absl::StatusOr<UOp> back = DecodeAst(bytes, kTrusted);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(EncodeAst(*back), bytes);
  EXPECT_EQ(*back, HandBuiltArgZoo());
}

// Pinned: these bytes and digests must be the same on every machine and build. A change here
// is a wire-format change (bump kProtocolVersion) or a change of the UOp layer's graphs.
TEST(AstCodecTest, GoldenDigests) {
  EXPECT_EQ(AstWireDigestHex(HandBuiltAddKernel()), "35eb2ddb288d9bdc");
  EXPECT_EQ(AstWireDigestHex(HandBuiltArgZoo()), "d2396ce3629bdd3b");
  EXPECT_EQ(EncodeAst(HandBuiltAddKernel()).size(), size_t{1184});
}

TEST(AstCodecTest, DigestsDifferForDifferentGraphs) {
  EXPECT_NE(AstWireDigest(HandBuiltAddKernel()), AstWireDigest(HandBuiltArgZoo()));
  std::vector<NamedKernel> ks = KernelsOf("matmul");
  for (const NamedKernel& k : ks) EXPECT_NE(AstWireDigest(k.ast), AstWireDigest(HandBuiltAddKernel()));
}

// ** hostile input **

// A KernelAst message built by hand, for cases the encoder never writes.
class Hostile {
 public:
  Hostile() : root_(message_.initRoot<proto::KernelAst>()) {}
  proto::KernelAst::Builder root() { return root_; }
  // A node of `op`/`dtype` with sources.
  static void Set(proto::UOpNode::Builder n, Ops op, DType dtype, std::vector<uint32_t> src = {}) {
    n.setOp(internal::ToWire(op));
    internal::WriteDType(dtype, n.initDtype());
    auto s = n.initSrc(static_cast<unsigned>(src.size()));
    for (unsigned i = 0; i < src.size(); ++i) s.set(i, src[i]);
  }
  std::string Bytes() { return internal::ToBytes(message_); }
  absl::Status Decode(const DecodeLimits& limits = {}) { return DecodeAst(Bytes(), limits).status(); }

 private:
  capnp::MallocMessageBuilder message_;
  proto::KernelAst::Builder root_;
};

void ExpectError(const absl::Status& s, absl::string_view needle) {
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), needle)) << "'" << s.message() << "' lacks '" << needle << "'";
}

TEST(AstCodecHostileTest, TruncatedAndEmpty) {
  std::string bytes = EncodeAst(HandBuiltAddKernel());
  ExpectError(DecodeAst("").status(), "truncated");
  ExpectError(DecodeAst(bytes.substr(0, 7)).status(), "truncated");
  ExpectError(DecodeAst(bytes.substr(0, bytes.size() - 3)).status(), "truncated");
  // Whole words, but fewer than the segment table says.
  ExpectError(DecodeAst(bytes.substr(0, bytes.size() - 8)).status(), "malformed");
  ExpectError(DecodeAst(bytes + std::string(8, '\0')).status(), "trailing");
  DecodeLimits small;
  small.max_message_bytes = 64;
  ExpectError(DecodeAst(bytes, small).status(), "over the limit");
}

TEST(AstCodecHostileTest, NoNodesAndTooMany) {
  Hostile h;
  h.root().initNodes(0);
  ExpectError(h.Decode(), "without nodes");
  Hostile many;
  auto nodes = many.root().initNodes(100);
  for (unsigned i = 0; i < 100; ++i) Hostile::Set(nodes[i], Ops::NOOP, dtypes::void_, i ? std::vector<uint32_t>{i - 1} : std::vector<uint32_t>{});
  DecodeLimits l;
  l.max_nodes = 50;
  ExpectError(many.Decode(l), "over the limit of 50");
  EXPECT_TRUE(many.Decode().ok()) << many.Decode();
}

TEST(AstCodecHostileTest, ForwardSelfAndOutOfRangeIndices) {
  for (uint32_t bad : {1u, 2u, 7u, 0xFFFFFFFFu}) {
    Hostile h;
    auto nodes = h.root().initNodes(3);
    Hostile::Set(nodes[0], Ops::NOOP, dtypes::void_);
    Hostile::Set(nodes[1], Ops::NOOP, dtypes::void_, {bad});
    Hostile::Set(nodes[2], Ops::SINK, dtypes::void_, {1});
    ExpectError(h.Decode(), "node 1 src[0]: index");
    ExpectError(h.Decode(), bad == 1 ? "self reference" : "cycle");
  }
}

TEST(AstCodecHostileTest, TooManySources) {
  Hostile h;
  auto nodes = h.root().initNodes(2);
  Hostile::Set(nodes[0], Ops::NOOP, dtypes::void_);
  Hostile::Set(nodes[1], Ops::SINK, dtypes::void_, std::vector<uint32_t>(5000, 0));
  ExpectError(h.Decode(), "node 1 src: 5000 sources");
}

TEST(AstCodecHostileTest, UnreachableNode) {
  Hostile h;
  auto nodes = h.root().initNodes(2);
  Hostile::Set(nodes[0], Ops::NOOP, dtypes::void_);
  Hostile::Set(nodes[1], Ops::SINK, dtypes::void_);
  ExpectError(h.Decode(), "node 0 is not reachable");
}

TEST(AstCodecHostileTest, UnknownEnumOrdinals) {
  {
    Hostile h;
    auto n = h.root().initNodes(1)[0];
    Hostile::Set(n, Ops::SINK, dtypes::void_);
    n.setOp(static_cast<proto::Op>(999));
    ExpectError(h.Decode(), "node 0 op: unknown op ordinal 999");
  }
  {
    Hostile h;
    auto n = h.root().initNodes(1)[0];
    Hostile::Set(n, Ops::SINK, dtypes::void_);
    n.getDtype().setScalar(static_cast<proto::ScalarType>(77));
    ExpectError(h.Decode(), "node 0 dtype: unknown scalar type ordinal 77");
  }
  {
    Hostile h;
    auto n = h.root().initNodes(1)[0];
    Hostile::Set(n, Ops::SINK, dtypes::void_);
    n.initArg().setAxisType(static_cast<proto::AxisType>(40));
    ExpectError(h.Decode(), "node 0 arg: unknown axis type ordinal 40");
  }
}

TEST(AstCodecHostileTest, UnknownUnionTag) {
  Hostile h;
  auto n = h.root().initNodes(1)[0];
  Hostile::Set(n, Ops::SINK, dtypes::void_);
  auto arg = n.initArg();
  arg.setInt(5);
  // The discriminant is the data section's first 16 bits (generated Arg::Reader::which()).
  kj::ArrayPtr<kj::byte> data = capnp::AnyStruct::Builder(kj::mv(arg)).getDataSection();
  ASSERT_GE(data.size(), 2u);
  data[0] = 0x31;
  data[1] = 0x00;
  ExpectError(h.Decode(), "node 0 arg: unknown arg kind 49");
}

TEST(AstCodecHostileTest, InvalidDTypes) {
  auto decode_with = [](auto edit) {
    Hostile h;
    auto n = h.root().initNodes(1)[0];
    Hostile::Set(n, Ops::SINK, dtypes::void_);
    edit(n.getDtype());
    return h.Decode();
  };
  ExpectError(decode_with([](proto::DType::Builder d) { d.setCount(4); }), "void dtype with a vector");
  ExpectError(decode_with([](proto::DType::Builder d) { d.setSize(16); }), "non-pointer");
  ExpectError(decode_with([](proto::DType::Builder d) { d.setV(0); }), "non-pointer");
  ExpectError(decode_with([](proto::DType::Builder d) {
                d.setScalar(proto::ScalarType::FLOAT32);
                d.setIsPtr(true);
                d.setSize(-5);
              }),
              "pointer size -5");
  ExpectError(decode_with([](proto::DType::Builder d) {
                d.setScalar(proto::ScalarType::FLOAT32);
                d.setIsPtr(true);
                d.setV(0);
              }),
              "pointer vector width 0");
  ExpectError(decode_with([](proto::DType::Builder d) {
                d.setScalar(proto::ScalarType::FLOAT32);
                d.setCount(0);
                d.setIsPtr(true);
              }),
              "0-wide");
  ExpectError(decode_with([](proto::DType::Builder d) {
                d.setScalar(proto::ScalarType::FLOAT32);
                d.setCount(5000);
              }),
              "vector width 5000 over 4096");
  ExpectError(decode_with([](proto::DType::Builder d) {
                d.setScalar(proto::ScalarType::FLOAT32);
                d.setIsPtr(true);
                d.setSize(int64_t{1} << 50);
              }),
              "out of range");
}

TEST(AstCodecHostileTest, ArgLimits) {
  auto one_sink = [](auto edit, const DecodeLimits& l = {}) {
    Hostile h;
    auto n = h.root().initNodes(1)[0];
    Hostile::Set(n, Ops::SINK, dtypes::void_);
    edit(n.initArg());
    return h.Decode(l);
  };
  DecodeLimits l;
  l.max_tuple_len = 10;
  ExpectError(one_sink([](proto::Arg::Builder a) { a.initTuple(11); }, l), "tuple of 11 items");
  ExpectError(one_sink([](proto::Arg::Builder a) {
                for (int i = 0; i < 20; ++i) a = a.initTuple(1)[0];
              }),
              "nested deeper than 16");
  l.max_string_bytes = 4;
  ExpectError(one_sink([](proto::Arg::Builder a) { a.setString("hello"); }, l), "text of 5 bytes");
  ExpectError(one_sink([](proto::Arg::Builder a) {
                auto b = a.initBigInt();
                b.setHi(int64_t{1} << 60);
              }),
              "beyond +-2**120");
  // capnp's own nesting limit.
  DecodeLimits nest;
  nest.nesting_limit = 4;
  nest.max_tuple_depth = 100;
  ExpectError(one_sink([](proto::Arg::Builder a) {
                for (int i = 0; i < 10; ++i) a = a.initTuple(1)[0];
              }, nest),
              "malformed");
}

TEST(AstCodecHostileTest, TraversalLimit) {
  std::string bytes = EncodeAst(KernelsOf("matmul").back().ast);
  DecodeLimits l;
  l.traversal_limit_words = 16;
  ExpectError(DecodeAst(bytes, l).status(), "malformed");
}

TEST(AstCodecHostileTest, NodesInterningWouldRejectOrAbortOn) {
  auto single = [](Ops op, DType dt, Arg arg, int nsrc = 0) {
    Hostile h;
    auto nodes = h.root().initNodes(static_cast<unsigned>(nsrc + 1));
    std::vector<uint32_t> src;
    for (int i = 0; i < nsrc; ++i) {
      Hostile::Set(nodes[i], Ops::CONST, dtypes::int32);
      internal::WriteArg(Arg(i), nodes[i].initArg());
      src.push_back(static_cast<uint32_t>(i));
    }
    Hostile::Set(nodes[nsrc], op, dt, src);
    if (!arg.is_none()) internal::WriteArg(arg, nodes[nsrc].initArg());
    return h.Decode();
  };
  ExpectError(single(Ops::BUFFER, dtypes::float32, 16), "BUFFER is not a kernel-level op");
  ExpectError(single(Ops::RESHAPE, dtypes::float32, Arg(), 2), "not a kernel-level op");
  ExpectError(single(Ops::ADD, dtypes::int32, Arg(), 1), "ADD needs 2 sources, got 1");
  ExpectError(single(Ops::WHERE, dtypes::int32, Arg(), 2), "WHERE needs 3 sources");
  ExpectError(single(Ops::INDEX, dtypes::int32, Arg()), "INDEX without a source");
  ExpectError(single(Ops::REDUCE, dtypes::int32, Ops::ADD), "REDUCE without a source");
  ExpectError(single(Ops::CONST, dtypes::int32, "x"), "CONST arg 'x' is not a number");
  ExpectError(single(Ops::VCONST, dtypes::int32.vec(2), Arg::Tuple({1, "x"})), "VCONST lane");
  ExpectError(single(Ops::DEFINE_VAR, dtypes::index, Arg::Tuple({"a", ConstValue::Invalid(), 3})),
              "DEFINE_VAR arg");
  ExpectError(single(Ops::DEFINE_VAR, dtypes::index, Arg::Tuple({"a", 1.5, 3})), "DEFINE_VAR arg");
  ExpectError(single(Ops::BITCAST, dtypes::void_, Arg(), 1), "BITCAST between");
  ExpectError(single(Ops::STORE, dtypes::void_, Arg(), 1), "STORE needs");
  // The location is in the message.
  ExpectError(single(Ops::ADD, dtypes::int32, Arg(), 3), "node 3 (ADD)");
}

// Source text from the network: what the renderers would paste into the kernel as it is.
TEST(AstCodecHostileTest, SourceTextIsRefused) {
  const UOp code = CustomCodeKernel("({ system(\"touch /tmp/pwned\"); 0.0f; })");
  absl::Status s = DecodeAst(EncodeAst(code)).status();
  ExpectError(s, "(CUSTOMI): source text \"({ system(\\\"touch");
  ExpectError(s, "a worker takes no code from the network");
  EXPECT_TRUE(DecodeAst(EncodeAst(code), kTrusted).ok());  // its own bytes, trusted
  ExpectError(DecodeAst(EncodeAst(HandBuiltArgZoo())).status(), "(CUSTOMI): source text \"fabsf({0})\"");

  const UOp c = UOp::Const(dtypes::float32, 1.0);
  const UOp custom = UOp::Make(Ops::CUSTOM, dtypes::void_, {c}, "system(\"id\");");
  ExpectError(DecodeAst(EncodeAst(UOp::Make(Ops::SINK, dtypes::void_, {custom}))).status(),
              "node 1 (CUSTOM): source text \"system(");
  // A non-string arg is refused too: CUSTOM is refused whatever it carries.
  const UOp odd = UOp::Make(Ops::CUSTOMI, dtypes::float32, {c}, 3);
  ExpectError(DecodeAst(EncodeAst(UOp::Make(Ops::SINK, dtypes::void_, {odd}))).status(),
              "(CUSTOMI): source text 3");
}

TEST(AstCodecHostileTest, NamesMustBeIdentifiers) {
  auto decode = [](Ops op, DType dt, Arg arg, std::vector<UOp> src = {}) {
    UOp u = UOp::Make(op, dt, src, std::move(arg));
    return DecodeAst(EncodeAst(UOp::Make(Ops::SINK, dtypes::void_, {u}))).status();
  };
  const UOp n = UOp::Const(dtypes::index, 4);
  // A variable's name is a parameter name in the kernel's signature.
  ExpectError(decode(Ops::DEFINE_VAR, dtypes::index, Arg::Tuple({"n){system(\"id\");}int f(int n", 1, 8})),
              "node 0 (DEFINE_VAR): arg string \"n){system(");
  ExpectError(decode(Ops::DEFINE_VAR, dtypes::index, Arg::Tuple({"1n", 1, 8})), "\"1n\" is not an identifier");
  ExpectError(decode(Ops::DEFINE_VAR, dtypes::index, Arg::Tuple({"", 1, 8})), "\"\" is not an identifier");
  // A SPECIAL's name is declared as a variable; an empty one would be read past its end.
  ExpectError(decode(Ops::SPECIAL, dtypes::index, "gidx0=0;system(0)", {n}), "(SPECIAL): arg string");
  ExpectError(decode(Ops::SPECIAL, dtypes::index, "", {n}), "(SPECIAL): arg string \"\"");
  // WMMA's name becomes a function name; the LLVM renderer pastes DEFINE_LOCAL's arg.
  ExpectError(decode(Ops::DEFINE_LOCAL, dtypes::float32.ptr(4, AddrSpace::LOCAL), "x = call void @system()"),
              "(DEFINE_LOCAL): arg string \"x = call");
  ExpectError(decode(Ops::NOOP, dtypes::void_, Arg::Tuple({1, Arg::Tuple({"ok", "not ok"})})),
              "\"not ok\" is not an identifier");
  // Control characters are shown escaped, long text cut.
  ExpectError(decode(Ops::NOOP, dtypes::void_, std::string(100, 'x') + "\n"), "xxx\"...");
  ExpectError(decode(Ops::NOOP, dtypes::void_, "a\nb"), "\"a\\nb\"");

  // Identifiers pass: what the pipeline itself names things.
  EXPECT_TRUE(decode(Ops::DEFINE_VAR, dtypes::index, Arg::Tuple({"start_pos", 1, 8})).ok());
  EXPECT_TRUE(decode(Ops::SPECIAL, dtypes::index, "gidx0", {n}).ok());
  EXPECT_TRUE(decode(Ops::NOOP, dtypes::void_, Arg::Tuple({"_x9", Arg::Tuple({"UPCAST", 0, 4})})).ok());
  // The kernel name is free text: the renderers escape it (KernelInfo::function_name).
  const Arg info = KernelInfo{.name = "r_\x1b[34m16\x1b[0m 8; system()"}.ToArg();
  EXPECT_TRUE(DecodeAst(EncodeAst(UOp::Make(Ops::SINK, dtypes::void_, {n}, info))).ok());
  // ... but only as a KernelInfo's name.
  ExpectError(DecodeAst(EncodeAst(UOp::Make(Ops::SINK, dtypes::void_, {n}, Arg::Tuple({"KernelInfo", "a b"}))))
                  .status(),
              "(SINK): arg string \"a b\"");
}

}  // namespace
}  // namespace tg::autotune::codec
