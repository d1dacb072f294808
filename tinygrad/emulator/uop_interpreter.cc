// File: tinygrad/emulator/uop_interpreter.cc
// Port of tinygrad/runtime/ops_python.py PythonProgram.__call__: the run step of the uop
// interpreter, over a program DecodeProgram checked (decode_program.cc).
#include "tinygrad/emulator/uop_interpreter.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/emulator/decoded_program.h"
#include "tinygrad/emulator/scalar_storage.h"
#include "tinygrad/emulator/wmma_models.h"
#include "tinygrad/uop/exec_alu.h"

namespace tg {
namespace {

using emulator_internal::DecodedProgram;
using emulator_internal::Exec;
using emulator_internal::Inst;
using emulator_internal::UopName;

// Values and the bytes they need: the run refuses more than this.
constexpr int64_t kMaxRunBytes = int64_t{1} << 31;

// One thread's pointer: which memory (Runner::memory_), the element offset, and whether the
// access happens (an INDEX's gate).
struct PointerLane {
  int32_t memory = 0;
  bool gate = true;
  int64_t offset = 0;
};

// A buffer a pointer can address.
struct Memory {
  std::byte* data = nullptr;
  int64_t elements = 0;
  int32_t itemsize = 1;
  DType scalar;
  int32_t uop = -1;  // its DEFINE_*
};

// An int value as an element offset; values past int64 saturate (and fail the bounds check).
int64_t AsOffset(const ConstValue& v) {
  i128 x = v.to_int();
  if (x > std::numeric_limits<int64_t>::max()) return std::numeric_limits<int64_t>::max();
  if (x < std::numeric_limits<int64_t>::min()) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(x);
}

// tinygrad's CAST of a value: truncate(as_const(x, dtype)).
bool CastValue(const ConstValue& v, DType to, ConstValue* out) {
  if (dtypes::is_int(to) && v.is_float() && !std::isfinite(v.to_float())) return false;  // int(nan) raises
  *out = Truncate(dtypes::as_const(v, to), to);
  return true;
}

class Runner {
 public:
  Runner(const DecodedProgram& p, std::span<const std::span<std::byte>> bufs, std::span<const int64_t> vals,
         const LaunchDims& global_size, const LaunchDims& local_size, std::chrono::steady_clock::time_point stop_at)
      : p_(p), bufs_(bufs), vals_in_(vals), global_(global_size), local_(local_size), stop_at_(stop_at) {}

  absl::Status Run() {
    RETURN_IF_ERROR(Setup());
    for (int64_t z = 0; z < global_[2]; ++z) {
      for (int64_t y = 0; y < global_[1]; ++y) {
        for (int64_t x = 0; x < global_[0]; ++x) {
          gid_ = {x, y, z};
          RETURN_IF_ERROR(CheckStop());
          RETURN_IF_ERROR(RunWorkgroup());
        }
      }
    }
    return absl::OkStatus();
  }

 private:
  ConstValue& V(int32_t row, int t) { return values_[static_cast<size_t>(row) * warp_ + t]; }
  PointerLane& P(int32_t row, int t) { return pointers_[static_cast<size_t>(row) * warp_ + t]; }
  const Inst& Src(const Inst& in, int k) const { return p_.insts[p_.srcs[in.srcs_begin + k]]; }

  absl::Status Setup() {
    if (bufs_.size() != p_.buffer_scalars.size())
      return absl::InvalidArgumentError(absl::StrCat("the program takes ", p_.buffer_scalars.size(), " buffers, got ", bufs_.size()));
    if (vals_in_.size() != p_.var_dtypes.size())
      return absl::InvalidArgumentError(absl::StrCat("the program takes ", p_.var_dtypes.size(), " variable values, got ", vals_in_.size()));
    int64_t threads = 1;
    for (int d = 0; d < 3; ++d) {
      if (global_[d] < 1 || local_[d] < 1 || global_[d] > INT32_MAX || local_[d] > UopInterpreter::kMaxThreads)
        return absl::InvalidArgumentError(absl::StrCat("launch dims global (", global_[0], ", ", global_[1], ", ", global_[2],
                                                       ") local (", local_[0], ", ", local_[1], ", ", local_[2], ")"));
      threads *= local_[d];
    }
    if (threads > UopInterpreter::kMaxThreads)
      return absl::InvalidArgumentError(absl::StrCat(threads, " threads per workgroup, the emulator runs at most ", UopInterpreter::kMaxThreads));
    warp_ = static_cast<int>(threads);
    thread_ids_.resize(static_cast<size_t>(warp_));
    for (int t = 0; t < warp_; ++t) {  // thread t = (lz * ly_size + ly) * lx_size + lx, as the reference's warp
      thread_ids_[t] = {t % local_[0], (t / local_[0]) % local_[1], t / (local_[0] * local_[1])};
    }

    // Memory: the buffers, then the workgroup's locals, then each thread's registers.
    int64_t bytes = (static_cast<int64_t>(p_.value_rows) * sizeof(ConstValue) + p_.pointer_rows * sizeof(PointerLane)) * warp_;
    for (const auto& m : p_.locals) bytes += m.elements * m.scalar.itemsize();
    for (const auto& m : p_.regs) bytes += m.elements * m.scalar.itemsize() * warp_;
    if (bytes > kMaxRunBytes)
      return absl::ResourceExhaustedError(absl::StrCat("the run would hold ", bytes, " bytes of values and memory"));
    for (size_t b = 0; b < bufs_.size(); ++b) {
      DType s = p_.buffer_scalars[b];
      memory_.push_back({.data = bufs_[b].data(), .elements = static_cast<int64_t>(bufs_[b].size() / s.itemsize()),
                         .itemsize = s.itemsize(), .scalar = s, .uop = p_.buffer_uops[b]});
    }
    local_base_ = static_cast<int32_t>(memory_.size());
    scratch_.resize(p_.locals.size() + p_.regs.size() * warp_);
    size_t k = 0;
    for (const auto& m : p_.locals) AddScratch(m, k++);
    reg_base_ = static_cast<int32_t>(memory_.size());
    for (const auto& m : p_.regs)
      for (int t = 0; t < warp_; ++t) AddScratch(m, k++);

    values_.resize(static_cast<size_t>(p_.value_rows) * warp_);
    pointers_.resize(static_cast<size_t>(p_.pointer_rows) * warp_);
    for (const Inst& in : p_.insts) {  // every value starts as a zero of its dtype
      if (in.count == 0) continue;
      ConstValue zero = Truncate(dtypes::as_const(ConstValue(0), in.scalar), in.scalar);
      std::fill_n(values_.begin() + static_cast<ptrdiff_t>(in.row) * warp_, static_cast<ptrdiff_t>(in.count) * warp_, zero);
    }
    for (size_t v = 0; v < vals_in_.size(); ++v) var_values_.push_back(Truncate(ConstValue(vals_in_[v]), p_.var_dtypes[v]));
    range_active_.assign(p_.insts.size(), 0);
    mask_.assign(static_cast<size_t>(p_.max_if_depth + 1) * warp_, 1);
    return absl::OkStatus();
  }

  void AddScratch(const emulator_internal::MemoryDecl& m, size_t k) {
    scratch_[k].resize(static_cast<size_t>(m.elements * m.scalar.itemsize()));
    memory_.push_back({.data = scratch_[k].data(), .elements = m.elements, .itemsize = m.scalar.itemsize(),
                       .scalar = m.scalar, .uop = m.uop});
  }

  // "uop 12 (Ops.LOAD) in workgroup (0, 3, 0), thread (5, 0, 0): why"
  absl::Status Fail(int32_t i, int t, const std::string& why) const {
    std::string where = absl::StrCat(UopName(i, p_.insts[i].op), " in workgroup (", gid_[0], ", ", gid_[1], ", ", gid_[2], ")");
    if (t >= 0) absl::StrAppend(&where, ", thread (", thread_ids_[t][0], ", ", thread_ids_[t][1], ", ", thread_ids_[t][2], ")");
    return absl::InvalidArgumentError(absl::StrCat(where, ": ", why));
  }

  std::string MemoryName(const Memory& m) const {
    const Inst& def = p_.insts[m.uop];
    if (def.exec == Exec::kDefineGlobal) return absl::StrCat("buffer ", def.aux, " (DEFINE_GLOBAL slot ", p_.buffer_slots[def.aux], ", uop ", m.uop, ")");
    return absl::StrCat(def.exec == Exec::kDefineLocal ? "local memory" : "registers", " of uop ", m.uop);
  }

  // The address of element `element` past pointer lane `p`, or an error for one outside its
  // memory (the reference's IndexError).
  absl::StatusOr<std::byte*> Address(int32_t i, int t, const PointerLane& p, int64_t element, const char* what) const {
    const Memory& m = memory_[p.memory];
    const i128 at = i128{p.offset} + element;
    if (at < 0 || at >= m.elements) {
      return Fail(i, t, absl::StrCat(what, " out of bounds of ", MemoryName(m), ": element ", I128ToString(at),
                                     ", size ", m.elements));
    }
    return m.data + static_cast<int64_t>(at) * m.itemsize;
  }

  void Zero(int32_t memory) {
    const Memory& m = memory_[memory];
    std::memset(m.data, 0, static_cast<size_t>(m.elements * m.itemsize));
  }

  // DeadlineExceeded once the clock passes stop_at_ (read only when there is a deadline).
  absl::Status CheckStop() const {
    if (stop_at_ == std::chrono::steady_clock::time_point::max() || std::chrono::steady_clock::now() < stop_at_)
      return absl::OkStatus();
    return absl::DeadlineExceededError("the emulated run was stopped at its deadline");
  }

  absl::Status RunWorkgroup() {
    std::fill(range_active_.begin(), range_active_.end(), 0);
    depth_ = 0;
    const auto n = static_cast<int32_t>(p_.insts.size());
    int32_t i = 0;
    while (i < n) {
      const Inst& in = p_.insts[i];
      switch (in.exec) {
        case Exec::kRange: {
          ASSIGN_OR_RETURN(bool enter, StepRange(i, in));
          if (!enter) {
            i = static_cast<int32_t>(in.aux) + 1;
            continue;
          }
          break;
        }
        case Exec::kEnd:
          RETURN_IF_ERROR(CheckStop());
          i = static_cast<int32_t>(in.aux);
          continue;
        default:
          RETURN_IF_ERROR(Execute(i, in));
      }
      ++i;
    }
    return absl::OkStatus();
  }

  // A RANGE: starts at 0 or counts up; false when the loop is done (the reference compares
  // thread 0's counter with thread 0's bound).
  absl::StatusOr<bool> StepRange(int32_t i, const Inst& in) {
    const int32_t bound_row = Src(in, 0).row;
    if (!range_active_[i]) {
      for (int t = 0; t < warp_; ++t) {
        if (!NumEq(V(bound_row, t), V(bound_row, 0)))
          return Fail(i, t, absl::StrCat("the loop bound ", V(bound_row, t).repr(), " differs from thread 0's ", V(bound_row, 0).repr()));
        V(in.row, t) = ConstValue(0);
      }
      range_active_[i] = 1;
    } else {
      ConstValue next(V(in.row, 0).to_int() + 1);
      for (int t = 0; t < warp_; ++t) V(in.row, t) = next;
    }
    if (!NumLess(V(in.row, 0), V(bound_row, 0))) {
      range_active_[i] = 0;
      return false;
    }
    return true;
  }

  absl::Status Execute(int32_t i, const Inst& in) {
    switch (in.exec) {
      case Exec::kNop:
        return absl::OkStatus();
      case Exec::kDefineGlobal:
        for (int t = 0; t < warp_; ++t) P(in.row, t) = {.memory = static_cast<int32_t>(in.aux)};
        return absl::OkStatus();
      case Exec::kDefineLocal:  // fresh zeroed memory each time, as the reference's bytearray
        Zero(local_base_ + static_cast<int32_t>(in.aux));
        for (int t = 0; t < warp_; ++t) P(in.row, t) = {.memory = local_base_ + static_cast<int32_t>(in.aux)};
        return absl::OkStatus();
      case Exec::kDefineReg:
        for (int t = 0; t < warp_; ++t) {
          const int32_t m = reg_base_ + static_cast<int32_t>(in.aux) * warp_ + t;
          Zero(m);
          P(in.row, t) = {.memory = m};
        }
        return absl::OkStatus();
      case Exec::kDefineVar:
        for (int t = 0; t < warp_; ++t) V(in.row, t) = var_values_[in.aux];
        return absl::OkStatus();
      case Exec::kSpecial: {
        const int dim = static_cast<int>(in.aux % 3);
        for (int t = 0; t < warp_; ++t) V(in.row, t) = ConstValue(in.aux >= 3 ? thread_ids_[t][dim] : gid_[dim]);
        return absl::OkStatus();
      }
      case Exec::kConst:
        for (int e = 0; e < in.count; ++e)
          for (int t = 0; t < warp_; ++t) V(in.row + e, t) = p_.consts[in.aux + e];
        return absl::OkStatus();
      case Exec::kIndex: {
        const int32_t buf = Src(in, 0).row, idx = Src(in, 1).row, gate = in.num_srcs == 3 ? Src(in, 2).row : -1;
        for (int t = 0; t < warp_; ++t) {
          const PointerLane& b = P(buf, t);
          P(in.row, t) = {.memory = b.memory,
                          .gate = b.gate && (gate < 0 || V(gate, t).to_bool()),
                          .offset = AsOffset(ConstValue(i128{b.offset} + V(idx, t).to_int()))};
        }
        return absl::OkStatus();
      }
      case Exec::kPtrCopy:
        std::copy_n(&P(Src(in, 0).row, 0), warp_, &P(in.row, 0));
        return absl::OkStatus();
      case Exec::kValueCopy:
        std::copy_n(&V(Src(in, 0).row, 0), static_cast<size_t>(in.count) * warp_, &V(in.row, 0));
        return absl::OkStatus();
      case Exec::kLoad:
        return Load(i, in);
      case Exec::kStore:
        return Store(i, in);
      case Exec::kIf: {
        const int32_t cond = Src(in, 0).row;
        const uint8_t* outer = &mask_[static_cast<size_t>(depth_) * warp_];
        uint8_t* inner = &mask_[static_cast<size_t>(depth_ + 1) * warp_];
        for (int t = 0; t < warp_; ++t) inner[t] = outer[t] && V(cond, t).to_bool();
        ++depth_;
        return absl::OkStatus();
      }
      case Exec::kEndIf:
        --depth_;
        return absl::OkStatus();
      case Exec::kCast: {
        const int32_t src = Src(in, 0).row;
        for (int e = 0; e < in.count; ++e) {
          for (int t = 0; t < warp_; ++t) {
            if (!CastValue(V(src + e, t), in.scalar, &V(in.row + e, t)))
              return Fail(i, t, absl::StrCat("cast of ", V(src + e, t).repr(), " to an int dtype"));
          }
        }
        return absl::OkStatus();
      }
      case Exec::kBitcast:
        return Bitcast(in);
      case Exec::kGep: {
        const int32_t src = Src(in, 0).row;
        for (int e = 0; e < in.count; ++e) std::copy_n(&V(src + p_.lanes[in.aux + e], 0), warp_, &V(in.row + e, 0));
        return absl::OkStatus();
      }
      case Exec::kVectorize: {
        int32_t e = 0;
        for (int k = 0; k < in.num_srcs; ++k) {
          const Inst& s = Src(in, k);
          std::copy_n(&V(s.row, 0), static_cast<size_t>(s.count) * warp_, &V(in.row + e, 0));
          e += s.count;
        }
        return absl::OkStatus();
      }
      case Exec::kAlu:
        return Alu(i, in);
      case Exec::kWmma:
        return Wmma(i, in);
      case Exec::kRange:
      case Exec::kEnd:
        break;
    }
    return Fail(i, -1, "not executable here");
  }

  absl::Status Load(int32_t i, const Inst& in) {
    const int32_t ptr = Src(in, 0).row;
    const Inst* alt = in.num_srcs == 2 ? &Src(in, 1) : nullptr;
    for (int e = 0; e < in.count; ++e) {
      for (int t = 0; t < warp_; ++t) {
        const PointerLane& p = P(ptr, t);
        if (!p.gate) {
          V(in.row + e, t) = alt ? V(alt->row + (alt->count > 1 ? e : 0), t)
                                 : Truncate(dtypes::as_const(ConstValue(0), in.scalar), in.scalar);
          continue;
        }
        ASSIGN_OR_RETURN(const std::byte* at, Address(i, t, p, e, "load"));
        V(in.row + e, t) = LoadScalar(at, in.scalar);
      }
    }
    return absl::OkStatus();
  }

  absl::Status Store(int32_t i, const Inst& in) {
    const Inst& value = Src(in, 1);
    const int32_t ptr = Src(in, 0).row;
    const uint8_t* active = &mask_[static_cast<size_t>(depth_) * warp_];
    for (int e = 0; e < value.count; ++e) {
      for (int t = 0; t < warp_; ++t) {
        const PointerLane& p = P(ptr, t);
        if (!p.gate || !active[t]) continue;
        ASSIGN_OR_RETURN(std::byte* at, Address(i, t, p, e, "store"));
        StoreScalar(V(value.row + e, t), value.scalar, at);
      }
    }
    return absl::OkStatus();
  }

  // Through the storage bits: the source's elements packed, then read back as the new dtype.
  absl::Status Bitcast(const Inst& in) {
    const Inst& src = Src(in, 0);
    const int from = src.scalar.itemsize(), to = in.scalar.itemsize();
    bits_.resize(static_cast<size_t>(src.count * from));
    for (int t = 0; t < warp_; ++t) {
      for (int e = 0; e < src.count; ++e) StoreScalar(V(src.row + e, t), src.scalar, bits_.data() + e * from);
      for (int e = 0; e < in.count; ++e) V(in.row + e, t) = LoadScalar(bits_.data() + e * to, in.scalar);
    }
    return absl::OkStatus();
  }

  // Python raises (or the result does not fit the dtype) for these operands; ExecAlu would abort.
  std::string AluOperandError(Ops op, DType scalar, std::span<const ConstValue> x) const {
    switch (op) {
      case Ops::IDIV:
      case Ops::MOD:
        if (x[1].to_int() == 0) return "integer division by zero";
        break;
      case Ops::SHL:
      case Ops::SHR:
        if (x[1].to_int() < 0) return absl::StrCat("negative shift count ", x[1].repr());
        break;
      case Ops::EXP2:
        if (dtypes::is_int(scalar) && x[0].to_int() < 0) return absl::StrCat("2 ** ", x[0].repr(), " is not an int");
        break;
      case Ops::POW:
        if (dtypes::is_int(scalar) && x[1].to_int() < 0) return absl::StrCat(x[0].repr(), " ** ", x[1].repr(), " is not an int");
        break;
      default:
        break;
    }
    return {};
  }

  absl::Status Alu(int32_t i, const Inst& in) {
    const int n = in.num_srcs;
    const bool check = in.op == Ops::IDIV || in.op == Ops::MOD || in.op == Ops::SHL || in.op == Ops::SHR ||
                       ((in.op == Ops::EXP2 || in.op == Ops::POW) && dtypes::is_int(in.scalar));
    std::array<int32_t, 3> rows{};
    for (int k = 0; k < n; ++k) rows[k] = Src(in, k).row;
    std::array<ConstValue, 3> x;
    for (int e = 0; e < in.count; ++e) {
      for (int t = 0; t < warp_; ++t) {
        for (int k = 0; k < n; ++k) x[k] = V(rows[k] + e, t);
        std::span<const ConstValue> operands(x.data(), static_cast<size_t>(n));
        if (check) {
          if (std::string why = AluOperandError(in.op, in.scalar, operands); !why.empty()) return Fail(i, t, why);
        }
        V(in.row + e, t) = ExecAlu(in.op, in.scalar, operands);
      }
    }
    return absl::OkStatus();
  }

  // The three operands as the WMMA models take them (fragment[element][thread], doubles), the
  // result back as values: floats unrounded, as the reference keeps them until a store or cast.
  absl::Status Wmma(int32_t i, const Inst& in) {
    for (int k = 0; k < 3; ++k) {
      const Inst& s = Src(in, k);
      wmma_in_[k].resize(static_cast<size_t>(s.count));
      for (int e = 0; e < s.count; ++e) {
        wmma_in_[k][e].resize(static_cast<size_t>(warp_));
        for (int t = 0; t < warp_; ++t) wmma_in_[k][e][t] = V(s.row + e, t).to_float();
      }
    }
    absl::StatusOr<WmmaFragment> d = EmulateWmma(p_.wmma_args[in.aux], wmma_in_[0], wmma_in_[1], wmma_in_[2]);
    if (!d.ok()) return Fail(i, -1, std::string(d.status().message()));
    const bool is_int = dtypes::is_int(in.scalar);
    for (int e = 0; e < in.count; ++e) {
      for (int t = 0; t < warp_; ++t) {
        const double x = (*d)[e][t];
        if (!is_int) {
          V(in.row + e, t) = ConstValue(x);
        } else if (std::isfinite(x)) {
          V(in.row + e, t) = Truncate(ConstValue(static_cast<i128>(x)), in.scalar);
        } else {
          return Fail(i, t, absl::StrCat("an int WMMA result of ", x));
        }
      }
    }
    return absl::OkStatus();
  }

  const DecodedProgram& p_;
  std::span<const std::span<std::byte>> bufs_;
  std::span<const int64_t> vals_in_;
  LaunchDims global_, local_;
  std::chrono::steady_clock::time_point stop_at_;
  int warp_ = 1;
  std::vector<std::array<int64_t, 3>> thread_ids_;  // (lidx0, lidx1, lidx2) of each thread
  std::array<int64_t, 3> gid_{};                     // (gidx0, gidx1, gidx2) of the workgroup
  std::vector<Memory> memory_;
  std::vector<std::vector<std::byte>> scratch_;  // locals, then registers
  int32_t local_base_ = 0, reg_base_ = 0;
  std::vector<ConstValue> values_;
  std::vector<PointerLane> pointers_;
  std::vector<ConstValue> var_values_;
  std::vector<uint8_t> range_active_;
  std::vector<uint8_t> mask_;  // IF nesting: a row of active flags per depth
  int32_t depth_ = 0;
  std::vector<std::byte> bits_;
  std::array<WmmaFragment, 3> wmma_in_;
};

}  // namespace

absl::StatusOr<UopInterpreter> UopInterpreter::Load(std::span<const UOp> uops) {
  ASSIGN_OR_RETURN(emulator_internal::DecodedProgram p, emulator_internal::DecodeProgram(uops));
  return UopInterpreter(std::make_shared<const emulator_internal::DecodedProgram>(std::move(p)));
}

absl::Status UopInterpreter::Run(std::span<const std::span<std::byte>> bufs, std::span<const int64_t> vals,
                                 const LaunchDims& global_size, const LaunchDims& local_size,
                                 std::chrono::steady_clock::time_point stop_at) const {
  return Runner(*program_, bufs, vals, global_size, local_size, stop_at).Run();
}

size_t UopInterpreter::num_buffers() const { return program_->buffer_scalars.size(); }
size_t UopInterpreter::num_vars() const { return program_->var_dtypes.size(); }

}  // namespace tg
