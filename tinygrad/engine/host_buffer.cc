// File: tinygrad/engine/host_buffer.cc
#include "tinygrad/engine/host_buffer.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"

namespace tg {

absl::Status HostRawBuffer::CopyIn(std::span<const std::byte> src, size_t offset) {
  RETURN_IF_ERROR(CheckRange(offset, src.size()));
  if (!src.empty()) std::memcpy(buf_.bytes().data() + offset, src.data(), src.size());
  return absl::OkStatus();
}

absl::Status HostRawBuffer::CopyOut(std::span<std::byte> dst, size_t offset) const {
  RETURN_IF_ERROR(CheckRange(offset, dst.size()));
  if (!dst.empty()) std::memcpy(dst.data(), buf_.bytes().data() + offset, dst.size());
  return absl::OkStatus();
}

absl::Status HostRawBuffer::CheckRange(size_t offset, size_t n) const {
  if (offset > buf_.size() || n > buf_.size() - offset)
    return absl::InvalidArgumentError(
        absl::StrCat("copy of ", n, " bytes at offset ", offset, " is outside a ", buf_.size(), "-byte buffer"));
  return absl::OkStatus();
}

}  // namespace tg
