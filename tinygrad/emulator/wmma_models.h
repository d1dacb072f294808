// File: tinygrad/emulator/wmma_models.h
// Port of tinygrad/runtime/ops_python.py: generic_wmma_helper and the per-device WMMA models
// (how METAL, AMD CDNA/RDNA3/RDNA4, CUDA, INTEL and AMX spread a tensor-core instruction's
// operands across the lanes of a warp), for the UOp emulator.
//
// A WMMA uop computes D = A x B + C with A (M x K), B (K x N), C and D (M x N); its arg is
// (name, dims = (N, M, K), dtype_in, dtype_out, device, threads, upcast_axes, reduce_axes).
// Each thread holds a vector of A, B and C elements; the device decides which element of
// which lane is which matrix entry. The emulator's workgroup may hold several warps: every
// `threads` consecutive threads are one independent MMA.
//
// Example:
//   // a[e][t]: element e of thread t's A vector, likewise b and c (32 threads: one CUDA warp)
//   ASSIGN_OR_RETURN(WmmaFragment d, EmulateWmma(wmma.arg(), a, b, c));
#ifndef TINYGRAD_EMULATOR_WMMA_MODELS_H_
#define TINYGRAD_EMULATOR_WMMA_MODELS_H_

#include <cstddef>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/uop/arg.h"

namespace tg {

// One WMMA operand across a workgroup: fragment[e][t] is element e of thread t's vector (the
// reference's list-of-lists: outer index the vector element, inner the thread).
using WmmaFragment = std::vector<std::vector<double>>;

// D = A x B + C for one WMMA uop over all threads of a workgroup, as the device named in the
// WMMA's arg lays its operands across lanes. Each D element is C + (the K products summed in
// order), in double as the reference does: rounding to the output dtype is the caller's (the
// interpreter rounds when a value is stored or cast). InvalidArgument (naming the WMMA, its
// device and dims, and what is wrong) for an arg that is not a WMMA arg, an unknown
// device/shape, wrong element counts, lanes of different lengths, a workgroup that is not a
// multiple of the device's warp, RDNA3 operands that are not duplicated across half-warps.
// Never aborts on bad input.
absl::StatusOr<WmmaFragment> EmulateWmma(const Arg& wmma_arg, const WmmaFragment& a,
                                         const WmmaFragment& b, const WmmaFragment& c);

// Where one operand entry lives: element `elem` of lane `lane` of one MMA's warp.
struct WmmaSlot {
  int elem;
  int lane;
};

// A matrix entry (row, col).
struct WmmaEntry {
  int row;
  int col;
};

// One device's lane layout for one WMMA shape: the reference's a_elem / b_elem / c_map.
struct WmmaLayout {
  int threads;                    // lanes of one MMA (the device's warp for this instruction)
  int m, n, k;                    // A is m x k, B k x n, C/D m x n
  int num_a, num_b, num_c;        // elements per thread of A, B, C/D
  bool duplicated_half_warps;     // RDNA3: lanes threads/2.. repeat A and B of lanes 0..

  WmmaSlot A(int row, int kk) const { return a_slot(k, row, kk); }
  WmmaSlot B(int kk, int col) const { return b_slot(k, kk, col); }
  WmmaEntry D(int lane, int elem) const { return d_entry(lane, elem); }  // also C's

  // Plain functions (no captures): the K argument is the instruction's K.
  WmmaSlot (*a_slot)(int k_dim, int row, int kk);
  WmmaSlot (*b_slot)(int k_dim, int kk, int col);
  WmmaEntry (*d_entry)(int lane, int elem);
};

// The layout EmulateWmma uses for `wmma_arg` when A holds `a_elements` elements per thread
// (AMD's RDNA3 and RDNA4 share dims and warp and differ only there). Same errors as above.
absl::StatusOr<WmmaLayout> WmmaLayoutFor(const Arg& wmma_arg, size_t a_elements);

}  // namespace tg

#endif  // TINYGRAD_EMULATOR_WMMA_MODELS_H_
