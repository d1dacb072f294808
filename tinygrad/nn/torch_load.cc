// File: tinygrad/nn/torch_load.cc
// Port of tinygrad/nn/state.py: torch_load (zip and legacy formats), zip_extract. The zip
// archive is read by zip_archive.h, the pickle by torch_pickle.h; here their values become
// tensors over the mapped file's bytes.
#include "tinygrad/nn/torch_load.h"

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
#include "tinygrad/nn/torch_pickle.h"
#include "tinygrad/nn/zip_archive.h"

namespace tg {
namespace {

using Bytes = std::span<const std::byte>;

using torch_pickle::Kind;
using torch_pickle::Unpickler;
using torch_pickle::Value;

// Bounds on what a hostile file can make us build (the unpickler has its own).
constexpr int kMaxNesting = 128;                         // dicts and lists inside each other
constexpr size_t kMaxNamedValues = size_t{1} << 22;      // values visited while flattening
constexpr size_t kMaxNameBytes = size_t{1} << 26;        // the names built while flattening
constexpr uint64_t kMaxPickleBytes = uint64_t{1} << 30;  // an inflated data.pkl

absl::Status Bad(const std::string& where, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("torch_load: ", where, ": ", what));
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
