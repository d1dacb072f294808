// File: autotune/lock/device_lock_test.cc
#include "autotune/lock/device_lock.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/base/wait_until.h"

namespace tg::autotune {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

std::string TempLockPath(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  return std::string(tmp != nullptr ? tmp : "/tmp") + "/locks/" + name + ".lock";
}

// Whether anyone holds `file` in a way that excludes an exclusive flock (a probe that takes
// nothing: it fails or releases at once).
bool Held(const std::string& file) {
  int fd = open(file.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return false;
  bool held = flock(fd, LOCK_EX | LOCK_NB) != 0;
  close(fd);
  return held;
}

// Whether a thread or process is blocked in flock on `file` (a "->" line of /proc/locks on
// its inode): what a test waits for instead of sleeping "long enough" for it to get there.
bool Blocked(const std::string& file) {
  struct stat st;
  if (stat(file.c_str(), &st) != 0) return false;
  const std::string inode = ":" + std::to_string(st.st_ino) + " ";
  std::ifstream locks("/proc/locks");
  for (std::string line; std::getline(locks, line);)
    if (line.find("->") != std::string::npos && line.find(inode) != std::string::npos) return true;
  return false;
}

TEST(DeviceLockTest, ExclusiveHoldersNeverOverlap) {
  auto lock = DeviceLock::Open(TempLockPath("exclusive"));
  ASSERT_TRUE(lock.ok()) << lock.status();
  std::atomic<int> inside{0}, most{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 50; ++i) {
        auto h = (*lock)->Exclusive();
        ASSERT_TRUE(h.ok()) << h.status();
        int now = ++inside;
        most = std::max(most.load(), now);
        std::this_thread::yield();
        --inside;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(most.load(), 1);
}

TEST(DeviceLockTest, SharedHoldersOverlapAndExcludeARun) {
  auto lock = DeviceLock::Open(TempLockPath("shared"));
  ASSERT_TRUE(lock.ok()) << lock.status();
  auto a = (*lock)->Shared();
  ASSERT_TRUE(a.ok());
  // a second compile gets in while the first holds it
  auto b = std::async(std::launch::async, [&] { return (*lock)->Shared(); });
  ASSERT_EQ(b.wait_for(kTestWaitLimit), std::future_status::ready);
  auto b_hold = b.get();
  ASSERT_TRUE(b_hold.ok());
  // a run waits for both
  std::atomic<bool> ran{false};
  std::thread run([&] {
    auto h = (*lock)->Exclusive();
    ASSERT_TRUE(h.ok());
    ran = true;
  });
  ASSERT_TRUE(WaitUntil([&] { return Blocked((*lock)->path()); })) << "the run never waited for the compiles";
  EXPECT_FALSE(ran.load());
  *a = DeviceLock::Hold();
  // Still blocked by b: a while later it has not run (it cannot, whatever the machine's speed).
  std::this_thread::sleep_for(milliseconds(50));
  EXPECT_FALSE(ran.load()) << "the run started while a compile still held the device";
  *b_hold = DeviceLock::Hold();
  run.join();
  EXPECT_TRUE(ran.load());
}

TEST(DeviceLockTest, AWaitingRunGoesBeforeLaterCompiles) {
  const std::string path = TempLockPath("turnstile");
  auto lock = DeviceLock::Open(path);
  ASSERT_TRUE(lock.ok()) << lock.status();
  auto first = (*lock)->Shared();
  ASSERT_TRUE(first.ok());
  std::vector<char> order;
  std::mutex mu;
  std::thread run([&] {
    auto h = (*lock)->Exclusive();
    ASSERT_TRUE(h.ok());
    std::lock_guard<std::mutex> g(mu);
    order.push_back('R');
  });
  // the run waits for the compile, holding the turnstile
  ASSERT_TRUE(WaitUntil([&] { return Held(path + ".turnstile") && Blocked(path); })) << "the run never waited";
  std::thread compile([&] {
    auto h = (*lock)->Shared();
    ASSERT_TRUE(h.ok());
    std::lock_guard<std::mutex> g(mu);
    order.push_back('C');
  });
  ASSERT_TRUE(WaitUntil([&] { return Blocked(path + ".turnstile"); })) << "the compile never queued at the turnstile";
  {
    std::lock_guard<std::mutex> g(mu);
    EXPECT_TRUE(order.empty()) << "a later compile overtook the waiting run";
  }
  *first = DeviceLock::Hold();
  run.join();
  compile.join();
  EXPECT_EQ(std::string(order.begin(), order.end()), "RC");
}

TEST(DeviceLockTest, AKilledHolderLeavesTheDeviceFree) {
  const std::string path = TempLockPath("killed");
  auto lock = DeviceLock::Open(path);
  ASSERT_TRUE(lock.ok()) << lock.status();
  pid_t pid = fork();  // no other thread runs in this test binary now
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    auto h = (*lock)->Exclusive();
    if (!h.ok()) _exit(1);
    while (true) pause();
  }
  ASSERT_TRUE(WaitUntil([&] { return Held(path); })) << "the child never took the lock";
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  int status;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFSIGNALED(status));
  auto h = (*lock)->Exclusive();
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_TRUE(h->held());
}

// Preopened descriptors: holds open no file (the lock's directory can be gone), exclude each
// other like fresh ones, and there are only as many at once as were opened.
TEST(DeviceLockTest, PreopenedDescriptorsOpenNothingLater) {
  const std::string dir = TempLockPath("preopened");  // a directory here
  const std::string moved = dir + ".moved";
  std::filesystem::remove_all(moved);
  auto fresh = DeviceLock::Open(dir + "/fresh.lock");
  auto kept = DeviceLock::Open(dir + "/kept.lock", 2);
  ASSERT_TRUE(fresh.ok()) << fresh.status();
  ASSERT_TRUE(kept.ok()) << kept.status();
  std::filesystem::rename(dir, moved);  // opening the lock's path fails from here on
  EXPECT_FALSE((*fresh)->Shared().ok()) << "the premise: a fresh hold opens the file";

  auto a = (*kept)->Shared();
  auto b = (*kept)->Shared();
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok()) << b.status();
  auto c = (*kept)->Shared();
  EXPECT_EQ(c.status().code(), absl::StatusCode::kResourceExhausted) << c.status();
  *a = DeviceLock::Hold();  // its descriptor is back, unlocked
  std::atomic<bool> ran{false};
  std::thread run([&] {
    auto h = (*kept)->Exclusive();
    ASSERT_TRUE(h.ok()) << h.status();
    ran = true;
  });
  ASSERT_TRUE(WaitUntil([&] { return Blocked(moved + "/kept.lock"); })) << "the run never waited for the compile";
  EXPECT_FALSE(ran.load());
  *b = DeviceLock::Hold();
  run.join();
  EXPECT_TRUE(ran.load());
  // Moved holds give their descriptor back once, when the last owner ends.
  auto d = (*kept)->Exclusive();
  ASSERT_TRUE(d.ok());
  DeviceLock::Hold moved_hold = *std::move(d);
  moved_hold = DeviceLock::Hold();
  auto e = (*kept)->Shared();
  auto f = (*kept)->Shared();
  EXPECT_TRUE(e.ok() && f.ok()) << e.status() << " " << f.status();
  std::filesystem::remove_all(moved);
}

TEST(DeviceLockTest, BadPathsAreNamed) {
  auto empty = DeviceLock::Open("");
  EXPECT_FALSE(empty.ok());
  auto in_proc = DeviceLock::Open("/proc/self/no/such/device.lock");
  ASSERT_FALSE(in_proc.ok());
  EXPECT_NE(in_proc.status().message().find("/proc/self/no/such"), std::string::npos) << in_proc.status();
  auto a_dir = DeviceLock::Open("/");
  EXPECT_FALSE(a_dir.ok());
}

TEST(DeviceLockTest, DefaultPathIsPerDeviceInTheCacheDir) {
  EXPECT_EQ(DefaultDeviceLockPath("/home/u/.cache/tinygrad-cc", "CPU"), "/home/u/.cache/tinygrad-cc/device-CPU.lock");
}

}  // namespace
}  // namespace tg::autotune
