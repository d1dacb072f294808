// File: tinygrad/nn/safetensors_fuzz_test.cc
// Random byte mutations of valid safetensors files: each is refused with an error or read
// correctly, never a crash or a read outside the file. The mutants live in buffers of exactly
// their size, so under --config=asan a read past the end is reported. Deterministic (a fixed
// seed); a few thousand mutants in about a second.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tinygrad/nn/safetensors_format.h"
#include "tinygrad/nn/state.h"

namespace tg {
namespace {

std::vector<std::byte> ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  std::string str = s.str();
  std::vector<std::byte> out(str.size());
  std::memcpy(out.data(), str.data(), str.size());
  return out;
}

// Valid files to start from: the reference's, and one of ours with 0-size tensors, a scalar,
// fp8 and metadata.
std::vector<std::vector<std::byte>> Seeds() {
  std::vector<std::vector<std::byte>> seeds = {ReadFile("tinygrad/nn/testdata/reference.safetensors")};
  std::string path = absl::StrCat(std::getenv("TEST_TMPDIR"), "/seed.safetensors");
  absl::Status s = SafeSave(path,
                            {{"a", Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, {2, 3})},
                             {"empty", Tensor::Empty({0, 3}, {.dtype = dtypes::int16})},
                             {"fp8", Tensor::FromBytes(std::vector<std::byte>(5, std::byte{0x38}), dtypes::fp8e4m3, {5})},
                             {"s", Tensor::FromVector<int64_t>({-9}, {})},
                             {"z", Tensor::Empty({0})}},
                            {{"k", "v"}, {"more", "x"}});
  EXPECT_TRUE(s.ok()) << s;
  seeds.push_back(ReadFile(path));
  for (const auto& f : seeds) EXPECT_GT(f.size(), 100u);
  return seeds;
}

// One to four random edits: bit flips, bytes set to random or JSON-significant values,
// digits changed (offsets and shapes), a changed length field, truncation, insertion, deletion.
std::vector<std::byte> Mutate(std::vector<std::byte> f, std::mt19937_64& rng) {
  auto pick = [&](size_t n) { return n == 0 ? size_t{0} : static_cast<size_t>(rng() % n); };
  static constexpr std::string_view kJsonBytes = "{}[],:\"0123456789-.e \\u";
  int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    switch (rng() % 8) {
      case 0:
        if (!f.empty()) f[pick(f.size())] ^= std::byte(1u << (rng() % 8));
        break;
      case 1:
        if (!f.empty()) f[pick(f.size())] = std::byte(rng() % 256);
        break;
      case 2:
        if (!f.empty()) f[pick(f.size())] = std::byte(kJsonBytes[pick(kJsonBytes.size())]);
        break;
      case 3: {  // a digit of the header becomes another digit
        std::vector<size_t> digits;
        for (size_t i = 8; i < f.size() && i < 2048; ++i)
          if (f[i] >= std::byte('0') && f[i] <= std::byte('9')) digits.push_back(i);
        if (!digits.empty()) f[digits[pick(digits.size())]] = std::byte('0' + rng() % 10);
        break;
      }
      case 4: {  // the length field
        if (f.size() < 8) break;
        uint64_t n;
        std::memcpy(&n, f.data(), 8);
        const uint64_t choices[] = {0, n + 1, n - 1, f.size() - 8, f.size(), ~uint64_t{0},
                                    uint64_t{1} << 63, rng()};
        n = choices[pick(std::size(choices))];
        std::memcpy(f.data(), &n, 8);
        break;
      }
      case 5:
        f.resize(pick(f.size() + 1));
        break;
      case 6: {
        size_t at = pick(f.size() + 1), n = 1 + pick(8);
        for (size_t i = 0; i < n; ++i) f.insert(f.begin() + at, std::byte(rng() % 256));
        break;
      }
      case 7: {
        size_t at = pick(f.size()), n = std::min(f.size() - at, 1 + pick(8));
        f.erase(f.begin() + at, f.begin() + at + n);
        break;
      }
    }
  }
  return f;
}

// What an accepted file promises holds, and its tensors' bytes can all be read.
void CheckAccepted(const SafetensorsHeader& h, std::span<const std::byte> file) {
  ASSERT_LE(h.data_start, file.size());
  uint64_t total = 0;
  unsigned sum = 0;
  for (const auto& [name, e] : h.tensors) {
    ASSERT_LE(e.begin, e.end) << name;
    ASSERT_LE(e.end, file.size() - h.data_start) << name;
    uint64_t numel = 1;
    for (int64_t d : e.shape) {
      ASSERT_GE(d, 0) << name;
      numel *= static_cast<uint64_t>(d);
    }
    EXPECT_EQ(numel * e.dtype.itemsize(), e.nbytes()) << name;
    for (std::byte b : file.subspan(h.data_start + e.begin, e.nbytes())) sum += static_cast<unsigned>(b);
    total += e.nbytes();
  }
  EXPECT_EQ(total, file.size() - h.data_start) << "the data section is covered exactly";
  (void)sum;
}

TEST(SafetensorsFuzzTest, MutatedHeadersAreReadOrRefused) {
  std::vector<std::vector<std::byte>> seeds = Seeds();
  std::mt19937_64 rng(20261127);
  int accepted = 0, refused = 0;
  for (int i = 0; i < 4000; ++i) {
    std::vector<std::byte> mutant = Mutate(seeds[i % seeds.size()], rng);
    // A buffer of exactly the mutant's size: an over-read is a heap overflow under ASan.
    auto exact = std::make_unique<std::byte[]>(mutant.size() + (mutant.empty() ? 1 : 0));
    if (!mutant.empty()) std::memcpy(exact.get(), mutant.data(), mutant.size());
    std::span<const std::byte> file(exact.get(), mutant.size());
    absl::StatusOr<SafetensorsHeader> h = ParseSafetensors(file, "fuzz.safetensors");
    if (h.ok()) {
      ++accepted;
      CheckAccepted(*h, file);
    } else {
      ++refused;
      EXPECT_EQ(h.status().code(), absl::StatusCode::kInvalidArgument) << h.status();
      EXPECT_TRUE(absl::StartsWith(h.status().message(), "safetensors file 'fuzz.safetensors': ")) << h.status();
    }
  }
  // The mutations reach both outcomes (else the test tests nothing).
  EXPECT_GT(accepted, 100);
  EXPECT_GT(refused, 1000);
}

// Through files and tensors: what SafeLoad accepts reads back as the file's bytes.
TEST(SafetensorsFuzzTest, MutatedFilesLoadOrAreRefused) {
  std::vector<std::vector<std::byte>> seeds = Seeds();
  std::mt19937_64 rng(17);
  const std::string path = absl::StrCat(std::getenv("TEST_TMPDIR"), "/mutant.safetensors");
  int loaded = 0;
  for (int i = 0; i < 300; ++i) {
    const std::vector<std::byte>& seed = seeds[i % seeds.size()];
    std::vector<std::byte> mutant = Mutate(seed, rng);
    if (i % 3 == 0) {  // only tensor bytes changed: a valid file whose values must read back
      mutant = seed;
      uint64_t n;
      std::memcpy(&n, mutant.data(), 8);
      for (int k = 0; k < 4; ++k) mutant[8 + n + rng() % (mutant.size() - 8 - n)] = std::byte(rng() % 256);
    }
    std::ofstream(path, std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(mutant.data()), static_cast<std::streamsize>(mutant.size()));
    absl::StatusOr<std::map<std::string, Tensor>> in = SafeLoad(path);
    absl::StatusOr<SafetensorsHeader> h = ParseSafetensors(mutant, path);
    ASSERT_EQ(in.ok(), h.ok()) << in.status() << " / " << h.status();
    if (!in.ok()) continue;
    ++loaded;
    for (const auto& [name, t] : *in) {
      const SafetensorsEntry& e = h->tensors.at(name);
      EXPECT_EQ(t.shape(), e.shape) << name;
      absl::StatusOr<std::vector<std::byte>> bytes = t.to_bytes();
      ASSERT_TRUE(bytes.ok()) << name << ": " << bytes.status();
      EXPECT_TRUE(std::equal(bytes->begin(), bytes->end(), mutant.begin() + h->data_start + e.begin,
                             mutant.begin() + h->data_start + e.end)) << name;
    }
  }
  EXPECT_GE(loaded, 100);
}

}  // namespace
}  // namespace tg
