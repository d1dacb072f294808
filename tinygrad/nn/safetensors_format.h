// File: tinygrad/nn/safetensors_format.h
// The safetensors file format, without tensors: dtype names, the header's JSON read and checked
// against the file, and the header written. Port of tinygrad/nn/state.py: safe_dtypes,
// safe_load_metadata and the header half of safe_save; the checks are the format's own
// (huggingface safetensors' `validate`), which the reference leaves out.
//
// A file is: 8 bytes, the header's length N (little-endian u64); N bytes of JSON, an object
// mapping each tensor's name to {"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]}
// plus an optional "__metadata__" object of strings; then the data section, in which each
// tensor's bytes (row-major, little-endian) are [begin, end). Every byte of the data section
// belongs to exactly one tensor: no holes, no overlaps, nothing after the last (the format
// forbids them so that a file can't hide a second payload); the tensors' order in the data
// section need not be the JSON's.
//
// Example:
//   ASSIGN_OR_RETURN(SafetensorsHeader h, ParseSafetensors(file_bytes, "model.safetensors"));
//   const SafetensorsEntry& w = h.tensors.at("weight");
//   std::span<const std::byte> data = file_bytes.subspan(h.data_start + w.begin, w.nbytes());
#ifndef TINYGRAD_NN_SAFETENSORS_FORMAT_H_
#define TINYGRAD_NN_SAFETENSORS_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/dtype/dtype.h"

namespace tg {

// The format's name of a dtype ("F32", "BF16", "F8_E4M3", ...); nullopt for one it can't hold
// (void, index, vectors, pointers). The reference names every scalar but fp8, which the format
// (and so we) also name.
std::optional<std::string_view> SafetensorsDTypeName(DType dt);
// The dtype of a name in a header; nullopt for a name we don't know.
std::optional<DType> DTypeFromSafetensorsName(std::string_view name);

// One tensor of a header.
struct SafetensorsEntry {
  DType dtype;
  std::vector<int64_t> shape;
  // Its bytes: [begin, end) of the data section.
  uint64_t begin = 0, end = 0;
  uint64_t nbytes() const { return end - begin; }
  friend bool operator==(const SafetensorsEntry&, const SafetensorsEntry&) = default;
};

struct SafetensorsHeader {
  std::map<std::string, SafetensorsEntry> tensors;
  // "__metadata__". The format's values are strings; any other JSON value (the reference
  // writes whatever it is given) is kept as its compact JSON text.
  std::map<std::string, std::string> metadata;
  // Where the data section starts in the file: 8 + the header's length.
  uint64_t data_start = 0;
};

// The largest header accepted: the format's own limit (100 MB), so a made-up length can't make
// us parse a huge file as JSON.
inline constexpr uint64_t kMaxSafetensorsHeaderBytes = 100'000'000;

// Reads and checks the header of a whole safetensors file. Every problem is InvalidArgument
// naming `file_name`, the tensor (where there is one) and what is wrong: a file shorter than
// its header, a header length beyond the file or the limit, bad JSON (or a duplicate name at
// any level), a header that is not an object, an entry without a known dtype, a shape of
// non-negative integers, or data_offsets [begin <= end] inside the data section, a shape whose
// element count overflows or does not fill its bytes, and data sections with holes, overlaps
// or trailing bytes. Reads nothing outside `file`.
absl::StatusOr<SafetensorsHeader> ParseSafetensors(std::span<const std::byte> file,
                                                   std::string_view file_name);

// The bytes a file starts with for these tensors, in this order, their data following back to
// back in it: the 8-byte length and the JSON (metadata first, compact, ASCII-only, padded with
// spaces to a multiple of 8 as the reference pads it). Each entry's begin/end are set here.
// InvalidArgument for a dtype the format can't hold or a tensor named "__metadata__".
absl::StatusOr<std::string> SafetensorsHeaderBytes(
    std::vector<std::pair<std::string, SafetensorsEntry>>& tensors,
    const std::map<std::string, std::string>& metadata);

}  // namespace tg

#endif  // TINYGRAD_NN_SAFETENSORS_FORMAT_H_
