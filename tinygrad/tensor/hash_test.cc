// Tensor::keccak and Tensor::hash against Python's hashlib: SHA3-256/224 and SHAKE128 digests
// of the same bytes (the reference's keccak gives hashlib's values), and tinygrad's hash tree
// over 1 MiB chunks rebuilt with hashlib.shake_128. Expected digests printed by hashlib
// (Python 3.11) for the messages built here.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

using ::testing::HasSubstr;

// (i * a + b) % 256 for i < n
std::vector<uint8_t> Pattern(int64_t n, int a = 7, int b = 3) {
  std::vector<uint8_t> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(static_cast<uint8_t>((i * a + b) % 256));
  return v;
}

Tensor Bytes(const std::vector<uint8_t>& v) {
  return Tensor::FromVector(v, {static_cast<int64_t>(v.size())});
}

// Each row of a uint8 tensor as hex.
std::vector<std::string> Hex(const Tensor& t) {
  absl::StatusOr<std::vector<uint8_t>> v = t.to_vector<uint8_t>();
  EXPECT_TRUE(v.ok()) << v.status();
  if (!v.ok()) return {};
  const size_t row = static_cast<size_t>(t.shape().back());
  std::vector<std::string> out;
  for (size_t i = 0; i < v->size(); i += row)
    out.push_back(
        absl::BytesToHexString(std::string(reinterpret_cast<const char*>(v->data() + i), row)));
  return out;
}

TEST(KeccakTest, Sha3AndShakeOfAMessage) {
  const std::string hello = "Hello World!";
  Tensor t = Bytes(std::vector<uint8_t>(hello.begin(), hello.end()));
  EXPECT_EQ(
      Hex(t.keccak()),
      std::vector<std::string>{"d0e47486bbf4c16acac26f8b653592973c1362909f90262877089f9c8a4536af"});
  EXPECT_EQ(Hex(t.keccak("sha3_224")),
            std::vector<std::string>{"716596afadfa17cd1cb35133829a02b03e4eed398ce029ce78a2161d"});
  EXPECT_EQ(Hex(t.keccak("shake_128")),
            std::vector<std::string>{"aacfe6ebd3737d9f195c837c5281d3f8"});
  EXPECT_EQ(t.keccak().dtype(), dtypes::uint8);
  EXPECT_EQ(t.keccak().shape(), std::vector<int64_t>{32});
}

// The padding's cases: empty, one byte short of a block (dsbyte and 0x80 in one byte), a whole
// block (a block of padding follows), one past, several blocks.
TEST(KeccakTest, PaddingAtBlockEdges) {
  EXPECT_EQ(
      Hex(Tensor::FromVector(std::vector<uint8_t>{}, {0}).keccak()),
      std::vector<std::string>{"a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a"});
  const std::vector<std::pair<int64_t, std::string>> cases = {
      {135, "d9dcf1f98e49a79b0643a9e68fef48079ff8777c5e7e7f93469ded65f192ac71"},
      {136, "743bd32e775ac7387a57d4d574c89ddef5ebcb08bb5cc6b88c55a27b5035cc45"},
      {137, "01d47e8d6dce6e3dcbf1baa6f845b6ace4ef74bd17da8176ecc49bc35dbe5d21"},
      {300, "064af3405aacb53d5d77ee858fec1e6e225480de3f14f06444e2b33d92d61879"},
  };
  for (const auto& [n, want] : cases)
    EXPECT_EQ(Hex(Bytes(Pattern(n)).keccak()), std::vector<std::string>{want}) << n;
  EXPECT_EQ(Hex(Bytes(Pattern(167)).keccak("shake_128")),
            std::vector<std::string>{"bb961bb015521037905f9baf69ce60dd"});
}

// Every row is a message; other dtypes hash their bytes (little-endian).
TEST(KeccakTest, BatchesAndOtherDtypes) {
  std::vector<uint8_t> rows;
  for (int r = 0; r < 3; ++r) {
    std::vector<uint8_t> p = Pattern(50, 5, r);
    rows.insert(rows.end(), p.begin(), p.end());
  }
  Tensor batch = Tensor::FromVector(rows, {3, 50});
  EXPECT_EQ(Hex(batch.keccak()),
            (std::vector<std::string>{
                "c70a8291bf3401ba4e3013dcb3fccbc4918517387275593d343f042dd710bc61",
                "63b8dae189f2f0131a688cb5e18773ef65e7980b9d8e239067a8171c0c272de4",
                "cc187eb310139f8adf9ca2db853e3b1ef7886688a52cf3d718142326e0332b41"}));
  EXPECT_EQ(batch.reshape({3, 1, 50}).keccak().shape(), (std::vector<int64_t>{3, 1, 32}));
  std::vector<int32_t> ints;
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 10; ++i) ints.push_back(i * 1000003 - 7 * j);
  EXPECT_EQ(Hex(Tensor::FromVector(ints, {2, 10}).keccak()),
            (std::vector<std::string>{
                "afd04532524b9eea77fa03dfa4ff3cd1aa9014b4441a24fb0c6ec66e4358de42",
                "2819dca7a33c2d172d767ec8837a3b9ab56783d835a33cb0e850a090859b2a6a"}));
}

TEST(KeccakTest, BadConfigsAreErrors) {
  Tensor t = Bytes(Pattern(4));
  Tensor bad = t.keccak("sha3_512");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("unknown config 'sha3_512'"));
  EXPECT_FALSE(t.keccak(KeccakConfig{.rate = 201, .dsbyte = 6}).ok());
  EXPECT_FALSE(t.keccak(KeccakConfig{.rate = 100, .dsbyte = 6}).ok());
  EXPECT_FALSE(t.keccak(KeccakConfig{.rate = 136, .dsbyte = 256}).ok());
  EXPECT_FALSE(Tensor::FromVector(std::vector<uint8_t>{1}, {}).keccak().ok());
}

// The tree with smaller chunks (512 bytes in 64-byte blocks): one chunk (one level), two
// (two levels). tinygrad's 1 MiB chunks take 1200 Keccak rounds for any tensor under 1 MiB,
// minutes in this unoptimized test build; they were checked against hashlib in an optimized
// build (946024ac9d5bb75306ae13a507434a0b for Pattern(1000), as below).
TEST(HashTest, SixteenBytesOfTheContents) {
  Tensor one = Bytes(Pattern(300)).hash(512, 64);
  EXPECT_EQ(one.shape(), std::vector<int64_t>{16});
  EXPECT_EQ(Hex(one), std::vector<std::string>{"fd5764ea3ca129aad328e8dcb3baba39"});
  EXPECT_EQ(Hex(Bytes(Pattern(1000)).hash(512, 64)),
            std::vector<std::string>{"a4e0015c5b4fc4b93f589151c1d986c0"});
}

TEST(HashTest, BadSizesAreErrors) {
  Tensor t = Bytes(Pattern(10));
  EXPECT_FALSE(t.hash(512, 100).ok());
  EXPECT_FALSE(t.hash(24, 8).ok());
  EXPECT_FALSE(t.hash(16, 16).ok());
  Tensor bad = t.hash(512, 0);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("the block must divide the chunk"));
}

}  // namespace
}  // namespace tg
