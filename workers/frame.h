// File: workers/frame.h
// The protocol between the worker daemon and its child processes: length-prefixed frames
// of opaque bytes, with a header that catches a child writing garbage.
//
// A frame is an 8-byte header {magic 0xC7, type, 0, 0, payload length (u32 little-endian)}
// followed by the payload. Readers reject a wrong magic, an unknown type, nonzero reserved
// bytes and a payload over their cap before reading the payload, so a child that writes junk to its
// protocol socket or claims a 4 GiB frame is caught at once.
//
// Conversation (parent -> child: P>, child -> parent: C>):
//   C> kReady                      once, when the child is ready for jobs
//   P> kJob(request)               a job; the child runs its handler
//   C> kWantDevice                 (optional, repeatable) the handler asks for the device
//   P> kGrant                      the device is the child's until kDeviceDone or kResponse
//   C> kDeviceDone
//   C> kResponse(bytes)            the job's result; ends any device hold
// The child reads jobs until EOF on its input.
//
// Example (parent side):
//   FrameParser parser(kDefaultMaxFrameBytes);
//   parser.Append(bytes_read);
//   while (std::optional<Frame> f = parser.Next()) Handle(*f);
//   if (!parser.error().empty()) KillChild(parser.error());
#ifndef WORKERS_FRAME_H_
#define WORKERS_FRAME_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace tg::workers {

enum class FrameType : uint8_t {
  kReady = 1,       // C> child started
  kJob = 2,         // P> request bytes
  kWantDevice = 3,  // C> asks for the device
  kGrant = 4,       // P> device granted
  kDeviceDone = 5,  // C> device released
  kResponse = 6,    // C> response bytes, ends the job
  kProgress = 7,    // C> a run starts (the hold goes on): its run deadline restarts; payload:
                    //    empty, or the run's limit (EncodeRunLimit)
  kRetiring = 8,    // C> after this job's response the child exits (DeviceGate::Retire):
                    //    the pool gives it no other job and replaces it
  kRelay = 9,       // C> while preparing: bytes for the daemon's relay (a compile server's
                    //    prepare request, DeviceGate::AskRelay)
  kRelayed = 10,    // P> the relay's answer; empty: none
};
std::string_view FrameTypeName(FrameType t);

// A progress frame's payload: the limit in seconds at which the child stops the run it starts
// (8 bytes, a little-endian IEEE double). Decoding accepts an empty payload (no limit: nullopt)
// and refuses anything but a finite limit >= 0.
std::string EncodeRunLimit(double limit_s);
absl::StatusOr<std::optional<double>> DecodeRunLimit(std::string_view payload);

inline constexpr uint8_t kFrameMagic = 0xC7;
inline constexpr size_t kFrameHeaderBytes = 8;
inline constexpr size_t kDefaultMaxFrameBytes = size_t{64} << 20;  // 64 MiB of payload

// The child's end of its connection to the parent: one Unix stream socket, which the parent
// dup2s to this fd (stdin/stdout/stderr stay free for logging, so a stray printf never corrupts
// the protocol; a socket, not pipes, so that the parent writes with MSG_NOSIGNAL and never
// gets SIGPIPE from a dead child).
inline constexpr int kChildFd = 3;

struct Frame {
  FrameType type = FrameType::kReady;
  std::string payload;
};

// Header + payload, ready to write.
std::string EncodeFrame(FrameType type, std::string_view payload = {});

// The payload length of a header, or an error that says what is wrong with it.
absl::StatusOr<size_t> DecodeFrameHeader(const uint8_t* header, size_t max_payload);

// Incremental parser for bytes arriving on a nonblocking socket. After an error it stays failed.
class FrameParser {
 public:
  explicit FrameParser(size_t max_payload) : max_payload_(max_payload) {}
  void Append(std::string_view bytes) { buffer_.append(bytes); }
  // The next complete frame, or nullopt (need more bytes, or error() is set).
  std::optional<Frame> Next();
  const std::string& error() const { return error_; }
  // Bytes received but not yet returned as frames (a truncated frame at EOF).
  size_t pending_bytes() const { return buffer_.size() - consumed_; }

 private:
  size_t max_payload_;
  std::string buffer_;
  size_t consumed_ = 0;
  std::string error_;
};

// Blocking I/O on a file descriptor (the child's side), retrying EINTR and short transfers.
// ReadFrame: nullopt at a clean EOF before any header byte; an error for a truncated or bad
// frame or a read error.
absl::StatusOr<std::optional<Frame>> ReadFrame(int fd, size_t max_payload);
absl::Status WriteFrame(int fd, FrameType type, std::string_view payload = {});
absl::Status WriteAll(int fd, std::string_view bytes);

}  // namespace tg::workers

#endif  // WORKERS_FRAME_H_
