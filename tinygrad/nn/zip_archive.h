// File: tinygrad/nn/zip_archive.h
// A zip archive read in place from bytes (a mapped file) through minizip: its members, a stored
// member's data as a view of the bytes (where it starts comes from the member's local header),
// any member inflated and CRC-checked. Part of tinygrad/nn/state.py's zip_extract, for
// torch_load's archives. The bytes are user input: every offset and size is checked against
// them, and a member that can't be read (encrypted, another compression, damaged) is an error
// naming the archive and the member when it is used (the reference reads only what it needs).
//
// Example:
//   ASSIGN_OR_RETURN(std::unique_ptr<ZipArchive> zip, ZipArchive::Open(bytes, "model.pt"));
//   const ZipMember* pkl = zip->Find("archive/data.pkl");
//   ASSIGN_OR_RETURN(std::vector<std::byte> contents, zip->Read(*pkl, limit));
#ifndef TINYGRAD_NN_ZIP_ARCHIVE_H_
#define TINYGRAD_NN_ZIP_ARCHIVE_H_

#include <minizip/unzip.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"

namespace tg {

struct ZipMember {
  std::string name;
  unz64_file_pos pos;        // where minizip finds it again
  uint64_t data_offset = 0;  // of its (compressed) bytes in the archive
  uint64_t compressed_size, uncompressed_size;
  unsigned long method, flag;
  std::string problem;  // why it can't be read, if it can't
};

class ZipArchive {
 public:
  // The archive in `data`, which must outlive it; `path` names it in errors. InvalidArgument
  // for bytes that are not a readable zip archive.
  static absl::StatusOr<std::unique_ptr<ZipArchive>> Open(std::span<const std::byte> data,
                                                          const std::string& path);
  ZipArchive(const ZipArchive&) = delete;
  ZipArchive& operator=(const ZipArchive&) = delete;
  ~ZipArchive();

  const std::vector<ZipMember>& members() const { return members_; }
  // The last member of that name, as Python's zipfile finds it; nullptr if none.
  const ZipMember* Find(const std::string& name) const;
  // "<path> member '<name>'", for errors.
  std::string Where(const ZipMember& m) const;

  // The member's bytes in the archive; stored members only.
  absl::StatusOr<std::span<const std::byte>> Stored(const ZipMember& m) const;
  // The member's contents, inflated if deflated, CRC checked; at most `limit` bytes.
  absl::StatusOr<std::vector<std::byte>> Read(const ZipMember& m, uint64_t limit);

  // The read position minizip keeps in the bytes (its file functions' stream).
  struct Stream {
    std::span<const std::byte> data;
    uint64_t pos = 0;
  };

 private:
  ZipArchive(std::span<const std::byte> data, std::string path);
  absl::Status List();

  std::span<const std::byte> data_;
  std::string path_;
  Stream stream_;
  unzFile uf_ = nullptr;
  std::vector<ZipMember> members_;
  absl::flat_hash_map<std::string, size_t> by_name_;
};

}  // namespace tg

#endif  // TINYGRAD_NN_ZIP_ARCHIVE_H_
