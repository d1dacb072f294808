// File: tinygrad/nn/gguf.h
// GGUF files (llama.cpp's weight format) read into their metadata and tensors. Port of
// tinygrad/nn/state.py: gguf_load and ggml_data_to_tensor.
//
// A GGUF file (versions 2 and 3, little-endian) is a header ("GGUF", version, tensor count,
// metadata count), typed metadata key/value pairs, tensor infos (name, dims in ggml order, ggml
// type, offset into the data section), and the data section, which starts at the first multiple
// of `general.alignment` (default 32) after the infos.
//
// Example:
//   ASSIGN_OR_RETURN(GgufFile f, GgufLoad("tiny.gguf"));         // nothing dequantized yet
//   const GgufValue& arch = f.metadata.at("general.architecture");
//   Tensor w = f.tensors.at("blk.0.attn_q.weight");              // float32, dequantized lazily
//
// GgufLoad is lazy as SafeLoad is (state.h): it maps the file, checks its header, and gives
// tensors built from views of the mapping. Quantized tensors are dequantized by Tensor ops (the
// reference's bitcasts, shifts and masks on the uint8 blocks), so dequantizing runs as kernels
// when a tensor is realized, with the reference's values bit for bit.
//
// The file is user input: every count, length, nesting depth, offset and size is checked
// against the file and against limits before it is used, and a bad file is an InvalidArgument
// naming the path, the field or tensor, and the byte offset. Stricter than the reference (which
// fails later, or reads a later duplicate over an earlier one): duplicate metadata keys or tensor
// names, invalid UTF-8, more than kGgufMaxDims dims, an element count that is not a whole number
// of blocks, and tensor data past the end of the file are errors.
#ifndef TINYGRAD_NN_GGUF_H_
#define TINYGRAD_NN_GGUF_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {

// The metadata value types (gguf_type in ggml's gguf.h); the numbers are the file's.
enum class GgufType : int32_t {
  kUint8 = 0,
  kInt8 = 1,
  kUint16 = 2,
  kInt16 = 3,
  kUint32 = 4,
  kInt32 = 5,
  kFloat32 = 6,
  kBool = 7,
  kString = 8,
  kArray = 9,
  kUint64 = 10,
  kInt64 = 11,
  kFloat64 = 12,
};

// One metadata value. `value` holds: unsigned ints as uint64_t, signed ints as int64_t, floats
// as double (a float32 exactly), bools, strings (valid UTF-8), arrays as their items, which all
// have type `array_type` (an array of arrays may hold arrays of different types).
// TODO(parity): the reference reads a uint8 value as a 1-byte `bytes`; here it is a number.
struct GgufValue {
  GgufType type = GgufType::kUint8;
  GgufType array_type = GgufType::kUint8;  // arrays only
  std::variant<uint64_t, int64_t, double, bool, std::string, std::vector<GgufValue>> value;

  // An int or bool value (a uint64 only up to INT64_MAX), else nullopt.
  std::optional<int64_t> as_int() const;
  // An int, float or bool value, else nullopt.
  std::optional<double> as_double() const;
  const std::string* as_string() const;            // null unless a string
  const std::vector<GgufValue>* as_array() const;  // null unless an array
};

// The ggml tensor types the reference reads (ggml_type in ggml.h); other types are refused.
enum GgmlType : int32_t {
  kGgmlF32 = 0,
  kGgmlF16 = 1,
  kGgmlQ4_0 = 2,
  kGgmlQ4_1 = 3,
  kGgmlQ8_0 = 8,
  kGgmlQ4_K = 12,
  kGgmlQ6_K = 14,
  kGgmlI8 = 16,
  kGgmlI16 = 17,
  kGgmlI32 = 18,
  kGgmlMXFP4 = 39,
};

// Limits on what a file may ask for (beyond fitting in the file).
inline constexpr uint32_t kGgufMaxDims = 8;          // ggml itself has 4
inline constexpr int kGgufMaxNesting = 32;           // arrays of arrays of ...
inline constexpr uint64_t kGgufMaxValues = 1 << 24;  // metadata values, all arrays' items counted
inline constexpr uint64_t kGgufMaxAlignment = 1 << 30;

// One tensor's info, checked: its type is one of GgmlType, its elements a whole number of
// blocks, its bytes inside the file.
struct GgufTensorInfo {
  std::vector<int64_t> dims;  // ggml order: dims[0] varies fastest
  int32_t ggml_type = 0;
  uint64_t offset = 0;  // from the data section's start
  uint64_t nbytes = 0;
  int64_t numel() const;
  std::vector<int64_t> shape() const;  // the tensor's shape: dims reversed
};

// A checked header: everything but the tensors' data.
struct GgufHeader {
  int32_t version = 0;
  std::map<std::string, GgufValue> metadata;
  std::vector<std::pair<std::string, GgufTensorInfo>> tensors;  // in file order
  uint64_t alignment = 32;
  uint64_t data_start = 0;  // file offset of the data section
};

// The metadata and tensors of a GGUF file.
struct GgufFile {
  std::map<std::string, GgufValue> metadata;
  std::map<std::string, Tensor> tensors;  // F16/I8/I16/I32 in their dtype, the rest float32
};

// Parses and checks the header of the GGUF file `file` (its whole contents); reads nothing
// outside `file`. `path` names the file in errors.
absl::StatusOr<GgufHeader> ParseGguf(std::span<const std::byte> file, const std::string& path);

// The GGUF file at `path`, its tensors lazily loaded onto `device` (above). A missing file is
// NotFound, a bad one InvalidArgument.
absl::StatusOr<GgufFile> GgufLoad(const std::string& path,
                                  const std::string& device = DefaultDevice());

// The `n` values that the ggml data `bytes` (a 1-D uint8 tensor, at least as long as the data)
// holds in `ggml_type`, as a 1-D tensor: F32, F16, I8, I16, I32 bitcast to their dtype,
// the quantized types dequantized to float32. Errors: an unknown type, `n` not a whole number of
// blocks, too few bytes. (The reference gives quantized types as (blocks, block size).)
absl::StatusOr<Tensor> GgmlDataToTensor(const Tensor& bytes, int64_t n, int32_t ggml_type);

// The type's name ("Q4_K"), or "unknown".
std::string_view GgmlTypeName(int32_t ggml_type);

}  // namespace tg

#endif  // TINYGRAD_NN_GGUF_H_
