// File: autotune/measure/output_check.cc
// Random inputs and the tolerant output comparison of the measurer (no tinygrad counterpart).
#include "autotune/measure/output_check.h"

#include <cmath>
#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "autotune/measure/parallel_for.h"
#include "tinygrad/base/check.h"

namespace tg::autotune {
namespace {

// splitmix64: a fixed, portable generator (std:: distributions differ between libraries).
uint64_t Next(uint64_t& s) {
  uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// k/256 for k in [1, 256) as IEEE half: normal numbers only, exact.
uint16_t HalfOf(int k) {
  int e = 0;
  while ((k >> (e + 1)) != 0) ++e;             // k = 1.m * 2^e
  uint16_t mant = static_cast<uint16_t>((k << (10 - e)) & 0x3FF);
  return static_cast<uint16_t>(((e - 8 + 15) << 10) | mant);
}

// n items of `size` bytes, item i written by fill(p, r_i) from the i-th number of the seed's
// sequence. One instantiation per dtype family keeps the loop free of dtype dispatch (these
// buffers reach 16 MB: ~10 ms instead of ~130 ms).
template <typename Fill>
std::string Generate(int64_t n, int size, uint64_t seed, Fill fill) {
  std::string out(static_cast<size_t>(n) * size, '\0');
  char* p = out.data();
  uint64_t s = seed;
  for (int64_t i = 0; i < n; ++i, p += size) fill(p, Next(s));
  return out;
}

}  // namespace

std::string RandomContents(DType dtype, int64_t n, uint64_t seed) {
  TG_CHECK(n >= 0 && !dtype.is_ptr() && dtype.count() == 1) << dtype.repr();
  const int size = dtype.itemsize();
  const ScalarType t = dtype.scalar_type();
  // floats k/256 for k in [0, 256): exact in every float format, no rounding anywhere
  auto k_of = [](uint64_t r) { return static_cast<int>(r & 0xFF); };
  if (dtypes::is_float(dtype)) {
    switch (t) {
      case ScalarType::kFloat32:
        return Generate(n, size, seed, [&](char* p, uint64_t r) {
          float f = static_cast<float>(k_of(r)) / 256.0f;
          std::memcpy(p, &f, 4);
        });
      case ScalarType::kFloat64:
        return Generate(n, size, seed, [&](char* p, uint64_t r) {
          double d = static_cast<double>(k_of(r)) / 256.0;
          std::memcpy(p, &d, 8);
        });
      case ScalarType::kFloat16:
        return Generate(n, size, seed, [&](char* p, uint64_t r) {
          uint16_t h = k_of(r) == 0 ? 0 : HalfOf(k_of(r));
          std::memcpy(p, &h, 2);
        });
      case ScalarType::kBFloat16:
        return Generate(n, size, seed, [&](char* p, uint64_t r) {
          float f = static_cast<float>(k_of(r)) / 256.0f;
          uint32_t bits;
          std::memcpy(&bits, &f, 4);
          uint16_t b = static_cast<uint16_t>(bits >> 16);  // exact: k/256 has 8 significant bits
          std::memcpy(p, &b, 2);
        });
      default:  // fp8: zeros (their encodings are not worth a table here)
        return std::string(static_cast<size_t>(n) * size, '\0');
    }
  }
  if (dtypes::is_bool(dtype)) return Generate(n, size, seed, [](char* p, uint64_t r) { p[0] = static_cast<char>(r & 1); });
  return Generate(n, size, seed, [size](char* p, uint64_t r) {
    uint64_t v = r & 7;
    std::memcpy(p, &v, static_cast<size_t>(size));  // little-endian: the low bytes
  });
}

namespace {

// IEEE half to float, exactly, by bit arithmetic (no table, no library call): the compare
// below decodes every element of outputs that reach 16M halfs (a tensor-core matmul 4096
// differs from the unoptimized kernel in most of them).
float HalfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  const uint32_t exp = (h >> 10) & 0x1F, mant = h & 0x3FF;
  uint32_t bits;
  if (exp == 0x1F) {
    bits = sign | 0x7F800000 | (mant << 13);  // inf, NaN
  } else if (exp == 0) {
    const float f = static_cast<float>(mant) * 0x1p-24f;  // zero, subnormal: exact in float
    return sign != 0 ? -f : f;
  } else {
    bits = sign | ((exp + 112) << 23) | (mant << 13);  // rebias 15 -> 127
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

float BFloat16ToFloat(uint16_t b) {
  const uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

struct Mismatches {
  int64_t count = 0;
  int64_t first = -1;
  std::string first_what;
};

// Whether two floats whose bits differ match: both NaN, or both finite within
// |g-w| <= tol + tol*|w| (a finite value never matches an infinity; infinities of one sign
// have equal bits).
template <typename F>
bool Near(F g, F w, F tol) {
  constexpr F kInf = std::numeric_limits<F>::infinity();
  const F aw = std::fabs(w);
  if (g != g || w != w) return g != g && w != w;
  return std::fabs(g) < kInf && aw < kInf && std::fabs(g - w) <= tol + tol * aw;
}

// Below this many items one thread compares (a thread costs more than it saves).
constexpr size_t kItemsPerThread = size_t{1} << 20;

// Elementwise over raw items of type Bits, decoded to F by `decode` (nullptr: bit-exact) only
// where the bits differ. A first pass only counts, in chunks on up to `threads` threads; the
// position and values of the first mismatch are found after. One instantiation per dtype keeps
// dispatch out of the loops (a half output of 16M elements that differs everywhere: 120 ms
// with a switch and ldexp per element, 48 ms so on one thread; output_check_benchmark).
template <typename Bits, typename F, typename Decode>
Mismatches Compare(std::string_view got, std::string_view want, F tol, Decode decode, int threads) {
  constexpr bool kExact = std::is_same_v<Decode, std::nullptr_t>;
  const size_t n = got.size() / sizeof(Bits);
  auto same = [&](size_t i) {
    Bits gb, wb;
    std::memcpy(&gb, got.data() + i * sizeof(Bits), sizeof(Bits));
    std::memcpy(&wb, want.data() + i * sizeof(Bits), sizeof(Bits));
    if constexpr (kExact) return gb == wb;
    else return gb == wb || Near<F>(decode(gb), decode(wb), tol);
  };
  Mismatches m;
  // chunks counted in parallel: a 16M-element output is checked for every GPU candidate
  const size_t chunks = std::clamp<size_t>(n / kItemsPerThread, 1, static_cast<size_t>(std::max(1, threads)));
  std::vector<int64_t> counts(chunks, 0);
  ParallelFor(chunks, static_cast<int>(chunks), [&](size_t c) {
    int64_t count = 0;
    for (size_t i = n * c / chunks, end = n * (c + 1) / chunks; i < end; ++i) count += !same(i);
    counts[c] = count;
  });
  for (int64_t c : counts) m.count += c;
  if (m.count == 0) return m;
  size_t i = 0;
  while (same(i)) ++i;
  m.first = static_cast<int64_t>(i);
  if constexpr (kExact) {
    m.first_what = "bytes differ";
  } else {
    Bits gb, wb;
    std::memcpy(&gb, got.data() + i * sizeof(Bits), sizeof(Bits));
    std::memcpy(&wb, want.data() + i * sizeof(Bits), sizeof(Bits));
    m.first_what = absl::StrCat(decode(gb), " != ", decode(wb));
  }
  return m;
}

// Bit-exact, for items of `size` bytes.
Mismatches CompareBytes(std::string_view got, std::string_view want, size_t size, int threads) {
  switch (size) {
    case 1: return Compare<uint8_t, float>(got, want, 0.0f, nullptr, threads);
    case 2: return Compare<uint16_t, float>(got, want, 0.0f, nullptr, threads);
    case 4: return Compare<uint32_t, float>(got, want, 0.0f, nullptr, threads);
    case 8: return Compare<uint64_t, float>(got, want, 0.0f, nullptr, threads);
    default: {  // no such scalar today; compared byte for byte per item all the same
      Mismatches m;
      for (size_t off = 0; off + size <= got.size(); off += size) {
        if (std::memcmp(got.data() + off, want.data() + off, size) == 0) continue;
        if (m.count++ == 0) m.first = static_cast<int64_t>(off / size), m.first_what = "bytes differ";
      }
      return m;
    }
  }
}

}  // namespace

size_t CountDifferingItems(size_t itemsize, std::string_view a, std::string_view b) {
  return static_cast<size_t>(CompareBytes(a, b, std::max<size_t>(1, itemsize), 1).count);
}

std::string CompareOutput(DType dtype, std::string_view got, std::string_view want, int threads) {
  if (got.size() != want.size())
    return absl::StrCat("size ", got.size(), " bytes, expected ", want.size());
  if (got == want) return "";  // the usual case, at memcmp speed
  const size_t size = static_cast<size_t>(dtype.itemsize());
  Mismatches m;
  switch (dtype.scalar_type()) {
    case ScalarType::kFloat16:
      m = Compare<uint16_t, float>(got, want, 1e-2f, [](uint16_t b) { return HalfToFloat(b); }, threads);
      break;
    case ScalarType::kBFloat16:
      m = Compare<uint16_t, float>(got, want, 1e-2f, [](uint16_t b) { return BFloat16ToFloat(b); }, threads);
      break;
    case ScalarType::kFloat32:
      m = Compare<uint32_t, float>(got, want, 1e-3f, [](uint32_t b) {
        float f;
        std::memcpy(&f, &b, 4);
        return f;
      }, threads);
      break;
    case ScalarType::kFloat64:
      m = Compare<uint64_t, double>(got, want, 1e-6, [](uint64_t b) {
        double d;
        std::memcpy(&d, &b, 8);
        return d;
      }, threads);
      break;
    default:
      m = CompareBytes(got, want, size, threads);
  }
  if (m.count == 0) return "";
  return absl::StrCat(m.count, " of ", got.size() / size, " elements differ, first at ", m.first, ": ",
                      m.first_what);
}

}  // namespace tg::autotune
