// File: tinygrad/emulator/decode_program.cc
// The load step of the uop interpreter: checks a linear program against what Run can execute
// and decodes it (see decoded_program.h). Everything the reference's PythonProgram would
// trip over at run time (an unknown op, a source that is not there yet, a dtype an op cannot
// take) is found here and reported, with the uop's index, instead of aborting later.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/emulator/decoded_program.h"
#include "tinygrad/emulator/scalar_storage.h"
#include "tinygrad/emulator/wmma_models.h"

namespace tg::emulator_internal {
namespace {

// Sources the reference drops before it looks at an op's inputs: ops without a value.
constexpr OpSet kVoidOps{Ops::END,  Ops::BARRIER, Ops::IF,    Ops::ENDIF,
                         Ops::SINK, Ops::NOOP,    Ops::GROUP, Ops::STORE};
// The ops python_alu implements (every ALU op but THREEFRY).
constexpr OpSet kRunnableAlu{Ops::EXP2, Ops::LOG2,  Ops::SIN,   Ops::SQRT,  Ops::RECIPROCAL, Ops::NEG,
                             Ops::TRUNC, Ops::ADD,  Ops::MUL,   Ops::SHL,   Ops::SHR,        Ops::IDIV,
                             Ops::MAX,   Ops::MOD,  Ops::CMPLT, Ops::CMPNE, Ops::CMPEQ,      Ops::XOR,
                             Ops::OR,    Ops::AND,  Ops::SUB,   Ops::FDIV,  Ops::POW,        Ops::WHERE,
                             Ops::MULACC};
// Ops whose result is a float whatever the operands: an int dtype cannot hold it.
constexpr OpSet kFloatOnlyAlu{Ops::LOG2, Ops::SQRT, Ops::RECIPROCAL, Ops::SIN, Ops::FDIV};
// Value and pointer rows (each a number per thread) a program may have.
constexpr int32_t kMaxRows = int32_t{1} << 24;
// A DEFINE_LOCAL/DEFINE_REG larger than this is a broken program, not one to allocate.
constexpr int64_t kMaxMemoryElements = int64_t{1} << 28;

std::string DTypeText(DType d) {
  std::ostringstream os;
  os << d;
  return os.str();
}

bool IsIntScalar(DType d) { return !d.is_ptr() && d.count() == 1 && dtypes::is_int(d) && d != dtypes::index; }

class Decoder {
 public:
  explicit Decoder(std::span<const UOp> uops) : uops_(uops) {}

  absl::StatusOr<DecodedProgram> Decode() {
    if (uops_.empty() || uops_.back().op() != Ops::SINK)
      return absl::InvalidArgumentError("a linear program ends with its SINK");
    if (uops_.size() > static_cast<size_t>(INT32_MAX / 2))
      return absl::InvalidArgumentError("a linear program of too many uops");
    RETURN_IF_ERROR(IndexUops());
    NumberArguments();
    p_.insts.resize(uops_.size());
    for (size_t i = 0; i < uops_.size(); ++i) {
      RETURN_IF_ERROR(DecodeOne(static_cast<int32_t>(i)));
      if (p_.value_rows > kMaxRows || p_.pointer_rows > kMaxRows)
        return Unsupported(static_cast<int32_t>(i), "a program with too many values");
    }
    for (int32_t b : open_blocks_) {
      if (p_.insts[b].exec == Exec::kRange) return Bad(b, "a RANGE without its END");
    }
    if (!open_blocks_.empty()) return Bad(open_blocks_.back(), "an IF without its ENDIF");
    return std::move(p_);
  }

 private:
  absl::Status Bad(int32_t i, std::string_view why) const {
    return absl::InvalidArgumentError(absl::StrCat(UopName(i, uops_[i].op()), ": ", std::string(why)));
  }
  absl::Status Unsupported(int32_t i, std::string_view why) const {
    return absl::UnimplementedError(absl::StrCat(UopName(i, uops_[i].op()), ": ", std::string(why)));
  }

  absl::Status IndexUops() {
    for (size_t i = 0; i < uops_.size(); ++i) {
      if (!uops_[i]) return absl::InvalidArgumentError(absl::StrCat("uop ", i, " is null"));
      if (!index_.emplace(uops_[i].id(), static_cast<int32_t>(i)).second)
        return Bad(static_cast<int32_t>(i), "the same uop twice in the program");
    }
    return absl::OkStatus();
  }

  // Buffer arguments come in sorted slot order, variables in name order (ProgramSpecFromUops).
  void NumberArguments() {
    std::vector<int64_t> slots;
    std::vector<std::pair<std::string, int32_t>> vars;
    for (size_t i = 0; i < uops_.size(); ++i) {
      const UOp& u = uops_[i];
      if (u.op() == Ops::DEFINE_GLOBAL && u.arg().is_number() && u.arg().number().is_int())
        slots.push_back(static_cast<int64_t>(u.arg().number().to_int()));
      if (u.op() == Ops::DEFINE_VAR && u.arg().is_tuple() && u.arg().size() >= 1 && u.arg()[0].is_string())
        vars.emplace_back(u.arg()[0].str(), static_cast<int32_t>(i));
    }
    std::sort(slots.begin(), slots.end());
    slots.erase(std::unique(slots.begin(), slots.end()), slots.end());
    p_.buffer_slots = slots;
    p_.buffer_scalars.assign(slots.size(), dtypes::void_);
    p_.buffer_uops.assign(slots.size(), -1);
    std::stable_sort(vars.begin(), vars.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (size_t k = 0; k < vars.size(); ++k) var_position_[vars[k].second] = static_cast<int64_t>(k);
    p_.var_dtypes.assign(vars.size(), dtypes::int32);
  }

  const Inst& Src(const Inst& in, int k) const { return p_.insts[p_.srcs[in.srcs_begin + k]]; }
  bool IsPointer(const Inst& in) const { return in.row >= 0 && in.count == 0; }
  bool IsValue(const Inst& in) const { return in.count > 0; }

  // The value sources of uop i, void ones dropped; every source must come earlier.
  absl::Status CollectSources(int32_t i, Inst& in) {
    in.srcs_begin = static_cast<int32_t>(p_.srcs.size());
    if (uops_[i].op() == Ops::SPECIAL) return absl::OkStatus();  // its size comes from the launch
    for (const UOp& s : uops_[i].src()) {
      auto it = index_.find(s.id());
      if (it == index_.end() || it->second >= i)
        return Bad(i, absl::StrCat("source Ops.", std::string(OpName(s.op())), " is not earlier in the program"));
      if (kVoidOps.contains(s.op())) continue;
      p_.srcs.push_back(it->second);
    }
    in.num_srcs = static_cast<int32_t>(p_.srcs.size()) - in.srcs_begin;
    return absl::OkStatus();
  }

  absl::Status NeedSources(int32_t i, const Inst& in, int lo, int hi) const {
    if (in.num_srcs < lo || in.num_srcs > hi)
      return Bad(i, absl::StrCat(in.num_srcs, " value sources, expected ", lo == hi ? absl::StrCat(lo) : absl::StrCat(lo, " to ", hi)));
    return absl::OkStatus();
  }
  absl::Status NeedValue(int32_t i, const Inst& in, int k) const {
    if (!IsValue(Src(in, k))) return Bad(i, absl::StrCat("source ", k, " is not a value"));
    return absl::OkStatus();
  }
  absl::Status NeedPointer(int32_t i, const Inst& in, int k) const {
    if (!IsPointer(Src(in, k))) return Bad(i, absl::StrCat("source ", k, " is not a pointer"));
    return absl::OkStatus();
  }
  // Source k is a value of one element of an int dtype (or bool with allow_bool).
  absl::Status NeedIntScalar(int32_t i, const Inst& in, int k, bool allow_bool = false) const {
    RETURN_IF_ERROR(NeedValue(i, in, k));
    const Inst& s = Src(in, k);
    if (s.count != 1 || !(IsIntScalar(s.scalar) || (allow_bool && s.scalar == dtypes::bool_)))
      return Bad(i, absl::StrCat("source ", k, " is ", DTypeText(s.dtype), ", expected an int scalar"));
    return absl::OkStatus();
  }

  void GiveValueRows(Inst& in, DType dtype) {
    in.dtype = dtype;
    in.scalar = dtype.scalar();
    in.count = dtype.count();
    in.row = p_.value_rows;
    p_.value_rows += in.count;
  }
  void GivePointerRow(Inst& in, DType dtype, DType scalar, int32_t memory) {
    in.dtype = dtype;
    in.scalar = scalar;
    in.count = 0;
    in.row = p_.pointer_rows++;
    in.memory = memory;
  }
  // The uop's own dtype as a value dtype Run can hold.
  absl::Status ValueDType(int32_t i) const {
    DType d = uops_[i].dtype();
    if (d.is_ptr()) return Bad(i, absl::StrCat("a value op of pointer dtype ", DTypeText(d)));
    if (d.scalar() == dtypes::index) return Bad(i, "the index dtype was not lowered");
    if (!IsStorableScalar(d.scalar())) return Bad(i, absl::StrCat("a value op of dtype ", DTypeText(d)));
    if (d.count() > 4096) return Unsupported(i, absl::StrCat("a vector of ", d.count(), " elements"));
    return absl::OkStatus();
  }

  // A CONST's number as a value of `scalar`.
  absl::StatusOr<ConstValue> ConstOf(int32_t i, const Arg& a, DType scalar) const {
    if (!a.is_number() || a.number().is_invalid()) return Bad(i, absl::StrCat("a constant ", a.repr()));
    const ConstValue& v = a.number();
    if (!dtypes::is_float(scalar) && v.is_float() && !std::isfinite(v.to_float()))
      return Bad(i, absl::StrCat("the constant ", v.repr(), " for ", DTypeText(scalar)));
    return Truncate(dtypes::as_const(v, scalar), scalar);
  }

  absl::Status DecodeDefine(int32_t i, Inst& in) {
    const UOp& u = uops_[i];
    DType d = u.dtype();
    if (!d.is_ptr()) return Bad(i, absl::StrCat("a define of non-pointer dtype ", DTypeText(d)));
    if (d.v() != 1) return Unsupported(i, "vectors of pointers");
    DType scalar = d.base().scalar();
    if (!IsStorableScalar(scalar)) return Bad(i, absl::StrCat("memory of ", DTypeText(scalar)));
    GivePointerRow(in, d, scalar, i);
    if (u.op() == Ops::DEFINE_GLOBAL) {
      if (!u.arg().is_number() || !u.arg().number().is_int()) return Bad(i, "a DEFINE_GLOBAL without an int slot");
      auto slot = static_cast<int64_t>(u.arg().number().to_int());
      auto pos = std::lower_bound(p_.buffer_slots.begin(), p_.buffer_slots.end(), slot) - p_.buffer_slots.begin();
      if (p_.buffer_uops[pos] >= 0 && p_.buffer_scalars[pos] != scalar)
        return Bad(i, absl::StrCat("slot ", slot, " defined as ", DTypeText(p_.buffer_scalars[pos]), " and ", DTypeText(scalar)));
      p_.buffer_scalars[pos] = scalar;
      p_.buffer_uops[pos] = i;
      in.exec = Exec::kDefineGlobal;
      in.aux = pos;
      return absl::OkStatus();
    }
    if (d.size() < 0) return Bad(i, "local memory without a size");
    if (d.size() > kMaxMemoryElements) return Unsupported(i, absl::StrCat("memory of ", d.size(), " elements"));
    const int64_t elements = d.size() * d.base().itemsize() / scalar.itemsize();
    if (elements > kMaxMemoryElements) return Unsupported(i, absl::StrCat("memory of ", elements, " elements"));
    std::vector<MemoryDecl>& decls = u.op() == Ops::DEFINE_LOCAL ? p_.locals : p_.regs;
    in.exec = u.op() == Ops::DEFINE_LOCAL ? Exec::kDefineLocal : Exec::kDefineReg;
    in.aux = static_cast<int64_t>(decls.size());
    decls.push_back({.uop = i, .scalar = scalar, .elements = elements});
    return absl::OkStatus();
  }

  absl::Status DecodeMemoryOp(int32_t i, Inst& in) {
    const UOp& u = uops_[i];
    if (u.op() == Ops::INDEX) {
      RETURN_IF_ERROR(NeedSources(i, in, 2, 3));
      RETURN_IF_ERROR(NeedPointer(i, in, 0));
      RETURN_IF_ERROR(NeedIntScalar(i, in, 1));
      if (in.num_srcs == 3 && (!IsValue(Src(in, 2)) || Src(in, 2).dtype != dtypes::bool_))
        return Bad(i, "the gate is not a bool");
      if (!u.dtype().is_ptr() || u.dtype().v() != 1) return Unsupported(i, absl::StrCat("an INDEX of dtype ", DTypeText(u.dtype())));
      const Inst& buf = Src(in, 0);
      GivePointerRow(in, u.dtype(), buf.scalar, buf.memory);
      in.exec = Exec::kIndex;
      return absl::OkStatus();
    }
    if (u.op() == Ops::LOAD) {
      RETURN_IF_ERROR(NeedSources(i, in, 1, 2));
      RETURN_IF_ERROR(NeedPointer(i, in, 0));
      RETURN_IF_ERROR(ValueDType(i));
      GiveValueRows(in, u.dtype());
      if (in.scalar != Src(in, 0).scalar)
        return Unsupported(i, absl::StrCat("a load of ", DTypeText(in.scalar), " from memory of ", DTypeText(Src(in, 0).scalar)));
      if (in.num_srcs == 2) {
        RETURN_IF_ERROR(NeedValue(i, in, 1));
        const Inst& alt = Src(in, 1);
        if (alt.scalar != in.scalar || (alt.count != 1 && alt.count != in.count))
          return Bad(i, absl::StrCat("the alternative value is ", DTypeText(alt.dtype)));
      }
      in.exec = Exec::kLoad;
      return absl::OkStatus();
    }
    // STORE
    RETURN_IF_ERROR(NeedSources(i, in, 2, 2));
    RETURN_IF_ERROR(NeedPointer(i, in, 0));
    RETURN_IF_ERROR(NeedValue(i, in, 1));
    if (Src(in, 1).scalar != Src(in, 0).scalar)
      return Unsupported(i, absl::StrCat("a store of ", DTypeText(Src(in, 1).dtype), " into memory of ", DTypeText(Src(in, 0).scalar)));
    in.exec = Exec::kStore;
    return absl::OkStatus();
  }

  absl::Status DecodeAlu(int32_t i, Inst& in) {
    const Ops op = uops_[i].op();
    if (!kRunnableAlu.contains(op)) return Unsupported(i, "python_alu has no such op");
    const int arity = GroupOp::Unary.contains(op) ? 1 : GroupOp::Binary.contains(op) ? 2 : 3;
    RETURN_IF_ERROR(NeedSources(i, in, arity, arity));
    RETURN_IF_ERROR(ValueDType(i));
    GiveValueRows(in, uops_[i].dtype());
    for (int k = 0; k < arity; ++k) {
      RETURN_IF_ERROR(NeedValue(i, in, k));
      if (Src(in, k).count != in.count)
        return Bad(i, absl::StrCat("source ", k, " has ", Src(in, k).count, " elements, the op ", in.count));
    }
    // Which operand must have which dtype: the result's, except where noted.
    auto need = [&](int k, DType want) -> absl::Status {
      if (Src(in, k).scalar != want)
        return Bad(i, absl::StrCat("source ", k, " is ", DTypeText(Src(in, k).scalar), ", expected ", DTypeText(want)));
      return absl::OkStatus();
    };
    const DType s = in.scalar;
    const bool is_int = dtypes::is_int(s);
    if (GroupOp::Comparison.contains(op)) {
      if (s != dtypes::bool_) return Bad(i, "a comparison that is not a bool");
      RETURN_IF_ERROR(need(1, Src(in, 0).scalar));
    } else if (op == Ops::WHERE) {
      RETURN_IF_ERROR(need(0, dtypes::bool_));
      RETURN_IF_ERROR(need(1, s));
      RETURN_IF_ERROR(need(2, s));
    } else if (op == Ops::SHL || op == Ops::SHR) {
      RETURN_IF_ERROR(need(0, s));
      if (!is_int || !dtypes::is_int(Src(in, 1).scalar)) return Bad(i, "a shift of a non-int");
    } else {
      for (int k = 0; k < arity; ++k) RETURN_IF_ERROR(need(k, s));
      if ((op == Ops::AND || op == Ops::OR || op == Ops::XOR) && !is_int && s != dtypes::bool_)
        return Bad(i, absl::StrCat("a bitwise op on ", DTypeText(s)));
      if ((op == Ops::IDIV || op == Ops::MOD) && !is_int) return Bad(i, absl::StrCat("an integer division of ", DTypeText(s)));
      if (kFloatOnlyAlu.contains(op) && !dtypes::is_float(s)) return Bad(i, absl::StrCat("a float op of ", DTypeText(s)));
    }
    in.exec = Exec::kAlu;
    return absl::OkStatus();
  }

  absl::Status DecodeVectorOp(int32_t i, Inst& in) {
    const UOp& u = uops_[i];
    RETURN_IF_ERROR(ValueDType(i));
    GiveValueRows(in, u.dtype());
    if (u.op() == Ops::GEP) {
      RETURN_IF_ERROR(NeedSources(i, in, 1, 1));
      RETURN_IF_ERROR(NeedValue(i, in, 0));
      std::vector<Arg> lanes;
      if (u.arg().is_tuple()) {
        lanes.assign(u.arg().tuple().begin(), u.arg().tuple().end());
      } else {
        lanes.push_back(u.arg());
      }
      if (static_cast<int32_t>(lanes.size()) != in.count || Src(in, 0).scalar != in.scalar)
        return Bad(i, absl::StrCat("GEP ", u.arg().repr(), " of ", DTypeText(Src(in, 0).dtype), " to ", DTypeText(in.dtype)));
      in.aux = static_cast<int64_t>(p_.lanes.size());
      for (const Arg& l : lanes) {
        if (!l.is_number() || !l.number().is_int() || l.number().to_int() < 0 || l.number().to_int() >= Src(in, 0).count)
          return Bad(i, absl::StrCat("GEP lane ", l.repr(), " of ", DTypeText(Src(in, 0).dtype)));
        p_.lanes.push_back(static_cast<int32_t>(l.number().to_int()));
      }
      in.exec = Exec::kGep;
      return absl::OkStatus();
    }
    // VECTORIZE
    int32_t total = 0;
    for (int k = 0; k < in.num_srcs; ++k) {
      RETURN_IF_ERROR(NeedValue(i, in, k));
      if (Src(in, k).scalar != in.scalar) return Bad(i, absl::StrCat("source ", k, " is ", DTypeText(Src(in, k).dtype)));
      total += Src(in, k).count;
    }
    if (total != in.count) return Bad(i, absl::StrCat(total, " source elements for ", DTypeText(in.dtype)));
    in.exec = Exec::kVectorize;
    return absl::OkStatus();
  }

  absl::Status DecodeConst(int32_t i, Inst& in) {
    const UOp& u = uops_[i];
    RETURN_IF_ERROR(ValueDType(i));
    GiveValueRows(in, u.dtype());
    in.exec = Exec::kConst;
    in.aux = static_cast<int64_t>(p_.consts.size());
    if (u.op() == Ops::CONST) {
      ASSIGN_OR_RETURN(ConstValue v, ConstOf(i, u.arg(), in.scalar));
      p_.consts.insert(p_.consts.end(), in.count, v);
      return absl::OkStatus();
    }
    if (!u.arg().is_tuple() || static_cast<int32_t>(u.arg().size()) != in.count)
      return Bad(i, absl::StrCat("VCONST ", u.arg().repr(), " of ", DTypeText(in.dtype)));
    for (const Arg& a : u.arg().tuple()) {
      ASSIGN_OR_RETURN(ConstValue v, ConstOf(i, a, in.scalar));
      p_.consts.push_back(v);
    }
    return absl::OkStatus();
  }

  absl::Status DecodeControl(int32_t i, Inst& in) {
    const UOp& u = uops_[i];
    switch (u.op()) {
      case Ops::RANGE:
        // Sources past the bound are the linearizer's ordering edges (pm_add_control_flow: the
        // enclosing RANGE, or the END of a sibling loop, which is void); the loop runs on the bound
        // alone, as the reference's.
        if (in.num_srcs < 1 || uops_[i].src().empty() || kVoidOps.contains(uops_[i].src(0).op()))
          return Bad(i, "a RANGE without its bound");
        for (size_t k = 1; k < uops_[i].src().size(); ++k)
          if (Ops op = uops_[i].src(k).op(); op != Ops::RANGE && op != Ops::END)
            return Bad(i, absl::StrCat("source ", k, " of a RANGE is Ops.", std::string(OpName(op)), ", not an ordering edge"));
        RETURN_IF_ERROR(NeedIntScalar(i, in, 0));
        if (!IsIntScalar(u.dtype())) return Bad(i, absl::StrCat("a RANGE of ", DTypeText(u.dtype())));
        GiveValueRows(in, u.dtype());
        in.exec = Exec::kRange;
        in.aux = -1;  // its END, when found
        open_blocks_.push_back(i);
        return absl::OkStatus();
      case Ops::END: {
        if (u.src().size() < 2 || u.src(1).op() != Ops::RANGE) return Bad(i, "an END whose second source is not a RANGE");
        int32_t r = index_.at(u.src(1).id());
        if (p_.insts[r].aux >= 0) return Bad(i, absl::StrCat("a second END of the RANGE at uop ", r));
        // Loops and IFs nest: a jump back to a RANGE or past its END never crosses an IF.
        if (open_blocks_.empty() || open_blocks_.back() != r)
          return Bad(i, absl::StrCat("the END of uop ", r, " does not close the innermost open RANGE or IF"));
        open_blocks_.pop_back();
        p_.insts[r].aux = i;
        in.exec = Exec::kEnd;
        in.aux = r;
        return absl::OkStatus();
      }
      case Ops::IF:
        if (in.num_srcs < 1 || !IsValue(Src(in, 0)) || Src(in, 0).dtype != dtypes::bool_)
          return Bad(i, "an IF whose condition is not a bool");
        in.exec = Exec::kIf;
        p_.max_if_depth = std::max(p_.max_if_depth, ++if_depth_);
        open_blocks_.push_back(i);
        return absl::OkStatus();
      case Ops::ENDIF:
        if (u.src().size() != 1 || u.src(0).op() != Ops::IF || open_blocks_.empty() ||
            open_blocks_.back() != index_.at(u.src(0).id()))
          return Bad(i, "an ENDIF that does not close the innermost open IF");
        open_blocks_.pop_back();
        --if_depth_;
        in.exec = Exec::kEndIf;
        return absl::OkStatus();
      default:  // SINK, GROUP, NOOP, BARRIER
        in.exec = Exec::kNop;
        return absl::OkStatus();
    }
  }

  // WMMA(A, B, C): D has C's elements; the device's lane model must exist for the arg.
  absl::Status DecodeWmma(int32_t i, Inst& in) {
    RETURN_IF_ERROR(NeedSources(i, in, 3, 3));
    RETURN_IF_ERROR(ValueDType(i));
    GiveValueRows(in, uops_[i].dtype());
    for (int k = 0; k < 3; ++k) RETURN_IF_ERROR(NeedValue(i, in, k));
    if (Src(in, 2).count != in.count || Src(in, 2).scalar != in.scalar)
      return Bad(i, absl::StrCat("the accumulator is ", DTypeText(Src(in, 2).dtype), ", the result ", DTypeText(in.dtype)));
    absl::StatusOr<WmmaLayout> layout = WmmaLayoutFor(uops_[i].arg(), static_cast<size_t>(Src(in, 0).count));
    if (!layout.ok()) return Bad(i, std::string(layout.status().message()));
    in.exec = Exec::kWmma;
    in.aux = static_cast<int64_t>(p_.wmma_args.size());
    p_.wmma_args.push_back(uops_[i].arg());
    return absl::OkStatus();
  }

  absl::Status DecodeOne(int32_t i) {
    const UOp& u = uops_[i];
    Inst& in = p_.insts[i];
    in.op = u.op();
    in.dtype = u.dtype();
    RETURN_IF_ERROR(CollectSources(i, in));
    switch (u.op()) {
      case Ops::DEFINE_GLOBAL:
      case Ops::DEFINE_LOCAL:
      case Ops::DEFINE_REG:
        return DecodeDefine(i, in);
      case Ops::DEFINE_VAR:
        if (!IsIntScalar(u.dtype()) || !var_position_.contains(i)) return Bad(i, "a DEFINE_VAR that is not a named int");
        GiveValueRows(in, u.dtype());
        in.exec = Exec::kDefineVar;
        in.aux = var_position_.at(i);
        p_.var_dtypes[in.aux] = u.dtype();
        return absl::OkStatus();
      case Ops::SPECIAL: {
        const Arg& a = u.arg();
        if (!a.is_string() || a.str().size() < 2 || std::string_view("gli").find(a.str()[0]) == std::string_view::npos ||
            a.str().back() < '0' || a.str().back() > '2')
          return Bad(i, absl::StrCat("a SPECIAL named ", a.repr()));
        if (!IsIntScalar(u.dtype())) return Bad(i, absl::StrCat("a SPECIAL of ", DTypeText(u.dtype())));
        GiveValueRows(in, u.dtype());
        in.exec = Exec::kSpecial;
        in.aux = (a.str().back() - '0') + (a.str()[0] == 'l' ? 3 : 0);
        return absl::OkStatus();
      }
      case Ops::CONST:
      case Ops::VCONST:
        return DecodeConst(i, in);
      case Ops::INDEX:
      case Ops::LOAD:
      case Ops::STORE:
        return DecodeMemoryOp(i, in);
      case Ops::CAST:
      case Ops::AFTER:
      case Ops::BITCAST: {
        RETURN_IF_ERROR(NeedSources(i, in, 1, u.op() == Ops::AFTER ? in.num_srcs : 1));
        const Inst& src = Src(in, 0);
        if (u.op() != Ops::BITCAST && IsPointer(src)) {
          if (!u.dtype().is_ptr() || u.dtype().v() != 1) return Bad(i, absl::StrCat("a pointer made ", DTypeText(u.dtype())));
          GivePointerRow(in, u.dtype(), src.scalar, src.memory);
          in.exec = Exec::kPtrCopy;
          return absl::OkStatus();
        }
        RETURN_IF_ERROR(NeedValue(i, in, 0));
        RETURN_IF_ERROR(ValueDType(i));
        GiveValueRows(in, u.dtype());
        if (u.op() == Ops::BITCAST) {
          if (src.count * src.scalar.itemsize() != in.count * in.scalar.itemsize())
            return Bad(i, absl::StrCat("a bitcast of ", DTypeText(src.dtype), " to ", DTypeText(in.dtype)));
          in.exec = Exec::kBitcast;
        } else if (src.count != in.count) {
          return Bad(i, absl::StrCat("source ", DTypeText(src.dtype), " for ", DTypeText(in.dtype)));
        } else {
          in.exec = u.op() == Ops::CAST ? Exec::kCast : Exec::kValueCopy;
          if (u.op() == Ops::AFTER && src.scalar != in.scalar) return Bad(i, "an AFTER that changes the dtype");
        }
        return absl::OkStatus();
      }
      case Ops::GEP:
      case Ops::VECTORIZE:
        return DecodeVectorOp(i, in);
      case Ops::RANGE:
      case Ops::END:
      case Ops::IF:
      case Ops::ENDIF:
      case Ops::SINK:
      case Ops::GROUP:
      case Ops::NOOP:
      case Ops::BARRIER:
        return DecodeControl(i, in);
      case Ops::WMMA:
        return DecodeWmma(i, in);
      default:
        if (GroupOp::ALU.contains(u.op())) return DecodeAlu(i, in);
        return Unsupported(i, "the emulator does not run this op");
    }
  }

  std::span<const UOp> uops_;
  absl::flat_hash_map<const void*, int32_t> index_;
  absl::flat_hash_map<int32_t, int64_t> var_position_;
  int32_t if_depth_ = 0;
  std::vector<int32_t> open_blocks_;  // RANGEs and IFs not closed yet, innermost last
  DecodedProgram p_;
};

}  // namespace

std::string UopName(int32_t index, Ops op) { return absl::StrCat("uop ", index, " (Ops.", std::string(OpName(op)), ")"); }

absl::StatusOr<DecodedProgram> DecodeProgram(std::span<const UOp> uops) { return Decoder(uops).Decode(); }

}  // namespace tg::emulator_internal
