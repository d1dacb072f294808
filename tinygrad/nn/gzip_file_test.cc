// File: tinygrad/nn/gzip_file_test.cc
// ReadGzipFile: round trips, plain files, and bad files (missing, truncated, corrupt, too big),
// each an error naming the file.
#include "tinygrad/nn/gzip_file.h"

#include <string>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tinygrad/nn/dataset_test_files.h"

namespace tg {
namespace {

using testing::FreshTestDir;
using testing::Gzip;
using ::testing::HasSubstr;
using testing::WriteFile;

std::string Text(size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s.push_back(static_cast<char>((i * 7919) % 251));
  return s;
}

TEST(GzipFileTest, RoundTrip) {
  const std::string dir = FreshTestDir("round_trip");
  for (size_t n : {0, 1, 1000, 3 << 20}) {  // 3 MiB: several of the reader's chunks
    const std::string path = dir + "/f.gz", text = Text(n);
    WriteFile(path, Gzip(text));
    absl::StatusOr<std::string> back = ReadGzipFile(path);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(*back, text) << n;
  }
}

TEST(GzipFileTest, PlainFileReadAsItIs) {
  const std::string path = FreshTestDir("plain") + "/f";
  const std::string idx("\x00\x00\x08\x01 not gzip", 13);  // an unpacked IDX header
  WriteFile(path, idx);
  absl::StatusOr<std::string> back = ReadGzipFile(path);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, idx);
}

TEST(GzipFileTest, MissingFileIsNotFound) {
  const std::string path = FreshTestDir("missing") + "/absent.gz";
  absl::Status s = ReadGzipFile(path).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(s.message()), HasSubstr("absent.gz"));
}

TEST(GzipFileTest, DirectoryIsNotAFile) {
  const std::string dir = FreshTestDir("a_dir");
  EXPECT_EQ(ReadGzipFile(dir).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(GzipFileTest, TruncatedStream) {
  const std::string path = FreshTestDir("truncated") + "/t.gz";
  const std::string packed = Gzip(Text(100000));
  for (size_t keep :
       {size_t{11}, packed.size() / 2, packed.size() - 4}) {  // header only, half, no trailer
    WriteFile(path, packed.substr(0, keep));
    absl::Status s = ReadGzipFile(path).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << keep;
    EXPECT_THAT(std::string(s.message()), HasSubstr("t.gz")) << keep;
  }
}

TEST(GzipFileTest, CorruptStream) {
  const std::string path = FreshTestDir("corrupt") + "/c.gz";
  std::string packed = Gzip(Text(100000));
  for (size_t i = 20; i < 60; ++i) packed[i] = static_cast<char>(packed[i] ^ 0x5a);
  WriteFile(path, packed);
  absl::Status s = ReadGzipFile(path).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("c.gz"));
}

TEST(GzipFileTest, LimitOnTheUnpackedSize) {
  const std::string path = FreshTestDir("limit") + "/big.gz";
  WriteFile(path, Gzip(std::string(5000, 'z')));  // a small file that unpacks large
  EXPECT_TRUE(ReadGzipFile(path, 5000).ok());
  absl::Status s = ReadGzipFile(path, 4999).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("big.gz: unpacks to more than 4999 bytes"));
}

}  // namespace
}  // namespace tg
