// File: autotune/codec/farm_codec_test.cc
// Round trips of opt lists (TC tuples included), tasks, options, batches, device classes and
// every FarmMessage kind; hostile farm messages.
#include "autotune/codec/farm_codec.h"

#include <cmath>

#include "absl/strings/match.h"
#include "autotune/codec/ast_codec.h"
#include "autotune/codec/codec_test_kernels.h"
#include "autotune/codec/farm_wire.h"
#include "autotune/codec/message_io.h"
#include "gtest/gtest.h"

namespace tg::autotune::codec {
namespace {

void ExpectError(const absl::Status& s, absl::string_view needle) {
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(absl::StrContains(s.message(), needle)) << "'" << s.message() << "' lacks '" << needle << "'";
}

std::vector<Opt> SomeOpts() {
  return {Opt{OptOps::TC, 0, std::array<int64_t, 3>{-1, 2, 1}},
          Opt{OptOps::UPCAST, 1, int64_t{4}},
          Opt{OptOps::LOCAL, 0, int64_t{16}},
          Opt{OptOps::UNROLL, 0, int64_t{0}},
          Opt{OptOps::GROUPTOP, 2, int64_t{8}},
          Opt{OptOps::NOLOCALS, std::nullopt, std::monostate{}},
          Opt{OptOps::SWAP, 0, int64_t{1}},
          Opt{OptOps::SIMD, std::nullopt, int64_t{16}},
          Opt{OptOps::BLOCK, 1, int64_t{64}},
          Opt{OptOps::PACK, std::nullopt, int64_t{2}},
          Opt{OptOps::GEMM, std::nullopt, std::array<int64_t, 3>{256, 128, 4}},
          Opt{OptOps::PADTO, 1, int64_t{32}},
          Opt{OptOps::THREAD, 0, int64_t{2}},
          Opt{OptOps::GROUP, 1, int64_t{0}}};
}

KernelTask SomeTask() {
  absl::StatusOr<KernelTask> t = KernelTask::FromAst(KernelsOf("matmul").back().ast);
  EXPECT_TRUE(t.ok()) << t.status();
  t->var_vals = {{"a", 3}, {"n", -7}};
  t->seed = 0xdeadbeefcafe;
  t->codegen.devectorize = 2;
  t->codegen.disable_fast_idiv = true;
  return *t;
}

DeviceClass SomeDevice() {
  return DeviceClass{.device = "CPU", .cpu_model = "Intel(R) Xeon(R) (family 6, model 143)",
                     .isa_flags = {"avx", "avx2", "avx512f", "fma"}, .cores = 2,
                     .gpu_name = "", .gpu_arch = "", .gpu_driver = "",
                     .compiler_id = "clang 14 -O2 -march=native", .renderer = "tg::ClangRenderer"};
}

MeasureBatch SomeBatch() {
  MeasureBatch b;
  for (int o = 0; o < kNumOutcomes; ++o) {
    CandidateResult c;
    c.outcome = static_cast<Outcome>(o);
    c.error = o ? "failure " + std::to_string(o) : "";
    if (c.timed()) c.samples_s = {1e-3, 9e-4, 1.1e-3};
    c.min_s = c.timed() ? 9e-4 : kInf;
    c.program_hash = 0x1234567890abcdefULL + o;
    c.uops = 100 + o;
    c.duplicate_of = c.outcome == Outcome::kDuplicate ? 0 : -1;
    c.cost = {0.01 * o, 0.02, 0.003, 0.004 * o};
    b.results.push_back(c);
  }
  b.prepare_wall_s = 0.5;
  b.run_wall_s = 0.25;
  return b;
}

void ExpectSameBatch(const MeasureBatch& a, const MeasureBatch& b) {
  ASSERT_EQ(a.results.size(), b.results.size());
  for (size_t i = 0; i < a.results.size(); ++i) {
    const CandidateResult &x = a.results[i], &y = b.results[i];
    EXPECT_EQ(x.outcome, y.outcome);
    EXPECT_EQ(x.error, y.error);
    EXPECT_EQ(x.samples_s, y.samples_s);
    EXPECT_EQ(x.min_s, y.min_s);
    EXPECT_EQ(x.program_hash, y.program_hash);
    EXPECT_EQ(x.uops, y.uops);
    EXPECT_EQ(x.duplicate_of, y.duplicate_of);
    EXPECT_EQ(x.cost, y.cost);
  }
  EXPECT_EQ(a.prepare_wall_s, b.prepare_wall_s);
  EXPECT_EQ(a.run_wall_s, b.run_wall_s);
}

void ExpectSameTask(const KernelTask& a, const KernelTask& b) {
  EXPECT_EQ(a.ast, b.ast);
  EXPECT_EQ(a.buffers, b.buffers);
  EXPECT_EQ(a.var_vals, b.var_vals);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.codegen, b.codegen);
}

TEST(FarmCodecTest, OptListsRoundTrip) {
  std::vector<Opt> opts = SomeOpts();
  std::string bytes = EncodeOpts(opts);
  absl::StatusOr<std::vector<Opt>> back = DecodeOpts(bytes);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, opts);
  EXPECT_EQ(EncodeOpts(*back), bytes);
  absl::StatusOr<std::vector<Opt>> empty = DecodeOpts(EncodeOpts({}));
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
}

TEST(FarmCodecTest, KernelTaskRoundTripsAndDigestIsStable) {
  KernelTask t = SomeTask();
  std::string bytes = EncodeKernelTask(t);
  absl::StatusOr<KernelTask> back = DecodeKernelTask(bytes);
  ASSERT_TRUE(back.ok()) << back.status();
  ExpectSameTask(*back, t);
  EXPECT_EQ(KernelTaskDigest(*back), KernelTaskDigest(t));
  KernelTask other = t;
  other.seed++;
  EXPECT_NE(KernelTaskDigest(other), KernelTaskDigest(t));
  // the codegen options are part of the task: another lowering is another task
  other = t;
  other.codegen.transcendental = 2;
  EXPECT_NE(KernelTaskDigest(other), KernelTaskDigest(t));
}

// A task from a coordinator that sent no codegen options lowers with the defaults; options
// that do not parse are a decode error naming the field.
TEST(FarmCodecHostileTest, TaskCodegenOptions) {
  capnp::MallocMessageBuilder m;
  internal::WriteTask(SomeTask(), m.initRoot<proto::KernelTask>());
  m.getRoot<proto::KernelTask>().setCodegen("");
  absl::StatusOr<KernelTask> none = DecodeKernelTask(internal::ToBytes(m));
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_EQ(none->codegen, CodegenOptions{});
  m.getRoot<proto::KernelTask>().setCodegen("devectorize=fast");
  ExpectError(DecodeKernelTask(internal::ToBytes(m)).status(), "task codegen: codegen options: bad value 'fast'");
}

TEST(FarmCodecTest, MeasureOptionsRoundTrip) {
  MeasureOptions o;
  o.runs = 5;
  o.early_stop_s = 0.125;
  o.interleaved = true;
  o.check_results = false;
  o.uops_max = -1;
  o.max_compute_ratio = kInf;
  o.timeout_s = 2.5;
  o.keep = 4;
  o.refine_ratio = 1.25;
  o.first_run_stop_s = 0.125;
  o.known_programs = {3, 1, 0xffffffffffffffffULL};
  std::string bytes = EncodeMeasureOptions(o);
  absl::StatusOr<MeasureOptions> back = DecodeMeasureOptions(bytes);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->runs, 5);
  EXPECT_EQ(back->early_stop_s, 0.125);
  EXPECT_TRUE(back->interleaved);
  EXPECT_FALSE(back->check_results);
  EXPECT_EQ(back->uops_max, -1);
  EXPECT_EQ(back->max_compute_ratio, kInf);
  EXPECT_EQ(back->timeout_s, 2.5);
  EXPECT_EQ(back->keep, 4);
  EXPECT_EQ(back->refine_ratio, 1.25);
  EXPECT_EQ(back->first_run_stop_s, 0.125);
  EXPECT_EQ(back->known_programs, o.known_programs);
  EXPECT_EQ(EncodeMeasureOptions(*back), bytes);  // sorted, so canonical
}

TEST(FarmCodecTest, MeasureBatchRoundTripsEveryOutcome) {
  MeasureBatch b = SomeBatch();
  absl::StatusOr<MeasureBatch> back = DecodeMeasureBatch(EncodeMeasureBatch(b));
  ASSERT_TRUE(back.ok()) << back.status();
  ExpectSameBatch(*back, b);
}

TEST(FarmCodecTest, DeviceClassRoundTripsAndDigestIsChecked) {
  DeviceClass d = SomeDevice();
  absl::StatusOr<DeviceClass> back = DecodeDeviceClass(EncodeDeviceClass(d));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, d);
  // A description whose digest doesn't match its fields.
  capnp::MallocMessageBuilder m;
  auto b = m.initRoot<proto::DeviceDescription>();
  internal::WriteDevice(d, b);
  b.setCores(64);
  ExpectError(DecodeDeviceClass(internal::ToBytes(m)).status(), "does not match its fields");
}

TEST(FarmCodecTest, EveryMessageKindRoundTrips) {
  MeasureRequest job{.job_id = 42, .search_id = 7, .task_digest = 0, .task = SomeTask(),
                     .candidates = {{}, SomeOpts(), {Opt{OptOps::UPCAST, 0, int64_t{4}}}},
                     .options = MeasureOptions{}, .run_deadline_s = 0.75};
  job.task_digest = KernelTaskDigest(*job.task);
  MeasureRequest by_digest = job;
  by_digest.task.reset();
  MeasureResult res{.job_id = 42, .search_id = 7, .status = absl::OkStatus(), .batch = SomeBatch()};
  MeasureResult failed{.job_id = 43, .search_id = 7,
                       .status = absl::ResourceExhaustedError("out of memory"), .batch = {}};
  std::vector<FarmMessage> msgs = {
      Hello{.protocol_version = kProtocolVersion, .build_id = "tg-abc123", .device = SomeDevice(),
            .worker_id = "host:1234", .capacity = 8, .host = "build-7", .incarnation = 0x1234abcd5678ef01,
            .holding = {3, 5, 8}},
      Ready{.credits = 3},
      Heartbeat{.seq = 99, .in_flight = 2},
      job,
      by_digest,
      res,
      failed,
      Bye{.reason = std::string("shutting\0down", 13), .refused = true}};
  std::vector<std::string_view> kinds = {"hello", "ready", "heartbeat", "job", "job", "result", "result", "bye"};
  for (size_t i = 0; i < msgs.size(); ++i) {
    std::string bytes = EncodeFarmMessage(msgs[i]);
    absl::StatusOr<FarmMessage> back = DecodeFarmMessage(bytes);
    ASSERT_TRUE(back.ok()) << i << ": " << back.status();
    ASSERT_EQ(back->index(), msgs[i].index());
    EXPECT_EQ(FarmMessageKind(*back), kinds[i]);
    EXPECT_EQ(EncodeFarmMessage(*back), bytes) << FarmMessageKind(*back);
  }
  auto h = std::get<Hello>(*DecodeFarmMessage(EncodeFarmMessage(msgs[0])));
  EXPECT_EQ(h.build_id, "tg-abc123");
  EXPECT_EQ(h.device, SomeDevice());
  EXPECT_EQ(h.worker_id, "host:1234");
  EXPECT_EQ(h.capacity, 8u);
  EXPECT_EQ(h.host, "build-7");
  EXPECT_EQ(h.incarnation, 0x1234abcd5678ef01u);
  EXPECT_EQ(h.holding, (std::vector<uint64_t>{3, 5, 8}));
  auto j = std::get<MeasureRequest>(*DecodeFarmMessage(EncodeFarmMessage(job)));
  ASSERT_TRUE(j.task.has_value());
  ExpectSameTask(*j.task, *job.task);
  EXPECT_EQ(j.candidates, job.candidates);
  EXPECT_EQ(j.task_digest, job.task_digest);
  EXPECT_EQ(j.run_deadline_s, 0.75);
  auto jd = std::get<MeasureRequest>(*DecodeFarmMessage(EncodeFarmMessage(by_digest)));
  EXPECT_FALSE(jd.task.has_value());
  auto r = std::get<MeasureResult>(*DecodeFarmMessage(EncodeFarmMessage(res)));
  EXPECT_TRUE(r.status.ok());
  ExpectSameBatch(r.batch, res.batch);
  auto f = std::get<MeasureResult>(*DecodeFarmMessage(EncodeFarmMessage(failed)));
  EXPECT_EQ(f.status, failed.status);
  auto bye = std::get<Bye>(*DecodeFarmMessage(EncodeFarmMessage(msgs.back())));
  EXPECT_EQ(bye.reason, std::string("shutting\0down", 13));
  EXPECT_TRUE(bye.refused);
  EXPECT_FALSE(std::get<Bye>(*DecodeFarmMessage(EncodeFarmMessage(Bye{.reason = "x"}))).refused);
}

// ** hostile **

// A job whose task carries C text is refused whole, naming the node; its ids can still be read,
// so that the worker answers it with that error.
TEST(FarmCodecHostileTest, JobWithSourceTextIsRefusedButItsIdsAreReadable) {
  absl::StatusOr<KernelTask> task = KernelTask::FromAst(CustomCodeKernel("system(\"id\")"));
  ASSERT_TRUE(task.ok()) << task.status();
  const std::string bytes = EncodeFarmMessage(
      MeasureRequest{.job_id = 41, .search_id = 5, .task = *task, .candidates = {{}}});
  absl::Status s = DecodeFarmMessage(bytes).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  ExpectError(s, "(CUSTOMI): source text \"system(\\\"id\\\")\"");
  ExpectError(DecodeKernelTask(EncodeKernelTask(*task)).status(), "(CUSTOMI): source text");
  EXPECT_TRUE(DecodeKernelTask(EncodeKernelTask(*task), {.allow_source_text = true}).ok());

  std::optional<JobIds> ids = PeekJobIds(bytes);
  ASSERT_TRUE(ids.has_value());
  EXPECT_EQ(ids->job_id, 41u);
  EXPECT_EQ(ids->search_id, 5u);
  EXPECT_FALSE(PeekJobIds(EncodeFarmMessage(Ready{.credits = 2})).has_value());
  EXPECT_FALSE(PeekJobIds("garbage!").has_value());
  EXPECT_FALSE(PeekJobIds(bytes.substr(0, bytes.size() / 2)).has_value());
}

TEST(FarmCodecHostileTest, TcArgOnlyOnTc) {
  capnp::MallocMessageBuilder m;
  auto b = m.initRoot<proto::OptList>();
  internal::WriteOpts(std::vector<Opt>{Opt{OptOps::UPCAST, 0, std::array<int64_t, 3>{1, 2, 3}}}, b);
  ExpectError(DecodeOpts(internal::ToBytes(m)).status(), "opt 0: TC and GEMM, and only they");
  capnp::MallocMessageBuilder m2;
  internal::WriteOpts(std::vector<Opt>{Opt{OptOps::TC, 0, int64_t{4}}}, m2.initRoot<proto::OptList>());
  ExpectError(DecodeOpts(internal::ToBytes(m2)).status(), "TC without one");
}

TEST(FarmCodecHostileTest, UnknownOrdinalsAndLimits) {
  {
    capnp::MallocMessageBuilder m;
    auto b = m.initRoot<proto::OptList>();
    b.initOpts(1)[0].setOp(static_cast<proto::OptOp>(50));
    ExpectError(DecodeOpts(internal::ToBytes(m)).status(), "opt list opt 0: unknown opt op ordinal 50");
  }
  {
    capnp::MallocMessageBuilder m;
    auto r = m.initRoot<proto::FarmMessage>().initResult();
    r.initResults(1)[0].setOutcome(static_cast<proto::Outcome>(11));
    ExpectError(DecodeFarmMessage(internal::ToBytes(m)).status(), "result candidate 0 outcome: unknown outcome ordinal 11");
  }
  {
    capnp::MallocMessageBuilder m;
    auto r = m.initRoot<proto::FarmMessage>().initResult();
    r.initResults(2)[1].setDuplicateOf(5);
    ExpectError(DecodeFarmMessage(internal::ToBytes(m)).status(), "duplicateOf 5");
  }
  {
    capnp::MallocMessageBuilder m;
    auto r = m.initRoot<proto::FarmMessage>().initResult();
    r.initStatus().setCode(99);
    ExpectError(DecodeFarmMessage(internal::ToBytes(m)).status(), "unknown status code 99");
  }
  {
    MeasureRequest job;
    job.candidates.assign(20, std::vector<Opt>{});
    DecodeLimits l;
    l.max_candidates = 10;
    ExpectError(DecodeFarmMessage(EncodeFarmMessage(job), l).status(), "job candidates: list of 20 items");
    job.candidates = {std::vector<Opt>(300, Opt{OptOps::UPCAST, 0, int64_t{2}})};
    ExpectError(DecodeFarmMessage(EncodeFarmMessage(job)).status(), "job candidate 0: list of 300");
  }
  {
    MeasureRequest job;
    job.options.timeout_s = std::nan("");
    ExpectError(DecodeFarmMessage(EncodeFarmMessage(job)).status(), "options timeoutS: NaN");
    job.options.timeout_s = 1;
    job.options.keep = -2;
    ExpectError(DecodeFarmMessage(EncodeFarmMessage(job)).status(), "options keep: -2 is negative");
  }
  {
    // A task whose AST is not a kernel (root is not a SINK).
    capnp::MallocMessageBuilder m;
    auto t = m.initRoot<proto::KernelTask>();
    KernelTask task;
    task.ast = UOp::Const(dtypes::int32, 3);
    internal::WriteTask(task, t);
    ExpectError(DecodeKernelTask(internal::ToBytes(m)).status(), "not SINK");
  }
  {
    // Wrong root type: an opt list read as a farm message has a bogus union tag or fields.
    absl::StatusOr<FarmMessage> m = DecodeFarmMessage(EncodeOpts(SomeOpts()));
    if (m.ok()) SUCCEED();  // whatever it reads as, it must not crash
  }
  {
    capnp::MallocMessageBuilder m;
    auto root = m.initRoot<proto::FarmMessage>();
    root.initBye().setReason("x");
    kj::ArrayPtr<kj::byte> data = capnp::AnyStruct::Builder(kj::mv(root)).getDataSection();
    data[0] = 0x09;
    data[1] = 0x00;
    ExpectError(DecodeFarmMessage(internal::ToBytes(m)).status(), "unknown message kind 9");
  }
}

}  // namespace
}  // namespace tg::autotune::codec
