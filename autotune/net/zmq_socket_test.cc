// File: autotune/net/zmq_socket_test.cc
#include "autotune/net/zmq_socket.h"

#include <unistd.h>
#include <zmq.h>

#include <chrono>
#include <memory>
#include <thread>

#include "gtest/gtest.h"

namespace tg::autotune::net {
namespace {

using std::chrono::milliseconds;

// A generous deadline for things that should happen "now" on loopback.
constexpr milliseconds kSoon{5000};

ZmqSocket MakeSocket(ZmqContext& ctx, SocketType t) {
  absl::StatusOr<ZmqSocket> s = ZmqSocket::Create(ctx, t);
  EXPECT_TRUE(s.ok()) << s.status();
  return std::move(s).value();
}

TEST(ZmqSocketTest, MultipartRoundTripKeepsEmptyAndBinaryFrames) {
  ZmqContext ctx;
  ZmqSocket a = MakeSocket(ctx, SocketType::kPair);
  ZmqSocket b = MakeSocket(ctx, SocketType::kPair);
  ASSERT_TRUE(a.Bind("inproc://pair").ok());
  ASSERT_TRUE(b.Connect("inproc://pair").ok());
  const Frames sent = {"", std::string("a\0b", 3), std::string(100000, 'x'), "end"};
  ASSERT_TRUE(a.Send(sent).ok());
  absl::StatusOr<Frames> got = b.ReceiveFor(kSoon);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, sent);
}

TEST(ZmqSocketTest, TimeoutsAreADistinctStatus) {
  ZmqContext ctx;
  ZmqSocket a = MakeSocket(ctx, SocketType::kPair);
  ASSERT_TRUE(a.Bind("inproc://lonely").ok());
  absl::StatusOr<Frames> r = a.TryReceive();
  EXPECT_TRUE(IsTimeout(r.status())) << r.status();
  r = a.ReceiveFor(milliseconds(20));
  EXPECT_TRUE(IsTimeout(r.status())) << r.status();
  ASSERT_TRUE(a.SetReceiveTimeout(milliseconds(20)).ok());
  r = a.Receive();
  EXPECT_TRUE(IsTimeout(r.status())) << r.status();
  EXPECT_FALSE(IsTerminated(r.status()));
  // A PAIR with no peer cannot send without blocking.
  EXPECT_TRUE(IsTimeout(a.Send({"x"}, SendMode::kDontWait)));
}

TEST(ZmqSocketTest, EmptyMessageAndBadEndpointAreErrors) {
  ZmqContext ctx;
  ZmqSocket a = MakeSocket(ctx, SocketType::kDealer);
  EXPECT_EQ(a.Send(Frames{}).code(), absl::StatusCode::kInvalidArgument);
  absl::Status s = a.Bind("nonsense://x");
  EXPECT_FALSE(s.ok());
  EXPECT_NE(std::string(s.message()).find("nonsense://x"), std::string::npos) << s;
  EXPECT_FALSE(IsTimeout(s));
}

TEST(ZmqSocketTest, TcpWildcardPortAndRouterDealer) {
  ZmqContext ctx;
  ZmqSocket router = MakeSocket(ctx, SocketType::kRouter);
  ZmqSocket dealer = MakeSocket(ctx, SocketType::kDealer);
  ASSERT_TRUE(router.Bind("tcp://127.0.0.1:*").ok());
  absl::StatusOr<std::string> ep = router.LastEndpoint();
  ASSERT_TRUE(ep.ok()) << ep.status();
  EXPECT_TRUE(ep->starts_with("tcp://127.0.0.1:")) << *ep;
  EXPECT_NE(ep->back(), '*');
  ASSERT_TRUE(dealer.SetRoutingId("worker-1").ok());
  ASSERT_TRUE(dealer.Connect(*ep).ok());
  ASSERT_TRUE(dealer.Send({"hello", "world"}).ok());
  PeerInfo peer;
  absl::StatusOr<Frames> got = router.ReceiveFor(kSoon, &peer);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, (Frames{"worker-1", "hello", "world"}));
  EXPECT_EQ(peer.peer_address, "127.0.0.1");
  ASSERT_TRUE(router.Send({"worker-1", "reply"}).ok());
  got = dealer.ReceiveFor(kSoon);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, Frames{"reply"});
}

TEST(ZmqSocketTest, PollReportsOnlyReadySocketsAndFds) {
  ZmqContext ctx;
  ZmqSocket a1 = MakeSocket(ctx, SocketType::kPair), b1 = MakeSocket(ctx, SocketType::kPair);
  ZmqSocket a2 = MakeSocket(ctx, SocketType::kPair), b2 = MakeSocket(ctx, SocketType::kPair);
  ASSERT_TRUE(a1.Bind("inproc://p1").ok());
  ASSERT_TRUE(b1.Connect("inproc://p1").ok());
  ASSERT_TRUE(a2.Bind("inproc://p2").ok());
  ASSERT_TRUE(b2.Connect("inproc://p2").ok());
  int pipefd[2];
  ASSERT_EQ(pipe(pipefd), 0);

  PollItem items[] = {{.socket = &b1}, {.socket = &b2}, {.fd = pipefd[0]}};
  absl::StatusOr<int> n = Poll(items, milliseconds(10));
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*n, 0);

  ASSERT_TRUE(a2.Send({"x"}).ok());
  n = Poll(items, kSoon);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 1);
  EXPECT_FALSE(items[0].readable);
  EXPECT_TRUE(items[1].readable);
  EXPECT_FALSE(items[2].readable);

  ASSERT_EQ(write(pipefd[1], "z", 1), 1);
  n = Poll(items, kSoon);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 2);
  EXPECT_TRUE(items[2].readable);
  close(pipefd[0]);
  close(pipefd[1]);
}

TEST(ZmqSocketTest, ContextShutdownWakesABlockedReceiverWithTerminated) {
  auto ctx = std::make_unique<ZmqContext>();
  ZmqSocket s = MakeSocket(*ctx, SocketType::kPull);
  ASSERT_TRUE(s.Bind("inproc://nobody").ok());
  absl::Status result;
  std::thread t([&] { result = s.Receive().status(); });
  // Usually blocked by now; a receive that starts after the shutdown gets Terminated as well,
  // so the outcome does not depend on the machine's speed.
  std::this_thread::sleep_for(milliseconds(50));
  ctx->Shutdown();
  t.join();
  EXPECT_TRUE(IsTerminated(result)) << result;
  s.Close();
  ctx.reset();  // terminates without hanging
}

TEST(ZmqSocketTest, ClosingWithUndeliverableMessagesDoesNotHang) {
  const auto start = std::chrono::steady_clock::now();
  {
    ZmqContext ctx;
    ZmqSocket s = MakeSocket(ctx, SocketType::kDealer);
    absl::StatusOr<int> linger = s.GetIntOption(ZMQ_LINGER);
    ASSERT_TRUE(linger.ok());
    EXPECT_EQ(*linger, kDefaultLinger.count());
    // Port 1 on loopback: nothing listens, the message can never leave.
    ASSERT_TRUE(s.Connect("tcp://127.0.0.1:1").ok());
    ASSERT_TRUE(s.Send({"stuck"}, SendMode::kDontWait).ok());
  }  // socket closes, context terminates: bounded by the linger
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
}

TEST(ZmqSocketTest, HeartbeatOptionsAreSet) {
  ZmqContext ctx;
  ZmqSocket s = MakeSocket(ctx, SocketType::kDealer);
  ASSERT_TRUE(s.SetHeartbeat({.interval = milliseconds(1000),
                              .timeout = milliseconds(3000),
                              .ttl = milliseconds(5000)})
                  .ok());
  EXPECT_EQ(*s.GetIntOption(ZMQ_HEARTBEAT_IVL), 1000);
  EXPECT_EQ(*s.GetIntOption(ZMQ_HEARTBEAT_TIMEOUT), 3000);
  EXPECT_EQ(*s.GetIntOption(ZMQ_HEARTBEAT_TTL), 5000);
}

TEST(ZmqSocketTest, MoveTransfersOwnership) {
  ZmqContext ctx;
  ZmqSocket a = MakeSocket(ctx, SocketType::kPair);
  void* raw = a.raw();
  ZmqSocket b(std::move(a));
  EXPECT_FALSE(a.is_open());  // NOLINT(bugprone-use-after-move): moved-from is closed
  EXPECT_EQ(b.raw(), raw);
  ZmqSocket c = MakeSocket(ctx, SocketType::kPair);
  c = std::move(b);
  EXPECT_EQ(c.raw(), raw);
  EXPECT_FALSE(b.is_open());  // NOLINT(bugprone-use-after-move)
  EXPECT_TRUE(c.Bind("inproc://moved").ok());
}

}  // namespace
}  // namespace tg::autotune::net
