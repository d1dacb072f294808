// File: autotune/key/vector_isa.h
// The vector unit of a CPU device class: how wide its vector registers are and how many it has,
// from the ISA flags of the device class (the tuning key's device description). BEAM with
// BEAM_SIMD=1 (`tg tune --simd`) sizes its SIMD opts and register tiles by it
// (autotune/search/beam_search.h): AVX2 gets 8-float vectors and tiles that fit 16 ymm
// registers, AVX-512 16-float vectors and tiles that fit 32 zmm registers.
//
// Example:
//   VectorIsa v = VectorIsaOf(device_class);  // {256, 16} for an AVX2 class
//   v.lanes()                                 // 8 float32 lanes
//   v.MaxAccumulatorFloats()                  // (16 - kReservedVectorRegisters) * 8
#ifndef AUTOTUNE_KEY_VECTOR_ISA_H_
#define AUTOTUNE_KEY_VECTOR_ISA_H_

#include <cstdint>
#include <string>
#include <vector>

#include "autotune/key/device_class.h"

namespace tg::autotune {

// Vector registers a matmul's register tile cannot use for accumulators: the loaded row of B
// (one or more vectors), the broadcast element of A and the address arithmetic's spills.
// Measured with //autotune/search:tile_benchmark (tools/bench/cpu_matmul_log.md): on AVX2, 4x16 (8 of 16
// ymm) and 8x16 (16 of 16: spills) tiles; on AVX-512, 8x32 (16 of 32 zmm) and 16x32 (32 of 32).
inline constexpr int kReservedVectorRegisters = 4;

struct VectorIsa {
  int vector_bits = 0;       // the widest vector register: 128 (SSE, NEON), 256 (AVX2), 512 (AVX-512); 0: unknown
  int vector_registers = 0;  // architectural registers of that width: 16 ymm (AVX2), 32 zmm (AVX-512)

  bool known() const { return vector_bits > 0 && vector_registers > 0; }
  // float32 lanes of one register.
  int64_t lanes() const { return vector_bits / 32; }
  // The most float32 accumulators a register tile may hold: the registers left after
  // kReservedVectorRegisters, full of lanes. 0 when unknown.
  int64_t MaxAccumulatorFloats() const;
  // SIMD opt widths (float32 lanes) the search offers: powers of two from 8 up to lanes().
  std::vector<int64_t> SimdWidths() const;

  friend bool operator==(const VectorIsa&, const VectorIsa&) = default;
};

// The vector unit of `isa_flags` (Linux /proc/cpuinfo names): avx512f {512, 32}; avx {256, 16};
// x86 SSE (pni, ssse3, sse4_*) {128, 16}; ARM asimd {128, 32}; unknown otherwise.
VectorIsa VectorIsaOfFlags(const std::vector<std::string>& isa_flags);

// VectorIsaOfFlags of a CPU class's flags; unknown for a GPU's class.
VectorIsa VectorIsaOf(const DeviceClass& dc);

}  // namespace tg::autotune

#endif  // AUTOTUNE_KEY_VECTOR_ISA_H_
