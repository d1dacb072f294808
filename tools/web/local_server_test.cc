// File: tools/web/local_server_test.cc
#include "tools/web/local_server.h"

#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "httplib.h"
#include "tools/web/test_assets.h"

namespace tg::web {
namespace {

TEST(CheckServeOptionsTest, LoopbackIsServedAnythingElseNeedsTheFlag) {
  EXPECT_TRUE(CheckServeOptions({.host = "127.0.0.1"}).ok());
  EXPECT_TRUE(CheckServeOptions({.host = "127.1.2.3"}).ok());
  EXPECT_TRUE(CheckServeOptions({.host = "::1"}).ok());
  EXPECT_TRUE(CheckServeOptions({.host = "localhost"}).ok());
  absl::Status refused = CheckServeOptions({.host = "0.0.0.0"});
  EXPECT_EQ(refused.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(refused.message().find("refusing to serve on 0.0.0.0"), std::string::npos) << refused;
  EXPECT_NE(refused.message().find("--allow-remote"), std::string::npos) << refused;
  EXPECT_FALSE(CheckServeOptions({.host = "10.0.0.1"}).ok());
  EXPECT_TRUE(CheckServeOptions({.host = "0.0.0.0", .allow_remote = true}).ok());
}

TEST(CheckServeOptionsTest, PortOutsideTcpsRangeIsAnError) {
  absl::Status s = CheckServeOptions({.port = 70000});
  EXPECT_NE(s.message().find("port 70000 is not a TCP port"), std::string::npos) << s;
  EXPECT_FALSE(CheckServeOptions({.port = -1}).ok());
}

TEST(LocalServerTest, RefusesARemoteAddressWithoutStarting) {
  bool routed = false;
  auto server = LocalServer::Start({.host = "0.0.0.0"}, [&](httplib::Server&) { routed = true; });
  EXPECT_FALSE(server.ok());
  EXPECT_FALSE(routed);
}

TEST(LocalServerTest, ServesAssetsAndJsonOnLoopback) {
  auto server = LocalServer::Start({}, [](httplib::Server& s) {
    ServeAssets(s, TestAssets());
    s.Get("/api/answer", [](const httplib::Request&, httplib::Response& r) {
      SetJson(r, {{"answer", 42}, {"bytes", std::string("\xff bad utf-8")}});
    });
  });
  ASSERT_TRUE(server.ok()) << server.status();
  EXPECT_EQ((*server)->url(), "http://127.0.0.1:" + std::to_string((*server)->port()) + "/");

  httplib::Client client("127.0.0.1", (*server)->port());
  httplib::Result index = client.Get("/");
  ASSERT_TRUE(index);
  EXPECT_EQ(index->status, 200);
  EXPECT_EQ(index->get_header_value("Content-Type"), "text/html; charset=utf-8");
  EXPECT_NE(index->body.find(R"(hello "quoted" \n and )raw( text)"), std::string::npos) << index->body;

  httplib::Result js = client.Get("/app.js");
  ASSERT_TRUE(js);
  EXPECT_EQ(js->get_header_value("Content-Type"), "text/javascript; charset=utf-8");
  EXPECT_NE(js->body.find("const answer = 42;"), std::string::npos);

  httplib::Result api = client.Get("/api/answer");
  ASSERT_TRUE(api);
  nlohmann::json body = nlohmann::json::parse(api->body);
  EXPECT_EQ(body["answer"], 42);
  EXPECT_EQ(api->get_header_value("Cache-Control"), "no-store");

  httplib::Result missing = client.Get("/nothing-here");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->status, 404);

  const int port = (*server)->port();
  (*server)->Stop();
  httplib::Client after_stop("127.0.0.1", port);
  httplib::Result gone = after_stop.Get("/");
  EXPECT_FALSE(gone) << gone->status << " " << gone->body;
}

TEST(LocalServerTest, APortInUseIsAnErrorNamingIt) {
  auto first = LocalServer::Start({}, [](httplib::Server&) {});
  ASSERT_TRUE(first.ok()) << first.status();
  auto second = LocalServer::Start({.port = (*first)->port()}, [](httplib::Server&) {});
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.status().message().find("cannot listen on 127.0.0.1:" + std::to_string((*first)->port())),
            std::string::npos)
      << second.status();
}

}  // namespace
}  // namespace tg::web
