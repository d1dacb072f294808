// File: tinygrad/emulator/wmma_models.cc
// Port of tinygrad/runtime/ops_python.py: generic_wmma_helper and the per-device WMMA models.
// Each model is three plain functions (where A[row][k] and B[k][col] live, which D entry a
// lane's element is), picked from one table by device, dims, warp and input dtype; one generic
// loop does the arithmetic.
#include "tinygrad/emulator/wmma_models.h"

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/dtype/dtype.h"

namespace tg {
namespace {

// ** CUDA: mma.sync m16n8kK, the C/D layout shared by every shape (M=16, N=8) **
WmmaEntry CudaD(int lane, int elem) { return {lane / 4 + (elem / 2) * 8, elem % 2 + (lane % 4) * 2}; }
// m16n8k16 (half, bfloat16): A in 8 elements, B in 4, each thread holding K pairs
WmmaSlot Cuda16A(int, int row, int k) { return {k % 2 + (row / 8) * 2 + (k / 8) * 4, (k / 2) % 4 + (row % 8) * 4}; }
WmmaSlot Cuda16B(int, int k, int col) { return {k % 2 + (k / 8) * 2, (k / 2) % 4 + col * 4}; }
// m16n8k32 (fp8): K quadruples
WmmaSlot Cuda32A(int, int row, int k) { return {k % 4 + (row / 8) * 4 + (k / 16) * 8, (k / 4) % 4 + (row % 8) * 4}; }
WmmaSlot Cuda32B(int, int k, int col) { return {k % 4 + (k / 16) * 4, (k / 4) % 4 + col * 4}; }
// m16n8k8 half: K pairs
WmmaSlot Cuda8HalfA(int, int row, int k) { return {k % 2 + (row / 8) * 2, k / 2 + (row % 8) * 4}; }
WmmaSlot Cuda8HalfB(int, int k, int col) { return {k % 2, k / 2 + col * 4}; }
// m16n8k8 tf32: one K per lane, the upper K half in the next registers
WmmaSlot Cuda8Tf32A(int, int row, int k) { return {(k / 4) * 2 + row / 8, k % 4 + (row % 8) * 4}; }
WmmaSlot Cuda8Tf32B(int, int k, int col) { return {k / 4, k % 4 + col * 4}; }

// ** AMD CDNA (MFMA, 64 lanes): K/4 consecutive K per lane, lanes 16*j.. hold the j-th quarter **
WmmaSlot CdnaA(int k_dim, int row, int k) { return {k % (k_dim / 4), (k / (k_dim / 4)) * 16 + row}; }
WmmaSlot CdnaB(int k_dim, int k, int col) { return CdnaA(k_dim, col, k); }
WmmaEntry CdnaD(int lane, int elem) { return {(lane / 16) * 4 + elem, lane % 16}; }

// ** AMD RDNA4 (32 lanes, 8 elements): K 0-3 and 8-11 in lanes 0-15, the others in 16-31 **
WmmaSlot Rdna4A(int, int row, int k) {
  constexpr std::array<int, 4> kElemBase = {0, 4, 4, 8}, kLaneBase = {0, 16, 0, 16};
  return {k - kElemBase[k / 4], row + kLaneBase[k / 4]};
}
WmmaSlot Rdna4B(int k_dim, int k, int col) { return Rdna4A(k_dim, col, k); }
WmmaEntry Rdna4D(int lane, int elem) { return {(lane / 16) * 8 + elem, lane % 16}; }

// ** AMD RDNA3 (32 lanes, 16 elements): lanes 16-31 repeat lanes 0-15 **
WmmaSlot Rdna3A(int, int row, int k) { return {k, row}; }
WmmaSlot Rdna3B(int, int k, int col) { return {k, col}; }
WmmaEntry Rdna3D(int lane, int elem) { return {lane / 16 + elem * 2, lane % 16}; }

// ** METAL (simdgroup 8x8x8): A and B share one layout, with (k, row) and (col, k) **
WmmaSlot MetalSlot(int i, int j) { return {i % 2, (i / 2) % 2 + (j % 4) * 2 + (i / 4) * 8 + (j / 4) * 16}; }
WmmaSlot MetalA(int, int row, int k) { return MetalSlot(k, row); }
WmmaSlot MetalB(int, int k, int col) { return MetalSlot(col, k); }
WmmaEntry MetalD(int lane, int elem) {
  return {(lane / 2) % 4 + (lane / 16) * 4, elem + (lane % 2) * 2 + ((lane / 8) % 2) * 4};
}

// ** INTEL (8 lanes): lane = A's K pair / B's and D's column **
WmmaSlot IntelA(int, int row, int k) { return {k % 2 + row * 2, k / 2}; }
WmmaSlot IntelB(int, int k, int col) { return {k, col}; }
WmmaEntry IntelD(int lane, int elem) { return {elem, lane}; }

// ** AMX (CPU, one thread, K=1): A is a column, B a row, D their 16x16 outer product **
// The reference reads AMX operands from thread 0 of the workgroup; the lane here is the MMA's
// own (the same on a CPU, where a workgroup is one thread).
WmmaSlot AmxA(int, int row, int k) { return {row + k, 0}; }
WmmaSlot AmxB(int, int k, int col) { return {col + k, 0}; }
WmmaEntry AmxD(int, int elem) { return {elem / 16, elem % 16}; }

struct Model {
  std::string_view device;
  std::array<int, 3> dims;          // (N, M, K) as in the arg
  std::optional<DType> dtype_in;    // set where the device has two layouts for one shape
  WmmaLayout layout;
};

// The devices tinygrad's emulator models (ops_python.py), in its order.
constexpr size_t kNumModels = 12;
const std::array<Model, kNumModels>& Models() {
  using L = WmmaLayout;
  static const std::array<Model, kNumModels> kModels = {{
      {"METAL", {8, 8, 8}, {}, L{32, 8, 8, 8, 2, 2, 2, false, MetalA, MetalB, MetalD}},
      {"AMD", {16, 16, 16}, {}, L{64, 16, 16, 16, 4, 4, 4, false, CdnaA, CdnaB, CdnaD}},
      {"AMD", {16, 16, 32}, {}, L{64, 16, 16, 32, 8, 8, 4, false, CdnaA, CdnaB, CdnaD}},
      {"AMD", {16, 16, 128}, {}, L{64, 16, 16, 128, 32, 32, 4, false, CdnaA, CdnaB, CdnaD}},
      {"AMD", {16, 16, 16}, {}, L{32, 16, 16, 16, 8, 8, 8, false, Rdna4A, Rdna4B, Rdna4D}},
      {"AMD", {16, 16, 16}, {}, L{32, 16, 16, 16, 16, 16, 8, true, Rdna3A, Rdna3B, Rdna3D}},
      {"CUDA", {8, 16, 16}, {}, L{32, 16, 8, 16, 8, 4, 4, false, Cuda16A, Cuda16B, CudaD}},
      {"CUDA", {8, 16, 32}, {}, L{32, 16, 8, 32, 16, 8, 4, false, Cuda32A, Cuda32B, CudaD}},
      {"CUDA", {8, 16, 8}, dtypes::float16, L{32, 16, 8, 8, 4, 2, 4, false, Cuda8HalfA, Cuda8HalfB, CudaD}},
      {"CUDA", {8, 16, 8}, dtypes::float32, L{32, 16, 8, 8, 4, 2, 4, false, Cuda8Tf32A, Cuda8Tf32B, CudaD}},
      {"INTEL", {8, 8, 16}, {}, L{8, 8, 8, 16, 16, 16, 8, false, IntelA, IntelB, IntelD}},
      {"CPU", {16, 16, 1}, {}, L{1, 16, 16, 1, 16, 16, 256, false, AmxA, AmxB, AmxD}},
  }};
  return kModels;
}

// The fields of a WMMA arg this file reads, checked.
struct WmmaArg {
  std::string_view name, device;
  std::array<int64_t, 3> dims;
  DType dtype_in;
  int64_t threads;
};

std::string Describe(const WmmaArg& w) {
  return absl::StrCat(std::string(w.name), " on ", std::string(w.device), " dims (", w.dims[0], ", ", w.dims[1],
                      ", ", w.dims[2], ")");
}

absl::Status NotWmma(const Arg& arg, std::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(
      "not a WMMA arg (name, dims, dtype_in, dtype_out, device, threads, upcast_axes, reduce_axes): ",
      std::string(what), " in ", arg.repr()));
}

std::optional<int64_t> SmallInt(const Arg& a) {
  if (!a.is_number() || !a.number().is_int()) return std::nullopt;
  i128 v = a.number().to_int();
  if (v < 0 || v > (i128{1} << 30)) return std::nullopt;
  return static_cast<int64_t>(v);
}

absl::StatusOr<DType> DTypeRepr(const Arg& arg, const Arg& a) {
  DType d;
  if (!a.is_string() || a.str().rfind("dtypes.", 0) != 0 || !dtypes::FromName(a.str().substr(7), &d)) {
    return NotWmma(arg, absl::StrCat("dtype ", a.repr(), " is not a dtype repr"));
  }
  return d;
}

absl::StatusOr<WmmaArg> ParseWmmaArg(const Arg& arg) {
  if (!arg.is_tuple() || arg.size() != 8) return NotWmma(arg, "not a tuple of 8");
  if (!arg[0].is_string() || !arg[4].is_string()) return NotWmma(arg, "name or device is not a string");
  WmmaArg w{.name = arg[0].str(), .device = arg[4].str()};
  if (!arg[1].is_tuple() || arg[1].size() != 3) return NotWmma(arg, "dims is not a tuple of 3");
  for (size_t i = 0; i < 3; ++i) {
    std::optional<int64_t> d = SmallInt(arg[1][i]);
    if (!d) return NotWmma(arg, "dims are not small non-negative ints");
    w.dims[i] = *d;
  }
  ASSIGN_OR_RETURN(w.dtype_in, DTypeRepr(arg, arg[2]));
  ASSIGN_OR_RETURN(DType dtype_out, DTypeRepr(arg, arg[3]));
  (void)dtype_out;  // checked, unused: the interpreter rounds to the uop's dtype
  std::optional<int64_t> threads = SmallInt(arg[5]);
  if (!threads) return NotWmma(arg, "threads is not a small non-negative int");
  w.threads = *threads;
  return w;
}

std::string KnownDevices() {
  std::vector<std::string> names;
  for (const Model& m : Models())
    if (names.empty() || names.back() != m.device) names.emplace_back(m.device);
  return absl::StrJoin(names, ", ");
}

std::string KnownDims(std::string_view device) {
  std::vector<std::string> dims;
  for (const Model& m : Models())
    if (m.device == device) dims.push_back(absl::StrCat("(", absl::StrJoin(m.dims, ", "), ")"));
  return absl::StrJoin(dims, " ");
}

// Picks the model as the reference's if-chain does: device, dims, then (AMD) the warp and A's
// element count, (CUDA m16n8k8) the input dtype. Error messages are built only on error: this
// runs once per WMMA per workgroup.
absl::StatusOr<WmmaLayout> SelectLayout(const WmmaArg& w, size_t a_elements) {
  std::array<const Model*, kNumModels> cands{};
  size_t n_cands = 0;
  bool device_known = false, dims_known = false, threads_known = false;
  for (const Model& m : Models()) {
    if (m.device != w.device) continue;
    device_known = true;
    if (m.dims[0] != w.dims[0] || m.dims[1] != w.dims[1] || m.dims[2] != w.dims[2]) continue;
    dims_known = true;
    if (m.layout.threads != w.threads) continue;
    threads_known = true;
    if (!m.dtype_in || *m.dtype_in == w.dtype_in) cands[n_cands++] = &m;
  }
  if (!device_known) {
    return absl::InvalidArgumentError(absl::StrCat(Describe(w), ": no WMMA model for device '", std::string(w.device),
                                                   "' (known: ", KnownDevices(), ")"));
  }
  if (!dims_known) {
    return absl::InvalidArgumentError(
        absl::StrCat(Describe(w), ": unknown tensor core dims (known: ", KnownDims(w.device), ")"));
  }
  if (!threads_known) {
    return absl::InvalidArgumentError(absl::StrCat(Describe(w), ": no model with ", w.threads, " threads"));
  }
  if (n_cands == 0) {
    return absl::InvalidArgumentError(absl::StrCat(Describe(w), ": no model for input dtype ", w.dtype_in.repr()));
  }
  if (n_cands == 1) return cands[0]->layout;  // CheckShape reports a wrong element count
  for (size_t i = 0; i < n_cands; ++i)
    if (static_cast<size_t>(cands[i]->layout.num_a) == a_elements) return cands[i]->layout;
  std::vector<int> counts;
  for (size_t i = 0; i < n_cands; ++i) counts.push_back(cands[i]->layout.num_a);
  return absl::InvalidArgumentError(absl::StrCat(Describe(w), ": A must have ", absl::StrJoin(counts, " or "),
                                                 " elements per thread, it has ", a_elements));
}

absl::Status CheckShape(const WmmaArg& w, const WmmaLayout& l, const WmmaFragment& a, const WmmaFragment& b,
                        const WmmaFragment& c) {
  const std::array<std::pair<const WmmaFragment*, int>, 3> ops = {{{&a, l.num_a}, {&b, l.num_b}, {&c, l.num_c}}};
  constexpr std::array<char, 3> kNames = {'A', 'B', 'C'};
  for (size_t i = 0; i < ops.size(); ++i) {
    if (ops[i].first->size() != static_cast<size_t>(ops[i].second)) {
      return absl::InvalidArgumentError(absl::StrCat(Describe(w), ": ", std::string(1, kNames[i]), " must have ",
                                                     ops[i].second, " elements per thread, it has ",
                                                     ops[i].first->size()));
    }
  }
  const size_t warp = c[0].size();
  for (size_t i = 0; i < ops.size(); ++i) {
    for (size_t e = 0; e < ops[i].first->size(); ++e) {
      if ((*ops[i].first)[e].size() != warp) {
        return absl::InvalidArgumentError(absl::StrCat(Describe(w), ": lanes of different lengths: ",
                                                       std::string(1, kNames[i]), " element ", e, " has ",
                                                       (*ops[i].first)[e].size(), " threads, C element 0 has ", warp));
      }
    }
  }
  if (warp == 0 || warp % static_cast<size_t>(l.threads) != 0) {
    return absl::InvalidArgumentError(absl::StrCat(Describe(w), ": a workgroup of ", warp,
                                                   " threads is not a multiple of the warp of ", l.threads));
  }
  return absl::OkStatus();
}

bool SameValue(double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); }

// RDNA3 reads A and B from lanes 0-15; the hardware wants lanes 16-31 to hold the same.
absl::Status CheckDuplicated(const WmmaArg& w, const WmmaLayout& l, const WmmaFragment& x, char name) {
  const size_t half = static_cast<size_t>(l.threads) / 2;
  for (size_t goff = 0; goff < x[0].size(); goff += l.threads) {
    for (size_t e = 0; e < x.size(); ++e) {
      for (size_t lane = goff; lane < goff + half; ++lane) {
        if (!SameValue(x[e][lane], x[e][lane + half])) {
          return absl::InvalidArgumentError(absl::StrCat(
              Describe(w), ": warp elements not duplicated across lanes: ", std::string(1, name), " element ", e,
              " is ", x[e][lane], " on thread ", lane, " but ", x[e][lane + half], " on thread ", lane + half));
        }
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<WmmaLayout> WmmaLayoutFor(const Arg& wmma_arg, size_t a_elements) {
  ASSIGN_OR_RETURN(WmmaArg w, ParseWmmaArg(wmma_arg));
  return SelectLayout(w, a_elements);
}

absl::StatusOr<WmmaFragment> EmulateWmma(const Arg& wmma_arg, const WmmaFragment& a, const WmmaFragment& b,
                                         const WmmaFragment& c) {
  ASSIGN_OR_RETURN(WmmaArg w, ParseWmmaArg(wmma_arg));
  ASSIGN_OR_RETURN(WmmaLayout l, SelectLayout(w, a.size()));
  RETURN_IF_ERROR(CheckShape(w, l, a, b, c));
  if (l.duplicated_half_warps) {
    RETURN_IF_ERROR(CheckDuplicated(w, l, a, 'A'));
    RETURN_IF_ERROR(CheckDuplicated(w, l, b, 'B'));
  }
  // generic_wmma_helper: every `threads` lanes are one MMA; D = C + sum over K, summed first
  WmmaFragment d = c;
  const size_t warp = c[0].size();
  for (size_t goff = 0; goff < warp; goff += l.threads) {
    for (int lane = 0; lane < l.threads; ++lane) {
      for (int elem = 0; elem < l.num_c; ++elem) {
        const WmmaEntry at = l.D(lane, elem);
        double sum = 0;
        for (int kk = 0; kk < l.k; ++kk) {
          const WmmaSlot sa = l.A(at.row, kk), sb = l.B(kk, at.col);
          sum += a[sa.elem][goff + sa.lane] * b[sb.elem][goff + sb.lane];
        }
        d[elem][goff + lane] += sum;
      }
    }
  }
  return d;
}

}  // namespace tg
