// Port of tinygrad/runtime/ops_python.py: to_storage_scalar / from_storage_scalar with the
// struct packing of each dtype's format.
#include "tinygrad/emulator/scalar_storage.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "tinygrad/base/check.h"

namespace tg {
namespace {

// The IEEE half bits of `h`, a double that half represents exactly (RoundToFloat16's result).
uint16_t ExactHalfBits(double h) {
  const uint16_t sign = std::signbit(h) ? 0x8000 : 0;
  const double a = std::fabs(h);
  if (std::isnan(a)) return sign | 0x7e00;
  if (std::isinf(a)) return sign | 0x7c00;
  if (a < 0x1p-14) return sign | static_cast<uint16_t>(a * 0x1p24);  // subnormal (or zero)
  const int e = std::ilogb(a);
  const auto mantissa = static_cast<uint16_t>(std::ldexp(a, 10 - e) - 1024);
  return sign | static_cast<uint16_t>((e + 15) << 10) | mantissa;
}

double HalfFromBits(uint16_t bits) {
  const double sign = (bits & 0x8000) ? -1.0 : 1.0;
  const int e = (bits >> 10) & 0x1f;
  const int m = bits & 0x3ff;
  if (e == 0x1f) return m ? std::nan("") : sign * INFINITY;
  if (e == 0) return sign * std::ldexp(m, -24);
  return sign * std::ldexp(m + 1024, e - 25);
}

}  // namespace

bool IsStorableScalar(DType scalar) {
  return !scalar.is_ptr() && scalar.count() == 1 && scalar != dtypes::void_ && scalar != dtypes::index;
}

void StoreScalar(const ConstValue& v, DType scalar, std::byte* out) {
  using S = ScalarType;
  if (scalar == dtypes::bool_) {
    *out = std::byte{v.to_bool() ? uint8_t{1} : uint8_t{0}};
    return;
  }
  if (dtypes::is_int(scalar) && scalar != dtypes::index) {
    // Two's complement low bits, little-endian (the hosts we build for are).
    const auto bits = static_cast<uint64_t>(v.to_int());
    std::memcpy(out, &bits, static_cast<size_t>(scalar.itemsize()));
    return;
  }
  switch (scalar.scalar_type()) {
    case S::kFloat32: {
      const auto f = static_cast<float>(v.to_float());
      std::memcpy(out, &f, 4);
      return;
    }
    case S::kFloat64: {
      const double d = v.to_float();
      std::memcpy(out, &d, 8);
      return;
    }
    case S::kFloat16: {
      const uint16_t h = ExactHalfBits(RoundToFloat16(v.to_float()));
      std::memcpy(out, &h, 2);
      return;
    }
    case S::kBFloat16: {
      // float_to_bf16, then the top half of the float32 bits
      const auto f = static_cast<float>(RoundToBFloat16(v.to_float()));
      const auto b = static_cast<uint16_t>(std::bit_cast<uint32_t>(f) >> 16);
      std::memcpy(out, &b, 2);
      return;
    }
    case S::kFp8e4m3:
    case S::kFp8e5m2:
      *out = std::byte{FloatToFp8(v.to_float(), scalar)};
      return;
    default:  // void, index (bool and ints above)
      break;
  }
  TG_CHECK(false) << "no storage for " << scalar;
}

ConstValue LoadScalar(const std::byte* in, DType scalar) {
  using S = ScalarType;
  auto read = [in]<typename T>(T) {
    T x;
    std::memcpy(&x, in, sizeof(T));
    return x;
  };
  switch (scalar.scalar_type()) {
    case S::kBool:
      return ConstValue(*in != std::byte{0});
    case S::kInt8:
      return ConstValue(int64_t{read(int8_t{})});
    case S::kUInt8:
      return ConstValue(int64_t{read(uint8_t{})});
    case S::kInt16:
      return ConstValue(int64_t{read(int16_t{})});
    case S::kUInt16:
      return ConstValue(int64_t{read(uint16_t{})});
    case S::kInt32:
      return ConstValue(int64_t{read(int32_t{})});
    case S::kUInt32:
      return ConstValue(int64_t{read(uint32_t{})});
    case S::kInt64:
      return ConstValue(read(int64_t{}));
    case S::kUInt64:
      return ConstValue(static_cast<i128>(read(uint64_t{})));
    case S::kFloat32:
      return ConstValue(static_cast<double>(read(float{})));
    case S::kFloat64:
      return ConstValue(read(double{}));
    case S::kFloat16:
      return ConstValue(HalfFromBits(read(uint16_t{})));
    case S::kBFloat16:
      return ConstValue(static_cast<double>(std::bit_cast<float>(uint32_t{read(uint16_t{})} << 16)));
    case S::kFp8e4m3:
    case S::kFp8e5m2:
      return ConstValue(Fp8ToFloat(static_cast<uint8_t>(*in), scalar));
    case S::kVoid:
    case S::kIndex:
      break;
  }
  TG_CHECK(false) << "no storage for " << scalar;
  return {};
}

}  // namespace tg
