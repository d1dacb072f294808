// File: tinygrad/nn/gguf.cc
// Parsing reads the file through a cursor that checks every read against the bytes left; counts
// are checked against what their items need at least before anything is reserved.
#include "tinygrad/nn/gguf.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <set>
#include <utility>

#include "absl/numeric/int128.h"
#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/nn/mapped_file.h"

namespace tg {
namespace {

// Numbers are little-endian in the file and copied as they are.
static_assert(std::endian::native == std::endian::little, "GGUF IO assumes little-endian");

constexpr std::array<std::byte, 4> kMagic = {std::byte{'G'}, std::byte{'G'}, std::byte{'U'},
                                             std::byte{'F'}};
constexpr int64_t kDefaultAlignment = 32;
constexpr const char* kAlignmentKey = "general.alignment";

struct GgmlTypeInfo {
  int32_t type;
  const char* name;
  int64_t block_elems;  // 1 for the native types
  int64_t block_bytes;
};
// The reference's ggml_data_to_tensor types: (elements, bytes) per block.
constexpr std::array<GgmlTypeInfo, 11> kGgmlTypes = {{
    {kGgmlF32, "F32", 1, 4},
    {kGgmlF16, "F16", 1, 2},
    {kGgmlQ4_0, "Q4_0", 32, 18},
    {kGgmlQ4_1, "Q4_1", 32, 20},
    {kGgmlQ8_0, "Q8_0", 32, 34},
    {kGgmlQ4_K, "Q4_K", 256, 144},
    {kGgmlQ6_K, "Q6_K", 256, 210},
    {kGgmlI8, "I8", 1, 1},
    {kGgmlI16, "I16", 1, 2},
    {kGgmlI32, "I32", 1, 4},
    {kGgmlMXFP4, "MXFP4", 32, 17},
}};

const GgmlTypeInfo* FindGgmlType(int32_t type) {
  for (const GgmlTypeInfo& t : kGgmlTypes)
    if (t.type == type) return &t;
  return nullptr;
}

const char* TypeName(int32_t type) {
  const GgmlTypeInfo* t = FindGgmlType(type);
  return t ? t->name : "unknown";
}

// The fewest bytes a value of type `t` takes in the file (a string: its length; an array: its
// element type and count); 0 for an unknown type.
size_t MinValueBytes(int32_t t) {
  switch (static_cast<GgufType>(t)) {
    case GgufType::kUint8:
    case GgufType::kInt8:
    case GgufType::kBool:
      return 1;
    case GgufType::kUint16:
    case GgufType::kInt16:
      return 2;
    case GgufType::kUint32:
    case GgufType::kInt32:
    case GgufType::kFloat32:
      return 4;
    case GgufType::kString:
    case GgufType::kUint64:
    case GgufType::kInt64:
    case GgufType::kFloat64:
      return 8;
    case GgufType::kArray:
      return 12;
  }
  return 0;
}

// Whether `s` is valid UTF-8 as Python's strict decoder sees it (no overlong forms, no
// surrogates, nothing above U+10FFFF): the reference decodes every string.
bool IsUtf8(absl::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  size_t n = s.size(), i = 0;
  auto cont = [&](size_t j, unsigned lo = 0x80, unsigned hi = 0xBF) {
    return j < n && p[j] >= lo && p[j] <= hi;
  };
  while (i < n) {
    unsigned c = p[i];
    if (c < 0x80) {
      i += 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
      if (!cont(i + 1)) return false;
      i += 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      unsigned lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
      if (!cont(i + 1, lo, hi) || !cont(i + 2)) return false;
      i += 3;
    } else if (c >= 0xF0 && c <= 0xF4) {
      unsigned lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
      if (!cont(i + 1, lo, hi) || !cont(i + 2) || !cont(i + 3)) return false;
      i += 4;
    } else {
      return false;
    }
  }
  return true;
}

// A cursor over the file's bytes. Every read checks the bytes left; errors name the file, the
// field and the byte offset where the field starts.
class Reader {
 public:
  Reader(std::span<const std::byte> bytes, const std::string& path) : b_(bytes), path_(path) {}

  size_t pos() const { return pos_; }
  size_t left() const { return b_.size() - pos_; }

  absl::Status Error(size_t at, absl::string_view field, absl::string_view why) const {
    return absl::InvalidArgumentError(
        absl::StrCat("gguf_load: '", path_, "': ", field, " at byte ", at, ": ", why));
  }

  template <typename T>
  absl::StatusOr<T> Read(absl::string_view field) {
    if (left() < sizeof(T))
      return Error(pos_, field,
                   absl::StrCat("needs ", sizeof(T), " bytes, the file has ", left(), " left"));
    T v;
    std::memcpy(&v, b_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return v;
  }

  absl::StatusOr<std::string> ReadString(absl::string_view field) {
    size_t at = pos_;
    ASSIGN_OR_RETURN(uint64_t len, Read<uint64_t>(field));
    if (len > left())
      return Error(at, field,
                   absl::StrCat("string of ", len, " bytes, the file has ", left(), " left"));
    std::string s(reinterpret_cast<const char*>(b_.data() + pos_), static_cast<size_t>(len));
    if (!IsUtf8(s)) return Error(at, field, "string is not valid UTF-8");
    pos_ += static_cast<size_t>(len);
    return s;
  }

  // A value of type `type` (checked by the caller), `depth` arrays deep.
  absl::StatusOr<GgufValue> ReadValue(int32_t type, absl::string_view field, int depth) {
    size_t at = pos_;
    if (values_left_ == 0)
      return Error(at, field, absl::StrCat("more than ", kGgufMaxValues, " metadata values"));
    --values_left_;
    GgufValue v;
    v.type = static_cast<GgufType>(type);
    switch (v.type) {
      case GgufType::kUint8:
        return Number<uint8_t, uint64_t>(std::move(v), field);
      case GgufType::kInt8:
        return Number<int8_t, int64_t>(std::move(v), field);
      case GgufType::kUint16:
        return Number<uint16_t, uint64_t>(std::move(v), field);
      case GgufType::kInt16:
        return Number<int16_t, int64_t>(std::move(v), field);
      case GgufType::kUint32:
        return Number<uint32_t, uint64_t>(std::move(v), field);
      case GgufType::kInt32:
        return Number<int32_t, int64_t>(std::move(v), field);
      case GgufType::kUint64:
        return Number<uint64_t, uint64_t>(std::move(v), field);
      case GgufType::kInt64:
        return Number<int64_t, int64_t>(std::move(v), field);
      case GgufType::kFloat32:
        return Number<float, double>(std::move(v), field);
      case GgufType::kFloat64:
        return Number<double, double>(std::move(v), field);
      case GgufType::kBool: {
        ASSIGN_OR_RETURN(uint8_t b, Read<uint8_t>(field));
        v.value = b != 0;  // any non-zero byte, as Python's struct "?" reads it
        return v;
      }
      case GgufType::kString: {
        ASSIGN_OR_RETURN(v.value, ReadString(field));
        return v;
      }
      case GgufType::kArray:
        break;
    }
    if (depth >= kGgufMaxNesting)
      return Error(at, field, absl::StrCat("arrays nested more than ", kGgufMaxNesting, " deep"));
    ASSIGN_OR_RETURN(int32_t elem, Read<int32_t>(field));
    size_t min_bytes = MinValueBytes(elem);
    if (min_bytes == 0) return Error(at, field, absl::StrCat("unknown array element type ", elem));
    v.array_type = static_cast<GgufType>(elem);
    ASSIGN_OR_RETURN(uint64_t count, Read<uint64_t>(field));
    if (count > left() / min_bytes)
      return Error(at, field,
                   absl::StrCat("array of ", count, " items of at least ", min_bytes,
                                " bytes, the file has ", left(), " left"));
    if (count > values_left_)
      return Error(at, field, absl::StrCat("more than ", kGgufMaxValues, " metadata values"));
    std::vector<GgufValue> items;
    items.reserve(static_cast<size_t>(count));
    for (uint64_t i = 0; i < count; ++i) {
      ASSIGN_OR_RETURN(GgufValue item, ReadValue(elem, field, depth + 1));
      items.push_back(std::move(item));
    }
    v.value = std::move(items);
    return v;
  }

 private:
  template <typename T, typename Stored>
  absl::StatusOr<GgufValue> Number(GgufValue v, absl::string_view field) {
    ASSIGN_OR_RETURN(T x, Read<T>(field));
    v.value = static_cast<Stored>(x);
    return v;
  }

  std::span<const std::byte> b_;
  const std::string& path_;
  size_t pos_ = 0;
  uint64_t values_left_ = kGgufMaxValues;
};

// A count read as an int64 that must be at least 0 and fit items of `min_bytes` in what is left.
absl::StatusOr<uint64_t> ReadCount(Reader& r, absl::string_view field, size_t min_bytes) {
  size_t at = r.pos();
  ASSIGN_OR_RETURN(int64_t n, r.Read<int64_t>(field));
  if (n < 0) return r.Error(at, field, absl::StrCat("negative count ", n));
  if (static_cast<uint64_t>(n) > r.left() / min_bytes)
    return r.Error(at, field,
                   absl::StrCat(n, " items of at least ", min_bytes, " bytes, the file has ",
                                r.left(), " left"));
  return static_cast<uint64_t>(n);
}

absl::StatusOr<GgufTensorInfo> ReadTensorInfo(Reader& r, const std::string& name) {
  const std::string field = absl::StrCat("tensor '", name, "'");
  GgufTensorInfo info;
  size_t at = r.pos();
  ASSIGN_OR_RETURN(uint32_t n_dims, r.Read<uint32_t>(field + " dim count"));
  if (n_dims > kGgufMaxDims)
    return r.Error(at, field, absl::StrCat(n_dims, " dims, at most ", kGgufMaxDims));
  int64_t numel = 1;
  for (uint32_t i = 0; i < n_dims; ++i) {
    at = r.pos();
    ASSIGN_OR_RETURN(uint64_t d, r.Read<uint64_t>(field + " dim"));
    if (d > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) ||
        __builtin_mul_overflow(numel, static_cast<int64_t>(d), &numel))
      return r.Error(at, field, absl::StrCat("dim ", i, " of ", d, " makes too many elements"));
    info.dims.push_back(static_cast<int64_t>(d));
  }
  at = r.pos();
  ASSIGN_OR_RETURN(info.ggml_type, r.Read<int32_t>(field + " type"));
  const GgmlTypeInfo* t = FindGgmlType(info.ggml_type);
  if (t == nullptr)
    return r.Error(at, field, absl::StrCat("unsupported ggml type ", info.ggml_type));
  if (numel % t->block_elems != 0)
    return r.Error(
        at, field,
        absl::StrCat(numel, " elements are not whole ", t->name, " blocks of ", t->block_elems));
  int64_t nbytes;
  if (__builtin_mul_overflow(numel / t->block_elems, t->block_bytes, &nbytes))
    return r.Error(at, field, absl::StrCat(numel, " ", t->name, " elements are too many bytes"));
  info.nbytes = static_cast<uint64_t>(nbytes);
  ASSIGN_OR_RETURN(info.offset, r.Read<uint64_t>(field + " offset"));
  return info;
}

// general.alignment (its key at byte `at`), or the default.
absl::StatusOr<uint64_t> Alignment(const GgufHeader& h, const Reader& r, size_t at) {
  auto it = h.metadata.find(kAlignmentKey);
  if (it == h.metadata.end()) return kDefaultAlignment;
  const GgufValue& v = it->second;
  std::optional<int64_t> a;
  if (v.type != GgufType::kBool) a = v.as_int();
  if (!a || *a < 1 || static_cast<uint64_t>(*a) > kGgufMaxAlignment)
    return r.Error(at, absl::StrCat("metadata '", kAlignmentKey, "'"),
                   absl::StrCat("not an integer from 1 to ", kGgufMaxAlignment));
  return static_cast<uint64_t>(*a);
}

// t[:, a:b] of a 2-D tensor.
Tensor Cols(const Tensor& t, int64_t a, int64_t b) {
  return t.shrink(std::vector<std::pair<int64_t, int64_t>>{{0, t.shape()[0]}, {a, b}});
}

// The float16 at columns [a, a+2) of each block, as float32: (blocks, 1).
Tensor F16At(const Tensor& blocks, int64_t a) {
  return Cols(blocks, a, a + 2).bitcast(dtypes::float16).cast(dtypes::float32);
}

// The `bits`-bit fields of each byte along the last dim: (..., k) -> (..., 8/bits * k), all the
// lowest fields first (the reference's q_to_uint8).
Tensor Unpack(const Tensor& t, int bits) {
  std::vector<Tensor> parts;
  for (int i = 0; i < 8 / bits; ++i)
    parts.push_back(t.rshift(i * bits).bitwise_and(0xff >> (8 - bits)));
  return Tensor::Stack(parts, -2).flatten(-2);
}

// Each type's dequantization of (blocks, block bytes) uint8 to (blocks, block elements) float32,
// the reference's ops in its order.
Tensor DequantizeBlocks(const Tensor& blocks, int64_t nb, int32_t type) {
  switch (type) {
    case kGgmlQ4_0:
      return (Unpack(Cols(blocks, 2, 18), 4).bitcast(dtypes::int8) - 8) * F16At(blocks, 0);
    case kGgmlQ4_1:
      return Unpack(Cols(blocks, 4, 20), 4).bitcast(dtypes::int8) * F16At(blocks, 0) +
             F16At(blocks, 2);
    case kGgmlQ8_0:
      return F16At(blocks, 0) * Cols(blocks, 2, 34).bitcast(dtypes::int8);
    case kGgmlQ4_K: {
      // d:2, dmin:2, scales:12 (6-bit scales 0-3, 6-bit mins 0-3, high bits of 4-7), qs:128
      Tensor d = F16At(blocks, 0).unsqueeze(-1), dmin = F16At(blocks, 2).unsqueeze(-1);
      Tensor s0 = Cols(blocks, 4, 8), s4 = Cols(blocks, 8, 12), s8 = Cols(blocks, 12, 16);
      Tensor sc = Tensor::Cat({s0 & 63, (s8 & 0xF) | s0.rshift(6).lshift(4)}, -1);
      Tensor mn = Tensor::Cat({s4 & 63, s8.rshift(4) | s4.rshift(6).lshift(4)}, -1);
      Tensor qs = Cols(blocks, 16, 144).reshape(std::vector<int64_t>{nb, 4, 32});
      Tensor q = Tensor::Stack({qs & 0xF, qs.rshift(4)}, 2)
                     .reshape(std::vector<int64_t>{nb, 8, 32})
                     .cast(dtypes::float32);
      return (d * sc.unsqueeze(-1) * q - dmin * mn.unsqueeze(-1)).flatten(-2);
    }
    case kGgmlQ6_K: {
      // ql:128 (low 4 bits), qh:64 (high 2 bits), scales:16 (int8), d:2
      Tensor xl = Unpack(Cols(blocks, 0, 128).reshape(std::vector<int64_t>{nb, 2, 64}), 4);
      Tensor xh =
          Unpack(Cols(blocks, 128, 192).reshape(std::vector<int64_t>{nb, 2, 32}), 2).lshift(4);
      Tensor scales = Cols(blocks, 192, 208)
                          .bitcast(dtypes::int8)
                          .unsqueeze(-1)
                          .expand(std::vector<int64_t>{-1, 16, 16})
                          .reshape(std::vector<int64_t>{nb, 256});
      Tensor d = F16At(blocks, 208).expand(std::vector<int64_t>{-1, 256});
      return d * ((xl | xh).bitcast(dtypes::int8) - 32).flatten(-2) * scales;
    }
    case kGgmlMXFP4: {
      // e:1 (the block's E8M0 scale), 16 bytes of E2M1 codes
      Tensor e = Cols(blocks, 0, 1).reshape(std::vector<int64_t>{nb}).cast(dtypes::int32);
      const DType f32 = dtypes::float32;
      Tensor d =
          ((e >= 2).cast(f32) * (e.cast(f32) - 128).exp2() +
           e.eq(1).cast(f32) * std::ldexp(1.0, -127) + e.eq(0).cast(f32) * std::ldexp(1.0, -128))
              .unsqueeze(-1);
      Tensor codes = Unpack(Cols(blocks, 1, 17), 4);
      Tensor sign = 1.0 - codes.rshift(3).cast(f32) * 2.0;
      Tensor exp = codes.rshift(1).bitwise_and(0x3).cast(f32);
      Tensor mant = codes.bitwise_and(0x1).cast(f32);
      Tensor fp4 = sign * (exp.ne(0).cast(f32) * (1.0 + 0.5 * mant) * (exp - 1.0).exp2() +
                           exp.eq(0).cast(f32) * 0.5 * mant);
      return fp4 * d;
    }
  }
  return Tensor::Error(absl::InternalError(absl::StrCat("ggml type ", type, " has no blocks")));
}

}  // namespace

std::optional<int64_t> GgufValue::as_int() const {
  if (const auto* u = std::get_if<uint64_t>(&value))
    return *u <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())
               ? std::optional<int64_t>(static_cast<int64_t>(*u))
               : std::nullopt;
  if (const auto* i = std::get_if<int64_t>(&value)) return *i;
  if (const auto* b = std::get_if<bool>(&value)) return *b ? 1 : 0;
  return std::nullopt;
}

std::optional<double> GgufValue::as_double() const {
  if (const auto* u = std::get_if<uint64_t>(&value)) return static_cast<double>(*u);
  if (const auto* i = std::get_if<int64_t>(&value)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&value)) return *d;
  if (const auto* b = std::get_if<bool>(&value)) return *b ? 1.0 : 0.0;
  return std::nullopt;
}

const std::string* GgufValue::as_string() const { return std::get_if<std::string>(&value); }

const std::vector<GgufValue>* GgufValue::as_array() const {
  return std::get_if<std::vector<GgufValue>>(&value);
}

int64_t GgufTensorInfo::numel() const {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

std::vector<int64_t> GgufTensorInfo::shape() const { return {dims.rbegin(), dims.rend()}; }

std::string_view GgmlTypeName(int32_t ggml_type) { return TypeName(ggml_type); }

absl::StatusOr<GgufHeader> ParseGguf(std::span<const std::byte> file, const std::string& path) {
  Reader r(file, path);
  GgufHeader h;
  if (file.size() < kMagic.size() || !std::equal(kMagic.begin(), kMagic.end(), file.begin()))
    return r.Error(0, "magic", "not a GGUF file (it does not start with \"GGUF\")");
  RETURN_IF_ERROR((r.Read<std::array<std::byte, 4>>("magic").status()));
  ASSIGN_OR_RETURN(h.version, r.Read<int32_t>("version"));
  if (h.version != 2 && h.version != 3)
    return r.Error(4, "version", absl::StrCat("unsupported version ", h.version, " (not 2 or 3)"));
  // A tensor info takes at least 24 bytes (name length, dim count, type, offset), a key/value
  // pair 13 (key length, type, a 1-byte value).
  ASSIGN_OR_RETURN(uint64_t n_tensors, ReadCount(r, "tensor count", 24));
  ASSIGN_OR_RETURN(uint64_t n_kv, ReadCount(r, "metadata count", 13));

  size_t alignment_at = 0;
  for (uint64_t i = 0; i < n_kv; ++i) {
    size_t at = r.pos();
    ASSIGN_OR_RETURN(std::string key, r.ReadString(absl::StrCat("metadata key #", i)));
    const std::string field = absl::StrCat("metadata '", key, "'");
    size_t type_at = r.pos();
    ASSIGN_OR_RETURN(int32_t type, r.Read<int32_t>(field + " type"));
    if (MinValueBytes(type) == 0)
      return r.Error(type_at, field, absl::StrCat("unknown value type ", type));
    ASSIGN_OR_RETURN(GgufValue v, r.ReadValue(type, field, 0));
    if (key == kAlignmentKey) alignment_at = at;
    if (!h.metadata.emplace(key, std::move(v)).second) return r.Error(at, field, "duplicate key");
  }

  std::set<std::string> names;
  for (uint64_t i = 0; i < n_tensors; ++i) {
    size_t at = r.pos();
    ASSIGN_OR_RETURN(std::string name, r.ReadString(absl::StrCat("tensor #", i, " name")));
    if (!names.insert(name).second)
      return r.Error(at, absl::StrCat("tensor '", name, "'"), "duplicate name");
    ASSIGN_OR_RETURN(GgufTensorInfo info, ReadTensorInfo(r, name));
    h.tensors.emplace_back(std::move(name), std::move(info));
  }

  ASSIGN_OR_RETURN(h.alignment, Alignment(h, r, alignment_at));
  h.data_start = (r.pos() + h.alignment - 1) / h.alignment * h.alignment;
  const uint64_t size = file.size();
  for (const auto& [name, info] : h.tensors) {
    // In 128 bits: data_start + offset + nbytes may not fit 64.
    absl::uint128 begin = absl::uint128(h.data_start) + info.offset;
    if (begin + info.nbytes > size)
      return r.Error(
          static_cast<size_t>(begin < size ? begin : absl::uint128(size)),
          absl::StrCat("tensor '", name, "'"),
          absl::StrCat(TypeName(info.ggml_type), " data of ", info.nbytes, " bytes at offset ",
                       info.offset, " of the data section (byte ", h.data_start,
                       ") extends past the end of the file (", size, " bytes)"));
  }
  return h;
}

absl::StatusOr<Tensor> GgmlDataToTensor(const Tensor& bytes, int64_t n, int32_t ggml_type) {
  auto bad = [&](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat("ggml_data_to_tensor: ", why));
  };
  if (!bytes.ok()) return bytes.status();
  const GgmlTypeInfo* t = FindGgmlType(ggml_type);
  if (t == nullptr) return bad(absl::StrCat("GGML type '", ggml_type, "' is not supported"));
  if (bytes.ndim() != 1 || bytes.dtype() != dtypes::uint8 || bytes.is_symbolic())
    return bad(absl::StrCat("the data must be a 1-D uint8 tensor, not ", bytes.repr()));
  if (n < 0 || n % t->block_elems != 0)
    return bad(absl::StrCat(n, " elements are not whole ", t->name, " blocks of ", t->block_elems));
  const int64_t nb = n / t->block_elems;
  int64_t nbytes;
  if (__builtin_mul_overflow(nb, t->block_bytes, &nbytes) || bytes.shape()[0] < nbytes)
    return bad(absl::StrCat(n, " ", t->name, " elements need ", nbytes, " bytes, the data has ",
                            bytes.shape()[0]));
  Tensor data = bytes.shrink(std::vector<std::pair<int64_t, int64_t>>{{0, nbytes}});
  Tensor out = Tensor::Error(absl::InternalError("unset"));
  switch (ggml_type) {
    case kGgmlF32:
      out = data.bitcast(dtypes::float32);
      break;
    case kGgmlF16:
      out = data.bitcast(dtypes::float16);
      break;
    case kGgmlI8:
      out = data.bitcast(dtypes::int8);
      break;
    case kGgmlI16:
      out = data.bitcast(dtypes::int16);
      break;
    case kGgmlI32:
      out = data.bitcast(dtypes::int32);
      break;
    default:
      out = DequantizeBlocks(data.reshape(std::vector<int64_t>{nb, t->block_bytes}), nb, ggml_type)
                .reshape(std::vector<int64_t>{n});
  }
  if (!out.ok()) return out.status();
  return out;
}

absl::StatusOr<GgufFile> GgufLoad(const std::string& path, const std::string& device) {
  ASSIGN_OR_RETURN(std::shared_ptr<const MappedFile> file, MappedFile::Open(path));
  ASSIGN_OR_RETURN(GgufHeader h, ParseGguf(file->bytes(), path));
  GgufFile out;
  out.metadata = std::move(h.metadata);
  for (const auto& [name, info] : h.tensors) {
    Tensor bytes =
        Tensor::Empty(std::vector<int64_t>{0}, {.dtype = dtypes::uint8, .device = device});
    if (info.nbytes != 0) {
      ASSIGN_OR_RETURN(
          UOp buf,
          BufferOverHost(device, dtypes::uint8,
                         file->bytes().subspan(h.data_start + info.offset, info.nbytes), file));
      bytes = Tensor(buf);
    }
    absl::StatusOr<Tensor> t = GgmlDataToTensor(bytes, info.numel(), info.ggml_type);
    if (t.ok()) *t = t->reshape(info.shape());
    if (t.ok() && !t->ok()) t = t->status();
    if (!t.ok())
      return absl::Status(t.status().code(), absl::StrCat("gguf_load: '", path, "': tensor '", name,
                                                          "': ", t.status().message()));
    out.tensors.emplace(name, *std::move(t));
  }
  return out;
}

}  // namespace tg
