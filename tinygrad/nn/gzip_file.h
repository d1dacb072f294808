// File: tinygrad/nn/gzip_file.h
// The decompressed contents of a gzip file, read with zlib (the reference gunzips its dataset
// downloads the same way: Tensor.from_url(..., gunzip=True)). A file that is not gzip'ed is
// read as it is (zlib's transparent mode), so unpacked dataset files load too.
//
// Example:
//   ASSIGN_OR_RETURN(std::string bytes, ReadGzipFile("train-labels-idx1-ubyte.gz"));
#ifndef TINYGRAD_NN_GZIP_FILE_H_
#define TINYGRAD_NN_GZIP_FILE_H_

#include <cstddef>
#include <string>

#include "absl/status/statusor.h"

namespace tg {

// Larger than any dataset file read here (Fashion-MNIST's largest unpacks to 47 MB), small
// enough that a corrupt or hostile file cannot make us allocate without bound.
inline constexpr size_t kMaxGunzippedBytes = size_t{1} << 30;

// NotFound when `path` does not exist; InvalidArgument naming `path` for a corrupt or truncated
// stream, or one that unpacks to more than `max_bytes`; Internal for other IO errors.
absl::StatusOr<std::string> ReadGzipFile(const std::string& path,
                                         size_t max_bytes = kMaxGunzippedBytes);

}  // namespace tg

#endif  // TINYGRAD_NN_GZIP_FILE_H_
