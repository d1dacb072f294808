// File: tools/cli/farm_command.cc
// `tg farm status`: one request to the coordinator's status socket, its text printed.
#include "tools/cli/farm_command.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/numbers.h"
#include "autotune/net/curve_keys.h"
#include "autotune/net/secure_endpoint.h"
#include "autotune/net/zmq_socket.h"

namespace tg {
namespace {

namespace net = autotune::net;

void PrintFarmUsage(std::FILE* out) {
  std::fprintf(out,
               "usage: tg farm status --connect ENDPOINT [--key FILE --server-key FILE] [--insecure]\n"
               "                      [--timeout SECONDS]\n\n"
               "Asks a running coordinator (tg tune with a farm) for its status: workers and their\n"
               "device classes, queue depths, jobs in flight, error counts. ENDPOINT is the\n"
               "coordinator's status socket (it prints it when it starts). tcp:// needs CURVE:\n"
               "--key (our secret key file, on the coordinator's allowlist) and --server-key (the\n"
               "coordinator's public key file), or --insecure for plain TCP. ipc:// uses file\n"
               "permissions. Default timeout: 5 s.\n");
}

int Usage(const std::string& msg) {
  std::fprintf(stderr, "tg farm: %s\n\n", msg.c_str());
  PrintFarmUsage(stderr);
  return 2;
}

int Fail(const std::string& msg) {
  std::fprintf(stderr, "tg farm status: %s\n", msg.c_str());
  return 1;
}

}  // namespace

int FarmCommand(std::span<const std::string_view> args) {
  if (args.empty()) return Usage("missing subcommand");
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    PrintFarmUsage(stdout);
    return 0;
  }
  if (args[0] != "status") return Usage("unknown subcommand '" + std::string(args[0]) + "'");
  std::string connect, key, server_key;
  bool insecure = false;
  double timeout_s = 5;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string_view a = args[i];
    auto value = [&](std::string& out) {
      if (i + 1 >= args.size()) return false;
      out = std::string(args[++i]);
      return true;
    };
    std::string t;
    if (a == "--connect") {
      if (!value(connect)) return Usage("--connect needs an endpoint");
    } else if (a == "--key") {
      if (!value(key)) return Usage("--key needs a file");
    } else if (a == "--server-key") {
      if (!value(server_key)) return Usage("--server-key needs a file");
    } else if (a == "--insecure") {
      insecure = true;
    } else if (a == "--timeout") {
      if (!value(t) || !absl::SimpleAtod(t, &timeout_s) || timeout_s <= 0) return Usage("--timeout needs seconds > 0");
    } else if (a == "--help" || a == "-h") {
      PrintFarmUsage(stdout);
      return 0;
    } else {
      return Usage("unknown argument '" + std::string(a) + "'");
    }
  }
  if (connect.empty()) return Usage("--connect ENDPOINT is required");
  if (key.empty() != server_key.empty()) return Usage("--key and --server-key go together");
  net::SecurityOptions sec;
  if (!key.empty()) {
    absl::StatusOr<net::CurveKeyPair> keys = net::ReadSecretKeyFile(key);
    if (!keys.ok()) return Fail(std::string(keys.status().message()));
    absl::StatusOr<std::string> server = net::ReadPublicKeyFile(server_key);
    if (!server.ok()) return Fail(std::string(server.status().message()));
    sec = net::SecurityOptions::CurveClient(*keys, *server);
  } else if (insecure) {
    sec = net::SecurityOptions::Insecure();
  }
  net::ZmqContext ctx;
  absl::StatusOr<net::ZmqSocket> sock = net::ZmqSocket::Create(ctx, net::SocketType::kReq);
  if (!sock.ok()) return Fail(std::string(sock.status().message()));
  if (absl::Status s = net::ConfigureClient(*sock, connect, sec); !s.ok()) return Fail(std::string(s.message()));
  const auto timeout = std::chrono::milliseconds(static_cast<int64_t>(timeout_s * 1000));
  if (absl::Status s = sock->SetSendTimeout(timeout); !s.ok()) return Fail(std::string(s.message()));
  if (absl::Status s = sock->Send({"status"}); !s.ok()) return Fail("cannot send: " + std::string(s.message()));
  absl::StatusOr<net::Frames> reply = sock->ReceiveFor(timeout);
  if (!reply.ok())
    return Fail(net::IsTimeout(reply.status()) ? "no answer from " + connect + " (is a coordinator running there?)"
                                               : std::string(reply.status().message()));
  for (const std::string& f : *reply) std::fputs(f.c_str(), stdout);
  return 0;
}

}  // namespace tg
