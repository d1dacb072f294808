// File: workers/frame_test.cc
// Frames: round trip through the parser in arbitrary pieces, and every header the readers
// must reject; a progress frame's run limit; blocking I/O over a socketpair.
#include "workers/frame.h"

#include <sys/socket.h>
#include <unistd.h>

#include <limits>
#include <optional>
#include <string>

#include "gtest/gtest.h"

namespace tg::workers {
namespace {

TEST(FrameTest, RoundTripInPieces) {
  std::string bytes = EncodeFrame(FrameType::kJob, "hello") + EncodeFrame(FrameType::kGrant) +
                      EncodeFrame(FrameType::kResponse, std::string(100000, 'z'));
  FrameParser p(1 << 20);
  std::vector<Frame> got;
  // Feed 7 bytes at a time: frames complete across header and payload boundaries.
  for (size_t i = 0; i < bytes.size(); i += 7) {
    p.Append(std::string_view(bytes).substr(i, 7));
    while (std::optional<Frame> f = p.Next()) got.push_back(*f);
  }
  EXPECT_EQ(p.error(), "");
  EXPECT_EQ(p.pending_bytes(), 0u);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].type, FrameType::kJob);
  EXPECT_EQ(got[0].payload, "hello");
  EXPECT_EQ(got[1].type, FrameType::kGrant);
  EXPECT_EQ(got[1].payload, "");
  EXPECT_EQ(got[2].payload.size(), 100000u);
}

TEST(FrameTest, RejectsBadHeaders) {
  auto error_of = [](std::string bytes, size_t cap = 1024) {
    FrameParser p(cap);
    p.Append(bytes);
    EXPECT_FALSE(p.Next().has_value());
    return p.error();
  };
  EXPECT_NE(error_of("hello world, not a frame"), "");  // bad magic
  std::string f = EncodeFrame(FrameType::kJob, "x");
  std::string bad_type = f;
  bad_type[1] = 99;
  EXPECT_NE(error_of(bad_type).find("unknown frame type"), std::string::npos);
  std::string reserved = f;
  reserved[3] = 1;
  EXPECT_NE(error_of(reserved), "");
  // Oversized: rejected from the header alone, before any payload arrives.
  std::string huge = EncodeFrame(FrameType::kResponse);
  huge[7] = static_cast<char>(0x80);
  EXPECT_NE(error_of(huge).find("exceeds the cap"), std::string::npos);
  EXPECT_NE(error_of(EncodeFrame(FrameType::kJob, std::string(2000, 'a'))), "");
}

TEST(FrameTest, ParserStaysFailed) {
  FrameParser p(1024);
  p.Append("garbage!");
  EXPECT_FALSE(p.Next().has_value());
  p.Append(EncodeFrame(FrameType::kJob, "ok"));
  EXPECT_FALSE(p.Next().has_value());
  EXPECT_NE(p.error(), "");
}

TEST(FrameTest, RunLimitRoundTripsAndBadOnesAreRefused) {
  for (double limit : {0.0, 1e-3, 2.5, 3600.0}) {
    absl::StatusOr<std::optional<double>> d = DecodeRunLimit(EncodeRunLimit(limit));
    ASSERT_TRUE(d.ok()) << d.status();
    EXPECT_EQ(**d, limit);
  }
  absl::StatusOr<std::optional<double>> none = DecodeRunLimit("");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  EXPECT_FALSE(DecodeRunLimit("1234").ok());
  for (double bad : {-1.0, std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    absl::StatusOr<std::optional<double>> d = DecodeRunLimit(EncodeRunLimit(bad));
    EXPECT_FALSE(d.ok()) << bad;
    EXPECT_NE(d.status().message().find("not a finite time"), std::string::npos) << d.status();
  }
}

TEST(FrameTest, BlockingReadWrite) {
  int sv[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
  ASSERT_TRUE(WriteFrame(sv[0], FrameType::kReady).ok());
  ASSERT_TRUE(WriteFrame(sv[0], FrameType::kResponse, "abc").ok());
  ASSERT_TRUE(WriteAll(sv[0], EncodeFrame(FrameType::kJob, "cut").substr(0, 9)).ok());
  close(sv[0]);
  auto f1 = ReadFrame(sv[1], 1024);
  ASSERT_TRUE(f1.ok() && f1->has_value());
  EXPECT_EQ((*f1)->type, FrameType::kReady);
  auto f2 = ReadFrame(sv[1], 1024);
  ASSERT_TRUE(f2.ok() && f2->has_value());
  EXPECT_EQ((*f2)->payload, "abc");
  auto f3 = ReadFrame(sv[1], 1024);  // truncated payload at EOF
  EXPECT_FALSE(f3.ok());
  auto f4 = ReadFrame(sv[1], 1024);  // clean EOF
  ASSERT_TRUE(f4.ok());
  EXPECT_FALSE(f4->has_value());
  close(sv[1]);
}

}  // namespace
}  // namespace tg::workers
