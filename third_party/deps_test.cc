// Checks that the system-library overlays in this directory compile and link: every absl
// component @absl//:absl promises, gtest and gmock, SQLite, the LLVM C API, clang's C++ API,
// Cap'n Proto, ZeroMQ (with CURVE), libpq, libseccomp, zlib, cpp-httplib, Graphviz, and the
// header-only nlohmann-json and CLI11.

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/hash/hash.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "CLI/CLI.hpp"
#include "capnp/any.h"
#include "capnp/message.h"
#include "capnp/serialize.h"
#include "clang/Basic/Version.h"
#include "gmock/gmock.h"
#include "graphviz/gvc.h"
#include "gtest/gtest.h"
#include "httplib.h"
#include "llvm-c/Core.h"
#include "nlohmann/json.hpp"
#include "postgresql/libpq-fe.h"
#include "seccomp.h"
#include "sqlite3.h"
#include "zlib.h"
#include "zmq.h"

// LeakSanitizer (tools/test --config=asan): Graphviz's gvContext and the fontconfig caches its
// text layout fills keep memory that gvFreeContext does not free; the leaks are theirs.
extern "C" const char* __lsan_default_suppressions() { return "leak:libgvc.so\nleak:libfontconfig.so\n"; }

namespace {

using ::testing::ElementsAre;

absl::StatusOr<int> Half(int x) {
  if (x % 2 != 0) return absl::InvalidArgumentError(absl::StrCat(x, " is odd"));
  return x / 2;
}

TEST(DepsTest, AbslStrings) {
  EXPECT_EQ(absl::StrFormat("%s-%03d", "k", 7), "k-007");
  std::vector<std::string> parts = absl::StrSplit("a,b,c", ',');
  EXPECT_THAT(parts, ElementsAre("a", "b", "c"));
  EXPECT_EQ(absl::StrJoin(parts, "+"), "a+b+c");
}

TEST(DepsTest, AbslStatus) {
  EXPECT_EQ(*Half(4), 2);
  absl::StatusOr<int> odd = Half(3);
  ASSERT_FALSE(odd.ok());
  EXPECT_EQ(odd.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(odd.status().message(), "3 is odd");
}

TEST(DepsTest, AbslContainersAndHash) {
  absl::flat_hash_map<std::string, int> m;
  absl::flat_hash_set<int> s;
  for (int i = 0; i < 1000; ++i) {
    m[absl::StrCat("k", i)] = i;
    s.insert(i);
  }
  EXPECT_EQ(m.at("k999"), 999);
  EXPECT_EQ(s.size(), 1000u);
  EXPECT_EQ(absl::HashOf(std::string("x")), absl::HashOf(std::string("x")));
}

TEST(DepsTest, AbslSynchronization) {
  absl::Mutex mu;
  int n = 0;
  {
    absl::MutexLock lock(&mu);
    ++n;
  }
  EXPECT_EQ(n, 1);
}

TEST(DepsTest, Sqlite) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(":memory:", &db), SQLITE_OK);
  EXPECT_EQ(sqlite3_exec(db, "CREATE TABLE t(x); INSERT INTO t VALUES (1);", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
}

TEST(DepsTest, LlvmCApi) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef mod = LLVMModuleCreateWithNameInContext("m", ctx);
  LLVMTypeRef fn_type = LLVMFunctionType(LLVMInt32TypeInContext(ctx), nullptr, 0, 0);
  LLVMAddFunction(mod, "f", fn_type);
  EXPECT_NE(LLVMGetNamedFunction(mod, "f"), nullptr);
  LLVMDisposeModule(mod);
  LLVMContextDispose(ctx);
}

TEST(DepsTest, ClangCppApi) {
  // a function defined in libclang-cpp.so
  EXPECT_NE(clang::getClangFullVersion().find("clang version 14"), std::string::npos);
}

TEST(DepsTest, CapnpAndKj) {
  // an empty message round-trips through the flat-array serializer of libcapnp/libkj
  capnp::MallocMessageBuilder builder;
  builder.getRoot<capnp::AnyPointer>();  // allocates the root segment
  kj::Array<capnp::word> words = capnp::messageToFlatArray(builder);
  capnp::FlatArrayMessageReader reader(words.asPtr());
  EXPECT_GT(words.size(), 0u);
}

TEST(DepsTest, ZeroMqWithCurve) {
  int major = 0, minor = 0, patch = 0;
  zmq_version(&major, &minor, &patch);
  EXPECT_EQ(major, 4);
  EXPECT_TRUE(zmq_has("curve")) << "libzmq was built without libsodium: the farm needs CURVE";
}

TEST(DepsTest, Libpq) { EXPECT_GE(PQlibVersion(), 150000); }

TEST(DepsTest, Libseccomp) {
  const scmp_version* v = seccomp_version();
  ASSERT_NE(v, nullptr);
  EXPECT_GE(v->major * 100 + v->minor, 205u);
  // A filter is built (not loaded: that would bind this test process).
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  ASSERT_NE(ctx, nullptr);
  EXPECT_EQ(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(1), SCMP_SYS(execve), 0), 0);
  seccomp_release(ctx);
}

TEST(DepsTest, NlohmannJson) {
  // ordered_json keeps insertion order, which the tuning records' JSON lines rely on
  nlohmann::ordered_json j = {{"b", 1}, {"a", {1.5, nullptr}}};
  EXPECT_EQ(j.dump(), R"({"b":1,"a":[1.5,null]})");
  EXPECT_EQ(nlohmann::json::parse(R"({"x":[1,2]})").at("x").at(1).get<int>(), 2);
  EXPECT_THROW(nlohmann::json::parse("{"), nlohmann::json::parse_error);
}

TEST(DepsTest, Cli11) {
  CLI::App app("test", "t");
  int n = 0;
  app.add_option("--n", n);
  app.parse(std::vector<std::string>{"7", "--n"});  // CLI11 takes the arguments reversed
  EXPECT_EQ(n, 7);
  EXPECT_THROW(app.parse(std::vector<std::string>{"--bogus"}), CLI::ParseError);
}

TEST(DepsTest, Zlib) {
  const std::string text = "zlib zlib zlib zlib";
  std::vector<Bytef> packed(compressBound(text.size()));
  uLongf packed_size = packed.size();
  ASSERT_EQ(compress(packed.data(), &packed_size, reinterpret_cast<const Bytef*>(text.data()), text.size()), Z_OK);
  std::string back(text.size(), '\0');
  uLongf back_size = back.size();
  ASSERT_EQ(uncompress(reinterpret_cast<Bytef*>(back.data()), &back_size, packed.data(), packed_size), Z_OK);
  EXPECT_EQ(back, text);
}

TEST(DepsTest, HttplibServesOnLoopback) {
  httplib::Server server;
  server.Get("/ping", [](const httplib::Request&, httplib::Response& res) { res.set_content("pong", "text/plain"); });
  const int port = server.bind_to_any_port("127.0.0.1");
  ASSERT_GT(port, 0);
  std::thread thread([&] { server.listen_after_bind(); });
  httplib::Client client("127.0.0.1", port);
  std::string body;
  // Retries until the listener thread answers; the deadline only bounds a broken server.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (body.empty() && std::chrono::steady_clock::now() < deadline) {
    if (httplib::Result res = client.Get("/ping")) {
      body = res->body;
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  server.stop();
  thread.join();
  EXPECT_EQ(body, "pong");
}

TEST(DepsTest, GraphvizLaysOutAndRendersSvg) {
  GVC_t* gvc = gvContext();
  char text[] = "digraph { a -> b }";
  Agraph_t* graph = agmemread(text);
  ASSERT_NE(graph, nullptr);
  ASSERT_EQ(gvLayout(gvc, graph, "dot"), 0);
  char* svg = nullptr;
  unsigned int length = 0;
  ASSERT_EQ(gvRenderData(gvc, graph, "svg", &svg, &length), 0);
  EXPECT_NE(std::string(svg, length).find("<svg"), std::string::npos);
  gvFreeRenderData(svg);
  gvFreeLayout(gvc, graph);
  agclose(graph);
  gvFreeContext(gvc);
}

}  // namespace
