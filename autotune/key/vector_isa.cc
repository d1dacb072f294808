// File: autotune/key/vector_isa.cc
#include "autotune/key/vector_isa.h"

#include <algorithm>

namespace tg::autotune {

int64_t VectorIsa::MaxAccumulatorFloats() const {
  if (!known()) return 0;
  return std::max(1, vector_registers - kReservedVectorRegisters) * lanes();
}

std::vector<int64_t> VectorIsa::SimdWidths() const {
  std::vector<int64_t> out;
  for (int64_t w = 8; w <= lanes(); w *= 2) out.push_back(w);
  return out;
}

VectorIsa VectorIsaOfFlags(const std::vector<std::string>& isa_flags) {
  auto has = [&](const char* f) { return std::find(isa_flags.begin(), isa_flags.end(), f) != isa_flags.end(); };
  if (has("avx512f")) return {512, 32};
  if (has("avx")) return {256, 16};
  if (has("pni") || has("ssse3") || has("sse4_1") || has("sse4_2")) return {128, 16};
  if (has("asimd")) return {128, 32};
  return {};
}

VectorIsa VectorIsaOf(const DeviceClass& dc) {
  if (dc.device != "CPU") return {};
  return VectorIsaOfFlags(dc.isa_flags);
}

}  // namespace tg::autotune
