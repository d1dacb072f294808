// File: tools/cli/farm_command.cc
// `tg farm status`: one request to the coordinator's status socket, its text printed; with
// --web, a page that asks it for JSON each time it polls.
#include "tools/cli/farm_command.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "autotune/farm/farm_status_json.h"
#include "autotune/net/secure_endpoint.h"
#include "autotune/net/zmq_socket.h"
#include "tools/cli/command_line.h"
#include "tools/cli/security_flags.h"
#include "tools/cli/serve_flags.h"
#include "tools/dashboard/farm_page.h"
#include "tools/web/local_server.h"

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

// One request on a fresh REQ socket (a REQ socket that timed out cannot send again), its
// answer's first frame. Errors: the endpoint or keys are wrong, or no answer within `timeout`
// (DeadlineExceeded, naming the endpoint).
absl::StatusOr<std::string> AskStatus(net::ZmqContext& ctx, const std::string& connect, const net::SecurityOptions& sec,
                                      const std::string& request, std::chrono::milliseconds timeout) {
  absl::StatusOr<net::ZmqSocket> sock = net::ZmqSocket::Create(ctx, net::SocketType::kReq);
  if (!sock.ok()) return sock.status();
  if (absl::Status s = net::ConfigureClient(*sock, connect, sec); !s.ok()) return s;
  if (absl::Status s = sock->SetSendTimeout(timeout); !s.ok()) return s;
  if (absl::Status s = sock->Send({request}); !s.ok())
    return absl::UnavailableError("cannot send: " + std::string(s.message()));
  absl::StatusOr<net::Frames> reply = sock->ReceiveFor(timeout);
  if (!reply.ok()) {
    if (net::IsTimeout(reply.status()))
      return absl::DeadlineExceededError("no answer from " + connect + " (is a coordinator running there?)");
    return reply.status();
  }
  if (reply->empty()) return absl::DataLossError("an empty answer from " + connect);
  return (*reply)[0];
}

// The status as JSON; a coordinator that answers text is an older tg.
absl::StatusOr<autotune::farm::FarmStatus> AskStatusJson(net::ZmqContext& ctx, const std::string& connect,
                                                        const net::SecurityOptions& sec,
                                                        std::chrono::milliseconds timeout) {
  absl::StatusOr<std::string> answer =
      AskStatus(ctx, connect, sec, std::string(autotune::farm::kStatusJsonRequest), timeout);
  if (!answer.ok()) return answer.status();
  absl::StatusOr<autotune::farm::FarmStatus> s = autotune::farm::FarmStatusFromJson(*answer);
  if (!s.ok())
    return absl::InvalidArgumentError(absl::StrCat("the coordinator at ", connect, " did not answer JSON (",
                                                   s.status().message(), "): is it an older tg?"));
  return s;
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
  bool web = false;
  web::ServeOptions serve;
  CLI::Option* web_flag = status->add_flag(
      "--web", web,
      "serve a page of the status on loopback instead (URL printed), asking the coordinator\n"
      "again each second it is open (its workers, device classes, jobs in flight, requeues,\n"
      "poisoned candidates); until Ctrl-C");
  for (CLI::Option* o : AddServeFlags(*status, serve)) o->needs(web_flag);
  if (std::optional<int> rc = ParseCommandLine(app, args)) return *rc;
  if (web) {
    if (std::optional<int> rc = CheckServeFlags(serve, "farm status")) return *rc;
  }
  absl::StatusOr<net::SecurityOptions> sec = ClientSecurity(security);
  if (!sec.ok()) return Fail(std::string(sec.status().message()));
  net::ZmqContext ctx;
  const auto timeout = std::chrono::milliseconds(static_cast<int64_t>(timeout_s * 1000));
  if (!web) {
    absl::StatusOr<std::string> text = AskStatus(ctx, connect, *sec, "status", timeout);
    if (!text.ok()) return Fail(std::string(text.status().message()));
    std::fputs(text->c_str(), stdout);
    return kExitOk;
  }
  // Asked once first: a wrong endpoint or key is an error now; a coordinator that does not
  // answer yet may still start, and the page says so until it does.
  absl::StatusOr<autotune::farm::FarmStatus> first = AskStatusJson(ctx, connect, *sec, timeout);
  if (!first.ok() && first.status().code() != absl::StatusCode::kDeadlineExceeded)
    return Fail(std::string(first.status().message()));
  if (!first.ok()) std::fprintf(stderr, "tg farm status: %s; the page keeps asking\n", std::string(first.status().message()).c_str());
  absl::StatusOr<std::unique_ptr<web::LocalServer>> server = dashboard::ServeFarmPage(
      serve, connect, [&ctx, &connect, sec = *sec, timeout] { return AskStatusJson(ctx, connect, sec, timeout); });
  if (!server.ok()) return Fail(std::string(server.status().message()));
  std::printf("farm status: %s (Ctrl-C to stop)\n", (*server)->url().c_str());
  std::fflush(stdout);
  web::WaitForInterrupt();
  return kExitOk;
}

}  // namespace tg
