// File: workers/refusing_coordinator.cc
// Test program for //tools/cli:tg_worker_test: a farm coordinator that takes no worker. It binds a ROUTER
// on ENDPOINT (ipc:// in a private directory), answers every Hello with Bye{REASON, refused}
// (what a real coordinator says to a worker it evicted), prints "hello from ID" for each Hello
// (so a test can count them) and runs until killed.
//
// Usage: refusing_coordinator ENDPOINT REASON
#include <chrono>
#include <cstdio>
#include <string>
#include <variant>

#include "autotune/codec/farm_codec.h"
#include "autotune/codec/farm_messages.h"
#include "autotune/net/secure_endpoint.h"
#include "autotune/net/zmq_socket.h"

namespace net = tg::autotune::net;
namespace codec = tg::autotune::codec;

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: refusing_coordinator ENDPOINT REASON\n");
    return 2;
  }
  net::ZmqContext ctx;
  absl::StatusOr<net::ZmqSocket> router = net::ZmqSocket::Create(ctx, net::SocketType::kRouter);
  absl::Status s = router.ok() ? router->SetRouterHandover(true) : router.status();
  if (s.ok()) s = net::ConfigureServer(*router, argv[1], net::SecurityOptions::FilePermissions());
  if (!s.ok()) {
    std::fprintf(stderr, "refusing_coordinator: %s\n", std::string(s.message()).c_str());
    return 1;
  }
  std::printf("bound %s\n", argv[1]);
  std::fflush(stdout);
  while (true) {
    absl::StatusOr<net::Frames> f = router->ReceiveFor(std::chrono::milliseconds(1000));
    if (!f.ok() || f->size() != 2) continue;
    absl::StatusOr<codec::FarmMessage> m = codec::DecodeFarmMessage((*f)[1]);
    if (!m.ok() || !std::holds_alternative<codec::Hello>(*m)) continue;
    std::printf("hello from %s\n", (*f)[0].c_str());
    std::fflush(stdout);
    (void)router->Send({(*f)[0], codec::EncodeFarmMessage(codec::Bye{.reason = argv[2], .refused = true})});
  }
}
