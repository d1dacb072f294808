// File: tinygrad/base/stable_hash.h
// A 64-bit hash that is the same on every machine, process and build: it mixes explicit
// little-endian words only (never pointers, never std::hash). Used for UOp structural keys,
// which become tuning-database keys, so changing the mixing invalidates every database.
#ifndef TINYGRAD_BASE_STABLE_HASH_H_
#define TINYGRAD_BASE_STABLE_HASH_H_

#include <cstdint>
#include <cstring>
#include <string_view>

namespace tg {

class StableHasher {
 public:
  constexpr StableHasher() = default;
  constexpr explicit StableHasher(uint64_t seed) : state_(seed) {}

  StableHasher& Add(uint64_t word) {
    state_ = Mix(state_ ^ (word + 0x9e3779b97f4a7c15ULL + (state_ << 6) + (state_ >> 2)));
    return *this;
  }
  StableHasher& AddBytes(std::string_view bytes) {
    Add(bytes.size());
    size_t i = 0;
    for (; i + 8 <= bytes.size(); i += 8) Add(LoadLittleEndian(bytes.data() + i, 8));
    if (i < bytes.size()) Add(LoadLittleEndian(bytes.data() + i, bytes.size() - i));
    return *this;
  }
  uint64_t Finish() const { return Mix(state_); }

 private:
  // splitmix64's finalizer: a bijection with good avalanche.
  static constexpr uint64_t Mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  static uint64_t LoadLittleEndian(const char* p, size_t n) {
    uint64_t w = 0;
    for (size_t k = 0; k < n; ++k) w |= uint64_t{static_cast<unsigned char>(p[k])} << (8 * k);
    return w;
  }

  uint64_t state_ = 0x243f6a8885a308d3ULL;  // pi's fraction: any fixed non-zero start
};

}  // namespace tg

#endif  // TINYGRAD_BASE_STABLE_HASH_H_
