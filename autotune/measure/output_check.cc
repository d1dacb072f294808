// File: autotune/measure/output_check.cc
// Random inputs and the tolerant output comparison of the measurer (no tinygrad counterpart).
#include "autotune/measure/output_check.h"

#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
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

double HalfToDouble(uint16_t h) {
  int exp = (h >> 10) & 0x1F, mant = h & 0x3FF;
  double sign = (h & 0x8000) ? -1.0 : 1.0;
  if (exp == 0) return sign * std::ldexp(mant, -24);
  if (exp == 31) return mant ? NAN : sign * INFINITY;
  return sign * std::ldexp(1024 + mant, exp - 25);
}

double BFloat16ToDouble(uint16_t b) {
  uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

template <typename T>
T Load(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

}  // namespace

namespace {

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

std::string CompareOutput(DType dtype, std::string_view got, std::string_view want) {
  if (got.size() != want.size())
    return absl::StrCat("size ", got.size(), " bytes, expected ", want.size());
  if (got == want) return "";  // the usual case, at memcmp speed
  const size_t size = static_cast<size_t>(dtype.itemsize());
  const ScalarType t = dtype.scalar_type();
  const bool tolerant = t == ScalarType::kFloat16 || t == ScalarType::kBFloat16 ||
                        t == ScalarType::kFloat32 || t == ScalarType::kFloat64;
  const double tol = t == ScalarType::kFloat64 ? 1e-6 : t == ScalarType::kFloat32 ? 1e-3 : 1e-2;
  auto value = [&](const char* p) -> double {
    switch (t) {
      case ScalarType::kFloat16: return HalfToDouble(Load<uint16_t>(p));
      case ScalarType::kBFloat16: return BFloat16ToDouble(Load<uint16_t>(p));
      case ScalarType::kFloat32: return Load<float>(p);
      default: return Load<double>(p);
    }
  };
  int64_t bad = 0, first = -1;
  std::string first_what;
  for (size_t off = 0; off + size <= got.size(); off += size) {
    bool same;
    double g = 0, w = 0;
    if (tolerant) {
      g = value(got.data() + off), w = value(want.data() + off);
      if (std::isnan(w) || std::isnan(g)) same = std::isnan(w) && std::isnan(g);
      else if (std::isinf(w) || std::isinf(g)) same = g == w;
      else same = std::fabs(g - w) <= tol + tol * std::fabs(w);
    } else {
      same = std::memcmp(got.data() + off, want.data() + off, size) == 0;
    }
    if (same) continue;
    if (bad++ == 0) {
      first = static_cast<int64_t>(off / size);
      first_what = tolerant ? absl::StrCat(g, " != ", w) : "bytes differ";
    }
  }
  if (bad == 0) return "";
  return absl::StrCat(bad, " of ", got.size() / size, " elements differ, first at ", first, ": ",
                      first_what);
}

}  // namespace tg::autotune
