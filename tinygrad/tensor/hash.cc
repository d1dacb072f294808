// File: tinygrad/tensor/hash.cc
// Hashes computed by Tensor ops on the tensor's device: Tensor.keccak (SHA3-224/256 and
// SHAKE128 over the last dimension's bytes) and Tensor.hash (a tree of SHAKE128 over 1 MiB
// chunks). Port of tinygrad/tensor.py (35900290) keccak, _hash_1mb and hash: the Keccak-f[1600]
// permutation as whole-state tensor ops on 25 uint64 lanes per message (theta by rolls, rho by
// multiplying and dividing by powers of two, pi by an index tensor, chi by rolls), so a batch of
// messages hashes in the same kernels.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/tensor/tensor_internal.h"

namespace tg {

using tensor_internal::Err;

namespace {

// rho's rotation of each lane after pi's reordering (lane 0 is not rotated).
constexpr int kRotOffsets[24] = {44, 43, 21, 14, 28, 20, 3,  45, 61, 1,  6,  25,
                                 8,  18, 27, 36, 10, 15, 56, 62, 55, 39, 41, 2};
// pi: the lane each position takes.
constexpr int32_t kReorder[25] = {0,  6,  12, 18, 24, 3,  9,  10, 16, 22, 1,  7, 13,
                                  19, 20, 4,  5,  11, 17, 23, 2,  8,  14, 15, 21};
// iota's round constants.
constexpr uint64_t kRoundConstants[24] = {0x1,
                                          0x8082,
                                          0x800000000000808a,
                                          0x8000000080008000,
                                          0x808b,
                                          0x80000001,
                                          0x8000000080008081,
                                          0x8000000000008009,
                                          0x8a,
                                          0x88,
                                          0x80008009,
                                          0x8000000a,
                                          0x8000808b,
                                          0x800000000000008b,
                                          0x8000000000008089,
                                          0x8000000000008003,
                                          0x8000000000008002,
                                          0x8000000000000080,
                                          0x800a,
                                          0x800000008000000a,
                                          0x8000000080008081,
                                          0x8000000000008080,
                                          0x80000001,
                                          0x8000000080008008};

Tensor U64s(const std::vector<uint64_t>& v, const std::string& device) {
  return Tensor::FromVector(v, {static_cast<int64_t>(v.size())}, {.device = device});
}

}  // namespace

absl::StatusOr<KeccakConfig> KeccakConfig::Named(const std::string& name) {
  if (name == "sha3_224") return KeccakConfig{144, 6};
  if (name == "sha3_256") return KeccakConfig{136, 6};
  if (name == "shake_128") return KeccakConfig{168, 31};
  return absl::InvalidArgumentError(
      absl::StrCat("keccak: unknown config '", name, "' (sha3_224, sha3_256, shake_128)"));
}

Tensor Tensor::keccak(const std::string& cfg) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  absl::StatusOr<KeccakConfig> c = KeccakConfig::Named(cfg);
  if (!c.ok()) return Error(c.status());
  return keccak(*c);
}

Tensor Tensor::keccak(KeccakConfig cfg) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  const int64_t rate = cfg.rate;
  if (rate <= 0 || rate >= 200 || rate % 8 != 0)
    return Err("keccak", absl::StrCat("rate ", rate, " is not a multiple of 8 in (0, 200)"));
  if (cfg.dsbyte < 0 || cfg.dsbyte > 255)
    return Err("keccak", absl::StrCat("dsbyte ", cfg.dsbyte, " is not a byte"));
  if (ndim() == 0) return Err("keccak", "needs a last dimension to hash");
  if (is_symbolic()) return Err("keccak", "needs an int shape");
  const std::string dev = device();
  const std::vector<int64_t> s = shape();
  const std::vector<int64_t> lead(s.begin(), s.end() - 1);
  int64_t bs = 1;
  for (int64_t d : lead) bs *= d;
  const int64_t msg_bytes = s.back() * dtype().itemsize();

  // the bytes of each message, padded to whole blocks (each widened to the 200-byte state)
  Tensor data = bitcast(dtypes::uint8).reshape({bs, msg_bytes});
  const int64_t data_pad = rate - msg_bytes % rate;
  data = data.pad({{0, 0}, {0, data_pad}});
  const int64_t blocks = (msg_bytes + data_pad) / rate;
  data = data.reshape({bs, blocks, rate}).pad({{0, 0}, {0, 0}, {0, 200 - rate}});
  // the padding rule: dsbyte after the message, 0x80 on the block's last byte
  const int64_t lbe = blocks * 200 + rate - data_pad - 200;
  std::vector<std::pair<int64_t, int64_t>> runs;  // (count, byte)
  if (data_pad == 1) {
    runs = {{lbe, 0}, {1, cfg.dsbyte ^ 0x80}, {200 - rate, 0}};
  } else {
    runs = {{lbe, 0}, {1, cfg.dsbyte}, {data_pad - 2, 0}, {1, 0x80}, {200 - rate, 0}};
  }
  std::vector<Tensor> mask_parts;
  for (const auto& [count, byte] : runs)
    if (count > 0)
      mask_parts.push_back(Tensor::Full({count}, byte, {.dtype = dtypes::uint8, .device = dev}));
  Tensor pad_mask = Tensor::Cat(mask_parts).unsqueeze(0);
  data = (data.flatten(1) ^ pad_mask).reshape({bs, blocks, int64_t{200}}).bitcast(dtypes::uint64);

  std::vector<uint64_t> v0{0}, v1{1};
  for (int r : kRotOffsets) {
    v0.push_back(uint64_t{1} << r);
    v1.push_back(uint64_t{1} << (64 - r));
  }
  const Tensor rot_v0 = U64s(v0, dev), rot_v1 = U64s(v1, dev);
  const Tensor reorder =
      Tensor::FromVector(std::vector<int32_t>(std::begin(kReorder), std::end(kReorder)),
                         {int64_t{25}}, {.device = dev});

  Tensor state = Tensor::Zeros({bs, int64_t{25}}, {.dtype = dtypes::uint64, .device = dev});
  for (int64_t k = 0; k < blocks; ++k) {
    state = state ^ data.slice({Slice(), Slice(k, k + 1)}).squeeze(1);
    for (int i = 0; i < 24; ++i) {  // Keccak-f[1600]
      // theta: each lane xor the parities of the columns either side
      Tensor p = state.reshape({bs, int64_t{5}, int64_t{5}}).transpose(2, 1);
      Tensor t1 = (p.slice({Slice(), Slice(), Index{0}}) ^ p.slice({Slice(), Slice(), Index{1}}) ^
                   p.slice({Slice(), Slice(), Index{2}}) ^ p.slice({Slice(), Slice(), Index{3}}) ^
                   p.slice({Slice(), Slice(), Index{4}}))
                      .roll(-1, 1);
      state = state ^ t1.roll(2, 1)
                          .bitwise_xor(t1.lshift(1) ^ t1.rshift(63))
                          .unsqueeze(2)
                          .expand({bs, int64_t{5}, int64_t{5}})
                          .transpose(2, 1)
                          .flatten(1);
      state = state.contiguous();  // the reference's: pi indexes a realized state
      // rho and pi
      state = state.slice({Slice(), Indices(reorder)});
      state = (state * rot_v0).bitwise_or(state.idiv(rot_v1)).reshape({bs, int64_t{5}, int64_t{5}});
      // chi and iota
      state = state.bitwise_xor(state.roll(-1, 2).bitwise_not().bitwise_and(state.roll(-2, 2)));
      std::vector<uint64_t> rc(25, 0);
      rc[0] = kRoundConstants[i];
      state = state.flatten(1) ^ U64s(rc, dev);
    }
  }
  const int64_t obytes = (200 - rate) / 2;
  std::vector<int64_t> out_shape = lead;
  out_shape.push_back(obytes);
  return state.bitcast(dtypes::uint8).slice({Slice(), Slice(0, obytes)}).reshape(out_shape);
}

Tensor Tensor::hash(int64_t chunk_bytes, int64_t block_bytes) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  if (is_symbolic()) return Err("hash", "needs an int shape");
  if (block_bytes <= 0 || chunk_bytes % block_bytes != 0 || chunk_bytes % 16 != 0 ||
      chunk_bytes < 32)
    return Err("hash", absl::StrCat("a chunk of ", chunk_bytes, " bytes in blocks of ", block_bytes,
                                    ": the block must divide the chunk, a multiple of 16 bytes "
                                    "and at least 32"));
  const int64_t chunk = chunk_bytes, per_chunk = chunk / block_bytes * 16;
  // one level: every chunk to 16 bytes (its blocks' SHAKE128, then theirs)
  auto level = [&](const Tensor& chunks) {
    const int64_t n = chunks.shape()[0];
    Tensor blocks = chunks.reshape({n * chunk / block_bytes, block_bytes}).keccak("shake_128");
    return blocks.reshape({n, per_chunk}).keccak("shake_128").reshape({n, int64_t{16}});
  };
  auto pad_to_chunks = [&](Tensor d) {
    const int64_t size = d.shape()[0];
    if (size % chunk != 0) d = d.pad({{0, chunk - size % chunk}});
    return d;
  };
  Tensor data = pad_to_chunks(flatten().bitcast(dtypes::uint8));
  int64_t chunks = data.shape()[0] / chunk;
  // one more level for each time the chunks' hashes fill chunk / 16 times fewer chunks
  int tree_depth = 0;
  for (int64_t c = chunks; c > 1; c = (c + chunk / 16 - 1) / (chunk / 16)) ++tree_depth;
  for (int l = 0; l <= tree_depth; ++l) {
    data = pad_to_chunks(level(data.reshape({chunks, chunk})).flatten());
    chunks = data.shape()[0] / chunk;
  }
  return data.slice({Slice(0, 16)});
}

}  // namespace tg
