// File: tinygrad/base/unique_fd_test.cc
#include "tinygrad/base/unique_fd.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <utility>

#include "gtest/gtest.h"

namespace tg {
namespace {

int OpenDevNull() { return open("/dev/null", O_RDONLY | O_CLOEXEC); }

// Whether `fd` is an open descriptor of this process.
bool IsOpen(int fd) {
  errno = 0;
  if (fcntl(fd, F_GETFD) != -1) return true;
  EXPECT_EQ(errno, EBADF);
  return false;
}

TEST(UniqueFdTest, EmptyByDefaultAndForNegative) {
  UniqueFd a;
  EXPECT_FALSE(a);
  EXPECT_FALSE(a.valid());
  EXPECT_EQ(a.get(), -1);
  UniqueFd b(-5);
  EXPECT_EQ(b.get(), -1);
}

TEST(UniqueFdTest, ClosesOnDestruction) {
  int raw = OpenDevNull();
  ASSERT_GE(raw, 0);
  {
    UniqueFd fd(raw);
    EXPECT_TRUE(fd);
    EXPECT_EQ(fd.get(), raw);
    EXPECT_TRUE(IsOpen(raw));
  }
  EXPECT_FALSE(IsOpen(raw));
}

TEST(UniqueFdTest, MoveTransfersOwnership) {
  int raw = OpenDevNull();
  ASSERT_GE(raw, 0);
  UniqueFd to;
  {
    UniqueFd from(raw);
    UniqueFd mid(std::move(from));
    EXPECT_FALSE(from);  // NOLINT(bugprone-use-after-move): moved-from is empty by contract
    EXPECT_EQ(mid.get(), raw);
    to = std::move(mid);
    EXPECT_FALSE(mid);  // NOLINT(bugprone-use-after-move)
  }
  EXPECT_EQ(to.get(), raw);
  EXPECT_TRUE(IsOpen(raw));  // the moved-from owners closed nothing
  to = UniqueFd();           // assigning over an owner closes what it held
  EXPECT_FALSE(IsOpen(raw));
}

TEST(UniqueFdTest, ReleaseDoesNotClose) {
  int raw = OpenDevNull();
  ASSERT_GE(raw, 0);
  {
    UniqueFd fd(raw);
    EXPECT_EQ(fd.release(), raw);
    EXPECT_FALSE(fd);
  }
  EXPECT_TRUE(IsOpen(raw));
  close(raw);
}

TEST(UniqueFdTest, ResetClosesTheOldOne) {
  int first = OpenDevNull();
  int second = OpenDevNull();
  ASSERT_GE(first, 0);
  ASSERT_GE(second, 0);
  UniqueFd fd(first);
  fd.reset(second);
  EXPECT_FALSE(IsOpen(first));
  EXPECT_TRUE(IsOpen(second));
  EXPECT_EQ(fd.get(), second);
  fd.reset(second);  // the same descriptor again: kept, not closed
  EXPECT_TRUE(IsOpen(second));
  fd.reset();
  EXPECT_FALSE(IsOpen(second));
  EXPECT_FALSE(fd);
}

}  // namespace
}  // namespace tg
