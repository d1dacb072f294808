// File: tinygrad/nn/zip_archive.cc
#include "tinygrad/nn/zip_archive.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "tinygrad/base/status_macros.h"

namespace tg {
namespace {

constexpr size_t kMaxMembers = size_t{1} << 22;

absl::Status Bad(const std::string& where, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(where, ": ", what));
}

// minizip's file functions over the bytes: reads and seeks within them, never past them.
using Stream = ZipArchive::Stream;
voidpf ZCALLBACK MemOpen(voidpf opaque, const void*, int mode) {
  return (mode & ZLIB_FILEFUNC_MODE_WRITE) ? nullptr : opaque;
}
uLong ZCALLBACK MemRead(voidpf, voidpf stream, void* buf, uLong size) {
  auto* s = static_cast<Stream*>(stream);
  uint64_t n = std::min<uint64_t>(size, s->data.size() - s->pos);
  if (n > 0) std::memcpy(buf, s->data.data() + s->pos, n);
  s->pos += n;
  return static_cast<uLong>(n);
}
uLong ZCALLBACK MemWrite(voidpf, voidpf, const void*, uLong) { return 0; }
ZPOS64_T ZCALLBACK MemTell(voidpf, voidpf stream) { return static_cast<Stream*>(stream)->pos; }
long ZCALLBACK MemSeek(voidpf, voidpf stream, ZPOS64_T offset, int origin) {
  auto* s = static_cast<Stream*>(stream);
  uint64_t base = origin == ZLIB_FILEFUNC_SEEK_SET   ? 0
                  : origin == ZLIB_FILEFUNC_SEEK_CUR ? s->pos
                                                     : s->data.size();
  if (offset > s->data.size() || base > s->data.size() - offset) return -1;
  s->pos = base + offset;
  return 0;
}
int ZCALLBACK MemClose(voidpf, voidpf) { return 0; }
int ZCALLBACK MemError(voidpf, voidpf) { return 0; }

}  // namespace

ZipArchive::ZipArchive(std::span<const std::byte> data, std::string path)
    : data_(data), path_(std::move(path)), stream_{data} {}

ZipArchive::~ZipArchive() {
  if (uf_ != nullptr) unzClose(uf_);
}

absl::StatusOr<std::unique_ptr<ZipArchive>> ZipArchive::Open(std::span<const std::byte> data,
                                                             const std::string& path) {
  auto z = std::unique_ptr<ZipArchive>(new ZipArchive(data, path));
  zlib_filefunc64_def funcs = {MemOpen, MemRead,  MemWrite, MemTell,
                               MemSeek, MemClose, MemError, &z->stream_};
  z->uf_ = unzOpen2_64(path.c_str(), &funcs);
  if (z->uf_ == nullptr) return Bad(path, "not a readable zip archive (truncated or damaged)");
  RETURN_IF_ERROR(z->List());
  return z;
}

const ZipMember* ZipArchive::Find(const std::string& name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : &members_[it->second];
}

std::string ZipArchive::Where(const ZipMember& m) const {
  return absl::StrCat(path_, " member '", m.name, "'");
}

absl::StatusOr<std::span<const std::byte>> ZipArchive::Stored(const ZipMember& m) const {
  if (!m.problem.empty()) return Bad(Where(m), m.problem);
  if (m.method != 0) return Bad(Where(m), "not stored");
  return data_.subspan(m.data_offset, m.compressed_size);
}

absl::StatusOr<std::vector<std::byte>> ZipArchive::Read(const ZipMember& m, uint64_t limit) {
  if (!m.problem.empty()) return Bad(Where(m), m.problem);
  if (m.uncompressed_size > limit)
    return Bad(Where(m), absl::StrCat("holds ", m.uncompressed_size, " bytes, more than ", limit));
  unz64_file_pos pos = m.pos;
  if (unzGoToFilePos64(uf_, &pos) != UNZ_OK || unzOpenCurrentFile(uf_) != UNZ_OK)
    return Bad(Where(m), "can't open the member");
  std::vector<std::byte> out;
  out.reserve(std::min<uint64_t>(m.uncompressed_size, uint64_t{1} << 26));
  std::vector<std::byte> chunk(1 << 16);
  int n = 0;
  while ((n = unzReadCurrentFile(uf_, chunk.data(), chunk.size())) > 0) {
    if (out.size() + n > m.uncompressed_size) break;
    out.insert(out.end(), chunk.begin(), chunk.begin() + n);
  }
  int close = unzCloseCurrentFile(uf_);
  if (n < 0) return Bad(Where(m), "damaged compressed data");
  if (out.size() != m.uncompressed_size)
    return Bad(Where(m), absl::StrCat("inflates to a size other than the ", m.uncompressed_size,
                                      " bytes its header says"));
  if (close == UNZ_CRCERROR) return Bad(Where(m), "CRC-32 mismatch");
  if (close != UNZ_OK) return Bad(Where(m), "damaged member");
  return out;
}

absl::Status ZipArchive::List() {
  for (int r = unzGoToFirstFile(uf_); r != UNZ_END_OF_LIST_OF_FILE; r = unzGoToNextFile(uf_)) {
    if (r != UNZ_OK) return Bad(path_, "damaged zip central directory");
    unz_file_info64 info;
    char name[1 << 16];
    if (unzGetCurrentFileInfo64(uf_, &info, name, sizeof(name), nullptr, 0, nullptr, 0) != UNZ_OK)
      return Bad(path_, "damaged zip central directory entry");
    ZipMember m{.name = std::string(name, std::min<size_t>(info.size_filename, sizeof(name) - 1)),
                .compressed_size = info.compressed_size,
                .uncompressed_size = info.uncompressed_size,
                .method = info.compression_method,
                .flag = info.flag};
    if (unzGetFilePos64(uf_, &m.pos) != UNZ_OK) return Bad(Where(m), "damaged entry");
    // A member we can't read is an error only when it is used.
    if (m.flag & 1) {
      m.problem = "is encrypted";
    } else if (m.method != 0 && m.method != Z_DEFLATED) {
      m.problem = absl::StrCat("compression ", m.method, " not supported");
    } else if (m.method == 0 && m.compressed_size != m.uncompressed_size) {
      m.problem = "stored member whose compressed and uncompressed sizes differ";
    } else if (unzOpenCurrentFile(uf_) != UNZ_OK) {
      m.problem = "damaged local header";
    } else {
      // The local header (its extra field can differ from the central one's) gives the start.
      m.data_offset = unzGetCurrentFileZStreamPos64(uf_);
      unzCloseCurrentFile(uf_);
      if (m.data_offset > data_.size() || m.compressed_size > data_.size() - m.data_offset)
        m.problem = "data reaches past the end of the file";
    }
    if (members_.size() >= kMaxMembers) return Bad(path_, "too many members");
    by_name_[m.name] = members_.size();
    members_.push_back(std::move(m));
  }
  return absl::OkStatus();
}

}  // namespace tg
