// File: tinygrad/renderer/c/vector_acc.h
// Ours (not in the reference): register accumulators rendered as arrays of C vectors.
//
// Why: a matmul's register tile reaches the C renderer as a scalar accumulator array (`float
// acc0[64]`) updated lane by lane, and clang's SLP vectorizer has to rebuild the vector FMAs.
// LLVM 14's SLP vectorizes those updates twice -- once for the loop's phis, once for the vector
// stores of the tile after the loop -- and LICM sinks the second, identical copy into the loop
// exit, so the old and the new value of every accumulator are live across each iteration. On
// AVX2 (16 ymm registers) an 8-accumulator tile then spills in its inner loop: measured on a
// Zen 5 with x86-64-v3 code, a 4x16 SIMD:8 tile ran at 25 GFLOP/s instead of 100. Declared as
// vectors (`float8 acc0[8]`, lanes written acc0[v][l]) the accumulators are vector values from
// the start and the loop keeps one copy.
//
// When: only where every slot of a DEFINE_REG is a lane of exactly one vector constructor
// (VECTORIZE) at least `min_width` wide -- the tile's stores after the reduce -- each of whose
// lanes is its load or an elementwise function of that one slot (a fused epilogue:
// VECTORIZE(max(acc0[0]+b0, 0), ...), which reads acc0[v][l] and clang revectorizes), and the
// register is used only through constant INDEXes. Vectors that wide come only from the SIMD opt
// (without it the reference's float4 is the widest), so kernels without SIMD render as before.
// Measured on the mlp's first linear layer + relu (x86-64-v3, 4x16 SIMD:8 tile, two threads):
// 2.83 ms with scalar accumulators, 2.23 ms as vectors.
//
// Example:
//   VectorAccPlan plan = PlanVectorAccs(uops, 8);
//   if (const VectorAccLane* l = plan.Lane(index_uop)) ...   // render acc0[l->vector][l->lane]
#ifndef TINYGRAD_RENDERER_C_VECTOR_ACC_H_
#define TINYGRAD_RENDERER_C_VECTOR_ACC_H_

#include <cstdint>
#include <span>

#include "absl/container/flat_hash_map.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// Where one accumulator slot lives: lane `lane` of vector `vector` of its register.
struct VectorAccLane {
  int64_t vector = 0;
  int lane = 0;
};

struct VectorAccPlan {
  // vector width of each DEFINE_REG that renders as vectors
  absl::flat_hash_map<UOp, int> width;
  // each INDEX into such a register (directly or through AFTER) -> its slot's lane
  absl::flat_hash_map<UOp, VectorAccLane> lanes;

  const VectorAccLane* Lane(const UOp& index) const {
    auto it = lanes.find(index);
    return it == lanes.end() ? nullptr : &it->second;
  }
};

// The plan for the linearized kernel `uops`: registers whose slots are all lanes of vector
// constructors of width >= min_width (see above); empty when min_width <= 1.
VectorAccPlan PlanVectorAccs(std::span<const UOp> uops, int min_width);

}  // namespace tg

#endif  // TINYGRAD_RENDERER_C_VECTOR_ACC_H_
