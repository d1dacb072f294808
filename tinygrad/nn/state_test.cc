// File: tinygrad/nn/state_test.cc
// SafeSave / SafeLoad: bit-exact round trips of every dtype and odd shape, the file the
// reference wrote (tools/golden/gen_safetensors_golden.py), laziness and the file mapping's
// lifetime, and errors.
#include "tinygrad/nn/state.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tinygrad/nn/dataset_test_files.h"

namespace tg {
namespace {

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// How many mappings of the file at `path` this process has (/proc/self/maps, by inode).
int MappingsOf(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return -1;
  std::ifstream maps("/proc/self/maps");
  int n = 0;
  for (std::string line; std::getline(maps, line);) {
    std::vector<std::string> f = absl::StrSplit(line, ' ', absl::SkipEmpty());
    if (f.size() >= 6 && f[4] == std::to_string(st.st_ino)) ++n;
  }
  return n;
}

const std::vector<DType> kAllDTypes = {
    dtypes::bool_,   dtypes::int8,    dtypes::uint8,   dtypes::int16,   dtypes::uint16,
    dtypes::int32,   dtypes::uint32,  dtypes::int64,   dtypes::uint64,  dtypes::fp8e4m3,
    dtypes::fp8e5m2, dtypes::float16, dtypes::bfloat16, dtypes::float32, dtypes::float64};

// Random bytes for `numel` elements of `dt` (bools 0 or 1; floats any bits, NaNs included).
std::vector<std::byte> RandomBytes(DType dt, int64_t numel, std::mt19937& rng) {
  std::vector<std::byte> b(numel * dt.itemsize());
  for (std::byte& x : b) x = std::byte(dt == dtypes::bool_ ? rng() % 2 : rng() % 256);
  return b;
}

TEST(SafeStateTest, EveryDTypeAndShapeRoundTripsBitExactly) {
  std::mt19937 rng(17);
  const std::vector<std::vector<int64_t>> shapes = {{3, 5}, {7}, {}, {0}, {2, 0, 3}, {1, 1, 3}, {2, 3, 1, 2}};
  std::map<std::string, Tensor> out;
  std::map<std::string, std::vector<std::byte>> want;
  for (DType dt : kAllDTypes) {
    for (size_t s = 0; s < shapes.size(); ++s) {
      int64_t n = 1;
      for (int64_t d : shapes[s]) n *= d;
      std::string name = absl::StrCat(std::string(*SafetensorsDTypeName(dt)), "/", s);
      want[name] = RandomBytes(dt, n, rng);
      out.emplace(name, Tensor::FromBytes(want[name], dt, shapes[s]));
    }
  }
  const std::string path = testing::TestTmpPath("all.safetensors");
  ASSERT_TRUE(SafeSave(path, out, {{"what", "round trip"}}).ok());
  auto in = SafeLoad(path);
  ASSERT_TRUE(in.ok()) << in.status();
  ASSERT_EQ(in->size(), out.size());
  for (const auto& [name, t] : *in) {
    ASSERT_TRUE(t.ok()) << name << ": " << t.status();
    EXPECT_EQ(t.dtype(), out.at(name).dtype()) << name;
    EXPECT_EQ(t.shape(), out.at(name).shape()) << name;
    auto bytes = t.to_bytes();
    ASSERT_TRUE(bytes.ok()) << name << ": " << bytes.status();
    EXPECT_EQ(*bytes, want[name]) << name;
  }
  auto header = SafeLoadMetadata(path);
  ASSERT_TRUE(header.ok()) << header.status();
  EXPECT_EQ(header->metadata, (std::map<std::string, std::string>{{"what", "round trip"}}));
  EXPECT_EQ(header->tensors.size(), out.size());
  EXPECT_EQ(header->data_start % 8, 0u) << "the header is padded as the reference pads it";

  // Saving what was loaded writes the same file again.
  const std::string again = testing::TestTmpPath("all_again.safetensors");
  ASSERT_TRUE(SafeSave(again, *in, {{"what", "round trip"}}).ok());
  EXPECT_EQ(testing::ReadFileBytes(again), testing::ReadFileBytes(path));
}

TEST(SafeStateTest, SavesViewsAndComputedTensorsByValue) {
  Tensor a = Tensor::Arange(12).reshape({3, 4});
  std::map<std::string, Tensor> out = {
      {"permuted", a.permute({1, 0})}, {"sliced", a.slice({Slice(1), Slice(std::nullopt, std::nullopt, 2)})},
      {"sum", (a + 1).sum(1).cast(dtypes::float16)}, {"scalar", Tensor::Scalar(2.5)},
      {"expanded", Tensor::Full({2, 3}, 7, {.dtype = dtypes::int8})}};
  const std::string path = testing::TestTmpPath("views.safetensors");
  ASSERT_TRUE(SafeSave(path, out).ok());
  auto in = SafeLoad(path);
  ASSERT_TRUE(in.ok()) << in.status();
  for (const auto& [name, t] : out) {
    EXPECT_EQ(in->at(name).shape(), t.shape()) << name;
    EXPECT_EQ(*in->at(name).to_vector<double>(), *t.to_vector<double>()) << name;
  }
  EXPECT_EQ(*in->at("permuted").to_vector<int32_t>(), (std::vector<int32_t>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
  // Loaded tensors are ordinary tensors: kernels read them.
  EXPECT_EQ(*(in->at("sliced") * 2).sum().item<int32_t>(), 2 * (4 + 6 + 8 + 10));
}

// The golden file's table: name -> (dtype, shape, values as text).
struct GoldenTensor {
  std::string dtype;
  std::vector<int64_t> shape;
  std::vector<std::string> values;
};
std::map<std::string, GoldenTensor> ReadGoldenTable() {
  std::map<std::string, GoldenTensor> out;
  std::ifstream f("tinygrad/nn/testdata/reference_safetensors.txt");
  EXPECT_TRUE(f.good());
  for (std::string line; std::getline(f, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields = absl::StrSplit(line, " | ");
    EXPECT_EQ(fields.size(), 4u) << line;
    if (fields.size() != 4) continue;
    GoldenTensor g{fields[1], {}, absl::StrSplit(fields[3], ", ")};
    for (absl::string_view d : absl::StrSplit(fields[2], ' ', absl::SkipEmpty())) {
      int64_t v;
      EXPECT_TRUE(absl::SimpleAtoi(d, &v)) << line;
      g.shape.push_back(v);
    }
    out[nlohmann::json::parse(fields[0]).get<std::string>()] = g;
  }
  return out;
}

TEST(SafeStateTest, LoadsTheFileTheReferenceWrote) {
  const std::string path = "tinygrad/nn/testdata/reference.safetensors";
  auto in = SafeLoad(path);
  ASSERT_TRUE(in.ok()) << in.status();
  std::map<std::string, GoldenTensor> golden = ReadGoldenTable();
  ASSERT_EQ(golden.size(), 15u);
  ASSERT_EQ(in->size(), golden.size());
  for (const auto& [name, g] : golden) {
    ASSERT_TRUE(in->contains(name)) << name;
    const Tensor& t = in->at(name);
    EXPECT_EQ(SafetensorsDTypeName(t.dtype()), g.dtype) << name;
    EXPECT_EQ(t.shape(), g.shape) << name;
    DType dt = t.dtype();
    if (dtypes::is_float(dt)) {
      // Decoded from the bytes here (every value is exact in its dtype): the CPU backend can't
      // cast bfloat16 with every clang.
      auto bytes = t.to_bytes();
      ASSERT_TRUE(bytes.ok()) << name << ": " << bytes.status();
      std::vector<double> v = testing::DecodeFloats(*bytes, dt);
      ASSERT_EQ(v.size(), g.values.size()) << name;
      for (size_t i = 0; i < v.size(); ++i) {
        double want = std::strtod(g.values[i].c_str(), nullptr);
        if (std::isnan(want)) {
          EXPECT_TRUE(std::isnan(v[i])) << name << "[" << i << "]";
        } else {
          EXPECT_EQ(v[i], want) << name << "[" << i << "]";
          EXPECT_EQ(std::signbit(v[i]), std::signbit(want)) << name << "[" << i << "]";
        }
      }
    } else if (dt == dtypes::uint64) {
      auto v = t.to_vector<uint64_t>();
      ASSERT_TRUE(v.ok()) << v.status();
      for (size_t i = 0; i < v->size(); ++i) EXPECT_EQ(std::to_string((*v)[i]), g.values[i]) << name;
    } else {
      auto v = t.to_vector<int64_t>();
      ASSERT_TRUE(v.ok()) << v.status();
      ASSERT_EQ(v->size(), g.values.size()) << name;
      for (size_t i = 0; i < v->size(); ++i) EXPECT_EQ(std::to_string((*v)[i]), g.values[i]) << name;
    }
  }
  auto header = SafeLoadMetadata(path);
  ASSERT_TRUE(header.ok()) << header.status();
  EXPECT_EQ(header->metadata.at("format"), "pt");
  EXPECT_NE(header->metadata.at("produced_by").find("gen_safetensors_golden.py"), std::string::npos);
}

TEST(SafeStateTest, SavesTheReferenceFileByteForByte) {
  const std::string golden = "tinygrad/nn/testdata/reference.safetensors";
  auto in = SafeLoad(golden);
  auto header = SafeLoadMetadata(golden);
  ASSERT_TRUE(in.ok() && header.ok());
  const std::string path = testing::TestTmpPath("resaved.safetensors");
  ASSERT_TRUE(SafeSave(path, *in, header->metadata).ok());
  EXPECT_EQ(testing::ReadFileBytes(path), testing::ReadFileBytes(golden))
      << "header JSON, order, padding and data as the reference's";
}

TEST(SafeStateTest, LoadsLazilyAndLetsTheMappingGo) {
  const std::string path = testing::TestTmpPath("lazy.safetensors");
  ASSERT_TRUE(SafeSave(path, {{"a", Tensor::FromVector<float>({1, 2, 3})},
                              {"b", Tensor::FromVector<int32_t>({4, 5})},
                              {"e", Tensor::Empty({0, 2})}}).ok());
  ASSERT_EQ(MappingsOf(path), 0);
  {
    auto in = SafeLoad(path);
    ASSERT_TRUE(in.ok()) << in.status();
    EXPECT_EQ(MappingsOf(path), 1) << "the tensors are views of the file";
    EXPECT_EQ(*in->at("a").to_vector<float>(), (std::vector<float>{1, 2, 3}));
    EXPECT_EQ(MappingsOf(path), 1) << "'b' still reads from the file";
    ASSERT_TRUE(in->at("b").realize().ok());
    EXPECT_EQ(MappingsOf(path), 0) << "every tensor's bytes are on the device now";
    EXPECT_EQ(*in->at("b").to_vector<int32_t>(), (std::vector<int32_t>{4, 5}));
  }
  {
    auto in = SafeLoad(path);
    ASSERT_TRUE(in.ok());
    EXPECT_EQ(MappingsOf(path), 1);
  }
  // The dropped tensors' buffers go at the next realize, and the mapping with them.
  ASSERT_TRUE((Tensor::FromVector<float>({1}) + 1).realize().ok());
  EXPECT_EQ(MappingsOf(path), 0);
}

// "CPU:1" is a second device (its own buffers): loading onto it, and copying to it.
TEST(SafeStateTest, LoadsOntoADeviceAndCopiesStraightFromTheMapping) {
  const std::string path = testing::TestTmpPath("devices.safetensors");
  ASSERT_TRUE(SafeSave(path, {{"w", Tensor::FromVector<float>({1, 2, 3})}}).ok());
  auto there = SafeLoad(path, "CPU:1");
  ASSERT_TRUE(there.ok()) << there.status();
  EXPECT_EQ(there->at("w").device(), "CPU:1");
  EXPECT_EQ(*(there->at("w") + 1).to_vector<float>(), (std::vector<float>{2, 3, 4}));
  there->clear();

  auto here = SafeLoad(path, "CPU");
  ASSERT_TRUE(here.ok());
  Tensor moved = here->at("w").to("CPU:1");
  ASSERT_TRUE(moved.realize().ok());
  EXPECT_EQ(moved.device(), "CPU:1");
  EXPECT_EQ(*moved.to_vector<float>(), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(MappingsOf(path), 1) << "the copy read the mapping; 'w' itself is still only there";
}

TEST(SafeStateTest, SavingOverTheLoadedFileKeepsTheLoadedTensors) {
  const std::string path = testing::TestTmpPath("overwrite.safetensors");
  ASSERT_TRUE(SafeSave(path, {{"w", Tensor::FromVector<float>({1, 2})}, {"v", Tensor::FromVector<float>({3})}}).ok());
  auto old = SafeLoad(path);
  ASSERT_TRUE(old.ok());
  // A new file replaces the old one, which the mapping keeps: the unread tensors are intact.
  ASSERT_TRUE(SafeSave(path, {{"w", old->at("w") * 10}}).ok());
  EXPECT_EQ(*old->at("v").to_vector<float>(), (std::vector<float>{3}));
  auto now = SafeLoad(path);
  ASSERT_TRUE(now.ok());
  EXPECT_EQ(now->size(), 1u);
  EXPECT_EQ(*now->at("w").to_vector<float>(), (std::vector<float>{10, 20}));
}

TEST(SafeStateTest, LoadErrorsNameTheFile) {
  auto missing = SafeLoad(testing::TestTmpPath("missing.safetensors"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("missing.safetensors"), std::string::npos) << missing.status();
  auto dir = SafeLoad(testing::TestTmpPath(""));
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.status().message().find("is not a regular file"), std::string::npos) << dir.status();
  const std::string bad = testing::TestTmpPath("bad.safetensors");
  WriteFile(bad, std::string("\x07\0\0\0\0\0\0\0{\"x\":1}", 15));
  auto b = SafeLoad(bad);
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(b.status().message().find("safetensors file '" + bad + "': tensor 'x': entry is not an object"),
            std::string::npos) << b.status();
  WriteFile(bad, "");
  EXPECT_FALSE(SafeLoad(bad).ok()) << "an empty file is an error";
  EXPECT_FALSE(SafeLoadMetadata(bad).ok());
}

TEST(SafeStateTest, SaveErrorsNameTheTensorAndKeepTheOldFile) {
  const std::string path = testing::TestTmpPath("keep.safetensors");
  ASSERT_TRUE(SafeSave(path, {{"w", Tensor::FromVector<float>({1})}}).ok());
  const std::string before = testing::ReadFileBytes(path);
  Tensor errored = Tensor::FromVector<float>({1, 2}).reshape({3});
  auto s = SafeSave(path, {{"ok", Tensor::FromVector<float>({1})}, {"broken", errored}});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("safe_save: tensor 'broken': reshape"), std::string::npos) << s;
  Variable v("v", 1, 4);
  s = SafeSave(path, {{"sym", Tensor::Ones({4}).shrink({{0, v.bind(2)}})}});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("tensor 'sym': shape"), std::string::npos) << s;
  EXPECT_NE(s.message().find("is symbolic"), std::string::npos) << s;
  s = SafeSave(path, {{"__metadata__", Tensor::FromVector<float>({1})}});
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(testing::ReadFileBytes(path), before) << "a failed save leaves the file as it was";
  s = SafeSave(testing::TestTmpPath("no/such/dir/x.safetensors"),
               {{"w", Tensor::FromVector<float>({1})}});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("no/such/dir/x.safetensors"), std::string::npos) << s;
}

}  // namespace
}  // namespace tg
