// File: tinygrad/nn/idx_format.h
// The IDX file format of the MNIST family of datasets, checked without trusting the file.
//
// An IDX file is a 4-byte magic number, then one big-endian uint32 per dimension, then the
// elements in row-major order:
//   byte 0, 1   zero
//   byte 2      element type: 0x08 uint8, 0x09 int8, 0x0B int16, 0x0C int32, 0x0D float32,
//               0x0E float64 (multi-byte elements are big-endian)
//   byte 3      rank (number of dimensions)
// The reference (nn/datasets.py) skips the header by a fixed offset and trusts the rest; here
// every size is checked against the bytes there are, so a bad file is an error, never a read
// past its end.
//
// Example:
//   ASSIGN_OR_RETURN(IdxHeader h, ParseIdxHeader(bytes, "train-labels-idx1-ubyte.gz"));
//   std::span<const std::byte> data = bytes.subspan(h.data_offset, h.data_size);
#ifndef TINYGRAD_NN_IDX_FORMAT_H_
#define TINYGRAD_NN_IDX_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace tg {

inline constexpr uint8_t kIdxUint8 = 0x08;

struct IdxHeader {
  uint8_t type_code = 0;      // byte 2 of the magic number
  size_t element_size = 0;    // bytes per element of type_code
  std::vector<int64_t> dims;  // as many as the rank
  size_t data_offset = 0;     // 4 + 4 * rank
  size_t data_size = 0;       // product(dims) * element_size == bytes.size() - data_offset
};

// The header of the IDX file whose whole contents are `bytes`. `name` (the file's path) goes
// into every error. InvalidArgument for: fewer than 4 bytes, a magic number not starting with
// two zero bytes, an unknown element type, a header cut short, dimensions whose byte count
// overflows, data shorter than the dimensions say (truncated) or longer (trailing bytes).
absl::StatusOr<IdxHeader> ParseIdxHeader(std::span<const std::byte> bytes, std::string_view name);

}  // namespace tg

#endif  // TINYGRAD_NN_IDX_FORMAT_H_
