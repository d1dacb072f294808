// File: autotune/compile/compile_server_test.cc
// A compile server and its client on this machine's CPU device (its renderer and compiler
// stand for a GPU's, so these run everywhere): a measurer whose batches a server prepares gets
// the same outcomes and programs as one that prepares them itself, its programs pass the
// result check, and a server that is down, serves another target or answers nonsense costs
// the search nothing.
#include "autotune/compile/compile_server.h"

#include <atomic>
#include <condition_variable>
#include <future>
#include <mutex>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "autotune/codec/compile_codec.h"
#include "autotune/compile/compile_relay.h"
#include "autotune/compile/prepared_program.h"
#include "autotune/compile/relayed_preparer.h"
#include "autotune/compile/remote_preparer.h"
#include "autotune/compile/target_info.h"
#include "autotune/measure/local_measurer.h"
#include "autotune/measure/test_kernels.h"
#include "tinygrad/base/check.h"
#include "tinygrad/tensor/tensor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tg::autotune {
namespace {

using ::testing::HasSubstr;

const Opt kUpcast0By4{OptOps::UPCAST, 0, int64_t{4}};
const Opt kUnroll0By4{OptOps::UNROLL, 0, int64_t{4}};

KernelTask Task(const UOp& ast) {
  absl::StatusOr<KernelTask> t = KernelTask::FromAst(ast);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *t : KernelTask{};
}

Device& Cpu() {
  absl::StatusOr<Device*> d = GetDevice("CPU");
  TG_CHECK(d.ok()) << d.status();
  return **d;
}

// A server on its own thread, on a loopback port of its own context: plain TCP, or CURVE with
// `server_keys` admitting the clients whose public keys `allow` holds.
class ServerThread {
 public:
  explicit ServerThread(codec::CompileTargetInfo target, std::optional<net::CurveKeyPair> server_keys = std::nullopt,
                        std::vector<std::string> allow = {},
                        size_t max_reply_bytes = codec::kMaxPrepareReplyBytes)
      : compiler_(Cpu()) {
    net::SecurityOptions security = net::SecurityOptions::Insecure();
    if (server_keys) {
      net::ZapOptions zo;
      for (const std::string& k : allow) zo.allowlist.Add(k, "test client");
      absl::StatusOr<std::unique_ptr<net::ZapHandler>> zap = net::ZapHandler::Start(ctx_, zo);
      TG_CHECK(zap.ok()) << zap.status();
      zap_ = *std::move(zap);
      security = net::SecurityOptions::CurveServer(*server_keys, zap_.get());
    }
    absl::StatusOr<std::unique_ptr<CompileServer>> s =
        CompileServer::Bind(ctx_, compiler_, std::move(target), {.endpoint = "tcp://127.0.0.1:*",
                                                .security = security,
                                                .threads = 2,
                                                .max_reply_bytes = max_reply_bytes});
    TG_CHECK(s.ok()) << s.status();
    server_ = *std::move(s);
    thread_ = std::thread([this] { status_ = server_->Serve(stop_, std::chrono::milliseconds(20)); });
  }
  ~ServerThread() {
    stop_ = true;
    thread_.join();
    EXPECT_TRUE(status_.ok()) << status_;
    server_.reset();
    if (zap_) zap_->Stop();
  }
  std::string endpoint() const { return server_->endpoint(); }
  uint64_t answered() const { return server_->answered(); }

 private:
  net::ZmqContext ctx_;
  std::unique_ptr<net::ZapHandler> zap_;
  DeviceCompiler compiler_;
  std::unique_ptr<CompileServer> server_;
  std::atomic<bool> stop_ = false;
  absl::Status status_;
  std::thread thread_;
};

codec::CompileTargetInfo CpuTarget() { return TargetInfoOf("CPU", "host", DeviceCompiler(Cpu())); }

std::shared_ptr<RemotePreparer> Client(const std::string& endpoint, codec::CompileTargetInfo target = CpuTarget(),
                                       double reply_timeout_s = 60,
                                       net::SecurityOptions security = net::SecurityOptions::Insecure()) {
  absl::StatusOr<std::unique_ptr<RemotePreparer>> p = RemotePreparer::Connect(
      std::move(target), {.endpoint = endpoint, .security = std::move(security), .reply_timeout_s = reply_timeout_s});
  TG_CHECK(p.ok()) << p.status();
  return *std::move(p);
}

std::unique_ptr<LocalMeasurer> Measurer(std::shared_ptr<CandidatePreparer> preparer) {
  LocalMeasurerOptions o;
  o.compile_threads = 2;
  o.preparer = std::move(preparer);
  absl::StatusOr<std::unique_ptr<LocalMeasurer>> m = LocalMeasurer::Create(o);
  TG_CHECK(m.ok()) << m.status();
  return *std::move(m);
}

std::string Describe(const CandidateResult& r) { return std::string(OutcomeName(r.outcome)) + ": " + r.error; }

// Opt lists of every kind of fate before a run: fine, a duplicate, an invalid opt.
std::vector<std::vector<Opt>> MixedCandidates() {
  return {{}, {kUpcast0By4}, {kUnroll0By4}, {kUpcast0By4, kUnroll0By4}, {kUpcast0By4},
          {Opt{OptOps::UPCAST, 7, int64_t{4}}}};
}

// What phase 1 decided about each candidate is the same in `a` as in `b`.
void ExpectSamePreparation(const MeasureBatch& a, const MeasureBatch& b) {
  ASSERT_EQ(a.results.size(), b.results.size());
  for (size_t i = 0; i < a.results.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(a.results[i].outcome, b.results[i].outcome) << Describe(a.results[i]);
    EXPECT_EQ(a.results[i].error, b.results[i].error);
    EXPECT_EQ(a.results[i].program_hash, b.results[i].program_hash);
    EXPECT_EQ(a.results[i].uops, b.results[i].uops);
    EXPECT_EQ(a.results[i].duplicate_of, b.results[i].duplicate_of);
  }
}

TEST(CompileServerTest, ARemotelyPreparedBatchIsTheLocalOneAndPassesTheResultCheck) {
  ServerThread server(CpuTarget());
  std::shared_ptr<RemotePreparer> remote = Client(server.endpoint());
  const KernelTask task = Task(MatmulKernel(32));
  const std::vector<std::vector<Opt>> cands = MixedCandidates();
  absl::StatusOr<MeasureBatch> a = Measurer(remote)->Measure(task, cands, MeasureOptions{});
  absl::StatusOr<MeasureBatch> b = Measurer(nullptr)->Measure(task, cands, MeasureOptions{});
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(remote->batches_prepared(), 1u);
  EXPECT_EQ(remote->batches_refused(), 0u);
  EXPECT_EQ(server.answered(), 1u);
  ExpectSamePreparation(*a, *b);
  EXPECT_EQ(a->results[0].outcome, Outcome::kOk) << Describe(a->results[0]);
  EXPECT_EQ(a->results[3].outcome, Outcome::kOk) << Describe(a->results[3]);
  EXPECT_EQ(a->results[4].outcome, Outcome::kDuplicate);
  EXPECT_EQ(a->results[4].duplicate_of, 1);
  EXPECT_EQ(a->results[5].outcome, Outcome::kInvalidOpts);
  EXPECT_GT(a->results[3].cost.lower_s, 0);  // the server's lowering time came back
}

// The encoded answer to one candidate of `task` (the size of a part of one).
size_t OneAnswerBytes(const KernelTask& task, const std::vector<Opt>& candidate) {
  DeviceCompiler compiler(Cpu());
  codec::PrepareRequest request{.request_id = 1, .target = CpuTarget(), .task = task, .candidates = {candidate}};
  return codec::EncodeCompileMessage(AnswerPrepare(compiler, CpuTarget(), request, PrepareSettings{})).size();
}

// Answers limited to about two programs: the server refuses the bigger ones, the client asks
// again in smaller parts, and the merged batch is the local one, a duplicate of a candidate in
// an earlier part included.
TEST(CompileServerTest, ABatchTooBigForOneAnswerIsAskedInParts) {
  const KernelTask task = Task(MatmulKernel(32));
  const size_t limit = OneAnswerBytes(task, {kUpcast0By4}) * 5 / 2;
  ServerThread server(CpuTarget(), std::nullopt, {}, limit);
  absl::StatusOr<std::unique_ptr<RemotePreparer>> connected =
      RemotePreparer::Connect(CpuTarget(), {.endpoint = server.endpoint(),
                                            .security = net::SecurityOptions::Insecure(),
                                            .max_reply_bytes = limit});
  ASSERT_TRUE(connected.ok()) << connected.status();
  std::shared_ptr<RemotePreparer> remote = *std::move(connected);
  std::unique_ptr<LocalMeasurer> there = Measurer(remote);
  const std::vector<std::vector<Opt>> cands = MixedCandidates();
  absl::StatusOr<MeasureBatch> a = there->Measure(task, cands, MeasureOptions{});
  ASSERT_TRUE(a.ok()) << a.status();
  absl::StatusOr<MeasureBatch> b = Measurer(nullptr)->Measure(task, cands, MeasureOptions{});
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(remote->batches_prepared(), 1u);
  EXPECT_GE(remote->parts_asked(), 3u);  // at most two programs an answer
  EXPECT_GT(server.answered(), remote->parts_asked());  // and the refusals
  EXPECT_LE(remote->part_size(), 2u);
  ExpectSamePreparation(*a, *b);
  EXPECT_EQ(a->results[4].outcome, Outcome::kDuplicate);
  EXPECT_EQ(a->results[4].duplicate_of, 1);
  EXPECT_EQ(a->results[3].outcome, Outcome::kOk) << Describe(a->results[3]);

  // a later batch starts with parts of the size the answers measured: none refused
  const uint64_t parts = remote->parts_asked(), answered = server.answered();
  const size_t part = remote->part_size();
  const std::vector<std::vector<Opt>> more = {{kUnroll0By4}, {}};
  absl::StatusOr<MeasureBatch> c = there->Measure(task, more, MeasureOptions{});
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(remote->batches_prepared(), 2u);
  EXPECT_EQ(remote->parts_asked() - parts, (2 + part - 1) / part);
  EXPECT_EQ(server.answered() - answered, remote->parts_asked() - parts);
}

// A single program bigger than an answer may be: the batch is prepared here, with the reason.
TEST(CompileServerTest, AProgramTooBigForAnyAnswerIsPreparedHere) {
  const KernelTask task = Task(MatmulKernel(32));
  ServerThread server(CpuTarget(), std::nullopt, {}, 64);
  absl::StatusOr<std::unique_ptr<RemotePreparer>> connected = RemotePreparer::Connect(
      CpuTarget(), {.endpoint = server.endpoint(), .security = net::SecurityOptions::Insecure(), .max_reply_bytes = 64});
  ASSERT_TRUE(connected.ok()) << connected.status();
  std::shared_ptr<RemotePreparer> remote = *std::move(connected);
  std::vector<CandidateResult> results(3);
  const std::vector<std::vector<Opt>> cands = {{}, {kUpcast0By4}, {kUnroll0By4}};
  absl::StatusOr<std::vector<PreparedCandidate>> p = remote->Prepare(task, cands, MeasureOptions{}, results);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), absl::StatusCode::kResourceExhausted) << p.status();
  EXPECT_THAT(p.status().message(), HasSubstr("more than the 64 one answer may carry"));
  EXPECT_EQ(remote->batches_refused(), 1u);
  for (const CandidateResult& r : results) EXPECT_EQ(r.outcome, CandidateResult{}.outcome);
  std::unique_ptr<LocalMeasurer> m = Measurer(remote);
  absl::StatusOr<MeasureBatch> b = m->Measure(task, cands, MeasureOptions{});
  ASSERT_TRUE(b.ok()) << b.status();
  for (const CandidateResult& r : b->results) EXPECT_EQ(r.outcome, Outcome::kOk) << Describe(r);
}

// A kernel over a variable: the server evaluates its launch at the task's value, and the
// client passes the variable by name.
TEST(CompileServerTest, ASymbolicKernelRunsWithTheTasksValue) {
  ServerThread server(CpuTarget());
  Variable n("n", 1, 63);
  Tensor x = Tensor::Empty(std::vector<int64_t>{64, 16}).shrink({{0, n.bind(10)}, {0, 16}}).sum(1);
  const KernelTask task = Task(LastKernelAst(x));
  std::shared_ptr<RemotePreparer> remote = Client(server.endpoint());
  std::unique_ptr<LocalMeasurer> m = Measurer(remote);
  const std::vector<std::vector<Opt>> cands = {{}, {kUnroll0By4}};
  absl::StatusOr<MeasureBatch> b = m->Measure(task, cands, MeasureOptions{});
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(remote->batches_prepared(), 1u);
  for (const CandidateResult& r : b->results) EXPECT_EQ(r.outcome, Outcome::kOk) << Describe(r);
}

// CURVE: the server serves the clients it admits and nobody else; a client pins the server's key.
TEST(CompileServerTest, OnlyAdmittedClientsAreServed) {
  absl::StatusOr<net::CurveKeyPair> server_keys = net::GenerateCurveKeyPair(), admitted = net::GenerateCurveKeyPair(),
                                    stranger = net::GenerateCurveKeyPair();
  ASSERT_TRUE(server_keys.ok() && admitted.ok() && stranger.ok());
  ServerThread server(CpuTarget(), *server_keys, {admitted->public_z85});
  const std::string port = server.endpoint().substr(server.endpoint().rfind(':'));
  const std::string endpoint = "tcp://127.0.0.1" + port;
  const KernelTask task = Task(AddKernel(64));
  const std::vector<std::vector<Opt>> one = {{}};
  std::vector<CandidateResult> results(1);
  std::shared_ptr<RemotePreparer> good =
      Client(endpoint, CpuTarget(), 60, net::SecurityOptions::CurveClient(*admitted, server_keys->public_z85));
  absl::StatusOr<std::vector<PreparedCandidate>> p = good->Prepare(task, one, MeasureOptions{}, results);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_TRUE((*p)[0].pending);
  std::shared_ptr<RemotePreparer> bad =
      Client(endpoint, CpuTarget(), 0.5, net::SecurityOptions::CurveClient(*stranger, server_keys->public_z85));
  p = bad->Prepare(task, one, MeasureOptions{}, results);
  EXPECT_TRUE(absl::IsDeadlineExceeded(p.status())) << p.status();
  // and a client that pins another key does not talk to this server either
  std::shared_ptr<RemotePreparer> misled =
      Client(endpoint, CpuTarget(), 0.5, net::SecurityOptions::CurveClient(*admitted, stranger->public_z85));
  p = misled->Prepare(task, one, MeasureOptions{}, results);
  EXPECT_TRUE(absl::IsDeadlineExceeded(p.status())) << p.status();
  EXPECT_EQ(server.answered(), 1u);
}

// The child's side of a worker's relay: answers checked as a direct client's, a refusal for
// another target stays one, no answer loses only that batch, the warm-up is not asked about.
TEST(RelayedPreparerTest, AnswersThroughARelayAreCheckedAndRefusalsRemembered) {
  ServerThread server(CpuTarget());
  absl::StatusOr<std::unique_ptr<CompileRelay>> relay =
      CompileRelay::Start({.endpoint = server.endpoint(), .security = net::SecurityOptions::Insecure()});
  ASSERT_TRUE(relay.ok()) << relay.status();
  auto through = [&](std::string request) -> absl::StatusOr<std::string> {
    std::promise<std::string> got;
    (*relay)->Forward(std::move(request), [&](std::string a) { got.set_value(std::move(a)); });
    return got.get_future().get();
  };
  const KernelTask task = Task(MatmulKernel(16));
  const std::vector<std::vector<Opt>> cands = MixedCandidates();
  std::vector<CandidateResult> results(cands.size());
  RelayedPreparer good(CpuTarget(), through);
  absl::StatusOr<std::vector<PreparedCandidate>> p = good.Prepare(task, cands, MeasureOptions{}, results);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_TRUE((*p)[0].pending) << Describe(results[0]);
  EXPECT_EQ(results[4].outcome, Outcome::kDuplicate);

  codec::CompileTargetInfo other = CpuTarget();
  other.compiler_id = "another compiler";
  int asked = 0;
  RelayedPreparer refused(other, [&](std::string request) {
    ++asked;
    return through(std::move(request));
  });
  for (int k = 0; k < 2; ++k) {
    p = refused.Prepare(task, cands, MeasureOptions{}, results);
    EXPECT_TRUE(absl::IsFailedPrecondition(p.status())) << p.status();
    EXPECT_THAT(p.status().message(), HasSubstr("compiler: server"));
  }
  EXPECT_EQ(asked, 1);

  RelayedPreparer silent(CpuTarget(), [](std::string) -> absl::StatusOr<std::string> { return std::string(); });
  p = silent.Prepare(task, cands, MeasureOptions{}, results);
  EXPECT_TRUE(absl::IsUnavailable(p.status())) << p.status();
  RelayedPreparer garbled(CpuTarget(), [](std::string) -> absl::StatusOr<std::string> { return std::string("junk"); });
  p = garbled.Prepare(task, cands, MeasureOptions{}, results);
  EXPECT_FALSE(p.ok());
  EXPECT_THAT(p.status().message(), HasSubstr("the worker's compile server"));
}

TEST(CompileServerTest, AServerForAnotherTargetIsAskedOnceAndTheBatchIsPreparedHere) {
  codec::CompileTargetInfo other = CpuTarget();
  other.arch = "elsewhere";
  ServerThread server(other);
  std::shared_ptr<RemotePreparer> remote = Client(server.endpoint());
  std::vector<CandidateResult> results(1);
  const KernelTask task = Task(AddKernel(64));
  const std::vector<std::vector<Opt>> one = {{}};
  absl::StatusOr<std::vector<PreparedCandidate>> p = remote->Prepare(task, one, MeasureOptions{}, results);
  EXPECT_TRUE(absl::IsFailedPrecondition(p.status())) << p.status();
  EXPECT_THAT(p.status().message(), HasSubstr("arch: server elsewhere, client host"));
  EXPECT_THAT(p.status().message(), HasSubstr(server.endpoint()));
  std::unique_ptr<LocalMeasurer> m = Measurer(remote);
  absl::StatusOr<MeasureBatch> b = m->Measure(task, one, MeasureOptions{});
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b->results[0].outcome, Outcome::kOk) << Describe(b->results[0]);
  EXPECT_EQ(server.answered(), 1u);  // the measurer's batch did not ask again
  EXPECT_EQ(remote->batches_refused(), 2u);
}

TEST(CompileServerTest, AServerThatDoesNotAnswerCostsOneTimeout) {
  // a port nothing listens on: the request waits in the socket's queue; the quiet time after a
  // timeout runs on a scripted clock
  FakeClock clock;
  absl::StatusOr<std::unique_ptr<RemotePreparer>> connected = RemotePreparer::Connect(
      CpuTarget(), {.endpoint = "tcp://127.0.0.1:9", .security = net::SecurityOptions::Insecure(),
                    .reply_timeout_s = 0.2, .retry_after_s = 60, .clock = &clock});
  ASSERT_TRUE(connected.ok()) << connected.status();
  std::shared_ptr<RemotePreparer> remote = *std::move(connected);
  std::unique_ptr<LocalMeasurer> m = Measurer(remote);
  const KernelTask task = Task(AddKernel(64));
  const std::vector<std::vector<Opt>> cands = {{}, {kUpcast0By4}};
  for (int batch = 0; batch < 2; ++batch) {
    absl::StatusOr<MeasureBatch> b = m->Measure(task, cands, MeasureOptions{});
    ASSERT_TRUE(b.ok()) << b.status();
    for (const CandidateResult& r : b->results) EXPECT_EQ(r.outcome, Outcome::kOk) << Describe(r);
  }
  EXPECT_EQ(remote->batches_prepared(), 0u);
  EXPECT_EQ(remote->batches_refused(), 2u);
  // the second batch did not ask (it was refused at once: "did not answer lately"); after the
  // quiet time the server is asked again, and times out again
  std::vector<CandidateResult> results(cands.size());
  absl::StatusOr<std::vector<PreparedCandidate>> p = remote->Prepare(task, cands, MeasureOptions{}, results);
  EXPECT_THAT(p.status().message(), HasSubstr("did not answer lately"));
  clock.AdvanceSeconds(61);
  p = remote->Prepare(task, cands, MeasureOptions{}, results);
  EXPECT_TRUE(absl::IsDeadlineExceeded(p.status())) << p.status();
}

TEST(CompileServerTest, BytesThatAreNoRequestGetAnErrorAndTheServerGoesOn) {
  ServerThread server(CpuTarget());
  net::ZmqContext ctx;
  absl::StatusOr<net::ZmqSocket> s = net::ZmqSocket::Create(ctx, net::SocketType::kDealer);
  ASSERT_TRUE(s.ok());
  ASSERT_TRUE(net::ConfigureClient(*s, server.endpoint(), net::SecurityOptions::Insecure()).ok());
  ASSERT_TRUE(s->Send({std::string("not a capnp message")}).ok());
  absl::StatusOr<net::Frames> in = s->ReceiveFor(std::chrono::seconds(30));
  ASSERT_TRUE(in.ok()) << in.status();
  ASSERT_EQ(in->size(), 1u);
  absl::StatusOr<codec::CompileMessage> m = codec::DecodeCompileMessage((*in)[0]);
  ASSERT_TRUE(m.ok()) << m.status();
  const auto* reply = std::get_if<codec::PrepareReply>(&*m);
  ASSERT_NE(reply, nullptr);
  EXPECT_TRUE(absl::IsInvalidArgument(reply->status)) << reply->status;
  EXPECT_THAT(reply->status.message(), HasSubstr("unreadable request"));
  // and it still prepares
  std::shared_ptr<RemotePreparer> remote = Client(server.endpoint());
  std::vector<CandidateResult> results(1);
  const std::vector<std::vector<Opt>> one = {{}};
  absl::StatusOr<std::vector<PreparedCandidate>> p = remote->Prepare(Task(AddKernel(64)), one, MeasureOptions{}, results);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_TRUE((*p)[0].pending) << Describe(results[0]);
}

TEST(CompileServerTest, AnswersForAnotherProtocolVersionAreRefusals) {
  DeviceCompiler compiler(Cpu());
  codec::PrepareRequest r{.protocol_version = codec::kCompileProtocolVersion + 1, .request_id = 3, .target = CpuTarget()};
  codec::PrepareReply reply = AnswerPrepare(compiler, CpuTarget(), r, PrepareSettings{});
  EXPECT_EQ(reply.request_id, 3u);
  EXPECT_TRUE(absl::IsFailedPrecondition(reply.status));
  EXPECT_THAT(reply.status.message(), HasSubstr("protocol version"));
  EXPECT_TRUE(reply.programs.empty());
}

// What a client does with a program that does not fit its task: the candidate fails, nothing
// reaches the device.
TEST(PreparedProgramTest, AProgramThatDoesNotFitTheTaskFailsItsCandidate) {
  const KernelTask task = Task(AddKernel(64));
  DeviceCompiler compiler(Cpu());
  std::vector<CandidateResult> results(1);
  const std::vector<std::vector<Opt>> one = {{}};
  absl::StatusOr<std::vector<PreparedCandidate>> prep = PrepareBatch(compiler, task, one, MeasureOptions{}, {}, results);
  ASSERT_TRUE(prep.ok()) << prep.status();
  ASSERT_TRUE((*prep)[0].pending);
  const codec::PreparedProgram good = ToWire((*prep)[0], results[0], task);
  struct Case {
    const char* what;
    void (*spoil)(codec::PreparedProgram&);
    const char* error;
  };
  const Case cases[] = {
      {"slot", [](codec::PreparedProgram& w) { w.globals.push_back(99); }, "buffer slot 99 is not one of the task's"},
      {"var", [](codec::PreparedProgram& w) { w.vars.push_back({.name = "zz"}); }, "variable 'zz'"},
      {"global", [](codec::PreparedProgram& w) { w.global_size[1] = 0; }, "global size below 1"},
      {"map", [](codec::PreparedProgram& w) { w.tensor_maps.push_back({.buffer = 5}); }, "tensor map of buffer argument 5"},
      {"binary", [](codec::PreparedProgram& w) { w.binary.clear(); }, "no binary"},
      {"outcome", [](codec::PreparedProgram& w) { w.outcome = Outcome::kWrongResult; }, "only a run can tell"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    codec::PreparedProgram w = good;
    c.spoil(w);
    PreparedCandidate p;
    CandidateResult r;
    FromWire(w, task, p, r);
    EXPECT_FALSE(p.pending);
    EXPECT_EQ(r.outcome, Outcome::kCompileError);
    EXPECT_THAT(r.error, HasSubstr(c.error));
  }
  PreparedCandidate p;
  CandidateResult r;
  FromWire(good, task, p, r);
  EXPECT_TRUE(p.pending) << Describe(r);
  EXPECT_EQ(p.spec.globals, (*prep)[0].spec.globals);
  EXPECT_EQ(p.binary, (*prep)[0].binary);
}

// A worker's relay: the requests of several children at once, each answer back to its asker;
// a server that does not answer makes "" answers, at once for a while after the first.
TEST(CompileRelayTest, AnswersFindTheirRequestsAndASilentServerAnswersNothing) {
  ServerThread server(CpuTarget());
  absl::StatusOr<std::unique_ptr<CompileRelay>> relay =
      CompileRelay::Start({.endpoint = server.endpoint(), .security = net::SecurityOptions::Insecure()});
  ASSERT_TRUE(relay.ok()) << relay.status();
  const KernelTask tasks[2] = {Task(AddKernel(64)), Task(SumKernel(8, 16))};
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::string> answers(2);
  int answered = 0;
  for (int k = 0; k < 2; ++k) {
    codec::PrepareRequest r{.request_id = 1, .target = CpuTarget(), .task = tasks[k], .candidates = {{}}};
    (*relay)->Forward(codec::EncodeCompileMessage(r), [&, k](std::string a) {
      std::lock_guard<std::mutex> l(mu);
      answers[k] = std::move(a);
      ++answered;
      cv.notify_all();
    });
  }
  {
    std::unique_lock<std::mutex> l(mu);
    ASSERT_TRUE(cv.wait_for(l, std::chrono::seconds(60), [&] { return answered == 2; }));
  }
  for (int k = 0; k < 2; ++k) {
    SCOPED_TRACE(k);
    absl::StatusOr<codec::CompileMessage> m = codec::DecodeCompileMessage(answers[k]);
    ASSERT_TRUE(m.ok()) << m.status();
    codec::PrepareReply* reply = std::get_if<codec::PrepareReply>(&*m);
    ASSERT_NE(reply, nullptr);
    std::vector<CandidateResult> results(1);
    absl::StatusOr<std::vector<PreparedCandidate>> p = AcceptReply(*reply, CpuTarget(), tasks[k], results);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_TRUE((*p)[0].pending);
    // the program of this request's task, not the other's
    std::unique_ptr<LocalMeasurer> m2 = Measurer(nullptr);
    const std::vector<std::vector<Opt>> one = {{}};
    absl::StatusOr<MeasureBatch> local = m2->Measure(tasks[k], one, MeasureOptions{});
    ASSERT_TRUE(local.ok());
    EXPECT_EQ(results[0].program_hash, local->results[0].program_hash);
  }
  EXPECT_EQ((*relay)->stats().answered, 2u);

  absl::StatusOr<std::unique_ptr<CompileRelay>> silent = CompileRelay::Start(
      {.endpoint = "tcp://127.0.0.1:9", .security = net::SecurityOptions::Insecure(), .reply_timeout_s = 0.1});
  ASSERT_TRUE(silent.ok()) << silent.status();
  for (int k = 0; k < 2; ++k) {
    std::promise<std::string> got;
    (*silent)->Forward("anything", [&](std::string a) { got.set_value(std::move(a)); });
    std::future<std::string> f = got.get_future();
    ASSERT_EQ(f.wait_for(std::chrono::seconds(30)), std::future_status::ready);
    EXPECT_EQ(f.get(), "");
  }
  EXPECT_EQ((*silent)->stats().forwarded, 1u);  // the second was answered at once
  EXPECT_EQ((*silent)->stats().unanswered, 2u);
}

}  // namespace
}  // namespace tg::autotune
