// File: tools/dashboard/pages_browser_test.cc
// The tuning pages in headless Chromium (tests/browser; skipped, visibly, without chromium):
// - the dashboard of a real `tg tune --dashboard --dashboard-wait` (the tg binary, argv[1]; a
//   small softmax on a local farm of one worker with fake timing, so the search's length does
//   not depend on the machine): the page shows a kernel's best time while the tune goes on or
//   once it is done, and when it has finished its kernel rows, plot lines and worker rows are
//   those of /api/state;
// - `tg db serve`'s page over a database with known records: a click on a column sorts by it
//   (again: the other way), the filter box keeps the matching rows.
// Screenshots of both go to the test's outputs (dashboard.png, db.png). Every wait has a
// generous deadline; nothing asserts on speed.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_format.h"
#include "autotune/db/tuning_db.h"
#include "gtest/gtest.h"
#include "httplib.h"
#include "nlohmann/json.hpp"
#include "tests/browser/launch_or_skip.h"
#include "tools/dashboard/db_page.h"
#include "tools/dashboard/test_records.h"

extern char** environ;

namespace tg::dashboard {
namespace {

using nlohmann::json;

std::string g_tg;  // the tg binary (argv[1])
constexpr auto kDeadline = std::chrono::seconds(240);

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A tg process, its stdout and stderr in files; interrupted (Ctrl-C) and reaped at the end.
class TgProcess {
 public:
  TgProcess(const std::vector<std::string>& args, const std::string& out_prefix)
      : out_(out_prefix + ".out"), err_(out_prefix + ".err") {
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, out_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<std::string> argv_s = {g_tg};
    argv_s.insert(argv_s.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : argv_s) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (posix_spawn(&pid_, g_tg.c_str(), &fa, nullptr, argv.data(), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&fa);
  }
  ~TgProcess() { Interrupt(); }
  bool started() const { return pid_ > 0; }
  // The URL the process printed after `prefix` ("dashboard: "), waiting for it; "" at the deadline.
  std::string WaitForUrl(const std::string& prefix) {
    for (auto until = std::chrono::steady_clock::now() + kDeadline; std::chrono::steady_clock::now() < until;) {
      std::string text = ReadFile(out_);
      if (size_t at = text.find(prefix + "http://"); at != std::string::npos) {
        size_t end = text.find_first_of(" \n", at + prefix.size());
        if (end != std::string::npos) return text.substr(at + prefix.size(), end - at - prefix.size());
      }
      int status;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return "";
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return "";
  }
  // SIGINT, then its exit status (-1 if it had to be killed).
  int Interrupt() {
    if (pid_ <= 0) return -1;
    kill(pid_, SIGINT);
    int status = 0;
    for (auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);;) {
      if (waitpid(pid_, &status, WNOHANG) == pid_) break;
      if (std::chrono::steady_clock::now() > until) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
        pid_ = -1;
        return -1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::string err() const { return ReadFile(err_); }

 private:
  std::string out_, err_;
  pid_t pid_ = -1;
};

json GetJson(const std::string& url, const std::string& path) {
  // url: http://127.0.0.1:PORT/
  const int port = std::stoi(url.substr(url.rfind(':') + 1));
  httplib::Client client("127.0.0.1", port);
  httplib::Result r = client.Get(path);
  if (!r || r->status != 200) return nullptr;
  return json::parse(r->body, nullptr, false);
}

// The page's fmtTime (page/common/common.js), for comparing cells with the JSON.
std::string FmtTime(const json& s) {
  if (!s.is_number()) return "-";
  const double v = s.get<double>();
  if (v < 1e-3) return absl::StrFormat("%.1f us", v * 1e6);
  if (v < 1) return absl::StrFormat("%.3f ms", v * 1e3);
  return absl::StrFormat("%.2f s", v);
}

std::string TempDir(const std::string& name) {
  std::string dir = ::testing::TempDir() + "/" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(DashboardPage, FollowsARealTune) {
  ASSERT_FALSE(g_tg.empty()) << "pass the tg binary as the first argument";
  const std::string dir = TempDir("dashboard");
  setenv("TG_CACHE_DIR", (dir + "/cache").c_str(), 1);  // not the user's compile caches
  TgProcess tune({"tune", "softmax", "--rows", "16", "--cols", "64", "--beam", "1", "--workers", "1",
                  "--fake-timing", "--db", dir + "/t.db", "--dashboard", "--dashboard-wait"},
                 dir + "/tune");
  ASSERT_TRUE(tune.started());
  const std::string url = tune.WaitForUrl("dashboard: ");
  ASSERT_FALSE(url.empty()) << tune.err();
  LAUNCH_BROWSER_OR_SKIP(browser, {.viewport_width = 1400, .viewport_height = 1000});
  ASSERT_TRUE(browser->Navigate(url).ok());
  const std::string rows = "[...document.querySelectorAll('#kernel-table tbody tr')]";
  absl::Status best = browser->WaitFor(
      rows + ".some(r => r.querySelector('td[data-col=best_s]').textContent !== '-')", kDeadline);
  ASSERT_TRUE(best.ok()) << best << "\n" << tune.err();
  ASSERT_TRUE(browser->WaitFor("document.getElementById('status').textContent.startsWith('finished')", kDeadline).ok())
      << tune.err();

  // The final page against the final JSON, row for row.
  json state = GetJson(url, "/api/state");
  ASSERT_TRUE(state.is_object());
  absl::StatusOr<json> shown = browser->Evaluate(
      rows + ".map(r => ({index: Number(r.dataset.kernel), name: r.querySelector('[data-col=name]').textContent, "
             "state: r.querySelector('[data-col=state]').textContent, "
             "best: r.querySelector('[data-col=best_s]').textContent, "
             "baseline: r.querySelector('[data-col=noopt_s]').textContent, "
             "opts: r.querySelector('[data-col=opts]').textContent}))");
  ASSERT_TRUE(shown.ok()) << shown.status();
  const json& kernels = state["kernels"];
  ASSERT_GE(kernels.size(), 1u);
  ASSERT_EQ(shown->size(), kernels.size());
  for (const json& row : *shown) {
    const json& k = kernels[row["index"].get<size_t>()];
    SCOPED_TRACE(k.dump());
    EXPECT_EQ(row["name"], k["name"]);
    EXPECT_EQ(row["state"], "done");
    EXPECT_EQ(row["best"], FmtTime(k["best_s"]));
    EXPECT_EQ(row["baseline"], FmtTime(k["noopt_s"]));
    EXPECT_EQ(row["opts"], k["opts"].get<std::string>().empty() ? "-" : k["opts"]);
  }
  // A plot line per kernel, and the farm's worker.
  EXPECT_EQ(*browser->Count("#plot svg path"), static_cast<int>(kernels.size()));
  EXPECT_EQ(*browser->Count("#workers tbody tr"), static_cast<int>(state["farm"]["workers"].size()));
  EXPECT_EQ(*browser->Text("#kernels h2"), "Kernels (final)");
  EXPECT_TRUE(browser->Screenshot(browser::TestOutputPath("dashboard.png")).ok());
  EXPECT_TRUE(browser->PageErrors().empty()) << browser->PageErrors().front();
  EXPECT_EQ(tune.Interrupt(), 0) << tune.err();
}

TEST(DbPage, SortsOnAClickAndFilters) {
  const std::string dir = TempDir("db");
  absl::StatusOr<std::unique_ptr<autotune::TuningDb>> db = autotune::OpenTuningDb(dir + "/t.db");
  ASSERT_TRUE(db.ok()) << db.status();
  for (const autotune::TuningRecord& r :
       {TestRecord(1, "dev", "r_16_16", 3e-5, 9e-5, 4e-5), TestRecord(2, "dev", "E_1024", 1e-5, 8e-5, 4e-5),
        TestRecord(3, "dev", "r_64_4", 2e-5, 2e-5, 1e-5)})
    ASSERT_TRUE((*db)->Put(r).ok());
  absl::StatusOr<std::unique_ptr<web::LocalServer>> server = ServeDbPage({}, db->get());
  ASSERT_TRUE(server.ok()) << server.status();
  LAUNCH_BROWSER_OR_SKIP(browser, {});
  ASSERT_TRUE(browser->Navigate((*server)->url()).ok());
  const std::string names = "[...document.querySelectorAll('#records-table tbody td[data-col=kernel]')].map(e => e.textContent)";
  ASSERT_TRUE(browser->WaitFor(names + ".length === 3", kDeadline).ok());
  EXPECT_EQ(*browser->Evaluate(names), json({"E_1024", "r_16_16", "r_64_4"}));  // the server's order
  ASSERT_TRUE(browser->Click("#records-table th[data-col=tuned_s]").ok());
  EXPECT_EQ(*browser->Evaluate(names), json({"E_1024", "r_64_4", "r_16_16"}));  // fastest first
  ASSERT_TRUE(browser->Click("#records-table th[data-col=tuned_s]").ok());
  EXPECT_EQ(*browser->Evaluate(names), json({"r_16_16", "r_64_4", "E_1024"}));
  ASSERT_TRUE(browser->Click("#records-table th[data-col=vs_noopt]").ok());
  EXPECT_EQ(*browser->Evaluate(names), json({"r_64_4", "r_16_16", "E_1024"}));  // 1x, 3x, 8x
  EXPECT_EQ(*browser->Text("#records-table tbody tr td[data-col=vs_noopt]"), "1.00x");
  ASSERT_TRUE(browser->Evaluate("(() => { const f = document.getElementById('filter'); f.value = 'r_'; "
                                "f.dispatchEvent(new Event('input')); })()").ok());
  EXPECT_EQ(*browser->Evaluate(names), json({"r_64_4", "r_16_16"}));  // still sorted as clicked
  EXPECT_TRUE(browser->Screenshot(browser::TestOutputPath("db.png")).ok());
  EXPECT_TRUE(browser->PageErrors().empty()) << browser->PageErrors().front();
}

}  // namespace
}  // namespace tg::dashboard

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc > 1) tg::dashboard::g_tg = std::filesystem::absolute(argv[1]).string();
  return RUN_ALL_TESTS();
}
