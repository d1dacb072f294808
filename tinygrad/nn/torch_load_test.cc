// File: tinygrad/nn/torch_load_test.cc
// TorchLoad / ZipExtract: the checkpoints of tools/golden/gen_torch_load_golden.py load with
// the names, dtypes, shapes and values the reference's torch_load gives (the golden file);
// hand-made archives and pickles give clear errors; random mutations of valid files load or
// are refused, never crash (run it under --config=asan too).
#include "tinygrad/nn/torch_load.h"

#include <zlib.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tinygrad/dtype/dtype.h"
#include "tinygrad/nn/dataset_test_files.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

using namespace std::string_literals;

const std::string kDir = "tinygrad/nn/testdata/";

// ---- the golden files -------------------------------------------------------------------------

struct Golden {
  std::string file, name, dtype;
  std::vector<int64_t> shape;
  std::vector<std::string> values;
};

std::vector<Golden> ReadGolden() {
  std::vector<Golden> out;
  std::ifstream f(kDir + "torch_load_golden.txt");
  std::string line;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> p = absl::StrSplit(line, '|');
    EXPECT_EQ(p.size(), 5u) << line;
    if (p.size() != 5) continue;
    Golden g{p[0], p[1], p[2], {}, {}};
    for (absl::string_view s : absl::StrSplit(p[3], ',', absl::SkipEmpty())) {
      int64_t d = 0;
      EXPECT_TRUE(absl::SimpleAtoi(s, &d)) << line;
      g.shape.push_back(d);
    }
    for (absl::string_view s : absl::StrSplit(p[4], ", ", absl::SkipEmpty()))
      g.values.push_back(std::string(s));
    out.push_back(std::move(g));
  }
  return out;
}

DType GoldenDType(const std::string& name) {
  static const auto* kNames = new std::map<std::string, DType>{
      {"float", dtypes::float32}, {"half", dtypes::float16}, {"bfloat16", dtypes::bfloat16},
      {"long", dtypes::int64},    {"int", dtypes::int32},    {"bool", dtypes::bool_},
      {"uchar", dtypes::uint8},   {"char", dtypes::int8},    {"short", dtypes::int16},
      {"double", dtypes::float64}};
  return kNames->at(name);
}

void ExpectValues(const Golden& g, const Tensor& t) {
  const std::string what = absl::StrCat(g.file, " ", g.name);
  if (dtypes::is_float(t.dtype())) {
    // Decoded from the bytes (the CPU backend can't cast bfloat16 with every clang).
    auto bytes = t.to_bytes();
    ASSERT_TRUE(bytes.ok()) << what << ": " << bytes.status();
    auto v = std::optional(testing::DecodeFloats(*bytes, t.dtype()));
    ASSERT_EQ(v->size(), g.values.size()) << what;
    for (size_t k = 0; k < v->size(); ++k) {
      double want = std::strtod(g.values[k].c_str(), nullptr);
      EXPECT_EQ((*v)[k], want) << what << " element " << k;
      EXPECT_EQ(std::signbit((*v)[k]), std::signbit(want)) << what << " element " << k;
    }
  } else {
    auto v = t.to_vector<int64_t>();
    ASSERT_TRUE(v.ok()) << what << ": " << v.status();
    ASSERT_EQ(v->size(), g.values.size()) << what;
    for (size_t k = 0; k < v->size(); ++k) {
      int64_t want = 0;
      if (g.values[k] == "True" || g.values[k] == "False")
        want = g.values[k] == "True";
      else
        EXPECT_TRUE(absl::SimpleAtoi(g.values[k], &want)) << what;
      EXPECT_EQ((*v)[k], want) << what << " element " << k;
    }
  }
}

TEST(TorchLoad, GoldenCheckpointsGiveTheReferencesTensors) {
  std::map<std::string, std::vector<Golden>> by_file;
  for (Golden& g : ReadGolden()) by_file[g.file].push_back(std::move(g));
  ASSERT_EQ(by_file.size(), 5u);
  for (const auto& [file, want] : by_file) {
    auto got = TorchLoad(kDir + file);
    ASSERT_TRUE(got.ok()) << got.status();
    std::vector<std::string> names, want_names;
    for (const auto& [name, t] : *got) names.push_back(name);
    for (const Golden& g : want) want_names.push_back(g.name);
    EXPECT_EQ(names, want_names) << file;
    for (const Golden& g : want) {
      if (!got->contains(g.name)) continue;
      const Tensor& t = got->at(g.name);
      ASSERT_TRUE(t.ok()) << file << " " << g.name << ": " << t.status();
      EXPECT_EQ(t.dtype(), GoldenDType(g.dtype)) << file << " " << g.name;
      EXPECT_EQ(t.shape(), g.shape) << file << " " << g.name;
      ExpectValues(g, t);
    }
  }
}

TEST(TorchLoad, OneObjectNamedTwiceIsOneTensor) {
  auto got = TorchLoad(kDir + "torch_nested.pt");
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_TRUE(got->at("model.layer.weight").is(got->at("ema.layer.weight")));
  EXPECT_TRUE(got->at("model.layer.weight").is(got->at("tensors.1")));
  EXPECT_FALSE(got->at("model.layer.weight").is(got->at("model.layer.bias")));
}

TEST(TorchLoad, LoadsOntoTheDeviceAsked) {
  auto got = TorchLoad(kDir + "torch_state_dict.pt", "CPU");
  ASSERT_TRUE(got.ok()) << got.status();
  for (const auto& [name, t] : *got) EXPECT_EQ(t.device(), "CPU") << name;
}

TEST(ZipExtract, MembersAsBytes) {
  for (std::string file : {"torch_state_dict.pt", "torch_deflated.pt"}) {
    auto got = ZipExtract(kDir + file);
    ASSERT_TRUE(got.ok()) << got.status();
    const std::string base = file == "torch_deflated.pt" ? "deflated/" : "archive/";
    ASSERT_TRUE(got->contains(base + "byteorder")) << file;
    ASSERT_TRUE(got->contains(base + "data.pkl")) << file;
    const Tensor& order = got->at(base + "byteorder");
    EXPECT_EQ(order.dtype(), dtypes::uint8);
    auto bytes = order.to_vector<uint8_t>();
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    EXPECT_EQ(std::string(bytes->begin(), bytes->end()), "little") << file;
    // data/2 is bf16 [1.0, -2.5, 2**100]: 6 bytes.
    EXPECT_EQ(got->at(base + "data/2").shape(), std::vector<int64_t>{6}) << file;
  }
}

// ---- hand-made archives and pickles -----------------------------------------------------------

// A zip archive of stored members (what Python's zipfile writes, no alignment).
std::string Zip(const std::vector<std::pair<std::string, std::string>>& members) {
  auto u16 = [](uint32_t v) { return std::string{char(v & 0xff), char(v >> 8)}; };
  auto u32 = [&](uint32_t v) { return u16(v & 0xffff) + u16(v >> 16); };
  std::string out, central;
  for (const auto& [name, data] : members) {
    uint32_t crc = crc32(0, reinterpret_cast<const Bytef*>(data.data()), data.size());
    std::string common = u16(20) + u16(0) + u16(0) + u16(0) + u16(0x21) + u32(crc) +
                         u32(data.size()) + u32(data.size()) + u16(name.size()) + u16(0);
    central += u32(0x02014b50) + u16(20) + common + u16(0) + u16(0) + u16(0) + u32(0) +
               u32(out.size()) + name;
    out += u32(0x04034b50) + common + name + data;
  }
  uint32_t cd_offset = out.size();
  out += central + u32(0x06054b50) + u16(0) + u16(0) + u16(members.size()) + u16(members.size()) +
         u32(central.size()) + u32(cd_offset) + u16(0);
  return out;
}

std::string Str(const std::string& s) {  // SHORT_BINUNICODE
  return "\x8c" + std::string(1, char(s.size())) + s;
}
std::string Int(int v) { return "K" + std::string(1, char(v)); }  // BININT1, 0..255
std::string IntTuple(const std::vector<int>& v) {
  std::string out = "(";
  for (int x : v) out += Int(x);
  return out + "t";
}

// {'w': tensor of FloatStorage '0' (numel elements), offset, size, stride}
std::string TensorPickle(int numel, int offset, const std::vector<int>& size,
                         const std::vector<int>& stride) {
  return std::string("\x80\x02}") + Str("w") + "ctorch._utils\n_rebuild_tensor_v2\n(" + "(" +
         Str("storage") + "ctorch\nFloatStorage\n" + Str("0") + Str("cpu") + Int(numel) + "tQ" +
         Int(offset) + IntTuple(size) + IntTuple(stride) + "\x89" +
         "ccollections\nOrderedDict\n)RtRs.";
}

std::string Checkpoint(const std::string& pickle, const std::string& storage) {
  return Zip({{"a/data.pkl", pickle}, {"a/data/0", storage}, {"a/version", "3\n"}});
}

std::string Floats(int n) { return std::string(4 * n, '\0'); }

absl::Status LoadBytes(const std::string& name, const std::string& bytes) {
  return TorchLoad(testing::WriteTestTmpFile(name, bytes)).status();
}

void ExpectError(const absl::Status& s, const std::vector<std::string>& parts) {
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  for (const std::string& p : parts)
    EXPECT_TRUE(absl::StrContains(s.message(), p)) << s << " lacks " << p;
}

TEST(TorchLoad, HandMadeCheckpointLoads) {
  auto got = TorchLoad(testing::WriteTestTmpFile(
      "ok.pt", Checkpoint(TensorPickle(6, 0, {3, 2}, {1, 3}), Floats(6))));
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->at("w").shape(), (std::vector<int64_t>{3, 2}));
}

TEST(TorchLoad, MissingFileIsNotFound) {
  EXPECT_EQ(TorchLoad(kDir + "no_such.pt").status().code(), absl::StatusCode::kNotFound);
}

TEST(TorchLoad, TruncatedFiles) {
  std::string good = testing::ReadFileBytes(kDir + "torch_state_dict.pt");
  ASSERT_GT(good.size(), 100u);
  ExpectError(LoadBytes("trunc.pt", good.substr(0, good.size() - 30)), {"trunc.pt", "zip"});
  ExpectError(LoadBytes("trunc2.pt", good.substr(0, good.size() / 2)), {"trunc2.pt", "zip"});
  std::string legacy = testing::ReadFileBytes(kDir + "torch_legacy.pt");
  ExpectError(LoadBytes("trunc3.pt", legacy.substr(0, legacy.size() - 3)),
              {"trunc3.pt", "storage '2' truncated"});
}

TEST(TorchLoad, NotACheckpoint) {
  ExpectError(LoadBytes("text.pt", "hello"), {"text.pt", "not a PyTorch checkpoint"});
  ExpectError(LoadBytes("empty.pt", ""), {"empty.pt", "not a PyTorch checkpoint"});
}

TEST(TorchLoad, UnknownGlobalNamesItAndItsOffset) {
  ExpectError(LoadBytes("global.pt", Checkpoint("\x80\x02"
                                                "cos\nsystem\n(" +
                                                    Str("ls") + "tR.",
                                                "")),
              {"global.pt member 'a/data.pkl'", "unsupported global 'os.system'", "pickle byte 2"});
  ExpectError(LoadBytes("global2.pt", Checkpoint("\x80\x02"
                                                 "ctorch._utils\n_rebuild_parameter\n.",
                                                 "")),
              {"unsupported global 'torch._utils._rebuild_parameter'"});
}

TEST(TorchLoad, UnknownOpcodeNamesItAndItsOffset) {
  ExpectError(LoadBytes("op.pt", Checkpoint("\x80\x02}I1\n.", "")),
              {"op.pt member 'a/data.pkl'", "unsupported pickle opcode 0x49", "pickle byte 3"});
}

TEST(TorchLoad, BrokenPickles) {
  ExpectError(LoadBytes("nostop.pt", Checkpoint("\x80\x02}", "")), {"without STOP"});
  ExpectError(LoadBytes("under.pt", Checkpoint("\x80\x02s.", "")), {"underflow"});
  ExpectError(LoadBytes("memo.pt", Checkpoint("\x80\x02h\x05.", "")), {"memo GET of 5"});
  ExpectError(LoadBytes("len.pt", Checkpoint("\x80\x02X\xff\xff\xff\x7f"
                                             "abc.",
                                             "")),
              {"truncated"});
  ExpectError(LoadBytes("proto.pt", Checkpoint("\x80\x09}.", "")), {"pickle protocol 9"});
  // A list that holds itself, and lists nested deeper than the limit.
  ExpectError(LoadBytes("cycle.pt", Checkpoint("\x80\x02]q\x00h\x00"
                                               "a."s,
                                               "")),
              {"nested too deep"});
  // 2**40 paths through 40 lists that each hold the one below twice: refused, not walked.
  std::string dag = "\x80\x02]";
  for (int k = 0; k < 40; ++k)
    dag +=
        "q\x00"
        "0]h\x00"
        "ah\x00"
        "a"s;
  ExpectError(LoadBytes("dag.pt", Checkpoint(dag + ".", "")),
              {"dag.pt", "names too long in total"});
  ExpectError(
      LoadBytes("deep.pt",
                Checkpoint("\x80\x02" + std::string(500, ']') + std::string(499, 'a') + ".", "")),
      {"nested too deep"});
}

TEST(TorchLoad, StorageShorterThanTheTensorNeeds) {
  ExpectError(LoadBytes("short.pt", Checkpoint(TensorPickle(4, 0, {4}, {1}), Floats(2))),
              {"short.pt", "tensor 'w'", "storage '0' has 8 bytes, not the 16"});
}

TEST(TorchLoad, TensorPastItsStorage) {
  ExpectError(LoadBytes("offset.pt", Checkpoint(TensorPickle(4, 3, {4}, {1}), Floats(4))),
              {"offset.pt", "tensor 'w'", "elements [3, 7) of storage '0', which has 4"});
}

TEST(TorchLoad, StridesThatAreNotAPermutation) {
  ExpectError(LoadBytes("strides.pt", Checkpoint(TensorPickle(4, 0, {2, 2}, {1, 1}), Floats(4))),
              {"tensor 'w'", "nonpermutable strides"});
}

TEST(TorchLoad, MissingStorageMemberOrPickle) {
  ExpectError(LoadBytes("nostorage.pt", Zip({{"a/data.pkl", TensorPickle(4, 0, {4}, {1})}})),
              {"no member 'a/data/0'"});
  ExpectError(LoadBytes("nopkl.pt", Zip({{"a/data/0", Floats(4)}})), {"no 'a/data.pkl'"});
}

TEST(TorchLoad, BigEndianRefused) {
  ExpectError(LoadBytes("big.pt", Zip({{"a/data.pkl", TensorPickle(4, 0, {4}, {1})},
                                       {"a/byteorder", "big"},
                                       {"a/data/0", Floats(4)}})),
              {"member 'a/byteorder'", "big-endian"});
}

// ---- fuzz -------------------------------------------------------------------------------------

TEST(TorchLoad, RandomMutationsLoadOrFailCleanly) {
  std::mt19937 rng(20261129);
  int loaded = 0, refused = 0;
  for (std::string file :
       {"torch_state_dict.pt", "torch_deflated.pt", "torch_legacy.pt", "torch_nested.pt"}) {
    const std::string good = testing::ReadFileBytes(kDir + file);
    ASSERT_FALSE(good.empty()) << file;
    const std::string path = testing::TestTmpPath("fuzz_" + file);
    for (int iter = 0; iter < 1000; ++iter) {
      std::string bytes = good;
      int edits = 1 + rng() % 4;
      for (int e = 0; e < edits && !bytes.empty(); ++e) {
        size_t at = rng() % bytes.size();
        switch (rng() % 4) {
          case 0:
            bytes[at] = static_cast<char>(rng());
            break;
          case 1:
            bytes[at] ^= static_cast<char>(1 << (rng() % 8));
            break;
          case 2:
            bytes.resize(at);
            break;
          case 3:
            bytes[at] = static_cast<char>(bytes[at] + (rng() % 2 ? 1 : -1));
            break;
        }
      }
      std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
      auto got = TorchLoad(path);
      if (!got.ok()) {
        ++refused;
        EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument) << got.status();
        EXPECT_TRUE(absl::StrContains(got.status().message(), path)) << got.status();
        continue;
      }
      ++loaded;
      for (const auto& [name, t] : *got) EXPECT_TRUE(t.ok()) << file << " " << name;
    }
  }
  EXPECT_GT(loaded, 0);
  EXPECT_GT(refused, 0);
}

}  // namespace
}  // namespace tg
