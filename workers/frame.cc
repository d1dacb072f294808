// File: workers/frame.cc
// Frame encoding, the incremental parser, and blocking frame I/O for the child side.
#include "workers/frame.h"

#include <errno.h>
#include <unistd.h>

#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/check.h"

namespace tg::workers {
namespace {

bool KnownType(uint8_t t) {
  return t >= static_cast<uint8_t>(FrameType::kReady) &&
         t <= static_cast<uint8_t>(FrameType::kRelayed);
}

// Reads exactly n bytes; returns how many arrived before EOF (< n only at EOF).
absl::StatusOr<size_t> ReadFull(int fd, char* out, size_t n) {
  size_t got = 0;
  while (got < n) {
    ssize_t r = ::read(fd, out + got, n - got);
    if (r < 0) {
      if (errno == EINTR) continue;
      return absl::InternalError(absl::StrCat("read: ", std::strerror(errno)));
    }
    if (r == 0) break;
    got += static_cast<size_t>(r);
  }
  return got;
}

}  // namespace

std::string_view FrameTypeName(FrameType t) {
  switch (t) {
    case FrameType::kReady: return "ready";
    case FrameType::kJob: return "job";
    case FrameType::kWantDevice: return "want_device";
    case FrameType::kGrant: return "grant";
    case FrameType::kDeviceDone: return "device_done";
    case FrameType::kResponse: return "response";
    case FrameType::kProgress: return "progress";
    case FrameType::kRetiring: return "retiring";
    case FrameType::kRelay: return "relay";
    case FrameType::kRelayed: return "relayed";
  }
  return "unknown";
}

std::string EncodeFrame(FrameType type, std::string_view payload) {
  TG_CHECK(payload.size() <= 0xffffffffu) << "frame payload of " << payload.size() << " bytes";
  std::string out(kFrameHeaderBytes, '\0');
  out[0] = static_cast<char>(kFrameMagic);
  out[1] = static_cast<char>(type);
  uint32_t n = static_cast<uint32_t>(payload.size());
  for (int i = 0; i < 4; ++i) out[4 + i] = static_cast<char>((n >> (8 * i)) & 0xff);
  out.append(payload);
  return out;
}

std::string EncodeRunLimit(double limit_s) {
  uint64_t bits;
  std::memcpy(&bits, &limit_s, sizeof bits);
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>((bits >> (8 * i)) & 0xff);
  return out;
}

absl::StatusOr<std::optional<double>> DecodeRunLimit(std::string_view payload) {
  if (payload.empty()) return std::optional<double>();
  if (payload.size() != 8)
    return absl::DataLossError(absl::StrCat("a run limit is 8 bytes, not ", payload.size()));
  uint64_t bits = 0;
  for (int i = 0; i < 8; ++i) bits |= uint64_t{static_cast<uint8_t>(payload[i])} << (8 * i);
  double limit_s;
  std::memcpy(&limit_s, &bits, sizeof limit_s);
  if (!std::isfinite(limit_s) || limit_s < 0)
    return absl::DataLossError(absl::StrCat("run limit ", limit_s, " s is not a finite time"));
  return std::optional<double>(limit_s);
}

absl::StatusOr<size_t> DecodeFrameHeader(const uint8_t* h, size_t max_payload) {
  if (h[0] != kFrameMagic) {
    return absl::DataLossError(absl::StrCat("bad frame magic 0x", absl::Hex(h[0])));
  }
  if (!KnownType(h[1])) return absl::DataLossError(absl::StrCat("unknown frame type ", h[1]));
  if (h[2] != 0 || h[3] != 0) return absl::DataLossError("nonzero reserved frame bytes");
  size_t n = size_t{h[4]} | size_t{h[5]} << 8 | size_t{h[6]} << 16 | size_t{h[7]} << 24;
  if (n > max_payload) {
    return absl::ResourceExhaustedError(
        absl::StrCat("frame of ", n, " bytes exceeds the cap of ", max_payload));
  }
  return n;
}

std::optional<Frame> FrameParser::Next() {
  if (!error_.empty()) return std::nullopt;
  size_t avail = buffer_.size() - consumed_;
  if (avail < kFrameHeaderBytes) return std::nullopt;
  const auto* h = reinterpret_cast<const uint8_t*>(buffer_.data() + consumed_);
  absl::StatusOr<size_t> n = DecodeFrameHeader(h, max_payload_);
  if (!n.ok()) {
    error_ = std::string(n.status().message());
    return std::nullopt;
  }
  if (avail < kFrameHeaderBytes + *n) return std::nullopt;
  Frame f{static_cast<FrameType>(h[1]), buffer_.substr(consumed_ + kFrameHeaderBytes, *n)};
  consumed_ += kFrameHeaderBytes + *n;
  // Drop consumed bytes once they dominate the buffer, so appends stay amortized O(1).
  if (consumed_ == buffer_.size()) {
    buffer_.clear();
    consumed_ = 0;
  } else if (consumed_ > buffer_.size() / 2) {
    buffer_.erase(0, consumed_);
    consumed_ = 0;
  }
  return f;
}

absl::StatusOr<std::optional<Frame>> ReadFrame(int fd, size_t max_payload) {
  uint8_t header[kFrameHeaderBytes];
  absl::StatusOr<size_t> got = ReadFull(fd, reinterpret_cast<char*>(header), sizeof(header));
  if (!got.ok()) return got.status();
  if (*got == 0) return std::optional<Frame>();
  if (*got < sizeof(header)) return absl::DataLossError("truncated frame header");
  absl::StatusOr<size_t> n = DecodeFrameHeader(header, max_payload);
  if (!n.ok()) return n.status();
  Frame f{static_cast<FrameType>(header[1]), std::string(*n, '\0')};
  got = ReadFull(fd, f.payload.data(), *n);
  if (!got.ok()) return got.status();
  if (*got < *n) return absl::DataLossError("truncated frame payload");
  return std::optional<Frame>(std::move(f));
}

absl::Status WriteAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t w = ::write(fd, bytes.data(), bytes.size());
    if (w < 0) {
      if (errno == EINTR) continue;
      return absl::InternalError(absl::StrCat("write: ", std::strerror(errno)));
    }
    bytes.remove_prefix(static_cast<size_t>(w));
  }
  return absl::OkStatus();
}

absl::Status WriteFrame(int fd, FrameType type, std::string_view payload) {
  return WriteAll(fd, EncodeFrame(type, payload));
}

}  // namespace tg::workers
