// File: tinygrad/nn/mapped_file.h
// A whole file mapped read-only into memory (the reference reads safetensors through its DISK
// device, which maps the file too). Shared: tensors loaded from the file hold it until their
// bytes have been copied onto their device.
//
// The bytes are read from the file as they are touched: a file that another process truncates
// while it is mapped makes reading the lost pages fault (SIGBUS), as it does for the reference.
// Writing a new file over the name (SafeSave writes a new file and renames it) is safe: the
// mapping keeps the old one.
//
// Example:
//   ASSIGN_OR_RETURN(std::shared_ptr<const MappedFile> f, MappedFile::Open("model.safetensors"));
//   std::span<const std::byte> bytes = f->bytes();
#ifndef TINYGRAD_NN_MAPPED_FILE_H_
#define TINYGRAD_NN_MAPPED_FILE_H_

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <utility>

#include "absl/status/statusor.h"

namespace tg {

class MappedFile {
 public:
  // NotFound / PermissionDenied / InvalidArgument (not a regular file) / Internal, each naming
  // `path` and the system's reason.
  static absl::StatusOr<std::shared_ptr<const MappedFile>> Open(const std::string& path);

  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  std::span<const std::byte> bytes() const { return {data_, size_}; }
  const std::string& path() const { return path_; }

 private:
  MappedFile(std::string path, const std::byte* data, size_t size)
      : path_(std::move(path)), data_(data), size_(size) {}
  std::string path_;
  const std::byte* data_;  // null for an empty file (nothing to map)
  size_t size_;
};

}  // namespace tg

#endif  // TINYGRAD_NN_MAPPED_FILE_H_
