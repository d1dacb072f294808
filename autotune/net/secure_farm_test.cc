// File: autotune/net/secure_farm_test.cc
// A ROUTER "coordinator" with CURVE + the ZAP allowlist, DEALER "workers" on loopback: an
// allowed key round-trips; an unknown key, a revoked key (also revoked at run time), a client
// without CURVE, a client with the wrong server key, a server whose ZAP handler is gone, a NULL
// server and a wrong ZAP domain all end with NOTHING delivered in either direction. Then the
// configuration rules (tcp needs CURVE or --insecure, ipc needs a private directory).
// The libzmq test matrix this follows: tests/test_security_{curve,zap,no_zap_handler}.cpp.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zmq.h>

#include <chrono>
#include <cstdlib>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "autotune/net/curve_keys.h"
#include "autotune/net/handshake_watch.h"
#include "autotune/net/secure_endpoint.h"
#include "autotune/net/socket_monitor.h"
#include "autotune/net/zap_handler.h"
#include "autotune/net/zmq_socket.h"
#include "gtest/gtest.h"
#include "tinygrad/base/wait_until.h"

namespace tg::autotune::net {
namespace {

using std::chrono::milliseconds;

// How long "nothing arrives" is watched: generous, so a slow (ASan) machine still shows it.
// (Nothing can arrive in these cases, so the window only decides how hard a bug is looked for.)
constexpr milliseconds kNothingWindow{1500};
// How long something that must arrive may take before the test fails: a deadline, not a speed.
constexpr milliseconds kSoon = kTestWaitLimit;

std::string Msg(const absl::Status& s) { return std::string(s.message()); }
bool Has(const absl::Status& s, std::string_view text) {
  return Msg(s).find(text) != std::string::npos;
}

CurveKeyPair NewPair() {
  absl::StatusOr<CurveKeyPair> kp = GenerateCurveKeyPair();
  EXPECT_TRUE(kp.ok()) << kp.status();
  return *kp;
}

ZmqSocket MakeSocket(ZmqContext& ctx, SocketType t) {
  absl::StatusOr<ZmqSocket> s = ZmqSocket::Create(ctx, t);
  EXPECT_TRUE(s.ok()) << s.status();
  return std::move(s).value();
}

std::string TempDir(std::string_view name) {
  const char* root = std::getenv("TEST_TMPDIR");
  std::string dir = std::string(root != nullptr ? root : "/tmp") + "/" + std::string(name);
  std::string cmd = "rm -rf '" + dir + "'";
  EXPECT_EQ(std::system(cmd.c_str()), 0);
  return dir;
}

// A short private directory for ipc sockets: sun_path holds 107 bytes, and the test temp
// directory is deeper than that allows. Removed when the test ends.
class ShortTempDir {
 public:
  ShortTempDir() {
    char tmpl[] = "/tmp/tgnet-XXXXXX";
    const char* d = mkdtemp(tmpl);
    EXPECT_NE(d, nullptr);
    path_ = d != nullptr ? d : "/tmp";
  }
  ~ShortTempDir() { std::system(("rm -rf '" + path_ + "'").c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

class SecureFarmTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_keys_ = NewPair();
    allowed_ = NewPair();
    revoked_ = NewPair();
    stranger_ = NewPair();
    ZapOptions zo;
    zo.allowlist.Add(allowed_.public_z85, "test");
    zo.allowlist.Add(revoked_.public_z85, "test");
    zo.revoked.Add(revoked_.public_z85, "test");
    zo.log_denials = false;
    absl::StatusOr<std::unique_ptr<ZapHandler>> zap = ZapHandler::Start(server_ctx_, std::move(zo));
    ASSERT_TRUE(zap.ok()) << zap.status();
    zap_ = std::move(*zap);
    router_ = MakeSocket(server_ctx_, SocketType::kRouter);
    // Sending to a peer that never got in must fail loudly, not vanish.
    ASSERT_TRUE(router_.SetIntOption(ZMQ_ROUTER_MANDATORY, 1).ok());
    ASSERT_TRUE(ConfigureServer(router_, "tcp://127.0.0.1:*",
                                SecurityOptions::CurveServer(server_keys_, zap_.get()))
                    .ok());
    endpoint_ = *router_.LastEndpoint();
    absl::StatusOr<SocketMonitor> mon = SocketMonitor::Start(server_ctx_, router_);
    ASSERT_TRUE(mon.ok()) << mon.status();
    monitor_.emplace(std::move(*mon));
  }

  // Reads the server's connection events until a handshake outcome arrives.
  SocketEvent NextHandshakeOutcome() {
    const auto deadline = std::chrono::steady_clock::now() + kSoon;
    while (std::chrono::steady_clock::now() < deadline) {
      absl::StatusOr<SocketEvent> e = monitor_->Next(milliseconds(100));
      if (!e.ok()) continue;
      switch (e->kind) {
        case SocketEventKind::kHandshakeSucceeded:
        case SocketEventKind::kHandshakeFailedNoDetail:
        case SocketEventKind::kHandshakeFailedProtocol:
        case SocketEventKind::kHandshakeFailedAuth: return *e;
        default: break;
      }
    }
    ADD_FAILURE() << "no handshake outcome on the server";
    return SocketEvent{};
  }

  void TearDown() override {
    monitor_.reset();
    for (ZmqSocket& c : clients_) c.Close();
    router_.Close();
    if (zap_ != nullptr) zap_->Stop();
  }

  // A DEALER "worker" with routing id `id` that connects with `opts` and sends one job reply.
  ZmqSocket& Client(const std::string& id, const SecurityOptions& opts) {
    clients_.push_back(MakeSocket(client_ctx_, SocketType::kDealer));
    ZmqSocket& c = clients_.back();
    EXPECT_TRUE(c.SetRoutingId(id).ok());
    absl::Status s = ConfigureClient(c, endpoint_, opts);
    EXPECT_TRUE(s.ok()) << s;
    EXPECT_TRUE(c.Send({"ready"}).ok());
    return c;
  }

  // The core assertion of every negative case: within a generous window the server receives
  // nothing, cannot address the client, and the client receives nothing.
  void ExpectNothingEitherWay(ZmqSocket& client, const std::string& id) {
    absl::StatusOr<Frames> got = router_.ReceiveFor(kNothingWindow);
    EXPECT_TRUE(IsTimeout(got.status())) << "the server received a message from " << id;
    absl::Status sent = router_.Send({id, "job"}, SendMode::kDontWait);
    EXPECT_FALSE(sent.ok()) << "the server could route a job to " << id;
    got = client.ReceiveFor(milliseconds(200));
    EXPECT_TRUE(IsTimeout(got.status())) << "the client " << id << " received a message";
  }

  // Waits until the ZAP handler has denied `n` requests in total.
  void WaitForDenials(uint64_t n) {
    EXPECT_TRUE(WaitUntil([&] { return zap_->stats().denied >= n; }, kSoon)) << "never " << n << " denials";
  }

  // The allowed client round-trips ready -> job -> result.
  void ExpectRoundTrip(ZmqSocket& client, const std::string& id, const std::string& key) {
    PeerInfo peer;
    absl::StatusOr<Frames> got = router_.ReceiveFor(kSoon, &peer);
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(*got, (Frames{id, "ready"}));
    EXPECT_EQ(peer.user_id, key);  // the ZAP handler's User-Id: the client's public key
    EXPECT_EQ(peer.peer_address, "127.0.0.1");
    ASSERT_TRUE(router_.Send({id, "job"}).ok());
    got = client.ReceiveFor(kSoon);
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(*got, Frames{"job"});
    ASSERT_TRUE(client.Send({"result"}).ok());
    got = router_.ReceiveFor(kSoon);
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(*got, (Frames{id, "result"}));
  }

  ZmqContext server_ctx_, client_ctx_;  // two contexts, as two processes would have
  CurveKeyPair server_keys_, allowed_, revoked_, stranger_;
  std::unique_ptr<ZapHandler> zap_;
  ZmqSocket router_;
  std::optional<SocketMonitor> monitor_;
  std::string endpoint_;
  std::deque<ZmqSocket> clients_;
};

TEST_F(SecureFarmTest, AllowedKeyRoundTrips) {
  ZmqSocket& c = Client("w1", SecurityOptions::CurveClient(allowed_, server_keys_.public_z85));
  ExpectRoundTrip(c, "w1", allowed_.public_z85);
  EXPECT_EQ(NextHandshakeOutcome().kind, SocketEventKind::kHandshakeSucceeded);
  EXPECT_EQ(zap_->stats().accepted, 1u);
  EXPECT_EQ(zap_->stats().denied, 0u);
}

TEST_F(SecureFarmTest, OversizedMessageFromAnAllowedPeerIsNeverDelivered) {
  // A second CURVE server on the same context with a 1 KiB limit.
  ZmqSocket small = MakeSocket(server_ctx_, SocketType::kRouter);
  SecurityOptions so = SecurityOptions::CurveServer(server_keys_, zap_.get());
  so.max_message_bytes = 1024;
  ASSERT_TRUE(ConfigureServer(small, "tcp://127.0.0.1:*", so).ok());
  endpoint_ = *small.LastEndpoint();
  ZmqSocket& c = Client("big", SecurityOptions::CurveClient(allowed_, server_keys_.public_z85));
  absl::StatusOr<Frames> got = small.ReceiveFor(kSoon);  // the small "ready" passes
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_TRUE(c.Send({std::string(4096, 'x')}).ok());
  EXPECT_TRUE(IsTimeout(small.ReceiveFor(kNothingWindow).status()));
  small.Close();
}

TEST_F(SecureFarmTest, UnknownKeyGetsNothing) {
  ZmqSocket& c = Client("stranger", SecurityOptions::CurveClient(stranger_, server_keys_.public_z85));
  ExpectNothingEitherWay(c, "stranger");
  const SocketEvent e = NextHandshakeOutcome();
  EXPECT_EQ(e.kind, SocketEventKind::kHandshakeFailedAuth) << SocketEventKindName(e.kind);
  EXPECT_EQ(e.value, 400u);  // the ZAP handler's status code
  WaitForDenials(1);
  const ZapStats st = zap_->stats();
  EXPECT_EQ(st.accepted, 0u);
  EXPECT_GE(st.denied_by_reason[static_cast<int>(ZapDenyReason::kUnknownKey)], 1u);
  const std::vector<ZapDenial> d = zap_->RecentDenials();
  ASSERT_FALSE(d.empty());
  EXPECT_EQ(d[0].key_prefix, KeyPrefix(stranger_.public_z85));
  EXPECT_EQ(d[0].address, "127.0.0.1");
  EXPECT_EQ(d[0].mechanism, "CURVE");
  EXPECT_EQ(d[0].reason, ZapDenyReason::kUnknownKey);
}

TEST_F(SecureFarmTest, RevokedKeyGetsNothing) {
  ZmqSocket& c = Client("revoked", SecurityOptions::CurveClient(revoked_, server_keys_.public_z85));
  ExpectNothingEitherWay(c, "revoked");
  EXPECT_EQ(NextHandshakeOutcome().kind, SocketEventKind::kHandshakeFailedAuth);
  WaitForDenials(1);
  EXPECT_GE(zap_->stats().denied_by_reason[static_cast<int>(ZapDenyReason::kRevokedKey)], 1u);
  EXPECT_EQ(zap_->stats().accepted, 0u);
}

TEST_F(SecureFarmTest, KeyRevokedAtRunTimeGetsNothingFromTheNextHandshake) {
  ZmqSocket& first = Client("w1", SecurityOptions::CurveClient(allowed_, server_keys_.public_z85));
  ExpectRoundTrip(first, "w1", allowed_.public_z85);

  ASSERT_TRUE(zap_->Revoke(allowed_.public_z85).ok());
  EXPECT_FALSE(zap_->IsAllowed(allowed_.public_z85));
  // The connection made before the revocation still delivers; the server drops it by checking
  // the message's User-Id (ZAP runs only at handshake time).
  ASSERT_TRUE(first.Send({"late"}).ok());
  PeerInfo peer;
  absl::StatusOr<Frames> got = router_.ReceiveFor(kSoon, &peer);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_FALSE(zap_->IsAllowed(peer.user_id));

  ZmqSocket& again = Client("w1-again", SecurityOptions::CurveClient(allowed_, server_keys_.public_z85));
  ExpectNothingEitherWay(again, "w1-again");
  WaitForDenials(1);
  EXPECT_EQ(zap_->RecentDenials().back().reason, ZapDenyReason::kRevokedKey);

  // Allow() re-admits it for new handshakes.
  ASSERT_TRUE(zap_->Allow(allowed_.public_z85).ok());
  ZmqSocket& third = Client("w1-third", SecurityOptions::CurveClient(allowed_, server_keys_.public_z85));
  ExpectRoundTrip(third, "w1-third", allowed_.public_z85);
}

TEST_F(SecureFarmTest, ClientWithoutCurveGetsNothing) {
  testing::internal::CaptureStderr();
  ZmqSocket& c = Client("plain", SecurityOptions::Insecure());
  testing::internal::GetCapturedStderr();
  ExpectNothingEitherWay(c, "plain");
  // Both ends see the mechanism mismatch; when the client hangs up first the server only sees
  // the connection drop (no detail, EPIPE).
  const SocketEvent e = NextHandshakeOutcome();
  EXPECT_NE(e.kind, SocketEventKind::kHandshakeSucceeded);
  if (e.kind == SocketEventKind::kHandshakeFailedProtocol) {
    EXPECT_EQ(e.value, static_cast<uint32_t>(ZMQ_PROTOCOL_ERROR_ZMTP_MECHANISM_MISMATCH));
  } else {
    EXPECT_EQ(e.kind, SocketEventKind::kHandshakeFailedNoDetail) << SocketEventKindName(e.kind);
  }
  EXPECT_EQ(zap_->stats().accepted, 0u);
}

TEST_F(SecureFarmTest, ClientWithTheWrongServerKeyGetsNothing) {
  // An allowed client that trusts another server key: this is also what a worker sees when
  // someone impersonates its coordinator.
  ZmqSocket& c = Client("w1", SecurityOptions::CurveClient(allowed_, NewPair().public_z85));
  ExpectNothingEitherWay(c, "w1");
  const SocketEvent e = NextHandshakeOutcome();
  EXPECT_EQ(e.kind, SocketEventKind::kHandshakeFailedProtocol) << SocketEventKindName(e.kind);
  EXPECT_EQ(e.value, static_cast<uint32_t>(ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC));
  EXPECT_EQ(zap_->stats().accepted, 0u);
  EXPECT_EQ(zap_->stats().denied, 0u);  // it never got as far as the ZAP handler
}

// What a HandshakeWatch reported, from its thread.
class Reports {
 public:
  std::function<void(std::string_view)> Sink() {
    return [this](std::string_view line) {
      std::lock_guard<std::mutex> l(mu_);
      lines_.emplace_back(line);
    };
  }
  std::vector<std::string> lines() const {
    std::lock_guard<std::mutex> l(mu_);
    return lines_;
  }

 private:
  mutable std::mutex mu_;
  std::vector<std::string> lines_;
};

// A client whose key the coordinator does not allow hears why, once, naming its key (libzmq
// does not retry a refused handshake: the worker's own reconnect does); an allowed client
// hears nothing.
TEST_F(SecureFarmTest, HandshakeWatchNamesTheRefusedKeyOnce) {
  Reports stranger_says;
  ZmqSocket& c = clients_.emplace_back(MakeSocket(client_ctx_, SocketType::kDealer));
  const SecurityOptions opts = SecurityOptions::CurveClient(stranger_, server_keys_.public_z85);
  absl::StatusOr<std::unique_ptr<HandshakeWatch>> watch =
      HandshakeWatch::Start(client_ctx_, c, opts, stranger_says.Sink());
  ASSERT_TRUE(watch.ok()) << watch.status();
  ASSERT_NE(*watch, nullptr);
  ASSERT_TRUE(ConfigureClient(c, endpoint_, opts).ok());
  ASSERT_TRUE(c.Send({"ready"}).ok());
  ASSERT_TRUE(WaitUntil([&] { return !stranger_says.lines().empty(); }, kSoon)) << "no report";
  WaitForDenials(1);
  watch->reset();  // joins the thread: every event read so far is reported
  const std::vector<std::string> lines = stranger_says.lines();
  ASSERT_EQ(lines.size(), 1u) << lines.back();
  EXPECT_EQ(lines[0], KeyRefusedLine(endpoint_, stranger_.public_z85, 400));
  EXPECT_NE(lines[0].find("refused this worker's key " + stranger_.public_z85), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("allowlist"), std::string::npos) << lines[0];

  Reports allowed_says;
  ZmqSocket& ok = clients_.emplace_back(MakeSocket(client_ctx_, SocketType::kDealer));
  ASSERT_TRUE(ok.SetRoutingId("w1").ok());
  const SecurityOptions ok_opts = SecurityOptions::CurveClient(allowed_, server_keys_.public_z85);
  absl::StatusOr<std::unique_ptr<HandshakeWatch>> ok_watch =
      HandshakeWatch::Start(client_ctx_, ok, ok_opts, allowed_says.Sink());
  ASSERT_TRUE(ok_watch.ok()) << ok_watch.status();
  ASSERT_TRUE(ConfigureClient(ok, endpoint_, ok_opts).ok());
  ASSERT_TRUE(ok.Send({"ready"}).ok());
  ExpectRoundTrip(ok, "w1", allowed_.public_z85);
  ok_watch->reset();
  EXPECT_TRUE(allowed_says.lines().empty()) << allowed_says.lines()[0];

  // Without CURVE there is no key to be refused: nothing to watch.
  ZmqSocket plain = MakeSocket(client_ctx_, SocketType::kDealer);
  absl::StatusOr<std::unique_ptr<HandshakeWatch>> none =
      HandshakeWatch::Start(client_ctx_, plain, SecurityOptions::FilePermissions(), allowed_says.Sink());
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_EQ(*none, nullptr);
}

// A client that trusts another server key: the server drops it mid-handshake, libzmq retries
// every reconnect interval, and the watch says once that the handshake fails, asking about the
// server key.
TEST_F(SecureFarmTest, HandshakeWatchAsksAboutTheServerKeyOnce) {
  Reports says;
  ZmqSocket& c = clients_.emplace_back(MakeSocket(client_ctx_, SocketType::kDealer));
  const SecurityOptions opts = SecurityOptions::CurveClient(allowed_, NewPair().public_z85);
  absl::StatusOr<std::unique_ptr<HandshakeWatch>> watch = HandshakeWatch::Start(client_ctx_, c, opts, says.Sink());
  ASSERT_TRUE(watch.ok()) << watch.status();
  ASSERT_TRUE(ConfigureClient(c, endpoint_, opts).ok());
  ASSERT_TRUE(WaitUntil([&] { return !says.lines().empty(); }, kSoon)) << "no report";
  std::this_thread::sleep_for(kNothingWindow);  // libzmq's retries, each failing the same way
  watch->reset();
  const std::vector<std::string> lines = says.lines();
  ASSERT_EQ(lines.size(), 1u) << lines.back();
  EXPECT_NE(lines[0].find("the CURVE handshake with the coordinator at " + endpoint_ + " failed"), std::string::npos)
      << lines[0];
  EXPECT_NE(lines[0].find("server key"), std::string::npos) << lines[0];
  EXPECT_EQ(zap_->stats().denied, 0u);  // never got as far as the allowlist
}

TEST_F(SecureFarmTest, GarbageHandshakeBytesDeliverNothingAndTheServerKeepsServing) {
  // A raw TCP peer that sends a broken ZMTP greeting, then random bytes.
  const std::string port = endpoint_.substr(endpoint_.rfind(':') + 1);
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(std::stoi(port)));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  std::string junk = std::string("\xff\0\0\0\0\0\0\0\x01\x7f\x03\x00NULL", 16) + std::string(48, '\0');
  for (int i = 0; i < 256; ++i) junk.push_back(static_cast<char>(i * 37 + 11));
  EXPECT_GT(write(fd, junk.data(), junk.size()), 0);
  EXPECT_TRUE(IsTimeout(router_.ReceiveFor(kNothingWindow).status()));
  const SocketEvent e = NextHandshakeOutcome();
  EXPECT_NE(e.kind, SocketEventKind::kHandshakeSucceeded);
  close(fd);
  ZmqSocket& c = Client("w1", SecurityOptions::CurveClient(allowed_, server_keys_.public_z85));
  ExpectRoundTrip(c, "w1", allowed_.public_z85);
}

TEST_F(SecureFarmTest, StoppedZapHandlerFailsClosed) {
  zap_->Stop();
  EXPECT_FALSE(zap_->running());
  ZmqSocket& c = Client("w1", SecurityOptions::CurveClient(allowed_, server_keys_.public_z85));
  ExpectNothingEitherWay(c, "w1");
  const SocketEvent e = NextHandshakeOutcome();
  // libzmq with ZMQ_ZAP_ENFORCE_DOMAIN and no handler: "handshake failed" (EFAULT).
  EXPECT_EQ(e.kind, SocketEventKind::kHandshakeFailedNoDetail) << SocketEventKindName(e.kind);
  // Only a running handler on the same context is accepted for new servers.
  ZmqSocket other = MakeSocket(server_ctx_, SocketType::kRouter);
  absl::Status s = ConfigureServer(other, "tcp://127.0.0.1:*",
                                   SecurityOptions::CurveServer(server_keys_, zap_.get()));
  EXPECT_TRUE(Has(s, "not running")) << s;
}

TEST_F(SecureFarmTest, NullMechanismAndWrongDomainAreDeniedByTheHandler) {
  // A server socket without CURVE but with a ZAP domain: the handler sees mechanism NULL.
  ZmqSocket null_server = MakeSocket(server_ctx_, SocketType::kRouter);
  ASSERT_TRUE(null_server.SetBytesOption(ZMQ_ZAP_DOMAIN, zap_->domain()).ok());
  ASSERT_TRUE(null_server.SetIntOption(93, 1).ok());  // ZMQ_ZAP_ENFORCE_DOMAIN
  ASSERT_TRUE(null_server.Bind("tcp://127.0.0.1:*").ok());
  ZmqSocket plain = MakeSocket(client_ctx_, SocketType::kDealer);
  ASSERT_TRUE(plain.Connect(*null_server.LastEndpoint()).ok());
  ASSERT_TRUE(plain.Send({"ready"}).ok());

  // A CURVE server in another ZAP domain.
  ZmqSocket other_domain = MakeSocket(server_ctx_, SocketType::kRouter);
  ASSERT_TRUE(other_domain.SetIntOption(ZMQ_CURVE_SERVER, 1).ok());
  ASSERT_TRUE(other_domain.SetBytesOption(ZMQ_CURVE_SECRETKEY, server_keys_.secret_z85).ok());
  ASSERT_TRUE(other_domain.SetBytesOption(ZMQ_ZAP_DOMAIN, "someone-else").ok());
  ASSERT_TRUE(other_domain.Bind("tcp://127.0.0.1:*").ok());
  ZmqSocket curve = MakeSocket(client_ctx_, SocketType::kDealer);
  endpoint_ = *other_domain.LastEndpoint();
  ASSERT_TRUE(
      ConfigureClient(curve, endpoint_, SecurityOptions::CurveClient(allowed_, server_keys_.public_z85))
          .ok());
  ASSERT_TRUE(curve.Send({"ready"}).ok());

  EXPECT_TRUE(IsTimeout(null_server.ReceiveFor(kNothingWindow).status()));
  EXPECT_TRUE(IsTimeout(other_domain.ReceiveFor(milliseconds(200)).status()));
  WaitForDenials(2);
  const ZapStats st = zap_->stats();
  EXPECT_GE(st.denied_by_reason[static_cast<int>(ZapDenyReason::kNotCurve)], 1u);
  EXPECT_GE(st.denied_by_reason[static_cast<int>(ZapDenyReason::kWrongDomain)], 1u);
  EXPECT_EQ(st.accepted, 0u);
  plain.Close();
  curve.Close();
}

TEST_F(SecureFarmTest, AllowlistFilesReload) {
  const std::string dir = TempDir("allow.d");
  ASSERT_EQ(mkdir(dir.c_str(), 0700), 0);
  const std::string revoked = TempDir("revoked.txt");
  {
    FILE* f = std::fopen(revoked.c_str(), "w");
    std::fputs("# nothing revoked yet\n", f);
    std::fclose(f);
  }
  // A second context with its own handler loading the lists from files.
  ZmqContext ctx;
  ZapOptions zo{.allowlist_path = dir, .revocation_path = revoked, .log_denials = false};
  auto zap = ZapHandler::Start(ctx, zo);
  ASSERT_TRUE(zap.ok()) << zap.status();
  const CurveKeyPair w = NewPair();
  EXPECT_FALSE((*zap)->IsAllowed(w.public_z85));
  ASSERT_TRUE(WriteKeyPairFiles(w, dir, "w").ok());
  ASSERT_TRUE((*zap)->Reload().ok());
  EXPECT_TRUE((*zap)->IsAllowed(w.public_z85));
  {
    FILE* f = std::fopen(revoked.c_str(), "a");
    std::fputs((w.public_z85 + "\n").c_str(), f);
    std::fclose(f);
  }
  ASSERT_TRUE((*zap)->Reload().ok());
  EXPECT_FALSE((*zap)->IsAllowed(w.public_z85));
  // A broken list keeps the old lists in force.
  ASSERT_EQ(chmod(dir.c_str(), 0777), 0);
  EXPECT_FALSE((*zap)->Reload().ok());
  EXPECT_FALSE((*zap)->IsAllowed(w.public_z85));
  ASSERT_EQ(chmod(dir.c_str(), 0700), 0);
  // A second handler on the same context is refused.
  auto second = ZapHandler::Start(ctx, ZapOptions{});
  EXPECT_EQ(second.status().code(), absl::StatusCode::kAlreadyExists);
  (*zap)->Stop();
}

TEST(ZapHandlerTest, ContextTerminationEndsTheHandlerCleanly) {
  auto ctx = std::make_unique<ZmqContext>();
  auto zap = ZapHandler::Start(*ctx, ZapOptions{.log_denials = false});
  ASSERT_TRUE(zap.ok()) << zap.status();
  EXPECT_TRUE((*zap)->running());
  ctx.reset();  // zmq_ctx_term returns once the handler thread has closed its socket
  EXPECT_FALSE((*zap)->running());
  (*zap)->Stop();
  EXPECT_FALSE((*zap)->Allow("short").ok());  // bad keys are refused, running or not
}

// ---- configuration rules ----

TEST(SecureEndpointTest, TcpWithoutCurveNeedsInsecure) {
  ZmqContext ctx;
  ZmqSocket s = MakeSocket(ctx, SocketType::kRouter);
  absl::Status st = ConfigureServer(s, "tcp://127.0.0.1:*", SecurityOptions::FilePermissions());
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(Has(st, "needs CURVE")) << st;
  EXPECT_TRUE(Has(st, "tg keygen")) << st;
  EXPECT_TRUE(Has(st, "--insecure")) << st;
  ZmqSocket c = MakeSocket(ctx, SocketType::kDealer);
  EXPECT_EQ(ConfigureClient(c, "tcp://127.0.0.1:9", SecurityOptions::FilePermissions()).code(),
            absl::StatusCode::kFailedPrecondition);

  testing::internal::CaptureStderr();
  st = ConfigureServer(s, "tcp://127.0.0.1:*", SecurityOptions::Insecure());
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_TRUE(st.ok()) << st;
  EXPECT_NE(err.find("farm traffic on tcp://127.0.0.1:* is neither authenticated nor encrypted"),
            std::string::npos)
      << err;
  // Plain traffic then works, as asked for.
  testing::internal::CaptureStderr();
  ASSERT_TRUE(ConfigureClient(c, *s.LastEndpoint(), SecurityOptions::Insecure()).ok());
  testing::internal::GetCapturedStderr();
  ASSERT_TRUE(c.Send({"hi"}).ok());
  EXPECT_TRUE(s.ReceiveFor(kSoon).ok());
}

TEST(SecureEndpointTest, BadCombinationsAreClearErrors) {
  ZmqContext ctx, other_ctx;
  const CurveKeyPair kp = NewPair();
  auto zap = ZapHandler::Start(ctx, ZapOptions{.log_denials = false});
  ASSERT_TRUE(zap.ok());
  auto other_zap = ZapHandler::Start(other_ctx, ZapOptions{.log_denials = false});
  ASSERT_TRUE(other_zap.ok());
  ZmqSocket s = MakeSocket(ctx, SocketType::kRouter);
  const std::string ep = "tcp://127.0.0.1:*";

  absl::Status st = ConfigureServer(s, ep, SecurityOptions::CurveServer(kp, nullptr));
  EXPECT_TRUE(Has(st, "needs a ZAP handler")) << st;
  st = ConfigureServer(s, ep, SecurityOptions::CurveServer(kp, other_zap->get()));
  EXPECT_TRUE(Has(st, "another ZeroMQ context")) << st;
  SecurityOptions both = SecurityOptions::CurveServer(kp, zap->get());
  both.insecure = true;
  st = ConfigureServer(s, ep, both);
  EXPECT_TRUE(Has(st, "choose one")) << st;
  SecurityOptions zap_no_curve;
  zap_no_curve.zap = zap->get();
  st = ConfigureServer(s, ep, zap_no_curve);
  EXPECT_TRUE(Has(st, "only admits CURVE clients")) << st;
  CurveKeyPair broken = kp;
  broken.public_z85 = NewPair().public_z85;
  st = ConfigureServer(s, ep, SecurityOptions::CurveServer(broken, zap->get()));
  EXPECT_TRUE(Has(st, "does not belong")) << st;
  st = ConfigureServer(s, "udp://127.0.0.1:1", SecurityOptions::Insecure());
  EXPECT_TRUE(Has(st, "unsupported farm endpoint")) << st;

  ZmqSocket c = MakeSocket(ctx, SocketType::kDealer);
  st = ConfigureClient(c, "tcp://127.0.0.1:9", SecurityOptions::CurveClient(kp, ""));
  EXPECT_TRUE(Has(st, "needs the server's public key")) << st;
  st = ConfigureClient(c, "tcp://127.0.0.1:9", SecurityOptions::CurveClient(kp, "short"));
  EXPECT_TRUE(Has(st, "bad server public key")) << st;
  SecurityOptions client_zap = SecurityOptions::CurveClient(kp, kp.public_z85);
  client_zap.zap = zap->get();
  st = ConfigureClient(c, "tcp://127.0.0.1:9", client_zap);
  EXPECT_TRUE(Has(st, "for servers")) << st;
  (*zap)->Stop();
  (*other_zap)->Stop();
}

TEST(SecureEndpointTest, IpcWithoutCurveNeedsAPrivateDirectory) {
  ZmqContext ctx;
  ShortTempDir tmp;
  const std::string root = tmp.path();

  // A world-accessible directory is refused, for servers and clients.
  const std::string open_dir = root + "/open";
  ASSERT_EQ(mkdir(open_dir.c_str(), 0700), 0);
  ASSERT_EQ(chmod(open_dir.c_str(), 0777), 0);
  ZmqSocket s = MakeSocket(ctx, SocketType::kRouter);
  absl::Status st = ConfigureServer(s, "ipc://" + open_dir + "/farm.sock",
                                    SecurityOptions::FilePermissions());
  EXPECT_EQ(st.code(), absl::StatusCode::kPermissionDenied);
  EXPECT_TRUE(Has(st, "mode 0777")) << st;
  EXPECT_TRUE(Has(st, "chmod 700 " + open_dir)) << st;
  ASSERT_EQ(chmod(open_dir.c_str(), 0750), 0);  // group access is too much as well
  EXPECT_EQ(ConfigureServer(s, "ipc://" + open_dir + "/farm.sock", SecurityOptions::FilePermissions())
                .code(),
            absl::StatusCode::kPermissionDenied);
  ZmqSocket c = MakeSocket(ctx, SocketType::kDealer);
  EXPECT_EQ(ConfigureClient(c, "ipc://" + open_dir + "/farm.sock", SecurityOptions::FilePermissions())
                .code(),
            absl::StatusCode::kPermissionDenied);

  // A symlink to a private directory, and abstract sockets, are refused.
  const std::string link = root + "/link";
  ASSERT_EQ(symlink(root.c_str(), link.c_str()), 0);
  st = ConfigureServer(s, "ipc://" + link + "/farm.sock", SecurityOptions::FilePermissions());
  EXPECT_TRUE(Has(st, "symbolic link")) << st;
  st = ConfigureServer(s, "ipc://@tg-farm", SecurityOptions::FilePermissions());
  EXPECT_TRUE(Has(st, "abstract")) << st;

  // A path too long for a Unix socket is named as such.
  st = ConfigureServer(s, "ipc://" + root + "/" + std::string(120, 'x'),
                       SecurityOptions::FilePermissions());
  EXPECT_TRUE(Has(st, "at most 107")) << st;

  // A missing directory is created 0700 by the server; the client then connects without CURVE.
  const std::string private_dir = root + "/run/farm";
  const std::string ep = "ipc://" + private_dir + "/farm.sock";
  st = ConfigureServer(s, ep, SecurityOptions::FilePermissions());
  ASSERT_TRUE(st.ok()) << st;
  struct stat sb;
  ASSERT_EQ(stat(private_dir.c_str(), &sb), 0);
  EXPECT_EQ(sb.st_mode & 07777, 0700u);
  // Clients never create it (a missing directory means no server).
  EXPECT_FALSE(ConfigureClient(c, "ipc://" + root + "/nope/farm.sock",
                               SecurityOptions::FilePermissions())
                   .ok());
  ASSERT_TRUE(ConfigureClient(c, ep, SecurityOptions::FilePermissions()).ok());
  ASSERT_TRUE(c.Send({"over ipc"}).ok());
  absl::StatusOr<Frames> got = s.ReceiveFor(kSoon);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ((*got)[1], "over ipc");

  // --insecure skips the check, with a warning.
  ZmqSocket s2 = MakeSocket(ctx, SocketType::kRouter);
  testing::internal::CaptureStderr();
  ASSERT_TRUE(ConfigureServer(s2, "ipc://" + open_dir + "/insecure.sock", SecurityOptions::Insecure())
                  .ok());
  EXPECT_NE(testing::internal::GetCapturedStderr().find("neither authenticated nor encrypted"),
            std::string::npos);
}

// The embedded default plus remote workers: one coordinator context serves CURVE on tcp and
// plain ipc for its local workers. The ZAP handler must not block the ipc side: NULL-mechanism
// sockets without a ZAP domain never ask it.
TEST(SecureEndpointTest, PlainIpcNextToCurveTcpOnOneContext) {
  ZmqContext ctx;
  ShortTempDir tmp;
  const CurveKeyPair server = NewPair();
  auto zap = ZapHandler::Start(ctx, ZapOptions{.log_denials = false});  // allows nobody
  ASSERT_TRUE(zap.ok());
  ZmqSocket tcp = MakeSocket(ctx, SocketType::kRouter);
  ASSERT_TRUE(ConfigureServer(tcp, "tcp://127.0.0.1:*", SecurityOptions::CurveServer(server, zap->get()))
                  .ok());
  ZmqSocket ipc = MakeSocket(ctx, SocketType::kRouter);
  const std::string ep = "ipc://" + tmp.path() + "/local.sock";
  ASSERT_TRUE(ConfigureServer(ipc, ep, SecurityOptions::FilePermissions()).ok());
  ZmqSocket local = MakeSocket(ctx, SocketType::kDealer);
  ASSERT_TRUE(ConfigureClient(local, ep, SecurityOptions::FilePermissions()).ok());
  ASSERT_TRUE(local.Send({"ready"}).ok());
  absl::StatusOr<Frames> got = ipc.ReceiveFor(kSoon);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ((*got).back(), "ready");
  EXPECT_EQ((*zap)->stats().denied, 0u);
  local.Close();
  ipc.Close();
  tcp.Close();
  (*zap)->Stop();
}

TEST(SecureEndpointTest, IpcWithCurveMayUseASharedDirectory) {
  ZmqContext ctx;
  ShortTempDir tmp;
  const std::string dir = tmp.path();
  ASSERT_EQ(chmod(dir.c_str(), 0777), 0);
  const CurveKeyPair server = NewPair(), client = NewPair();
  ZapOptions zo{.log_denials = false};
  zo.allowlist.Add(client.public_z85, "test");
  auto zap = ZapHandler::Start(ctx, std::move(zo));
  ASSERT_TRUE(zap.ok());
  ZmqSocket s = MakeSocket(ctx, SocketType::kRouter);
  const std::string ep = "ipc://" + dir + "/farm.sock";
  absl::Status st = ConfigureServer(s, ep, SecurityOptions::CurveServer(server, zap->get()));
  ASSERT_TRUE(st.ok()) << st;
  ZmqSocket c = MakeSocket(ctx, SocketType::kDealer);
  ASSERT_TRUE(ConfigureClient(c, ep, SecurityOptions::CurveClient(client, server.public_z85)).ok());
  ASSERT_TRUE(c.Send({"hi"}).ok());
  PeerInfo peer;
  absl::StatusOr<Frames> got = s.ReceiveFor(kSoon, &peer);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(peer.user_id, client.public_z85);
  s.Close();
  c.Close();
  (*zap)->Stop();
}

}  // namespace
}  // namespace tg::autotune::net
