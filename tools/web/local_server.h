// File: tools/web/local_server.h
// The HTTP server of tg's local pages (VIZ, the tuning dashboard, `tg db serve`): cpp-httplib
// listening on its own thread, on loopback unless the caller says otherwise.
//
// The pages have no authentication, so a server binds 127.0.0.1 (or another loopback address)
// and refuses any other address unless ServeOptions::allow_remote is set (a flag the user
// passes on purpose, e.g. `--allow-remote`).
//
// Example:
//   ASSIGN_OR_RETURN(std::unique_ptr<LocalServer> server,
//                    LocalServer::Start({}, [&](httplib::Server& s) {
//                      ServeAssets(s, VizAssets());
//                      s.Get("/api/kernels", ...);
//                    }));
//   std::cout << "VIZ: " << server->url() << "\n";
//   WaitForInterrupt();  // until Ctrl-C
#ifndef TOOLS_WEB_LOCAL_SERVER_H_
#define TOOLS_WEB_LOCAL_SERVER_H_

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "httplib.h"
#include "nlohmann/json.hpp"
#include "tools/web/asset.h"

namespace tg::web {

struct ServeOptions {
  std::string host = "127.0.0.1";
  int port = 0;               // 0: any free port
  bool allow_remote = false;  // bind a non-loopback address (anyone who reaches it can read)
};

// OK for a loopback host ("127.x.x.x", "::1", "localhost"); otherwise an error naming the
// host and the flag, unless options.allow_remote. A port outside 0..65535 is an error.
absl::Status CheckServeOptions(const ServeOptions& options);

class LocalServer {
 public:
  // Checks the options, lets `routes` register handlers, binds and starts listening. Errors:
  // the options' (above), or the address cannot be bound (in use, not an address here).
  static absl::StatusOr<std::unique_ptr<LocalServer>> Start(
      const ServeOptions& options, const std::function<void(httplib::Server&)>& routes);
  ~LocalServer();  // Stop()
  LocalServer(const LocalServer&) = delete;
  LocalServer& operator=(const LocalServer&) = delete;

  int port() const { return port_; }
  const std::string& url() const { return url_; }  // "http://127.0.0.1:8123/"
  // Closes the socket and joins the server's thread; requests in progress finish first.
  void Stop();

 private:
  LocalServer() = default;
  httplib::Server server_;
  std::thread thread_;
  std::atomic<bool> listen_returned_ = false;
  int port_ = 0;
  std::string url_;
};

// Serves each asset at its path, and "/" as "/index.html" where there is one.
void ServeAssets(httplib::Server& server, absl::Span<const Asset> assets);

// Sets a JSON body (application/json, not cached: the pages poll for live data).
void SetJson(httplib::Response& response, const nlohmann::json& body);

// Blocks until SIGINT or SIGTERM (Ctrl-C), then restores the previous handlers. For a command
// whose job is to serve a page until the user is done with it.
void WaitForInterrupt();

}  // namespace tg::web

#endif  // TOOLS_WEB_LOCAL_SERVER_H_
