// File: tinygrad/nn/gguf_test.cc
// GgufLoad / ParseGguf / GgmlDataToTensor: the files of tools/golden/gen_gguf_golden.py read as
// the reference reads them (metadata, names, dtypes, shapes, values bit for bit, every ggml
// type), hand-made blocks, errors of bad files, and random mutations of the valid files (each
// refused or read, never a crash or a read outside the file; run it under --config=asan too).
#include "tinygrad/nn/gguf.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tinygrad/nn/dataset_test_files.h"

namespace tg {
namespace {

const std::string kDir = "tinygrad/nn/testdata/";

nlohmann::json ToJson(const GgufValue& v) {
  if (const auto* u = std::get_if<uint64_t>(&v.value)) return *u;
  if (const auto* i = std::get_if<int64_t>(&v.value)) return *i;
  if (const auto* d = std::get_if<double>(&v.value)) return *d;
  if (const auto* b = std::get_if<bool>(&v.value)) return *b;
  if (const auto* s = std::get_if<std::string>(&v.value)) return *s;
  nlohmann::json out = nlohmann::json::array();
  for (const GgufValue& x : *v.as_array()) out.push_back(ToJson(x));
  return out;
}

uint64_t Fnv1a64(const std::vector<std::byte>& b) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (std::byte x : b) h = (h ^ static_cast<uint8_t>(x)) * 0x100000001b3ull;
  return h;
}

std::string Hex(const std::vector<std::byte>& b, size_t n) {
  std::string out;
  for (size_t i = 0; i < b.size() && i < n; ++i)
    absl::StrAppend(&out, absl::Hex(static_cast<uint8_t>(b[i]), absl::kZeroPad2));
  return out;
}

// ** the reference's reading of the generated files **

TEST(GgufTest, GoldenFilesReadAsTheReferenceReadsThem) {
  std::ifstream golden(kDir + "gguf_golden.txt");
  ASSERT_TRUE(golden) << "missing gguf_golden.txt";
  std::string file;
  absl::StatusOr<GgufFile> f = absl::UnknownError("no file line");
  std::map<std::string, int> seen;  // per file: kv and tensor lines checked
  int lines = 0;
  for (std::string line; std::getline(golden, line);) {
    if (line.empty()) continue;
    std::vector<std::string> w = absl::StrSplit(line, '\t');
    ++lines;
    if (w[0] == "file") {
      if (f.ok()) {
        EXPECT_EQ(seen[file + "/kv"], static_cast<int>(f->metadata.size())) << file;
        EXPECT_EQ(seen[file + "/tensor"], static_cast<int>(f->tensors.size())) << file;
      }
      file = w[1];
      f = GgufLoad(kDir + file);
      ASSERT_TRUE(f.ok()) << f.status();
    } else if (w[0] == "kv") {
      ASSERT_EQ(w.size(), 3u) << line;
      ++seen[file + "/kv"];
      auto it = f->metadata.find(w[1]);
      ASSERT_NE(it, f->metadata.end()) << file << ": no key " << w[1];
      EXPECT_EQ(ToJson(it->second), nlohmann::json::parse(w[2])) << file << ": " << w[1];
    } else {
      ASSERT_EQ(w[0], "tensor");
      ASSERT_EQ(w.size(), 6u) << line;
      ++seen[file + "/tensor"];
      auto it = f->tensors.find(w[1]);
      ASSERT_NE(it, f->tensors.end()) << file << ": no tensor " << w[1];
      const Tensor& t = it->second;
      ASSERT_TRUE(t.ok()) << t.status();
      EXPECT_EQ(t.dtype().name(), w[2]) << w[1];
      EXPECT_EQ(absl::StrJoin(t.shape(), ","), w[3]) << w[1];
      absl::StatusOr<std::vector<std::byte>> bytes = t.to_bytes();
      ASSERT_TRUE(bytes.ok()) << bytes.status();
      EXPECT_EQ(Hex(*bytes, 8 * t.dtype().itemsize()), w[5]) << file << ": " << w[1];
      EXPECT_EQ(absl::StrCat(absl::Hex(Fnv1a64(*bytes), absl::kZeroPad16)), w[4])
          << file << ": " << w[1] << " values differ from the reference's";
    }
  }
  EXPECT_GT(lines, 40);
}

TEST(GgufTest, MetadataKeepsItsTypes) {
  const std::string all = testing::ReadFileBytes(kDir + "gguf_all_types.gguf");
  absl::StatusOr<GgufHeader> h = ParseGguf(std::as_bytes(std::span(all)), "x");
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_EQ(h->version, 3);
  EXPECT_EQ(h->alignment, 64u);
  EXPECT_EQ(h->data_start % 64, 0u);
  const auto& m = h->metadata;
  EXPECT_EQ(m.at("t.uint8").type, GgufType::kUint8);
  EXPECT_EQ(m.at("t.uint8").as_int(), 200);
  EXPECT_EQ(m.at("t.int16").type, GgufType::kInt16);
  EXPECT_EQ(m.at("t.float32").type, GgufType::kFloat32);
  EXPECT_EQ(m.at("t.float32").as_double(), static_cast<double>(0.1f));
  EXPECT_EQ(std::get<uint64_t>(m.at("t.uint64").value), 18446744073709551615u);
  EXPECT_EQ(std::get<int64_t>(m.at("t.int64").value), INT64_MIN);
  EXPECT_EQ(*m.at("t.string").as_string(), "h\xc3\xa9llo \xe6\x97\xa5\xe6\x9c\xac");
  EXPECT_EQ(m.at("t.string").as_int(), std::nullopt);
  EXPECT_EQ(m.at("t.uint64").as_int(), std::nullopt);
  EXPECT_EQ(m.at("t.uint64").as_double(), 18446744073709551615.0);
  EXPECT_EQ(m.at("t.float64").as_int(), std::nullopt);
  EXPECT_EQ(m.at("t.bool_true").as_int(), 1);
  const GgufValue& nested = m.at("a.nested");
  EXPECT_EQ(nested.type, GgufType::kArray);
  EXPECT_EQ(nested.array_type, GgufType::kArray);
  ASSERT_EQ(nested.as_array()->size(), 4u);
  EXPECT_EQ((*nested.as_array())[1].array_type, GgufType::kString);
  EXPECT_EQ((*nested.as_array())[2].array_type, GgufType::kArray);
  EXPECT_EQ(m.at("a.empty").array_type, GgufType::kInt32);
  // Tensor infos in file order, dims in ggml order.
  ASSERT_EQ(h->tensors.size(), 12u);
  EXPECT_EQ(h->tensors[0].first, "f32");
  EXPECT_EQ(h->tensors[0].second.dims, (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(h->tensors[0].second.shape(), (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(h->tensors[8].first, "q4_k");
  EXPECT_EQ(h->tensors[8].second.nbytes, 2u * 144);
  EXPECT_EQ(GgmlTypeName(h->tensors[8].second.ggml_type), "Q4_K");

  const std::string v2_bytes = testing::ReadFileBytes(kDir + "gguf_v2_default.gguf");
  absl::StatusOr<GgufHeader> v2 = ParseGguf(std::as_bytes(std::span(v2_bytes)), "y");
  ASSERT_TRUE(v2.ok()) << v2.status();
  EXPECT_EQ(v2->version, 2);
  EXPECT_EQ(v2->alignment, 32u);
}

// ** GgmlDataToTensor on hand-made blocks **

Tensor Bytes(const std::vector<uint8_t>& b) {
  return Tensor::FromVector(b, {static_cast<int64_t>(b.size())});
}

TEST(GgmlDataToTensorTest, HandMadeBlocks) {
  // Q8_0: d = 0.5 (f16 0x3800), q = -16..15 -> q / 2.
  std::vector<uint8_t> q8 = {0x00, 0x38};
  for (int i = 0; i < 32; ++i) q8.push_back(static_cast<uint8_t>(i - 16));
  absl::StatusOr<Tensor> t = GgmlDataToTensor(Bytes(q8), 32, kGgmlQ8_0);
  ASSERT_TRUE(t.ok()) << t.status();
  std::vector<float> want;
  for (int i = 0; i < 32; ++i) want.push_back((i - 16) * 0.5f);
  EXPECT_EQ(t->to_vector<float>().value(), want);

  // Q4_0: d = 2 (0x4000); byte j holds element j (low nibble) and j + 16 (high): (q - 8) * d.
  std::vector<uint8_t> q4 = {0x00, 0x40};
  for (int j = 0; j < 16; ++j) q4.push_back(static_cast<uint8_t>(j | ((15 - j) << 4)));
  t = GgmlDataToTensor(Bytes(q4), 32, kGgmlQ4_0);
  ASSERT_TRUE(t.ok()) << t.status();
  want.clear();
  for (int j = 0; j < 16; ++j) want.push_back((j - 8) * 2.0f);
  for (int j = 0; j < 16; ++j) want.push_back((15 - j - 8) * 2.0f);
  EXPECT_EQ(t->to_vector<float>().value(), want);

  // Native types are bitcasts of the first n * itemsize bytes (the rest is ignored).
  t = GgmlDataToTensor(Bytes({1, 0, 0xff, 0xff, 9}), 2, kGgmlI16);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->dtype(), dtypes::int16);
  EXPECT_EQ(t->to_vector<int16_t>().value(), (std::vector<int16_t>{1, -1}));

  // No elements.
  t = GgmlDataToTensor(Bytes({}), 0, kGgmlQ6_K);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->shape(), std::vector<int64_t>{0});
}

TEST(GgmlDataToTensorTest, Errors) {
  auto msg = [](absl::StatusOr<Tensor> t) {
    EXPECT_FALSE(t.ok());
    return std::string(t.status().message());
  };
  EXPECT_TRUE(absl::StrContains(msg(GgmlDataToTensor(Bytes({1, 2}), 1, 10)),
                                "GGML type '10' is not supported"));
  EXPECT_TRUE(absl::StrContains(msg(GgmlDataToTensor(Bytes(std::vector<uint8_t>(34)), 31, 8)),
                                "31 elements are not whole Q8_0 blocks"));
  EXPECT_TRUE(absl::StrContains(msg(GgmlDataToTensor(Bytes(std::vector<uint8_t>(33)), 32, 8)),
                                "need 34 bytes, the data has 33"));
  EXPECT_TRUE(absl::StrContains(msg(GgmlDataToTensor(Tensor::FromVector<float>({1, 2}, {2}), 2, 0)),
                                "1-D uint8"));
  EXPECT_FALSE(GgmlDataToTensor(Bytes({1}), -1, 0).ok());
  EXPECT_FALSE(GgmlDataToTensor(Bytes({1}), int64_t{1} << 62, 0).ok());
}

// ** errors of bad files **

// A GGUF file written field by field.
class Gguf {
 public:
  Gguf& Raw(std::string_view s) { return b_.append(s), *this; }
  template <typename T>
  Gguf& Put(T v) {
    b_.append(reinterpret_cast<const char*>(&v), sizeof(v));
    return *this;
  }
  Gguf& Str(std::string_view s) { return Put<uint64_t>(s.size()).Raw(s); }
  // Magic, version, tensor and metadata counts.
  Gguf& Header(int64_t n_tensors, int64_t n_kv, int32_t version = 3) {
    return Raw("GGUF").Put(version).Put(n_tensors).Put(n_kv);
  }
  Gguf& Info(std::string_view name, std::vector<uint64_t> dims, int32_t type, uint64_t off) {
    Str(name).Put<uint32_t>(dims.size());
    for (uint64_t d : dims) Put(d);
    return Put(type).Put(off);
  }
  Gguf& Pad(size_t a = 32) { return b_.resize((b_.size() + a - 1) / a * a, '\0'), *this; }
  const std::string& bytes() const { return b_; }

 private:
  std::string b_;
};

// The error of loading `bytes` (from a file named `name`), checked to name the file.
std::string LoadError(const std::string& bytes, const std::string& name = "bad.gguf") {
  std::string path = testing::WriteTestTmpFile(name, bytes);
  absl::StatusOr<GgufFile> f = GgufLoad(path);
  EXPECT_FALSE(f.ok()) << "loaded " << name;
  if (f.ok()) return "";
  EXPECT_EQ(f.status().code(), absl::StatusCode::kInvalidArgument) << f.status();
  EXPECT_TRUE(absl::StrContains(f.status().message(), path)) << f.status();
  return std::string(f.status().message());
}

#define EXPECT_ERROR(bytes, ...)                                                         \
  do {                                                                                   \
    std::string m = LoadError(bytes);                                                    \
    for (const char* part : {__VA_ARGS__})                                               \
      EXPECT_TRUE(absl::StrContains(m, part)) << "'" << m << "' lacks '" << part << "'"; \
  } while (0)

TEST(GgufTest, ValidHandMadeFile) {
  Gguf g;
  g.Header(2, 1).Str("general.alignment").Put<int32_t>(4).Put<uint32_t>(8);
  g.Info("s", {}, kGgmlF32, 0).Info("e", {0, 3}, kGgmlQ4_0, 4).Pad(8);
  g.Put<float>(2.5f);
  absl::StatusOr<GgufFile> f = GgufLoad(testing::WriteTestTmpFile("ok.gguf", g.bytes()));
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->tensors.at("s").shape(), std::vector<int64_t>{});
  EXPECT_EQ(f->tensors.at("s").item<float>().value(), 2.5f);
  EXPECT_EQ(f->tensors.at("e").shape(), (std::vector<int64_t>{3, 0}));
}

TEST(GgufTest, BadFiles) {
  EXPECT_ERROR("GGUG\3\0\0\0", "magic at byte 0", "not a GGUF file");
  EXPECT_ERROR("", "magic at byte 0");
  EXPECT_ERROR(Gguf().Header(0, 0, 4).bytes(), "version at byte 4", "unsupported version 4");
  EXPECT_ERROR(Gguf().Header(0, 0, 1).bytes(), "unsupported version 1");
  EXPECT_ERROR(Gguf().Raw("GGUF").Put<int32_t>(3).Put<int32_t>(0).bytes(), "tensor count at byte 8",
               "needs 8 bytes, the file has 4 left");
  EXPECT_ERROR(Gguf().Header(-1, 0).bytes(), "tensor count at byte 8", "negative count -1");
  EXPECT_ERROR(Gguf().Header(0, int64_t{1} << 60).bytes(), "metadata count at byte 16");
  EXPECT_ERROR(Gguf().Header(1000, 0).Raw(std::string(100, '\0')).bytes(), "tensor count at byte 8",
               "1000 items of at least 24 bytes");

  // A string longer than the file.
  EXPECT_ERROR(Gguf().Header(0, 1).Put<uint64_t>(uint64_t{1} << 62).Raw("key").Pad().bytes(),
               "metadata key #0 at byte 24", "string of 4611686018427387904 bytes");
  EXPECT_ERROR(Gguf().Header(0, 1).Str("k").Put<int32_t>(8).Put<uint64_t>(~uint64_t{0}).bytes(),
               "metadata 'k' at byte 37", "string of 18446744073709551615 bytes");
  EXPECT_ERROR(Gguf().Header(0, 1).Str("k\xff").Put<int32_t>(0).Put<uint8_t>(1).bytes(),
               "metadata key #0", "not valid UTF-8");
  EXPECT_ERROR(Gguf().Header(0, 1).Str("k").Put<int32_t>(13).Put<uint8_t>(1).bytes(),
               "metadata 'k' at byte 33", "unknown value type 13");
  EXPECT_ERROR(
      Gguf().Header(0, 1).Str("k").Put<int32_t>(9).Put<int32_t>(-2).Put<uint64_t>(0).bytes(),
      "metadata 'k' at byte 37", "unknown array element type -2");
  EXPECT_ERROR(Gguf()
                   .Header(0, 1)
                   .Str("k")
                   .Put<int32_t>(9)
                   .Put<int32_t>(4)
                   .Put<uint64_t>(3)
                   .Put<uint32_t>(1)
                   .Put<uint32_t>(2)
                   .bytes(),
               "array of 3 items of at least 4 bytes, the file has 8 left");
  EXPECT_ERROR(Gguf()
                   .Header(0, 2)
                   .Str("k")
                   .Put<int32_t>(7)
                   .Put<uint8_t>(1)
                   .Str("k")
                   .Put<int32_t>(7)
                   .Put<uint8_t>(0)
                   .bytes(),
               "metadata 'k' at byte 38", "duplicate key");
  // Arrays of arrays past the nesting limit.
  {
    Gguf g;
    g.Header(0, 1).Str("deep");
    g.Put<int32_t>(9);
    for (int i = 0; i < 40; ++i) g.Put<int32_t>(9).Put<uint64_t>(1);
    g.Put<int32_t>(0).Put<uint64_t>(0).Raw(std::string(1000, '\0'));
    EXPECT_ERROR(g.bytes(), "metadata 'deep'", "arrays nested more than 32 deep");
  }
  // The alignment is a positive integer.
  EXPECT_ERROR(
      Gguf().Header(0, 1).Str("general.alignment").Put<int32_t>(4).Put<uint32_t>(0).bytes(),
      "metadata 'general.alignment' at byte 24", "not an integer from 1");
  EXPECT_ERROR(Gguf().Header(0, 1).Str("general.alignment").Put<int32_t>(8).Str("32").bytes(),
               "metadata 'general.alignment'");

  // Tensor infos.
  EXPECT_ERROR(Gguf().Header(1, 0).Info("t", {4}, 10, 0).Pad().Raw(std::string(64, '\0')).bytes(),
               "tensor 't' at byte 45", "unsupported ggml type 10");
  EXPECT_ERROR(
      Gguf().Header(1, 0).Info("t", {33}, kGgmlQ4_0, 0).Pad().Raw(std::string(64, '\0')).bytes(),
      "tensor 't'", "33 elements are not whole Q4_0 blocks of 32");
  EXPECT_ERROR(Gguf().Header(1, 0).Info("t", {1, 2, 3, 4, 5, 6, 7, 8, 9}, 0, 0).bytes(),
               "tensor 't' at byte 33", "9 dims, at most 8");
  EXPECT_ERROR(Gguf().Header(1, 0).Info("t", {uint64_t{1} << 62, 4}, 0, 0).bytes(),
               "tensor 't' at byte 45", "dim 1 of 4 makes too many elements");
  EXPECT_ERROR(Gguf().Header(1, 0).Info("t", {uint64_t{1} << 62}, kGgmlF32, 0).bytes(),
               "tensor 't' at byte 45", "4611686018427387904 F32 elements are too many bytes");
  EXPECT_ERROR(Gguf().Header(1, 0).Info("t", {~uint64_t{0}}, 0, 0).bytes(),
               "dim 0 of 18446744073709551615");
  EXPECT_ERROR(
      Gguf().Header(2, 0).Info("t", {1}, 0, 0).Info("t", {1}, 0, 0).Pad().Put<float>(1).bytes(),
      "tensor 't' at byte 57", "duplicate name");
  EXPECT_ERROR(Gguf().Header(1, 0).Str("name_of_16_bytes").Put<uint32_t>(1).bytes(),
               "tensor 'name_of_16_bytes' dim at byte 52", "needs 8 bytes, the file has 0 left");

  // Tensor data past the end: truncated, a huge offset, an offset overflowing with the size.
  EXPECT_ERROR(Gguf().Header(1, 0).Info("t", {4}, kGgmlF32, 0).Pad().Put<float>(1).bytes(),
               "tensor 't' at byte 64", "F32 data of 16 bytes at offset 0",
               "extends past the end of the file (68 bytes)");
  EXPECT_ERROR(Gguf().Header(1, 0).Info("t", {1}, 0, uint64_t{1} << 63).Pad().Put<float>(1).bytes(),
               "offset 9223372036854775808", "extends past the end");
  EXPECT_ERROR(Gguf().Header(1, 0).Info("t", {1}, 0, ~uint64_t{0} - 1).Pad().Put<float>(1).bytes(),
               "extends past the end");
  EXPECT_ERROR(Gguf().Header(1, 0).Info("t", {uint64_t{1} << 40}, kGgmlQ6_K, 0).Pad().bytes(),
               "Q6_K data of 901943132160 bytes", "extends past the end");

  // A valid file with its data cut short.
  std::string all = testing::ReadFileBytes(kDir + "gguf_all_types.gguf");
  absl::StatusOr<GgufHeader> h = ParseGguf(std::as_bytes(std::span(all)), "all");
  ASSERT_TRUE(h.ok()) << h.status();
  const GgufTensorInfo& last = h->tensors.back().second;
  EXPECT_ERROR(all.substr(0, h->data_start + last.offset + last.nbytes - 1),
               "tensor 'blk.0.attn_q.weight'", "extends past the end of the file");
  EXPECT_ERROR(all.substr(0, all.size() - 100), "tensor 'mxfp4'", "extends past the end");
  EXPECT_ERROR(all.substr(0, 700), "needs");

  absl::StatusOr<GgufFile> missing = GgufLoad(testing::TestTmpPath("no_such.gguf"));
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound) << missing.status();
}

// ** fuzzing **

// One to four random edits: bit flips, random bytes, a 4- or 8-byte field set to a boundary
// value, truncation, insertion, deletion.
std::string Mutate(std::string f, std::mt19937_64& rng) {
  auto pick = [&](size_t n) { return n == 0 ? size_t{0} : static_cast<size_t>(rng() % n); };
  static constexpr uint64_t kValues[] = {0,
                                         1,
                                         2,
                                         8,
                                         9,
                                         12,
                                         31,
                                         32,
                                         0x7f,
                                         0xff,
                                         0x7fffffff,
                                         0xffffffff,
                                         uint64_t{1} << 32,
                                         uint64_t{1} << 62,
                                         uint64_t{1} << 63,
                                         ~uint64_t{0}};
  // Most edits land in the header and infos, where the parser's decisions are.
  const size_t header = std::min<size_t>(f.size(), 1500);
  int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    switch (rng() % 7) {
      case 0:
        if (header) f[pick(header)] ^= static_cast<char>(1u << (rng() % 8));
        break;
      case 1:
        if (!f.empty()) f[pick(f.size())] = static_cast<char>(rng() % 256);
        break;
      case 2:
      case 3: {
        size_t width = rng() % 2 ? 8 : 4;
        if (header < width) break;
        size_t at = pick(header - width + 1);
        uint64_t v = kValues[pick(std::size(kValues))];
        if (rng() % 4 == 0) {  // the field's value, one up or down
          uint64_t old = 0;
          std::memcpy(&old, f.data() + at, width);
          v = rng() % 2 ? old + 1 : old - 1;
        }
        std::memcpy(f.data() + at, &v, width);
        break;
      }
      case 4:
        f.resize(pick(f.size() + 1));
        break;
      case 5:
        f.insert(pick(f.size() + 1), std::string(1 + pick(16), static_cast<char>(rng())));
        break;
      case 6:
        if (!f.empty()) {
          size_t at = pick(f.size());
          f.erase(at, 1 + pick(std::min<size_t>(16, f.size() - at)));
        }
        break;
    }
  }
  return f;
}

TEST(GgufFuzzTest, MutantsLoadOrFailCleanly) {
  const std::vector<std::string> seeds = {testing::ReadFileBytes(kDir + "gguf_all_types.gguf"),
                                          testing::ReadFileBytes(kDir + "gguf_v2_default.gguf")};
  std::mt19937_64 rng(0x6767756600ull);
  int ok = 0, failed = 0, loaded = 0;
  for (int i = 0; i < 6000; ++i) {
    std::string m = Mutate(seeds[i % seeds.size()], rng);
    // A buffer of exactly the mutant's size, so that ASan sees any read past it.
    auto buf = std::make_unique<std::byte[]>(m.size() + (m.empty() ? 1 : 0));
    std::memcpy(buf.get(), m.data(), m.size());
    absl::StatusOr<GgufHeader> h = ParseGguf({buf.get(), m.size()}, "mutant.gguf");
    if (!h.ok()) {
      ++failed;
      EXPECT_EQ(h.status().code(), absl::StatusCode::kInvalidArgument) << h.status();
      EXPECT_TRUE(absl::StrContains(h.status().message(), "'mutant.gguf'")) << h.status();
      EXPECT_TRUE(absl::StrContains(h.status().message(), " at byte ")) << h.status();
      continue;
    }
    ++ok;
    for (const auto& [name, info] : h->tensors) {
      EXPECT_LE(h->data_start + info.offset + info.nbytes, m.size()) << name;
      EXPECT_LE(info.dims.size(), kGgufMaxDims);
    }
    // Some of the good ones through GgufLoad (tensors built, not realized).
    if (ok % 40 == 1) {
      absl::StatusOr<GgufFile> f = GgufLoad(testing::WriteTestTmpFile("mutant.gguf", m));
      ASSERT_TRUE(f.ok()) << f.status();
      EXPECT_EQ(f->tensors.size(), h->tensors.size());
      for (const auto& [name, t] : f->tensors) EXPECT_TRUE(t.ok()) << name << ": " << t.status();
      ++loaded;
    }
  }
  // Both kinds happen (the mutations are not all fatal, nor all harmless).
  EXPECT_GT(ok, 300);
  EXPECT_GT(failed, 1000);
  EXPECT_GT(loaded, 5);
}

}  // namespace
}  // namespace tg
