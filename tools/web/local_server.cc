// File: tools/web/local_server.cc
#include "tools/web/local_server.h"

#include <arpa/inet.h>
#include <sys/socket.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cerrno>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace tg::web {
namespace {

bool IsLoopback(const std::string& host) {
  if (host == "localhost") return true;
  in_addr v4{};
  if (inet_pton(AF_INET, host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (inet_pton(AF_INET6, host.c_str(), &v6) == 1) return IN6_IS_ADDR_LOOPBACK(&v6);
  return false;
}

std::string UrlHost(const std::string& host) {
  return host.find(':') != std::string::npos ? absl::StrCat("[", host, "]") : host;
}

// The self-pipe of WaitForInterrupt: the handler only writes a byte (async-signal-safe).
int g_interrupt_pipe[2] = {-1, -1};

void OnInterrupt(int) {
  const char byte = 1;
  [[maybe_unused]] ssize_t n = write(g_interrupt_pipe[1], &byte, 1);
}

}  // namespace

absl::Status CheckServeOptions(const ServeOptions& options) {
  if (options.port < 0 || options.port > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("port ", options.port, " is not a TCP port (0..65535; 0 picks a free one)"));
  }
  if (!options.allow_remote && !IsLoopback(options.host)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "refusing to serve on ", options.host,
        ": the page has no authentication, so it is served on loopback (127.0.0.1) only; pass "
        "--allow-remote to serve it to anyone who can reach ",
        options.host));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<LocalServer>> LocalServer::Start(
    const ServeOptions& options, const std::function<void(httplib::Server&)>& routes) {
  if (absl::Status s = CheckServeOptions(options); !s.ok()) return s;
  std::unique_ptr<LocalServer> server(new LocalServer());
  // httplib's default also sets SO_REUSEPORT, which lets a second server bind the same port and
  // take half of its connections; a port in use must be an error instead.
  server->server_.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  routes(server->server_);
  int port = options.port;
  if (port == 0) {
    port = server->server_.bind_to_any_port(options.host);
  } else if (!server->server_.bind_to_port(options.host, port)) {
    port = -1;
  }
  if (port <= 0) {
    return absl::UnavailableError(absl::StrFormat(
        "cannot listen on %s:%d (the port is in use or the address is not this machine's)",
        options.host, options.port));
  }
  server->port_ = port;
  server->url_ = absl::StrCat("http://", UrlHost(options.host), ":", port, "/");
  server->thread_ = std::thread([s = server.get()] {
    s->server_.listen_after_bind();
    s->listen_returned_ = true;
  });
  // httplib's stop() does nothing until the thread has begun listening, so a Stop() right
  // after Start() would wait forever; return only once it listens.
  while (!server->server_.is_running() && !server->listen_returned_) {
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  return server;
}

LocalServer::~LocalServer() { Stop(); }

void LocalServer::Stop() {
  server_.stop();
  if (thread_.joinable()) thread_.join();
}

void ServeAssets(httplib::Server& server, absl::Span<const Asset> assets) {
  for (const Asset& asset : assets) {
    auto handler = [asset](const httplib::Request&, httplib::Response& response) {
      response.set_content(asset.body.data(), asset.body.size(), std::string(asset.content_type).c_str());
    };
    server.Get(std::string(asset.path), handler);
    if (asset.path == "/index.html") server.Get("/", handler);
  }
}

void SetJson(httplib::Response& response, const nlohmann::json& body) {
  response.set_header("Cache-Control", "no-store");
  // Replace invalid UTF-8 (a kernel's source or a rule's text could carry any byte) rather than
  // throwing from a request handler.
  response.set_content(body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
                       "application/json");
}

void WaitForInterrupt() {
  if (pipe(g_interrupt_pipe) != 0) return;
  struct sigaction action {};
  action.sa_handler = OnInterrupt;
  sigemptyset(&action.sa_mask);
  struct sigaction old_int {}, old_term {};
  sigaction(SIGINT, &action, &old_int);
  sigaction(SIGTERM, &action, &old_term);
  char byte = 0;
  while (read(g_interrupt_pipe[0], &byte, 1) < 0 && errno == EINTR) {
  }
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  close(g_interrupt_pipe[0]);
  close(g_interrupt_pipe[1]);
  g_interrupt_pipe[0] = g_interrupt_pipe[1] = -1;
}

}  // namespace tg::web
