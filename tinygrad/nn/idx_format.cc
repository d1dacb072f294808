// File: tinygrad/nn/idx_format.cc
#include "tinygrad/nn/idx_format.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace tg {
namespace {

// Bytes per element of an IDX type code; 0 for a code the format does not define.
size_t ElementSize(uint8_t code) {
  switch (code) {
    case 0x08:  // uint8
    case 0x09:  // int8
      return 1;
    case 0x0B:  // int16
      return 2;
    case 0x0C:  // int32
    case 0x0D:  // float32
      return 4;
    case 0x0E:  // float64
      return 8;
    default:
      return 0;
  }
}

uint32_t BigEndianU32(std::span<const std::byte> b) {
  return (uint32_t{static_cast<uint8_t>(b[0])} << 24) |
         (uint32_t{static_cast<uint8_t>(b[1])} << 16) |
         (uint32_t{static_cast<uint8_t>(b[2])} << 8) | uint32_t{static_cast<uint8_t>(b[3])};
}

absl::Status Bad(std::string_view name, std::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrCat("IDX file ", std::string(name), ": ", std::string(what)));
}

}  // namespace

absl::StatusOr<IdxHeader> ParseIdxHeader(std::span<const std::byte> bytes, std::string_view name) {
  if (bytes.size() < 4) {
    return Bad(name, absl::StrCat("truncated: ", bytes.size(), " bytes, the magic number needs 4"));
  }
  auto byte = [&](size_t i) { return static_cast<uint8_t>(bytes[i]); };
  if (byte(0) != 0 || byte(1) != 0) {
    return Bad(
        name,
        absl::StrFormat("bad magic number %02x%02x%02x%02x: an IDX file starts with two zero bytes",
                        byte(0), byte(1), byte(2), byte(3)));
  }
  IdxHeader h;
  h.type_code = byte(2);
  h.element_size = ElementSize(h.type_code);
  if (h.element_size == 0) {
    return Bad(name, absl::StrFormat("bad magic number: unknown element type 0x%02x", h.type_code));
  }
  const size_t rank = byte(3);
  h.data_offset = 4 + 4 * rank;
  if (bytes.size() < h.data_offset) {
    return Bad(name, absl::StrCat("truncated header: rank ", rank, " needs ", h.data_offset,
                                  " bytes, the file has ", bytes.size()));
  }
  uint64_t total = h.element_size;
  bool overflow = false;
  for (size_t d = 0; d < rank; ++d) {
    const uint32_t dim = BigEndianU32(bytes.subspan(4 + 4 * d, 4));
    h.dims.push_back(dim);
    overflow = overflow || __builtin_mul_overflow(total, uint64_t{dim}, &total);
  }
  const size_t available = bytes.size() - h.data_offset;
  const std::string dims = absl::StrCat("[", absl::StrJoin(h.dims, ", "), "]");
  if (overflow)
    return Bad(name, absl::StrCat("dims ", dims, " are too large: their byte count overflows"));
  if (total > available) {
    return Bad(name, absl::StrCat("truncated data: dims ", dims, " need ", total,
                                  " bytes, the file holds ", available));
  }
  if (total < available) {
    return Bad(name, absl::StrCat(available - total, " trailing bytes after the ", total,
                                  " bytes of dims ", dims));
  }
  h.data_size = total;
  return h;
}

}  // namespace tg
