// File: autotune/codec/kernel_check.cc
// The shape of a task's kernel that the codegen pipeline lowers without aborting (see the
// header for the rules and why).
#include "autotune/codec/kernel_check.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "autotune/codec/message_io.h"
#include "autotune/codec/value_wire.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/codegen/opt/opt.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/uop/spec.h"

namespace tg::autotune::codec {
using internal::Sv;
namespace {

absl::Status Bad(size_t index, const UOp& u, absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("node ", index, " (", Sv(OpName(u.op())), " ", u.dtype().repr(), "): ", why));
}

bool IsInt(const Arg& a) { return a.is_number() && a.number().is_int(); }

// "RANGE dtypes.index, CONST dtypes.float"
std::string SourcesText(const UOp& u) {
  std::string out;
  for (const UOp& x : u.src()) absl::StrAppend(&out, out.empty() ? "" : ", ", Sv(OpName(x.op())), " ", x.dtype().repr());
  return out;
}

// Every item of `a` (a tuple) an opt that OptFromArg reads; why not otherwise.
absl::Status CheckOpts(const Arg& a, std::string_view field) {
  if (!a.is_tuple()) return absl::InvalidArgumentError(absl::StrCat(Sv(field), " ", a.repr(), " is not a tuple"));
  for (const Arg& o : a.tuple()) {
    if (absl::StatusOr<Opt> opt = OptFromArg(o); !opt.ok())
      return absl::InvalidArgumentError(absl::StrCat(Sv(field), ": ", opt.status().message()));
  }
  return absl::OkStatus();
}

// None, or a KernelInfo whose fields have the types KernelInfo::FromArg reads them as.
absl::Status CheckSinkArg(const Arg& a) {
  if (a.is_none()) return absl::OkStatus();
  if (!KernelInfo::IsKernelInfo(a))
    return absl::InvalidArgumentError(absl::StrCat("the SINK's arg ", a.repr(), " is neither None nor a KernelInfo"));
  if (!a[1].is_string()) return absl::InvalidArgumentError(absl::StrCat("KernelInfo name ", a[1].repr(), " is not a string"));
  if (!a[2].is_tuple() || !std::all_of(a[2].tuple().begin(), a[2].tuple().end(),
                                       [](const Arg& t) { return t.is_axis_type(); }))
    return absl::InvalidArgumentError(absl::StrCat("KernelInfo axis types ", a[2].repr(), " are not a tuple of AxisTypes"));
  if (!(a[3].is_number() && a[3].number().is_bool()))
    return absl::InvalidArgumentError(absl::StrCat("KernelInfo dont_use_locals ", a[3].repr(), " is not a bool"));
  RETURN_IF_ERROR(CheckOpts(a[4], "KernelInfo applied_opts"));
  if (!a[5].is_none()) RETURN_IF_ERROR(CheckOpts(a[5], "KernelInfo opts_to_apply"));
  return absl::OkStatus();
}

// The axis types the scheduler writes; the optimizer makes the others, on the worker.
bool IsUnoptimizedAxis(const Arg& a) {
  if (!a.is_axis_type()) return false;
  AxisType t = a.axis_type();
  return t == AxisType::LOOP || t == AxisType::REDUCE || t == AxisType::OUTER;
}

// Ops that only make sense on floats, and the ones only on ints (or bools): the renderers
// have no spelling and the decompositions no rule for the others (FDIV of ints, THREEFRY of
// floats reach a TG_CHECK in the C renderer).
constexpr OpSet kFloatOnly{Ops::FDIV, Ops::EXP2, Ops::LOG2, Ops::SIN, Ops::SQRT, Ops::POW, Ops::RECIPROCAL, Ops::TRUNC};
constexpr OpSet kIntOnly{Ops::IDIV, Ops::MOD, Ops::SHL, Ops::SHR};
constexpr OpSet kIntOrBool{Ops::AND, Ops::OR, Ops::XOR};
constexpr OpSet kLeaves{Ops::CONST, Ops::VCONST, Ops::DEFINE_GLOBAL, Ops::DEFINE_VAR, Ops::DEFINE_LOCAL, Ops::DEFINE_REG};

// A CONST's number is of its dtype's kind (kernel_spec lets any index CONST through) and fits it.
absl::Status CheckConst(const UOp& u) {
  auto bad = [&](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat("constant ", u.arg().repr(), " ", why));
  };
  if (!u.arg().is_number()) return bad("is not a number");
  const ConstValue& v = u.arg().number();
  const DType d = u.dtype();
  if (d == dtypes::index && v.is_invalid()) return absl::OkStatus();  // the invalid index of a masked access
  if (d.is_ptr() || d == dtypes::void_) return bad("of a pointer or void type");
  if (dtypes::is_float(d)) return v.is_float() ? absl::OkStatus() : bad("is not a float");
  if (d == dtypes::bool_) return v.is_bool() ? absl::OkStatus() : bad("is not a bool");
  if (!v.is_int()) return bad(absl::StrCat("is not an int"));
  const DType range = d == dtypes::index ? dtypes::int64 : d;
  if (v.to_int() < dtypes::min(range).to_int() || v.to_int() > dtypes::max(range).to_int())
    return bad(absl::StrCat("does not fit ", range.repr()));
  return absl::OkStatus();
}

// The source types of an ALU op, as shared_spec has them. kernel_spec passes every index-typed
// ALU op before shared_spec is asked, so an index CMPLT (a comparison that is not a bool) or an
// index ADD of a float would get through it.
absl::Status CheckAluTypes(const UOp& u) {
  auto bad = [&](absl::string_view why) { return absl::InvalidArgumentError(why); };
  const DType d = u.dtype();
  switch (u.op()) {
    case Ops::CMPLT: case Ops::CMPNE: case Ops::CMPEQ:
      if (d != dtypes::bool_ || u.src(0).dtype() != u.src(1).dtype())
        return bad("a comparison is a bool of two sources of one type");
      return absl::OkStatus();
    case Ops::WHERE:
      if (u.src(0).dtype() != dtypes::bool_ || u.src(1).dtype() != d || u.src(2).dtype() != d)
        return bad("a WHERE is (bool, x, y), x and y of its type");
      return absl::OkStatus();
    case Ops::SHL: case Ops::SHR:
      if (u.src(0).dtype() != d || (u.src(1).dtype() != d && u.src(1).dtype() != dtypes::uint32))
        return bad("a shift is (x, distance), x of its type");
      return absl::OkStatus();
    default:
      for (const UOp& s : u.src())
        if (s.dtype() != d) return bad(absl::StrCat("source ", s.dtype().repr(), " is not of its type"));
      return absl::OkStatus();
  }
}

// Whether `u` (its sources decided already) is a shape: a number, a variable, or ALU ops of
// shapes. A RANGE's bound is one of its kernel's shape dims, so it is; a bound of another range
// (a loop nest that is not a box) or of a load is not, and the range simplifier runs for minutes
// on one (lowering_fuzz_test's train_cnn mutant: a RANGE whose bound became an ADD of two ranges).
bool IsShape(const UOp& u, const absl::flat_hash_set<UOp>& shapes) {
  if (u.op() == Ops::CONST || u.op() == Ops::DEFINE_VAR) return true;
  if (!GroupOp::ALU.contains(u.op())) return false;
  return std::all_of(u.src().begin(), u.src().end(), [&](const UOp& s) { return shapes.contains(s); });
}

// The rules of the header past kernel_spec, for one node (its sources checked already; `shapes`:
// those of them that are shapes).
absl::Status CheckNodeShape(const UOp& u, bool is_root, const absl::flat_hash_set<UOp>& shapes) {
  auto bad = [](auto&&... parts) { return absl::InvalidArgumentError(absl::StrCat(parts...)); };
  const DType d = u.dtype();
  if (!u.tag().is_none()) return bad("tag ", u.tag().repr(), ": a task's kernel carries no tags");
  if ((u.op() == Ops::SINK) != is_root) return bad("a SINK is the root of a kernel, and only it");
  if (d.count() != 1 || d.vcount() != 1) return bad("a task's kernel is scalar: the optimizer makes the vectors");
  if (kLeaves.contains(u.op()) && !u.src().empty()) return bad("has sources");
  // The scheduler writes Invalid as a masked access's index only, cond.where(index, Invalid);
  // as a divisor, a factor or a bound, range analysis and folding CHECK-fail on it.
  for (size_t i = 0; i < u.src().size(); ++i) {
    const UOp& s = u.src(i);
    if (s.op() == Ops::CONST && s.arg().is_number() && s.arg().number().is_invalid() &&
        !(u.op() == Ops::WHERE && i == 2)) {
      return bad("source ", i, " is Invalid, which only a WHERE's false branch (a masked index) may be");
    }
  }
  if (GroupOp::ALU.contains(u.op())) {
    if (d.is_ptr()) return bad("an ALU op computes a value, not a pointer");
    if (kFloatOnly.contains(u.op()) && !dtypes::is_float(d)) return bad("is an op on floats");
    if (kIntOnly.contains(u.op()) && !dtypes::is_int(d)) return bad("is an op on ints");
    if (kIntOrBool.contains(u.op()) && !dtypes::is_int(d) && d != dtypes::bool_) return bad("is an op on ints or bools");
    if (u.op() == Ops::THREEFRY && d != dtypes::uint64) return bad("THREEFRY is an op on uint64");
    // Tensor division is a * b.reciprocal(); FDIV comes from the late rewrite, only for a
    // renderer that spells it (Clang), and one that does not (CUDA) CHECK-fails on it.
    if (u.op() == Ops::FDIV) return bad("FDIV is made by codegen for the renderers that have it, never scheduled");
    RETURN_IF_ERROR(CheckAluTypes(u));
  }
  switch (u.op()) {
    case Ops::SINK: {
      for (const UOp& s : u.src())
        if (s.dtype() != dtypes::void_) return bad("source ", Sv(OpName(s.op())), " is a value: a kernel's SINK collects its stores");
      // A store reaches the SINK once: a STORE both ended and listed bare would make the
      // linearizer's control flow a cycle (it CHECK-fails).
      absl::flat_hash_set<UOp> below;  // under some source, the sources themselves not counted
      for (const UOp& s : u.src())
        for (const UOp& x : s.src())
          for (const UOp& y : x.toposort()) below.insert(y);
      for (size_t i = 0; i < u.src().size(); ++i)
        if (below.contains(u.src(i)))
          return bad("source ", i, ", a ", Sv(OpName(u.src(i).op())), ", lies under another: a store reaches the SINK once");
      return CheckSinkArg(u.arg());
    }
    case Ops::DEFINE_LOCAL: case Ops::DEFINE_REG: {
      // the scheduler's local and register buffers; anything else has no spelling in a renderer
      const AddrSpace want = u.op() == Ops::DEFINE_LOCAL ? AddrSpace::LOCAL : AddrSpace::REG;
      if (!d.is_ptr() || d.addrspace() != want) return bad("is a pointer to ", want == AddrSpace::LOCAL ? "local" : "register", " memory");
      return absl::OkStatus();
    }
    case Ops::DEFINE_GLOBAL:
      if (!IsInt(u.arg()) || u.arg().number().to_int() < 0 || u.arg().number().to_int() > std::numeric_limits<int32_t>::max())
        return bad("slot ", u.arg().repr(), " is not an int from 0 to 2**31-1");
      return absl::OkStatus();
    case Ops::DEFINE_VAR: {
      // kernels take variables as C ints
      const i128 lo = u.arg()[1].number().to_int(), hi = u.arg()[2].number().to_int();
      if (lo > hi || lo < std::numeric_limits<int32_t>::min() || hi > std::numeric_limits<int32_t>::max())
        return bad("bounds ", u.arg()[1].repr(), " to ", u.arg()[2].repr(), " are not an int32 interval");
      return absl::OkStatus();
    }
    case Ops::CONST: return CheckConst(u);
    case Ops::RANGE: {
      const Arg& a = u.arg();
      if (!a.is_tuple() || a.size() != 2 || !IsInt(a[0]) || a[0].number().to_int() < 0 || !IsUnoptimizedAxis(a[1]))
        return bad("arg ", a.repr(), " is not (id, LOOP|REDUCE|OUTER): a task's kernel is unoptimized");
      if (u.src().size() != 1 || u.src(0).dtype() != dtypes::index)
        return bad("a RANGE has one source, of dtypes.index");
      if (!shapes.contains(u.src(0)))
        return bad("the bound, a ", Sv(OpName(u.src(0).op())),
                   ", is not a shape (numbers and variables): a range over another range or a load");
      // Bounds the simplifier folds away (at most one iteration) or the index math overflows on.
      const ConstValue &lo = u.src(0).vmin(), &hi = u.src(0).vmax();
      if (!lo.is_int() || !hi.is_int() || lo.to_int() < 0 || hi.to_int() < 2 || hi.to_int() > internal::kMaxPtrSize)
        return bad("a range of ", lo.repr(), " to ", hi.repr(), " iterations (2 to 2**40 can be lowered)");
      return absl::OkStatus();
    }
    case Ops::END: {
      if (u.src().size() < 2 || u.src(0).dtype() != dtypes::void_) return bad("an END is (a store, ranges...)");
      for (size_t i = 1; i < u.src().size(); ++i)
        if (u.src(i).op() != Ops::RANGE) return bad("source ", i, " is a ", Sv(OpName(u.src(i).op())), ", not a RANGE");
      // A range a REDUCE under the store closes already, closed again here, made the range
      // simplifier run for minutes (lowering_fuzz_test's rowsum mutant).
      absl::flat_hash_set<UOp> reduced;
      for (const UOp& x : u.src(0).toposort())
        if (x.op() == Ops::REDUCE) reduced.insert(x.src().begin() + 1, x.src().end());
      for (size_t i = 1; i < u.src().size(); ++i)
        if (reduced.contains(u.src(i))) return bad("source ", i, " is a range a REDUCE under the store closes already");
      return absl::OkStatus();
    }
    case Ops::GEP: {
      // a lane of its source (kernel_spec checks the dtype only; the passes read the arg)
      const Arg& a = u.arg();
      const int lanes = u.src().size() == 1 ? u.src(0).dtype().count() : 0;
      const bool lanes_ok = a.is_tuple() && a.size() > 0 && std::all_of(a.tuple().begin(), a.tuple().end(), [&](const Arg& x) {
        return IsInt(x) && x.number().to_int() >= 0 && x.number().to_int() < lanes;
      });
      if (!lanes_ok) return bad("arg ", a.repr(), " is not a tuple of lanes of its one source");
      return absl::OkStatus();
    }
    case Ops::REDUCE: {
      const Arg& a = u.arg();
      if (!a.is_ops() || (a.ops() != Ops::ADD && a.ops() != Ops::MUL && a.ops() != Ops::MAX))
        return bad("reduce op ", a.repr(), " is not ADD, MUL or MAX");
      if (u.src(0).dtype() != d) return bad("reduces a ", u.src(0).dtype().repr(), " to a ", d.repr());
      for (size_t i = 1; i < u.src().size(); ++i) {
        const UOp& r = u.src(i);
        if (r.op() != Ops::RANGE || r.arg()[1].axis_type() != AxisType::REDUCE)
          return bad("source ", i, " is not a REDUCE range");
      }
      return absl::OkStatus();
    }
    case Ops::INDEX: {
      if (u.src().size() < 2 || !u.src(0).dtype().is_ptr()) return bad("an INDEX is (pointer, index...)");
      const DType buf = u.src(0).dtype();
      if (d != buf && d != buf.base()) return bad("an INDEX of a ", buf.repr(), " is that pointer or its element");
      for (size_t i = 1; i < u.src().size(); ++i)
        if (u.src(i).dtype() != dtypes::index) return bad("index ", i, " is a ", u.src(i).dtype().repr(), ", not dtypes.index");
      return absl::OkStatus();
    }
    case Ops::STORE:
      if (u.src().size() != 2 || d != dtypes::void_ || !u.src(0).dtype().is_ptr() ||
          u.src(1).dtype() != u.src(0).dtype().base())
        return bad("a STORE is (pointer, value of its element type)");
      return absl::OkStatus();
    default: return absl::OkStatus();
  }
}

}  // namespace

absl::Status CheckTaskKernel(const UOp& ast) {
  const std::vector<UOp> order = ast.toposort();
  absl::flat_hash_set<UOp> shapes;  // one pass: a bound's sources come before its RANGE
  for (size_t i = 0; i < order.size(); ++i) {
    if (absl::Status s = CheckNodeShape(order[i], i + 1 == order.size(), shapes); !s.ok()) {
      return Bad(i, order[i], s.message());
    }
    if (IsShape(order[i], shapes)) shapes.insert(order[i]);
  }
  // kernel_spec last: the rules above name the common mistakes more plainly.
  if (std::optional<SpecViolation> v = FindSpecViolation(order, SpecKind::kKernel)) {
    return Bad(v->index, v->node,
               absl::StrCat("arg ", v->node.arg().repr(), " with sources (", SourcesText(v->node), ") fails kernel_spec",
                            v->rule ? absl::StrCat(" (rule at ", v->rule->location(), ")") : " (no rule matches it)"));
  }
  return absl::OkStatus();
}

absl::Status CheckKernelTask(const KernelTask& task) {
  RETURN_IF_ERROR(CheckTaskKernel(task.ast));
  // What an honest sender derives from the AST (KernelTask::FromAst) is what the worker's
  // buffers must be: it finds each program global's buffer by slot, and a kernel indexes its
  // pointers up to their sizes.
  absl::StatusOr<KernelTask> derived = KernelTask::FromAst(task.ast);
  if (!derived.ok()) return derived.status();
  if (derived->buffers != task.buffers) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the task's ", task.buffers.size(), " buffers are not the ", derived->buffers.size(),
        " its kernel's DEFINE_GLOBALs define (slot, dtype, size)"));
  }
  for (const UOp& u : task.ast.toposort()) {
    if (u.op() != Ops::DEFINE_VAR) continue;
    const std::string& name = u.arg()[0].str();
    for (const auto& [n, v] : task.var_vals) {
      if (n == name && (v < u.vmin().to_int() || v > u.vmax().to_int()))
        return absl::InvalidArgumentError(absl::StrCat("variable ", name, " = ", v, " is outside its bounds ",
                                                       u.vmin().repr(), " to ", u.vmax().repr()));
    }
  }
  return absl::OkStatus();
}

}  // namespace tg::autotune::codec
