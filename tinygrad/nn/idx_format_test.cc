// File: tinygrad/nn/idx_format_test.cc
// ParseIdxHeader on small IDX files built here: good headers of several types and ranks, and
// every kind of bad file, each an error naming the file (run under --config=asan too: a bad
// file must never be read past its end).
#include "tinygrad/nn/idx_format.h"

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tinygrad/nn/dataset_test_files.h"

namespace tg {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// An IDX file with `data_bytes` bytes of data 0, 1, 2, ...
std::vector<std::byte> Idx(uint8_t type, std::initializer_list<uint32_t> dims, size_t data_bytes) {
  std::string data;
  for (size_t i = 0; i < data_bytes; ++i) data.push_back(static_cast<char>(i & 0xff));
  const std::string file = testing::IdxFile(type, dims, data);
  std::span<const std::byte> bytes = std::as_bytes(std::span<const char>(file));
  return {bytes.begin(), bytes.end()};
}

absl::Status Error(const std::vector<std::byte>& b) { return ParseIdxHeader(b, "f.idx").status(); }
std::string Message(const std::vector<std::byte>& b) { return std::string(Error(b).message()); }

TEST(IdxFormatTest, Uint8Images) {
  std::vector<std::byte> b = Idx(0x08, {3, 2, 5}, 30);
  absl::StatusOr<IdxHeader> h = ParseIdxHeader(b, "f.idx");
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_EQ(h->type_code, kIdxUint8);
  EXPECT_EQ(h->element_size, 1u);
  EXPECT_THAT(h->dims, ElementsAre(3, 2, 5));
  EXPECT_EQ(h->data_offset, 16u);  // the reference's fixed 0x10 for images
  EXPECT_EQ(h->data_size, 30u);
}

TEST(IdxFormatTest, Uint8LabelsAndWiderTypes) {
  absl::StatusOr<IdxHeader> labels = ParseIdxHeader(Idx(0x08, {7}, 7), "l.idx");
  ASSERT_TRUE(labels.ok()) << labels.status();
  EXPECT_EQ(labels->data_offset, 8u);  // the reference's fixed 8 for labels
  // Element sizes: int16 2, int32 4, float32 4, float64 8.
  for (auto [type, size] : std::vector<std::pair<uint8_t, size_t>>{
           {0x09, 1}, {0x0B, 2}, {0x0C, 4}, {0x0D, 4}, {0x0E, 8}}) {
    absl::StatusOr<IdxHeader> h = ParseIdxHeader(Idx(type, {2, 3}, 6 * size), "w.idx");
    ASSERT_TRUE(h.ok()) << int{type} << ": " << h.status();
    EXPECT_EQ(h->element_size, size);
    EXPECT_EQ(h->data_size, 6 * size);
  }
}

TEST(IdxFormatTest, EmptyDimsNeedNoData) {
  absl::StatusOr<IdxHeader> h = ParseIdxHeader(Idx(0x08, {0, 28, 28}, 0), "e.idx");
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_EQ(h->data_size, 0u);
}

TEST(IdxFormatTest, ShorterThanTheMagicNumber) {
  for (size_t n : {0, 1, 3}) {
    std::vector<std::byte> b(n, std::byte{0});
    absl::Status s = Error(b);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(s.message()), HasSubstr("f.idx"));
    EXPECT_THAT(std::string(s.message()), HasSubstr("magic number needs 4"));
  }
}

TEST(IdxFormatTest, BadMagicNumber) {
  std::vector<std::byte> gz = {std::byte{0x1f}, std::byte{0x8b}, std::byte{8},
                               std::byte{0}};  // still gzip'ed
  EXPECT_THAT(Message(gz), HasSubstr("bad magic number 1f8b0800"));
  EXPECT_THAT(Message(Idx(0x07, {1}, 1)), HasSubstr("unknown element type 0x07"));
  EXPECT_EQ(Error(Idx(0x07, {1}, 1)).code(), absl::StatusCode::kInvalidArgument);
}

TEST(IdxFormatTest, TruncatedHeader) {
  std::vector<std::byte> b = Idx(0x08, {60000, 28, 28}, 0);
  b.resize(13);  // the third dim cut
  EXPECT_THAT(Message(b), HasSubstr("truncated header: rank 3 needs 16 bytes, the file has 13"));
}

TEST(IdxFormatTest, TruncatedData) {
  absl::Status s = Error(Idx(0x08, {2, 28, 28}, 1567));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(
      std::string(s.message()),
      HasSubstr("f.idx: truncated data: dims [2, 28, 28] need 1568 bytes, the file holds 1567"));
  // Wide elements count too: 3 int32 need 12 bytes.
  EXPECT_THAT(Message(Idx(0x0C, {3}, 11)), HasSubstr("need 12 bytes"));
}

TEST(IdxFormatTest, TrailingBytes) {
  EXPECT_THAT(Message(Idx(0x08, {4}, 6)),
              HasSubstr("2 trailing bytes after the 4 bytes of dims [4]"));
}

TEST(IdxFormatTest, AbsurdDimsOverflow) {
  // 0xffffffff^3 * 8 bytes overflows 64 bits: an error, not a wrapped-around small size.
  absl::Status s = Error(Idx(0x0E, {0xffffffff, 0xffffffff, 0xffffffff}, 16));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("overflows"));
  // Huge but representable: truncated, not an allocation.
  EXPECT_THAT(Message(Idx(0x08, {0xffffffff, 0xffffffff}, 16)), HasSubstr("truncated data"));
  // An overflow that wraps to exactly the bytes there are (2^32 * 2^32 = 2^64 = 0 mod 2^64) is
  // still an overflow.
  EXPECT_THAT(Message(Idx(0x08, {0x10000, 0x10000, 0x10000, 0x10000}, 0)), HasSubstr("overflows"));
}

}  // namespace
}  // namespace tg
