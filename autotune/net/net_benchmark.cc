// File: autotune/net/net_benchmark.cc
// What CURVE costs the farm on loopback TCP, against plain TCP (--insecure):
//   BM_RoundTrip/<curve>/<bytes>   one request, one echo, one at a time: latency
//   BM_Pipelined/<curve>/<bytes>   1000 requests in flight, then their echoes: messages/s
//   BM_Handshake/<curve>           connect + first round trip + close (CURVE: + ZAP check)
// A ROUTER echo server runs in its own thread and context, as a coordinator would.
//
//   bazel run -c opt //autotune/net:net_benchmark
#include <atomic>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>

#include "autotune/net/curve_keys.h"
#include "autotune/net/secure_endpoint.h"
#include "autotune/net/zap_handler.h"
#include "autotune/net/zmq_socket.h"
#include "benchmark/benchmark.h"
#include "tinygrad/base/check.h"

namespace tg::autotune::net {
namespace {

using std::chrono::milliseconds;

// An echo server; CURVE with a one-key allowlist, or plain TCP.
class EchoServer {
 public:
  explicit EchoServer(bool curve) : curve_(curve) {
    server_keys_ = *GenerateCurveKeyPair();
    client_keys_ = *GenerateCurveKeyPair();
    ZapOptions zo{.log_denials = false};
    zo.allowlist.Add(client_keys_.public_z85, "bench");
    if (curve_) zap_ = std::move(*ZapHandler::Start(ctx_, std::move(zo)));
    router_ = std::move(*ZmqSocket::Create(ctx_, SocketType::kRouter));
    SecurityOptions so = curve_ ? SecurityOptions::CurveServer(server_keys_, zap_.get())
                                : SecurityOptions::Insecure();
    absl::Status s = ConfigureServer(router_, "tcp://127.0.0.1:*", so);
    TG_CHECK(s.ok()) << s;
    endpoint_ = *router_.LastEndpoint();
    thread_ = std::thread([this] { Serve(); });
  }
  ~EchoServer() {
    stop_ = true;
    thread_.join();
    router_.Close();
    if (zap_) zap_->Stop();
  }

  SecurityOptions ClientOptions() const {
    return curve_ ? SecurityOptions::CurveClient(client_keys_, server_keys_.public_z85)
                  : SecurityOptions::Insecure();
  }
  const std::string& endpoint() const { return endpoint_; }

 private:
  void Serve() {
    while (!stop_) {
      absl::StatusOr<Frames> m = router_.ReceiveFor(milliseconds(50));
      if (!m.ok()) continue;
      TG_CHECK(router_.Send(*m).ok());
    }
  }

  bool curve_;
  ZmqContext ctx_;
  CurveKeyPair server_keys_, client_keys_;
  std::unique_ptr<ZapHandler> zap_;
  ZmqSocket router_;
  std::string endpoint_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

ZmqSocket Connect(ZmqContext& ctx, const EchoServer& server) {
  ZmqSocket c = std::move(*ZmqSocket::Create(ctx, SocketType::kDealer));
  absl::Status s = ConfigureClient(c, server.endpoint(), server.ClientOptions());
  TG_CHECK(s.ok()) << s;
  return c;
}

void BM_RoundTrip(benchmark::State& state) {
  const bool curve = state.range(0) != 0;
  EchoServer server(curve);
  ZmqContext ctx;
  ZmqSocket c = Connect(ctx, server);
  const std::string payload(static_cast<size_t>(state.range(1)), 'x');
  TG_CHECK(c.Send({payload}).ok());  // handshake outside the timed loop
  TG_CHECK(c.ReceiveFor(milliseconds(5000)).ok());
  for (auto _ : state) {
    TG_CHECK(c.Send({payload}).ok());
    absl::StatusOr<Frames> r = c.ReceiveFor(milliseconds(5000));
    TG_CHECK(r.ok()) << r.status();
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * state.range(1) * 2);
  state.SetLabel(curve ? "curve" : "plain");
}

void BM_Pipelined(benchmark::State& state) {
  constexpr int kBatch = 1000;
  const bool curve = state.range(0) != 0;
  EchoServer server(curve);
  ZmqContext ctx;
  ZmqSocket c = Connect(ctx, server);
  const std::string payload(static_cast<size_t>(state.range(1)), 'x');
  TG_CHECK(c.Send({payload}).ok());
  TG_CHECK(c.ReceiveFor(milliseconds(5000)).ok());
  for (auto _ : state) {
    for (int i = 0; i < kBatch; ++i) TG_CHECK(c.Send({payload}).ok());
    for (int i = 0; i < kBatch; ++i) TG_CHECK(c.ReceiveFor(milliseconds(5000)).ok());
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
  state.SetBytesProcessed(state.iterations() * kBatch * state.range(1) * 2);
  state.SetLabel(curve ? "curve" : "plain");
}

void BM_Handshake(benchmark::State& state) {
  const bool curve = state.range(0) != 0;
  EchoServer server(curve);
  ZmqContext ctx;
  for (auto _ : state) {
    ZmqSocket c = Connect(ctx, server);
    TG_CHECK(c.Send({"hello"}).ok());
    TG_CHECK(c.ReceiveFor(milliseconds(5000)).ok());
    TG_CHECK(c.SetLinger(milliseconds(0)).ok());
  }
  state.SetLabel(curve ? "curve" : "plain");
}

BENCHMARK(BM_RoundTrip)->ArgsProduct({{0, 1}, {64, 4096, 65536}})->UseRealTime();
BENCHMARK(BM_Pipelined)->ArgsProduct({{0, 1}, {64, 4096, 65536}})->UseRealTime();
BENCHMARK(BM_Handshake)->Arg(0)->Arg(1)->UseRealTime();

}  // namespace
}  // namespace tg::autotune::net

int main(int argc, char** argv) {
  // The insecure servers' warnings would interleave with the table.
  std::fprintf(stderr, "(plain-TCP runs print the --insecure warning; expected here)\n");
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
