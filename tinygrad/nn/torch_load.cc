// File: tinygrad/nn/torch_load.cc
// Port of tinygrad/nn/state.py: torch_load (zip and legacy formats), zip_extract. The zip
// directory is read with minizip over the mapped file; the pickle with the strict unpickler
// below.
#include "tinygrad/nn/torch_load.h"

#include <minizip/unzip.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <numeric>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/nn/mapped_file.h"

namespace tg {
namespace {

using Bytes = std::span<const std::byte>;

// Bounds on what a hostile file can make us build.
constexpr size_t kMaxStack = size_t{1} << 20;            // pickle stack entries and marks
constexpr size_t kMaxObjects = size_t{1} << 22;          // values one pickle creates
constexpr size_t kMaxDims = 64;                          // a tensor's rank
constexpr int kMaxNesting = 128;                         // dicts and lists inside each other
constexpr size_t kMaxNamedValues = size_t{1} << 22;      // values visited while flattening
constexpr size_t kMaxNameBytes = size_t{1} << 26;        // the names built while flattening
constexpr uint64_t kMaxPickleBytes = uint64_t{1} << 30;  // an inflated data.pkl

absl::Status Bad(const std::string& where, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("torch_load: ", where, ": ", what));
}

// ---- zip archives (minizip over the mapped bytes) ----------------------------------------------

struct MemStream {
  Bytes data;
  uint64_t pos = 0;
};

voidpf ZCALLBACK MemOpen(voidpf opaque, const void*, int mode) {
  return (mode & ZLIB_FILEFUNC_MODE_WRITE) ? nullptr : opaque;
}
uLong ZCALLBACK MemRead(voidpf, voidpf stream, void* buf, uLong size) {
  auto* s = static_cast<MemStream*>(stream);
  uint64_t n = std::min<uint64_t>(size, s->data.size() - s->pos);
  if (n > 0) std::memcpy(buf, s->data.data() + s->pos, n);
  s->pos += n;
  return static_cast<uLong>(n);
}
uLong ZCALLBACK MemWrite(voidpf, voidpf, const void*, uLong) { return 0; }
ZPOS64_T ZCALLBACK MemTell(voidpf, voidpf stream) { return static_cast<MemStream*>(stream)->pos; }
long ZCALLBACK MemSeek(voidpf, voidpf stream, ZPOS64_T offset, int origin) {
  auto* s = static_cast<MemStream*>(stream);
  uint64_t base = origin == ZLIB_FILEFUNC_SEEK_SET   ? 0
                  : origin == ZLIB_FILEFUNC_SEEK_CUR ? s->pos
                                                     : s->data.size();
  if (offset > s->data.size() || base > s->data.size() - offset) return -1;
  s->pos = base + offset;
  return 0;
}
int ZCALLBACK MemClose(voidpf, voidpf) { return 0; }
int ZCALLBACK MemError(voidpf, voidpf) { return 0; }

struct ZipMember {
  std::string name;
  unz64_file_pos pos;        // where minizip finds it again
  uint64_t data_offset = 0;  // of its (compressed) bytes in the file
  uint64_t compressed_size, uncompressed_size;
  unsigned long method, flag;
  std::string problem;  // why it can't be read, if it can't
};

// An open archive over `data`, which must outlive it.
class ZipArchive {
 public:
  static absl::StatusOr<std::unique_ptr<ZipArchive>> Open(Bytes data, const std::string& path) {
    auto z = std::unique_ptr<ZipArchive>(new ZipArchive(data, path));
    zlib_filefunc64_def funcs = {MemOpen, MemRead,  MemWrite, MemTell,
                                 MemSeek, MemClose, MemError, &z->stream_};
    z->uf_ = unzOpen2_64(path.c_str(), &funcs);
    if (z->uf_ == nullptr) return Bad(path, "not a readable zip archive (truncated or damaged)");
    RETURN_IF_ERROR(z->List());
    return z;
  }
  ZipArchive(const ZipArchive&) = delete;
  ZipArchive& operator=(const ZipArchive&) = delete;
  ~ZipArchive() {
    if (uf_ != nullptr) unzClose(uf_);
  }

  const std::vector<ZipMember>& members() const { return members_; }
  // The last member of that name, as Python's zipfile finds it.
  const ZipMember* Find(const std::string& name) const {
    auto it = by_name_.find(name);
    return it == by_name_.end() ? nullptr : &members_[it->second];
  }
  std::string Where(const ZipMember& m) const {
    return absl::StrCat(path_, " member '", m.name, "'");
  }

  // The member's bytes in the file; stored members only.
  absl::StatusOr<Bytes> Stored(const ZipMember& m) const {
    if (!m.problem.empty()) return Bad(Where(m), m.problem);
    if (m.method != 0) return Bad(Where(m), "not stored");
    return data_.subspan(m.data_offset, m.compressed_size);
  }

  // The member's contents, inflated if deflated, CRC checked; at most `limit` bytes.
  absl::StatusOr<std::vector<std::byte>> Read(const ZipMember& m, uint64_t limit) {
    if (!m.problem.empty()) return Bad(Where(m), m.problem);
    if (m.uncompressed_size > limit)
      return Bad(Where(m),
                 absl::StrCat("holds ", m.uncompressed_size, " bytes, more than ", limit));
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

 private:
  ZipArchive(Bytes data, std::string path) : data_(data), path_(std::move(path)), stream_{data} {}

  absl::Status List() {
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
      // A member we can't read is an error only when it is used (the reference reads only the
      // members it needs).
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
      if (members_.size() >= kMaxObjects) return Bad(path_, "too many members");
      by_name_[m.name] = members_.size();
      members_.push_back(std::move(m));
    }
    return absl::OkStatus();
  }

  Bytes data_;
  std::string path_;
  MemStream stream_;
  unzFile uf_ = nullptr;
  std::vector<ZipMember> members_;
  absl::flat_hash_map<std::string, size_t> by_name_;
};

// ---- the unpickler ------------------------------------------------------------------------------

enum class Kind : uint8_t {
  kNone,
  kBool,
  kInt,
  kBigInt,
  kFloat,
  kStr,
  kBytes,
  kTuple,
  kList,
  kDict,
  kGlobal,   // a class or function (Global below)
  kStorage,  // a persistent id: a typed storage in the archive
  kTensor,   // a _rebuild_tensor(_v2) result
  kOpaque,   // a numpy / _codecs object: no tensors in it
};

enum class Global : uint8_t { kOrderedDict, kRebuildTensor, kStorageType, kOpaque };

struct Value {
  Kind kind = Kind::kNone;
  Global global = Global::kOpaque;
  DType dtype;                        // kGlobal kStorageType, kStorage
  int64_t i = 0;                      // kBool, kInt; kStorage: numel; kTensor: storage offset
  double f = 0;                       // kFloat
  std::string s;                      // kStr, kBytes, kBigInt (little-endian bytes); kGlobal: name;
                                      // kStorage: key
  std::vector<uint32_t> items;        // kTuple, kList; kDict: key, value, ...; kTensor: the storage
  std::vector<int64_t> size, stride;  // kTensor
};

class Unpickler {
 public:
  // `where` names the pickle in errors ("model.pt member 'archive/data.pkl'").
  Unpickler(Bytes data, std::string where) : data_(data), where_(std::move(where)) {}

  // Reads one pickle starting at `pos`; returns its value's id. pos() is then just past STOP.
  absl::StatusOr<uint32_t> Load(size_t pos);
  size_t pos() const { return pos_; }
  const Value& at(uint32_t id) const { return values_[id]; }
  size_t size() const { return values_.size(); }
  absl::Status Error(absl::string_view what) const {
    return Bad(where_, absl::StrCat(what, " (pickle byte ", op_pos_, ")"));
  }

 private:
  absl::StatusOr<uint32_t> New(Value v) {
    if (values_.size() >= kMaxObjects) return Error("too many objects");
    values_.push_back(std::move(v));
    return static_cast<uint32_t>(values_.size() - 1);
  }
  absl::Status Push(uint32_t id) {
    if (stack_.size() >= kMaxStack) return Error("pickle stack too deep");
    stack_.push_back(id);
    return absl::OkStatus();
  }
  absl::Status PushNew(Value v) {
    ASSIGN_OR_RETURN(uint32_t id, New(std::move(v)));
    return Push(id);
  }
  absl::StatusOr<uint32_t> Pop() {
    if (stack_.size() <= Floor()) return Error("pickle stack underflow");
    uint32_t id = stack_.back();
    stack_.pop_back();
    return id;
  }
  size_t Floor() const { return marks_.empty() ? 0 : marks_.back(); }
  absl::StatusOr<std::vector<uint32_t>> PopMark() {
    if (marks_.empty()) return Error("no MARK to pop to");
    size_t m = marks_.back();
    marks_.pop_back();
    std::vector<uint32_t> items(stack_.begin() + m, stack_.end());
    stack_.resize(m);
    return items;
  }
  absl::StatusOr<Bytes> Take(uint64_t n) {
    if (n > data_.size() - pos_) return Error("pickle truncated");
    Bytes b = data_.subspan(pos_, n);
    pos_ += n;
    return b;
  }
  absl::StatusOr<uint64_t> ReadUint(int n) {  // little-endian
    ASSIGN_OR_RETURN(Bytes b, Take(n));
    uint64_t v = 0;
    for (int k = n - 1; k >= 0; --k) v = (v << 8) | static_cast<uint8_t>(b[k]);
    return v;
  }
  absl::StatusOr<std::string> ReadLine() {
    for (size_t k = pos_; k < data_.size() && k - pos_ < 256; ++k) {
      if (data_[k] != std::byte{'\n'}) continue;
      std::string line(reinterpret_cast<const char*>(data_.data() + pos_), k - pos_);
      pos_ = k + 1;
      return line;
    }
    return Error("GLOBAL name not ended by a newline within 256 bytes");
  }
  absl::StatusOr<Value> Resolve(const std::string& module, const std::string& name);
  absl::Status Reduce(uint32_t func, uint32_t args);
  absl::StatusOr<uint32_t> Persistent(uint32_t pid);
  absl::StatusOr<std::vector<int64_t>> Ints(uint32_t id, absl::string_view what);

  Bytes data_;
  std::string where_;
  size_t pos_ = 0, op_pos_ = 0;
  std::deque<Value> values_;
  std::vector<uint32_t> stack_;
  std::vector<size_t> marks_;
  absl::flat_hash_map<uint64_t, uint32_t> memo_;
};

struct StorageDType {
  absl::string_view name;
  DType dtype;
};
// The reference's `intercept` storages, then the ones it lacks (see torch_load.h).
constexpr StorageDType kStorageTypes[] = {
    {"HalfStorage", dtypes::float16},      {"FloatStorage", dtypes::float32},
    {"BFloat16Storage", dtypes::bfloat16}, {"IntStorage", dtypes::int32},
    {"BoolStorage", dtypes::bool_},        {"LongStorage", dtypes::int64},
    {"ByteStorage", dtypes::uint8},        {"CharStorage", dtypes::int8},
    {"ShortStorage", dtypes::int16},       {"DoubleStorage", dtypes::float64},
};

absl::StatusOr<Value> Unpickler::Resolve(const std::string& module, const std::string& name) {
  std::string root = module.substr(0, module.find('.'));
  Value v{.kind = Kind::kGlobal, .s = absl::StrCat(module, ".", name)};
  if (root == "torch") {
    for (const StorageDType& st : kStorageTypes) {
      if (name != st.name) continue;
      v.global = Global::kStorageType;
      v.dtype = st.dtype;
      return v;
    }
    if (name == "_rebuild_tensor" || name == "_rebuild_tensor_v2") {
      v.global = Global::kRebuildTensor;
      return v;
    }
    if (name == "FloatTensor") return Value{};  // the reference maps it to None
  } else if (module == "collections" && name == "OrderedDict") {
    v.global = Global::kOrderedDict;
    return v;
  } else if (root == "numpy" || root == "_codecs") {
    v.global = Global::kOpaque;
    return v;
  }
  return Error(absl::StrCat("unsupported global '", module, ".", name, "'"));
}

absl::StatusOr<std::vector<int64_t>> Unpickler::Ints(uint32_t id, absl::string_view what) {
  const Value& v = values_[id];
  if (v.kind != Kind::kTuple && v.kind != Kind::kList)
    return Error(absl::StrCat("tensor ", what, " is not a tuple"));
  if (v.items.size() > kMaxDims) return Error(absl::StrCat("tensor ", what, " has too many dims"));
  std::vector<int64_t> out;
  for (uint32_t e : v.items) {
    if (values_[e].kind != Kind::kInt) return Error(absl::StrCat("tensor ", what, " is not ints"));
    out.push_back(values_[e].i);
  }
  return out;
}

absl::Status Unpickler::Reduce(uint32_t func, uint32_t args_id) {
  const Value& f = values_[func];
  const Value& args = values_[args_id];
  if (args.kind != Kind::kTuple) return Error("REDUCE arguments are not a tuple");
  if (f.kind != Kind::kGlobal) return Error("REDUCE of something not callable");
  switch (f.global) {
    case Global::kOrderedDict:
      if (!args.items.empty()) return Error("OrderedDict called with arguments");
      return PushNew(Value{.kind = Kind::kDict});
    case Global::kOpaque:
      return PushNew(Value{.kind = Kind::kOpaque});
    case Global::kStorageType:
      return Error(absl::StrCat("can't call '", f.s, "'"));
    case Global::kRebuildTensor:
      break;
  }
  // _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad=None,
  //                    backward_hooks=None, metadata=None); _rebuild_tensor: the first four.
  std::vector<uint32_t> a = args.items;
  if (a.size() < 4 || a.size() > 7)
    return Error(absl::StrCat("'", f.s, "' called with ", a.size(), " arguments"));
  if (values_[a[0]].kind != Kind::kStorage) return Error("tensor storage is not a storage");
  if (values_[a[1]].kind != Kind::kInt || values_[a[1]].i < 0)
    return Error("tensor storage offset is not an int >= 0");
  Value t{.kind = Kind::kTensor, .i = values_[a[1]].i, .items = {a[0]}};
  ASSIGN_OR_RETURN(t.size, Ints(a[2], "size"));
  ASSIGN_OR_RETURN(t.stride, Ints(a[3], "stride"));
  if (t.size.size() != t.stride.size()) return Error("tensor size and stride differ in length");
  for (int64_t s : t.size)
    if (s < 0) return Error("tensor size is negative");
  return PushNew(std::move(t));
}

// torch's persistent id of a storage: ('storage', storage type, key, location, numel), and in
// the legacy format a sixth entry, the view metadata (None).
absl::StatusOr<uint32_t> Unpickler::Persistent(uint32_t pid) {
  const Value& p = values_[pid];
  auto is = [&](size_t k, Kind kind) { return values_[p.items[k]].kind == kind; };
  if (p.kind != Kind::kTuple || p.items.size() < 5 || p.items.size() > 6 || !is(0, Kind::kStr) ||
      values_[p.items[0]].s != "storage" || !is(2, Kind::kStr) || !is(4, Kind::kInt))
    return Error("persistent id is not ('storage', type, key, location, numel)");
  if (p.items.size() == 6 && !is(5, Kind::kNone)) return Error("storage views are not supported");
  const Value& type = values_[p.items[1]];
  if (type.kind != Kind::kGlobal || type.global != Global::kStorageType)
    return Error("persistent id's storage type is not a storage class");
  int64_t numel = values_[p.items[4]].i;
  if (numel < 0 || numel > (int64_t{1} << 60) / type.dtype.itemsize())
    return Error("storage numel out of range");
  return New(
      Value{.kind = Kind::kStorage, .dtype = type.dtype, .i = numel, .s = values_[p.items[2]].s});
}

absl::StatusOr<uint32_t> Unpickler::Load(size_t pos) {
  pos_ = pos;
  stack_.clear();
  marks_.clear();
  memo_.clear();
  while (true) {
    op_pos_ = pos_;
    if (pos_ >= data_.size()) return Error("pickle ends without STOP");
    const uint8_t op = static_cast<uint8_t>(data_[pos_++]);
    switch (op) {
      case 0x80: {  // PROTO
        ASSIGN_OR_RETURN(uint64_t proto, ReadUint(1));
        if (proto < 2 || proto > 5) return Error(absl::StrCat("pickle protocol ", proto));
        break;
      }
      case 0x95:
        RETURN_IF_ERROR(Take(8).status());
        break;     // FRAME: a hint only
      case '.': {  // STOP
        ASSIGN_OR_RETURN(uint32_t top, Pop());
        return top;
      }
      case 'N':
        RETURN_IF_ERROR(PushNew(Value{}));
        break;
      case 0x88:
      case 0x89:  // NEWTRUE, NEWFALSE
        RETURN_IF_ERROR(PushNew(Value{.kind = Kind::kBool, .i = op == 0x88}));
        break;
      case 'J':
      case 'K':
      case 'M': {  // BININT, BININT1, BININT2
        ASSIGN_OR_RETURN(uint64_t v, ReadUint(op == 'J' ? 4 : op == 'K' ? 1 : 2));
        int64_t i =
            op == 'J' ? static_cast<int32_t>(static_cast<uint32_t>(v)) : static_cast<int64_t>(v);
        RETURN_IF_ERROR(PushNew(Value{.kind = Kind::kInt, .i = i}));
        break;
      }
      case 0x8a:
      case 0x8b: {  // LONG1, LONG4: little-endian two's complement
        ASSIGN_OR_RETURN(uint64_t n, ReadUint(op == 0x8a ? 1 : 4));
        ASSIGN_OR_RETURN(Bytes b, Take(n));
        Value v{.kind = Kind::kBigInt,
                .s = std::string(reinterpret_cast<const char*>(b.data()), n)};
        if (n <= 8) {
          uint64_t u = 0;
          for (size_t k = n; k-- > 0;) u = (u << 8) | static_cast<uint8_t>(b[k]);
          if (n > 0 && n < 8 && (static_cast<uint8_t>(b[n - 1]) & 0x80))
            u |= ~uint64_t{0} << (8 * n);
          v = Value{.kind = Kind::kInt, .i = static_cast<int64_t>(u)};
        }
        RETURN_IF_ERROR(PushNew(std::move(v)));
        break;
      }
      case 'G': {  // BINFLOAT: big-endian double
        ASSIGN_OR_RETURN(Bytes b, Take(8));
        uint64_t u = 0;
        for (std::byte c : b) u = (u << 8) | static_cast<uint8_t>(c);
        double d;
        std::memcpy(&d, &u, sizeof(d));
        RETURN_IF_ERROR(PushNew(Value{.kind = Kind::kFloat, .f = d}));
        break;
      }
      case 'X':
      case 0x8c:
      case 0x8d:  // BINUNICODE, SHORT_BINUNICODE, BINUNICODE8
      case 'B':
      case 'C':
      case 0x8e: {  // BINBYTES, SHORT_BINBYTES, BINBYTES8
        int width = (op == 0x8c || op == 'C') ? 1 : (op == 0x8d || op == 0x8e) ? 8 : 4;
        ASSIGN_OR_RETURN(uint64_t n, ReadUint(width));
        ASSIGN_OR_RETURN(Bytes b, Take(n));
        bool str = op == 'X' || op == 0x8c || op == 0x8d;
        RETURN_IF_ERROR(
            PushNew(Value{.kind = str ? Kind::kStr : Kind::kBytes,
                          .s = std::string(reinterpret_cast<const char*>(b.data()), n)}));
        break;
      }
      case '}':
        RETURN_IF_ERROR(PushNew(Value{.kind = Kind::kDict}));
        break;
      case ']':
        RETURN_IF_ERROR(PushNew(Value{.kind = Kind::kList}));
        break;
      case ')':
        RETURN_IF_ERROR(PushNew(Value{.kind = Kind::kTuple}));
        break;
      case '(':  // MARK
        if (marks_.size() >= kMaxStack) return Error("too many MARKs");
        marks_.push_back(stack_.size());
        break;
      case 't': {  // TUPLE
        ASSIGN_OR_RETURN(std::vector<uint32_t> items, PopMark());
        RETURN_IF_ERROR(PushNew(Value{.kind = Kind::kTuple, .items = std::move(items)}));
        break;
      }
      case 0x85:
      case 0x86:
      case 0x87: {  // TUPLE1, TUPLE2, TUPLE3
        std::vector<uint32_t> items(op - 0x84);
        for (size_t k = items.size(); k-- > 0;) {
          ASSIGN_OR_RETURN(items[k], Pop());
        }
        RETURN_IF_ERROR(PushNew(Value{.kind = Kind::kTuple, .items = std::move(items)}));
        break;
      }
      case 'a':
      case 'e': {  // APPEND, APPENDS
        std::vector<uint32_t> items;
        if (op == 'a') {
          ASSIGN_OR_RETURN(uint32_t item, Pop());
          items.push_back(item);
        } else {
          ASSIGN_OR_RETURN(items, PopMark());
        }
        if (stack_.size() <= Floor() || values_[stack_.back()].kind != Kind::kList)
          return Error("APPEND to something not a list");
        Value& list = values_[stack_.back()];
        list.items.insert(list.items.end(), items.begin(), items.end());
        break;
      }
      case 's':
      case 'u': {  // SETITEM, SETITEMS
        std::vector<uint32_t> items(2);
        if (op == 's') {
          ASSIGN_OR_RETURN(items[1], Pop());
          ASSIGN_OR_RETURN(items[0], Pop());
        } else {
          ASSIGN_OR_RETURN(items, PopMark());
          if (items.size() % 2 != 0) return Error("SETITEMS with an odd number of items");
        }
        if (stack_.size() <= Floor() || values_[stack_.back()].kind != Kind::kDict)
          return Error("SETITEM on something not a dict");
        Value& dict = values_[stack_.back()];
        dict.items.insert(dict.items.end(), items.begin(), items.end());
        break;
      }
      case 'c': {  // GLOBAL
        ASSIGN_OR_RETURN(std::string module, ReadLine());
        ASSIGN_OR_RETURN(std::string name, ReadLine());
        ASSIGN_OR_RETURN(Value g, Resolve(module, name));
        RETURN_IF_ERROR(PushNew(std::move(g)));
        break;
      }
      case 0x93: {  // STACK_GLOBAL
        ASSIGN_OR_RETURN(uint32_t name, Pop());
        ASSIGN_OR_RETURN(uint32_t module, Pop());
        if (values_[name].kind != Kind::kStr || values_[module].kind != Kind::kStr)
          return Error("STACK_GLOBAL of something not strings");
        ASSIGN_OR_RETURN(Value g, Resolve(values_[module].s, values_[name].s));
        RETURN_IF_ERROR(PushNew(std::move(g)));
        break;
      }
      case 'R':
      case 0x81: {  // REDUCE, NEWOBJ
        ASSIGN_OR_RETURN(uint32_t args, Pop());
        ASSIGN_OR_RETURN(uint32_t func, Pop());
        if (op == 0x81 &&
            !(values_[func].kind == Kind::kGlobal && values_[func].global == Global::kOpaque))
          return Error("NEWOBJ of a class other than numpy's");
        RETURN_IF_ERROR(Reduce(func, args));
        break;
      }
      case 'Q': {  // BINPERSID
        ASSIGN_OR_RETURN(uint32_t pid, Pop());
        ASSIGN_OR_RETURN(uint32_t storage, Persistent(pid));
        RETURN_IF_ERROR(Push(storage));
        break;
      }
      case 'b': {  // BUILD: an OrderedDict's attributes (a state dict's _metadata), numpy state
        ASSIGN_OR_RETURN(uint32_t state, Pop());
        (void)state;
        if (stack_.size() <= Floor()) return Error("BUILD with nothing to build");
        Kind k = values_[stack_.back()].kind;
        if (k != Kind::kDict && k != Kind::kOpaque) return Error("BUILD of something not a dict");
        break;
      }
      case 'q':
      case 'r':
      case 0x94: {  // BINPUT, LONG_BINPUT, MEMOIZE
        uint64_t idx = memo_.size();
        if (op != 0x94) {
          ASSIGN_OR_RETURN(idx, ReadUint(op == 'q' ? 1 : 4));
        }
        if (stack_.size() <= Floor()) return Error("memo PUT with an empty stack");
        memo_[idx] = stack_.back();
        break;
      }
      case 'h':
      case 'j': {  // BINGET, LONG_BINGET
        ASSIGN_OR_RETURN(uint64_t idx, ReadUint(op == 'h' ? 1 : 4));
        auto it = memo_.find(idx);
        if (it == memo_.end()) return Error(absl::StrCat("memo GET of ", idx, ", never PUT"));
        RETURN_IF_ERROR(Push(it->second));
        break;
      }
      case '0':
        RETURN_IF_ERROR(Pop().status());
        break;  // POP
      case '1':
        RETURN_IF_ERROR(PopMark().status());
        break;     // POP_MARK
      case '2': {  // DUP
        if (stack_.size() <= Floor()) return Error("DUP with an empty stack");
        RETURN_IF_ERROR(Push(stack_.back()));
        break;
      }
      default:
        return Error(absl::StrFormat("unsupported pickle opcode 0x%02x", op));
    }
  }
}

// ---- from pickled values to tensors -------------------------------------------------------------

// Where each storage's bytes are, and who keeps them alive.
struct StorageBytes {
  Bytes bytes;
  std::shared_ptr<const void> owner;
};
using StorageLookup = std::function<absl::StatusOr<StorageBytes>(const std::string& key)>;

// torch's tensor: size/stride over a storage. As in the reference, strides must be a
// permutation of contiguous ones (dims of size 1 aside); the tensor is then the view of its
// elements' bytes, reshaped and permuted.
absl::StatusOr<Tensor> MakeTensor(const Unpickler& p, const Value& t, const std::string& where,
                                  const StorageLookup& lookup, const std::string& device) {
  const Value& st = p.at(t.items[0]);
  const int64_t isz = st.dtype.itemsize();
  int64_t numel = 1;
  for (int64_t s : t.size) {
    if (s != 0 && numel > (int64_t{1} << 60) / s) return Bad(where, "tensor too large");
    numel *= s;
  }
  if (numel == 0) return Tensor::Empty(t.size, {.dtype = st.dtype, .device = device});
  if (t.i > st.i || numel > st.i - t.i)
    return Bad(where, absl::StrCat("elements [", t.i, ", ", t.i + numel, ") of storage '", st.s,
                                   "', which has ", st.i));
  // The reference's permute_indexes: the dims (other than size 1) by stride, largest first.
  std::vector<std::pair<int64_t, int64_t>> ss;  // (size, stride) of dims other than 1
  for (size_t d = 0; d < t.size.size(); ++d)
    if (t.size[d] != 1) ss.push_back({t.size[d], t.stride[d]});
  std::vector<int64_t> by_stride(ss.size());
  std::iota(by_stride.begin(), by_stride.end(), 0);
  std::stable_sort(by_stride.begin(), by_stride.end(),
                   [&](int64_t a, int64_t b) { return ss[a].second < ss[b].second; });
  std::vector<int64_t> perm(ss.size());  // permute_indexes
  for (size_t k = 0; k < ss.size(); ++k)
    perm[k] = static_cast<int64_t>(ss.size()) - 1 - by_stride[k];
  std::vector<int64_t> inv(perm.size());  // argsort(permute_indexes)
  for (size_t k = 0; k < perm.size(); ++k) inv[perm[k]] = static_cast<int64_t>(k);
  std::vector<int64_t> inter_shape, want_strides(ss.size());
  for (int64_t k : inv) inter_shape.push_back(ss[k].first);
  for (int64_t k = static_cast<int64_t>(ss.size()) - 1, acc = 1; k >= 0; acc *= inter_shape[k--])
    want_strides[k] = acc;
  for (size_t k = 0; k < inv.size(); ++k)
    if (ss[inv[k]].second != want_strides[k]) return Bad(where, "nonpermutable strides");

  ASSIGN_OR_RETURN(StorageBytes sb, lookup(st.s));
  if (static_cast<uint64_t>(st.i) * isz > sb.bytes.size())
    return Bad(where, absl::StrCat("storage '", st.s, "' has ", sb.bytes.size(), " bytes, not the ",
                                   st.i * isz, " its ", st.i, " elements need"));
  ASSIGN_OR_RETURN(UOp buf,
                   BufferOverHost(device, st.dtype, sb.bytes.subspan(t.i * isz, numel * isz),
                                  std::move(sb.owner)));
  Tensor out(buf);
  bool identity = true;
  for (size_t k = 0; k < perm.size(); ++k)
    identity = identity && perm[k] == static_cast<int64_t>(k);
  if (!identity) out = out.reshape(inter_shape).permute(perm);
  out = out.reshape(t.size);
  if (!out.ok()) return Bad(where, out.status().message());
  return out;
}

// The reference's get_state_dict over the unpickled object.
class Flattener {
 public:
  Flattener(const Unpickler& p, std::string where, StorageLookup lookup, std::string device)
      : p_(p), where_(std::move(where)), lookup_(std::move(lookup)), device_(std::move(device)) {}

  absl::Status Visit(uint32_t id, const std::string& prefix, int depth) {
    if (++visited_ > kMaxNamedValues) return Bad(where_, "too many objects to name");
    name_bytes_ += prefix.size();
    if (name_bytes_ > kMaxNameBytes) return Bad(where_, "names too long in total");
    if (depth > kMaxNesting) return Bad(where_, "dicts and lists nested too deep");
    const Value& v = p_.at(id);
    switch (v.kind) {
      case Kind::kTensor: {
        std::string name(prefix);
        size_t b = name.find_first_not_of('.');
        name = b == std::string::npos ? "" : name.substr(b, name.find_last_not_of('.') - b + 1);
        auto it = made_.find(id);
        if (it == made_.end()) {
          ASSIGN_OR_RETURN(Tensor t, MakeTensor(p_, v, absl::StrCat(where_, " tensor '", name, "'"),
                                                lookup_, device_));
          it = made_.emplace(id, std::move(t)).first;
        }
        out_.insert_or_assign(name, it->second);
        return absl::OkStatus();
      }
      case Kind::kTuple:
      case Kind::kList:
        for (size_t k = 0; k < v.items.size(); ++k)
          RETURN_IF_ERROR(Visit(v.items[k], absl::StrCat(prefix, k, "."), depth + 1));
        return absl::OkStatus();
      case Kind::kDict:
        for (size_t k = 0; k + 1 < v.items.size(); k += 2) {
          ASSIGN_OR_RETURN(std::string key, KeyString(p_.at(v.items[k])));
          RETURN_IF_ERROR(Visit(v.items[k + 1], absl::StrCat(prefix, key, "."), depth + 1));
        }
        return absl::OkStatus();
      default:
        return absl::OkStatus();  // not a tensor, and holds none
    }
  }
  std::map<std::string, Tensor> Take() { return std::move(out_); }

 private:
  // Python's str(key) for the keys state dicts have.
  absl::StatusOr<std::string> KeyString(const Value& k) {
    switch (k.kind) {
      case Kind::kStr:
        return k.s;
      case Kind::kInt:
        return absl::StrCat(k.i);
      case Kind::kBool:
        return std::string(k.i ? "True" : "False");
      case Kind::kNone:
        return std::string("None");
      default:
        return Bad(where_, "a dict key that is not a string, int, bool or None");
    }
  }

  const Unpickler& p_;
  std::string where_;
  StorageLookup lookup_;
  std::string device_;
  size_t visited_ = 0, name_bytes_ = 0;
  absl::flat_hash_map<uint32_t, Tensor> made_;
  std::map<std::string, Tensor> out_;
};

// ---- the two formats ----------------------------------------------------------------------------

absl::StatusOr<std::map<std::string, Tensor>> LoadZip(std::shared_ptr<const MappedFile> file,
                                                      ZipArchive& zip, const std::string& device) {
  const std::string& path = file->path();
  if (zip.members().empty()) return Bad(path, "empty zip archive");
  const std::string& first = zip.members()[0].name;
  const std::string base = first.substr(0, first.find('/'));
  const ZipMember* pkl = zip.Find(base + "/data.pkl");
  if (pkl == nullptr) return Bad(path, absl::StrCat("no '", base, "/data.pkl' in the archive"));
  if (const ZipMember* order = zip.Find(base + "/byteorder")) {
    ASSIGN_OR_RETURN(std::vector<std::byte> b, zip.Read(*order, 64));
    if (absl::string_view(reinterpret_cast<const char*>(b.data()), b.size()) != "little")
      return Bad(zip.Where(*order), "not 'little': big-endian checkpoints are not supported");
  }
  ASSIGN_OR_RETURN(std::vector<std::byte> pickle, zip.Read(*pkl, kMaxPickleBytes));
  Unpickler p(pickle, zip.Where(*pkl));
  ASSIGN_OR_RETURN(uint32_t root, p.Load(0));

  // Storages by key, inflated at most once each.
  absl::flat_hash_map<std::string, StorageBytes> inflated;
  const std::string data_dir = base + "/data/";
  StorageLookup lookup = [&](const std::string& key) -> absl::StatusOr<StorageBytes> {
    const ZipMember* m = zip.Find(data_dir + key);
    if (m == nullptr)
      return Bad(path, absl::StrCat("no member '", data_dir, key, "' for storage '", key, "'"));
    if (m->method == 0) {
      ASSIGN_OR_RETURN(Bytes b, zip.Stored(*m));
      return StorageBytes{b, file};
    }
    if (auto it = inflated.find(key); it != inflated.end()) return it->second;
    ASSIGN_OR_RETURN(std::vector<std::byte> bytes, zip.Read(*m, UINT64_MAX));
    auto owned = std::make_shared<const std::vector<std::byte>>(std::move(bytes));
    StorageBytes sb{Bytes(*owned), owned};
    inflated.emplace(key, sb);
    return sb;
  };
  Flattener f(p, path, lookup, device);
  RETURN_IF_ERROR(f.Visit(root, "", 0));
  return f.Take();
}

// torch < 1.6: pickles of the magic number, the protocol version and sys info, the object, the
// storage keys; then each storage in key order as its int64 numel and its bytes.
absl::StatusOr<std::map<std::string, Tensor>> LoadLegacy(std::shared_ptr<const MappedFile> file,
                                                         const std::string& device) {
  const std::string& path = file->path();
  Bytes data = file->bytes();
  Unpickler header(data, path);
  ASSIGN_OR_RETURN(uint32_t magic, header.Load(0));
  constexpr unsigned char kMagic[] = {0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19};
  if (header.at(magic).kind != Kind::kBigInt ||
      header.at(magic).s !=
          absl::string_view(reinterpret_cast<const char*>(kMagic), sizeof(kMagic)))
    return Bad(path, "not a PyTorch checkpoint (no zip archive, no legacy magic number)");
  ASSIGN_OR_RETURN(uint32_t version, header.Load(header.pos()));
  if (header.at(version).kind != Kind::kInt || header.at(version).i != 1001)
    return Bad(path, "legacy protocol version is not 1001");
  ASSIGN_OR_RETURN(uint32_t sys_info, header.Load(header.pos()));
  const Value& info = header.at(sys_info);
  for (size_t k = 0; info.kind == Kind::kDict && k + 1 < info.items.size(); k += 2)
    if (header.at(info.items[k]).s == "little_endian" &&
        header.at(info.items[k + 1]).kind == Kind::kBool && header.at(info.items[k + 1]).i == 0)
      return Bad(path, "big-endian checkpoints are not supported");

  Unpickler p(data, path);
  ASSIGN_OR_RETURN(uint32_t root, p.Load(header.pos()));
  Unpickler keys_p(data, path);
  ASSIGN_OR_RETURN(uint32_t keys, keys_p.Load(p.pos()));
  if (keys_p.at(keys).kind != Kind::kList) return Bad(path, "storage keys are not a list");

  // The storages' dtypes and sizes, from the object pickle's persistent ids.
  absl::flat_hash_map<std::string, const Value*> pids;
  for (uint32_t id = 0; id < p.size(); ++id) {
    const Value& v = p.at(id);
    if (v.kind != Kind::kStorage) continue;
    auto [it, fresh] = pids.emplace(v.s, &v);
    if (!fresh && (it->second->dtype != v.dtype || it->second->i != v.i))
      return Bad(path, absl::StrCat("storage '", v.s, "' named with two types or sizes"));
  }
  absl::flat_hash_map<std::string, Bytes> where;
  uint64_t offset = keys_p.pos();
  for (uint32_t k : keys_p.at(keys).items) {
    const Value& key = keys_p.at(k);
    if (key.kind != Kind::kStr) return Bad(path, "a storage key is not a string");
    auto it = pids.find(key.s);
    if (it == pids.end()) return Bad(path, absl::StrCat("storage '", key.s, "' has no type"));
    const uint64_t numel = static_cast<uint64_t>(it->second->i);
    const uint64_t nbytes = numel * it->second->dtype.itemsize();
    if (data.size() - offset < 8) return Bad(path, absl::StrCat("storage '", key.s, "' truncated"));
    uint64_t stored_numel = 0;
    for (int b = 7; b >= 0; --b)
      stored_numel = (stored_numel << 8) | static_cast<uint8_t>(data[offset + b]);
    offset += 8;
    if (stored_numel != numel)
      return Bad(path, absl::StrCat("storage '", key.s, "' has ", stored_numel,
                                    " elements, not the ", numel, " the pickle says"));
    if (data.size() - offset < nbytes)
      return Bad(path, absl::StrCat("storage '", key.s, "' truncated"));
    where[key.s] = data.subspan(offset, nbytes);
    offset += nbytes;
  }
  StorageLookup lookup = [&](const std::string& key) -> absl::StatusOr<StorageBytes> {
    auto it = where.find(key);
    if (it == where.end()) return Bad(path, absl::StrCat("storage '", key, "' is not in the file"));
    return StorageBytes{it->second, file};
  };
  Flattener f(p, path, lookup, device);
  RETURN_IF_ERROR(f.Visit(root, "", 0));
  return f.Take();
}

}  // namespace

absl::StatusOr<std::map<std::string, Tensor>> TorchLoad(const std::string& path,
                                                        const std::string& device) {
  ASSIGN_OR_RETURN(std::shared_ptr<const MappedFile> file, MappedFile::Open(path));
  Bytes data = file->bytes();
  auto starts = [&](absl::string_view magic, size_t at = 0) {
    return data.size() >= at + magic.size() &&
           std::memcmp(data.data() + at, magic.data(), magic.size()) == 0;
  };
  if (starts("PK")) {
    ASSIGN_OR_RETURN(std::unique_ptr<ZipArchive> zip, ZipArchive::Open(data, path));
    return LoadZip(file, *zip, device);
  }
  if (starts("ustar", 257))
    return Bad(path, "tar checkpoints (torch < 0.1.10) are not supported");  // TODO(parity)
  if (starts("\x80")) return LoadLegacy(file, device);
  return Bad(path, "not a PyTorch checkpoint (neither a zip archive nor a pickle)");
}

absl::StatusOr<std::map<std::string, Tensor>> ZipExtract(const std::string& path,
                                                         const std::string& device) {
  ASSIGN_OR_RETURN(std::shared_ptr<const MappedFile> file, MappedFile::Open(path));
  ASSIGN_OR_RETURN(std::unique_ptr<ZipArchive> zip, ZipArchive::Open(file->bytes(), path));
  std::map<std::string, Tensor> out;
  for (const ZipMember& m : zip->members()) {
    Tensor t = Tensor::Empty(std::vector<int64_t>{0}, {.dtype = dtypes::uint8, .device = device});
    if (m.uncompressed_size > 0 && m.method == 0) {
      ASSIGN_OR_RETURN(Bytes b, zip->Stored(m));
      ASSIGN_OR_RETURN(UOp buf, BufferOverHost(device, dtypes::uint8, b, file));
      t = Tensor(buf);
    } else if (m.uncompressed_size > 0) {
      ASSIGN_OR_RETURN(std::vector<std::byte> bytes, zip->Read(m, UINT64_MAX));
      auto owned = std::make_shared<const std::vector<std::byte>>(std::move(bytes));
      ASSIGN_OR_RETURN(UOp buf, BufferOverHost(device, dtypes::uint8, *owned, owned));
      t = Tensor(buf);
    }
    out.insert_or_assign(m.name, std::move(t));
  }
  return out;
}

}  // namespace tg
