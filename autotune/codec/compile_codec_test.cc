// File: autotune/codec/compile_codec_test.cc
// Round trips of the compile service's messages (a request with a real kernel task, replies
// with programs of every outcome a compile server gives, a failed reply); hostile ones.
#include "autotune/codec/compile_codec.h"

#include <cmath>
#include <functional>
#include <string>

#include "absl/strings/match.h"
#include "autotune/codec/codec_test_kernels.h"
#include "autotune/codec/compile_wire.h"
#include "autotune/codec/message_io.h"
#include "gtest/gtest.h"

namespace tg::autotune::codec {
namespace {

void ExpectError(const absl::Status& s, absl::string_view needle) {
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(absl::StrContains(s.message(), needle)) << "'" << s.message() << "' lacks '" << needle << "'";
}

KernelTask SomeTask() {
  absl::StatusOr<KernelTask> t = KernelTask::FromAst(KernelsOf("matmul").back().ast);
  EXPECT_TRUE(t.ok()) << t.status();
  t->var_vals = {{"a", 3}, {"n", -7}};
  t->seed = 0xdeadbeefcafe;
  t->codegen.devectorize = 2;
  return *t;
}

CompileTargetInfo SomeTarget() {
  return CompileTargetInfo{.device = "CUDA", .arch = "sm_90", .renderer = "PTX",
                           .compiler_id = "ptxas 12.4", .global_max = {{2147483647, 65535, 65535}},
                           .local_max = {{1024, 1024, 64}}, .shared_max = 232448};
}

PrepareRequest SomeRequest() {
  PrepareRequest r{.request_id = 0x1234567890, .target = SomeTarget(), .task = SomeTask()};
  r.candidates = {{},
                  {Opt{OptOps::UPCAST, 1, int64_t{4}}, Opt{OptOps::LOCAL, 0, int64_t{16}}},
                  {Opt{OptOps::TC, 0, std::array<int64_t, 3>{-1, 2, 1}},
                   Opt{OptOps::NOLOCALS, std::nullopt, std::monostate{}}}};
  r.options.uops_max = 3000;
  r.options.max_compute_ratio = 1000;
  r.options.timeout_s = 10;
  r.options.known_programs = {3, 1, 0xffffffffffffffffULL};
  return r;
}

// A fully filled program: local size, variables, tensor maps, a binary with NUL bytes.
PreparedProgram OkProgram() {
  PreparedProgram p{.outcome = Outcome::kOk, .program_hash = 0xabcdef0123456789ULL, .uops = 321,
                    .cost = {0.25, 0.5, 0, 0.125}, .name = "r_64_16_4", .function_name = "r_64_16_4",
                    .src = ".version 8.4\n.target sm_90\n", .global_size = {64, 2, 1},
                    .local_size = {{16, 4, 1}}};
  p.vars = {ProgramVar{.name = "n", .min = 1, .max = 4096, .dtype = dtypes::int32},
            ProgramVar{.name = "core_id", .min = 0, .max = 7}};
  p.globals = {0, 1, 2};
  p.outs = {0};
  p.ins = {1, 2};
  p.ops = 1.5e9;
  p.mem = 3.25e6;
  p.lds = 7e6;
  p.dynamic_shared_bytes = 98304;
  p.tensor_maps = {TensorMapSpec{.buffer = 1, .element = dtypes::float16, .rows = 4096,
                                 .cols = 4096, .box_rows = 128, .box_cols = 64},
                   TensorMapSpec{.buffer = 2, .element = dtypes::bfloat16, .rows = 64, .cols = 8,
                                 .box_rows = 64, .box_cols = 8}};
  p.binary = std::string("\x7f" "ELF\0\0\x01\0cubin\0", 15);
  return p;
}

// One program per outcome a compile server gives, and an ok one whose runtime picks the local
// size.
PrepareReply SomeReply() {
  PrepareReply r{.request_id = 0x1234567890, .target = SomeTarget(), .prepare_wall_s = 1.75};
  r.programs.push_back(OkProgram());
  for (Outcome o : {Outcome::kInvalidOpts, Outcome::kLoweringError, Outcome::kRejected,
                    Outcome::kCompileError, Outcome::kTimeout}) {
    PreparedProgram p{.outcome = o, .error = "failed: " + std::string(OutcomeName(o))};
    p.cost.lower_s = 0.01;
    r.programs.push_back(p);
  }
  r.programs.push_back(PreparedProgram{.outcome = Outcome::kDuplicate, .duplicate_of = 0,
                                       .program_hash = OkProgram().program_hash});
  r.programs.push_back(PreparedProgram{.outcome = Outcome::kDuplicate, .duplicate_of = -1,
                                       .program_hash = 5});
  PreparedProgram no_local = OkProgram();
  no_local.local_size.reset();
  no_local.tensor_maps.clear();
  no_local.binary.clear();
  r.programs.push_back(no_local);
  return r;
}

void ExpectSameProgram(const PreparedProgram& a, const PreparedProgram& b) {
  EXPECT_EQ(a.outcome, b.outcome);
  EXPECT_EQ(a.error, b.error);
  EXPECT_EQ(a.duplicate_of, b.duplicate_of);
  EXPECT_EQ(a.program_hash, b.program_hash);
  EXPECT_EQ(a.uops, b.uops);
  EXPECT_EQ(a.cost, b.cost);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.function_name, b.function_name);
  EXPECT_EQ(a.src, b.src);
  EXPECT_EQ(a.global_size, b.global_size);
  EXPECT_EQ(a.local_size, b.local_size);
  EXPECT_EQ(a.vars, b.vars);
  EXPECT_EQ(a.globals, b.globals);
  EXPECT_EQ(a.outs, b.outs);
  EXPECT_EQ(a.ins, b.ins);
  EXPECT_EQ(a.ops, b.ops);
  EXPECT_EQ(a.mem, b.mem);
  EXPECT_EQ(a.lds, b.lds);
  EXPECT_EQ(a.dynamic_shared_bytes, b.dynamic_shared_bytes);
  EXPECT_EQ(a.tensor_maps, b.tensor_maps);
  EXPECT_EQ(a.binary, b.binary);
}

template <typename T>
T DecodeAs(const std::string& bytes) {
  absl::StatusOr<CompileMessage> m = DecodeCompileMessage(bytes);
  EXPECT_TRUE(m.ok()) << m.status();
  if (!m.ok() || !std::holds_alternative<T>(*m)) {
    ADD_FAILURE() << "not the kind encoded";
    return T{};
  }
  return std::get<T>(*std::move(m));
}

TEST(CompileCodecTest, RequestRoundTrips) {
  const PrepareRequest r = SomeRequest();
  const std::string bytes = EncodeCompileMessage(r);
  PrepareRequest back = DecodeAs<PrepareRequest>(bytes);
  EXPECT_EQ(back.protocol_version, kCompileProtocolVersion);
  EXPECT_EQ(back.request_id, r.request_id);
  EXPECT_EQ(back.target, r.target);
  EXPECT_EQ(back.task.ast, r.task.ast);
  EXPECT_EQ(back.task.buffers, r.task.buffers);
  EXPECT_EQ(back.task.var_vals, r.task.var_vals);
  EXPECT_EQ(back.task.seed, r.task.seed);
  EXPECT_EQ(back.task.codegen, r.task.codegen);
  EXPECT_EQ(back.candidates, r.candidates);
  EXPECT_EQ(back.options.uops_max, 3000);
  EXPECT_EQ(back.options.max_compute_ratio, 1000);
  EXPECT_EQ(back.options.timeout_s, 10);
  EXPECT_EQ(back.options.known_programs, r.options.known_programs);
  EXPECT_EQ(EncodeCompileMessage(back), bytes);
}

// The version is carried as it is: the server, not the codec, refuses another one.
TEST(CompileCodecTest, ProtocolVersionIsCarriedNotChecked) {
  PrepareRequest r = SomeRequest();
  r.protocol_version = kCompileProtocolVersion + 41;
  EXPECT_EQ(DecodeAs<PrepareRequest>(EncodeCompileMessage(r)).protocol_version,
            kCompileProtocolVersion + 41);
}

TEST(CompileCodecTest, TargetWithoutLimitsRoundTrips) {
  PrepareRequest r = SomeRequest();
  r.target.global_max.reset();
  r.target.local_max.reset();
  r.target.shared_max = 0;
  EXPECT_EQ(DecodeAs<PrepareRequest>(EncodeCompileMessage(r)).target, r.target);
  r.target.local_max = {{1024, 1024, 64}};
  EXPECT_EQ(DecodeAs<PrepareRequest>(EncodeCompileMessage(r)).target, r.target);
}

TEST(CompileCodecTest, ReplyRoundTripsEveryPrepareOutcome) {
  const PrepareReply r = SomeReply();
  const std::string bytes = EncodeCompileMessage(r);
  PrepareReply back = DecodeAs<PrepareReply>(bytes);
  EXPECT_EQ(back.request_id, r.request_id);
  EXPECT_TRUE(back.status.ok());
  EXPECT_EQ(back.target, r.target);
  EXPECT_EQ(back.prepare_wall_s, 1.75);
  ASSERT_EQ(back.programs.size(), r.programs.size());
  for (size_t i = 0; i < r.programs.size(); ++i) {
    SCOPED_TRACE(i);
    ExpectSameProgram(back.programs[i], r.programs[i]);
  }
  EXPECT_EQ(back.programs[0].binary.size(), 15u);  // NUL bytes kept
  EXPECT_FALSE(back.programs.back().local_size.has_value());
  EXPECT_EQ(EncodeCompileMessage(back), bytes);
}

TEST(CompileCodecTest, FailedReplyCarriesItsStatus) {
  PrepareReply r{.request_id = 9,
                 .status = absl::FailedPreconditionError(std::string("target\0differs", 14)),
                 .target = SomeTarget()};
  PrepareReply back = DecodeAs<PrepareReply>(EncodeCompileMessage(r));
  EXPECT_EQ(back.status, r.status);
  EXPECT_EQ(back.request_id, 9u);
  EXPECT_TRUE(back.programs.empty());
}

// ** hostile **

// A valid reply, as schema builders the test then breaks.
std::string Broken(const std::function<void(proto::PrepareReply::Builder)>& edit) {
  capnp::MallocMessageBuilder m;
  auto root = m.initRoot<proto::CompileMessage>();
  internal::WriteCompileMessage(SomeReply(), root);
  edit(root.getReply());
  return internal::ToBytes(m);
}

TEST(CompileCodecHostileTest, TruncatedAndGarbageBytes) {
  const std::string bytes = EncodeCompileMessage(SomeRequest());
  ExpectError(DecodeCompileMessage(bytes.substr(0, bytes.size() / 2 / 8 * 8)).status(), "Message ends prematurely");
  ExpectError(DecodeCompileMessage(bytes.substr(0, bytes.size() - 3)).status(), "truncated message");
  ExpectError(DecodeCompileMessage("").status(), "truncated message");
  ExpectError(DecodeCompileMessage("garbage!garbage!").status(), "segment table: malformed message");
  ExpectError(DecodeCompileMessage(bytes + std::string(8, '\0')).status(), "trailing bytes");
  // Every word-aligned prefix of a reply is an error, never a crash.
  const std::string reply = EncodeCompileMessage(SomeReply());
  for (size_t n = 0; n < reply.size(); n += 8) EXPECT_FALSE(DecodeCompileMessage(reply.substr(0, n)).ok()) << n;
}

// Each byte of a request and a reply flipped in turn: an error or a value, never a crash.
TEST(CompileCodecHostileTest, FlippedBytesNeverCrash) {
  for (const std::string& bytes : {EncodeCompileMessage(SomeRequest()), EncodeCompileMessage(SomeReply())}) {
    int rejected = 0;
    for (size_t i = 0; i < bytes.size(); ++i) {
      std::string mutant = bytes;
      mutant[i] = static_cast<char>(mutant[i] ^ 0xff);
      rejected += !DecodeCompileMessage(mutant).ok();
    }
    EXPECT_GT(rejected, 0);
  }
}

TEST(CompileCodecHostileTest, UnknownAndRunOnlyOutcomes) {
  ExpectError(DecodeCompileMessage(Broken([](auto r) {
                r.getPrograms()[3].setOutcome(static_cast<proto::Outcome>(99));
              })).status(),
              "reply.programs[3].outcome: unknown outcome ordinal 99");
  ExpectError(DecodeCompileMessage(Broken([](auto r) {
                r.getPrograms()[2].setOutcome(proto::Outcome::TOO_SLOW);
              })).status(),
              "reply.programs[2].outcome: too_slow is not an outcome of preparing");
}

TEST(CompileCodecHostileTest, InconsistentReplies) {
  ExpectError(DecodeCompileMessage(Broken([](auto r) {
                auto s = r.initStatus();
                s.setCode(static_cast<uint32_t>(absl::StatusCode::kInternal));
                s.setMessage("boom");
              })).status(),
              "reply.programs: 9 programs with the failed status INTERNAL: boom");
  ExpectError(DecodeCompileMessage(Broken([](auto r) { r.initStatus().setCode(99); })).status(),
              "reply.status: unknown status code 99");
  ExpectError(DecodeCompileMessage(Broken([](auto r) { r.getPrograms()[6].setDuplicateOf(9); })).status(),
              "reply.programs[6].duplicateOf: 9 is not a candidate of the request");
  ExpectError(DecodeCompileMessage(Broken([](auto r) { r.getPrograms()[0].getLocalSize().getValue().setY(0); })).status(),
              "reply.programs[0].localSize: (16, 0, 1) is not positive");
  ExpectError(DecodeCompileMessage(Broken([](auto r) { r.getPrograms()[0].getGlobalSize().setX(-64); })).status(),
              "reply.programs[0].globalSize: (-64, 2, 1) is not positive");
  ExpectError(DecodeCompileMessage(Broken([](auto r) { r.getPrograms()[0].getVars()[1].setMin(8); })).status(),
              "reply.programs[0].vars[1]: min 8 > max 7");
  ExpectError(DecodeCompileMessage(Broken([](auto r) { r.getPrograms()[0].getIns().set(1, -2); })).status(),
              "reply.programs[0].ins[1]: -2 is negative");
  ExpectError(DecodeCompileMessage(Broken([](auto r) { r.getPrograms()[0].getTensorMaps()[1].getElement().setIsPtr(true); })).status(),
              "reply.programs[0].tensorMaps[1].element");
  ExpectError(DecodeCompileMessage(Broken([](auto r) { r.getPrograms()[0].getVars()[0].getDtype().setScalar(static_cast<proto::ScalarType>(77)); })).status(),
              "reply.programs[0].vars[0].dtype");
  ExpectError(DecodeCompileMessage(Broken([](auto r) { r.getPrograms()[0].setOps(std::nan("")); })).status(),
              "reply.programs[0].ops: NaN");
  ExpectError(DecodeCompileMessage(Broken([](auto r) { r.getTarget().getLocalMax().initValue().setZ(-1); })).status(),
              "reply.target.localMax: (0, 0, -1) is negative");
}

TEST(CompileCodecHostileTest, RequestWithoutTaskOrWithBadCandidates) {
  capnp::MallocMessageBuilder m;
  auto req = m.initRoot<proto::CompileMessage>().initRequest();
  req.setRequestId(4);
  ExpectError(DecodeCompileMessage(internal::ToBytes(m)).status(), "request.task: missing");
  capnp::MallocMessageBuilder m2;
  auto root = m2.initRoot<proto::CompileMessage>();
  internal::WriteCompileMessage(SomeRequest(), root);
  root.getRequest().getCandidates()[1].getOpts()[0].setOp(static_cast<proto::OptOp>(50));
  ExpectError(DecodeCompileMessage(internal::ToBytes(m2)).status(),
              "request.candidates[1] opt 0: unknown opt op ordinal 50");
}

TEST(CompileCodecHostileTest, OverTheLimits) {
  DecodeLimits small;
  small.max_program_bytes = 26;
  ExpectError(DecodeCompileMessage(EncodeCompileMessage(SomeReply()), small).status(),
              "reply.programs[0].src: 27 bytes is over the limit of 26");
  small.max_program_bytes = 27;
  EXPECT_TRUE(DecodeCompileMessage(EncodeCompileMessage(SomeReply()), small).ok());
  PrepareReply big = SomeReply();
  big.programs[0].binary = std::string(28, '\0');
  ExpectError(DecodeCompileMessage(EncodeCompileMessage(big), small).status(),
              "reply.programs[0].binary: 28 bytes is over the limit of 27");

  DecodeLimits few;
  few.max_candidates = 2;
  ExpectError(DecodeCompileMessage(EncodeCompileMessage(SomeRequest()), few).status(),
              "request.candidates: list of 3 items is over the limit of 2");
  ExpectError(DecodeCompileMessage(EncodeCompileMessage(SomeReply()), few).status(),
              "reply.programs: list of 9 items is over the limit of 2");

  DecodeLimits tiny;
  tiny.max_message_bytes = 64;
  ExpectError(DecodeCompileMessage(EncodeCompileMessage(SomeReply()), tiny).status(),
              "over the limit of 64");
  DecodeLimits short_text;
  short_text.max_string_bytes = 4;
  ExpectError(DecodeCompileMessage(EncodeCompileMessage(SomeReply()), short_text).status(),
              "reply.target.arch: text of 5 bytes is over the limit of 4");
}

TEST(CompileCodecHostileTest, UnknownMessageKind) {
  capnp::MallocMessageBuilder m;
  auto root = m.initRoot<proto::CompileMessage>();
  root.initReply().setRequestId(1);
  kj::ArrayPtr<kj::byte> data = capnp::AnyStruct::Builder(kj::mv(root)).getDataSection();
  data[0] = 0x09;
  data[1] = 0x00;
  ExpectError(DecodeCompileMessage(internal::ToBytes(m)).status(), "unknown message kind 9");
}

}  // namespace
}  // namespace tg::autotune::codec
