// File: tools/cli/farm_command.cc
// `tg farm status`: one request to the coordinator's status socket, its text printed.
#include "tools/cli/farm_command.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "autotune/net/secure_endpoint.h"
#include "autotune/net/zmq_socket.h"
#include "tools/cli/command_line.h"
#include "tools/cli/security_flags.h"

namespace tg {
namespace {

namespace net = autotune::net;

constexpr char kDescription[] =
    "Tuning farm: status asks a running coordinator (tg tune with a farm) for its workers and\n"
    "their device classes, queue depths, jobs in flight and error counts.";

int Fail(const std::string& msg) {
  std::fprintf(stderr, "tg farm status: %s\n", msg.c_str());
  return kExitFailed;
}

}  // namespace

int FarmCommand(std::span<const std::string_view> args) {
  CLI::App app(kDescription, "tg farm");
  SetUpCommandApp(app);
  app.require_subcommand(1);
  CLI::App* status = app.add_subcommand(
      "status",
      "ask the coordinator's status socket (it prints it when it starts). tcp:// needs CURVE\n"
      "(--key on the coordinator's allowlist, --server-key the coordinator's public key) or\n"
      "--insecure; ipc:// uses file permissions.");
  std::string connect;
  SecurityFlags security;
  double timeout_s = 5;
  status->add_option("--connect", connect, "the coordinator's status ENDPOINT")->required();
  AddSecurityFlags(*status, security, SecurityRole::kClient);
  status->add_option("--timeout", timeout_s, "seconds to wait for the answer")
      ->capture_default_str()
      ->check(PositiveNumber());
  if (std::optional<int> rc = ParseCommandLine(app, args)) return *rc;
  absl::StatusOr<net::SecurityOptions> sec = ClientSecurity(security);
  if (!sec.ok()) return Fail(std::string(sec.status().message()));
  net::ZmqContext ctx;
  absl::StatusOr<net::ZmqSocket> sock = net::ZmqSocket::Create(ctx, net::SocketType::kReq);
  if (!sock.ok()) return Fail(std::string(sock.status().message()));
  if (absl::Status s = net::ConfigureClient(*sock, connect, *sec); !s.ok()) return Fail(std::string(s.message()));
  const auto timeout = std::chrono::milliseconds(static_cast<int64_t>(timeout_s * 1000));
  if (absl::Status s = sock->SetSendTimeout(timeout); !s.ok()) return Fail(std::string(s.message()));
  if (absl::Status s = sock->Send({"status"}); !s.ok()) return Fail("cannot send: " + std::string(s.message()));
  absl::StatusOr<net::Frames> reply = sock->ReceiveFor(timeout);
  if (!reply.ok())
    return Fail(net::IsTimeout(reply.status()) ? "no answer from " + connect + " (is a coordinator running there?)"
                                               : std::string(reply.status().message()));
  for (const std::string& f : *reply) std::fputs(f.c_str(), stdout);
  return kExitOk;
}

}  // namespace tg
