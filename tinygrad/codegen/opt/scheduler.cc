// File: tinygrad/codegen/opt/scheduler.cc
// Port of tinygrad/codegen/opt/postrange.py: Scheduler (shape views, shift_to, apply_opt,
// convert_loop_to_global, colors, get_optimized_ast). The TC opt is in scheduler_tc.cc.
#include "tinygrad/codegen/opt/scheduler.h"

#include <algorithm>
#include <cctype>
#include <mutex>
#include <sstream>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/base/terminal.h"
#include "tinygrad/codegen/gemm_problem.h"
#include "tinygrad/codegen/opt/gemm_opt.h"
#include "tinygrad/codegen/opt/padded_reduce.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/graph_util.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/uop/render.h"
#include "tinygrad/uop/symbolic/helpers.h"
#include "tinygrad/uop/symbolic/range_simplify.h"
#include "tinygrad/uop/symbolic/symbolic.h"

namespace tg {
namespace {

// tinygrad's axis_to_pos: LOCAL and GROUP_REDUCE share a position.
int AxisToPos(AxisType t) {
  switch (t) {
    case AxisType::OUTER: return -2;
    case AxisType::LOOP: return -1;
    case AxisType::THREAD:
    case AxisType::GLOBAL: return 0;
    case AxisType::WARP: return 1;
    case AxisType::LOCAL:
    case AxisType::GROUP_REDUCE: return 2;
    case AxisType::UPCAST: return 3;
    case AxisType::REDUCE: return 4;
    case AxisType::UNROLL: return 5;
    default: return 6;
  }
}

// tinygrad's axis_colors.
const char* AxisColor(AxisType t) {
  switch (t) {
    case AxisType::GLOBAL: return "blue";
    case AxisType::THREAD: return "BLUE";
    case AxisType::LOCAL: return "cyan";
    case AxisType::WARP: return "CYAN";
    case AxisType::LOOP: return "WHITE";
    case AxisType::UPCAST: return "yellow";
    case AxisType::GROUP_REDUCE: return "RED";
    case AxisType::REDUCE: return "red";
    case AxisType::UNROLL: return "magenta";
    case AxisType::OUTER: return "green";
    default: return "white";
  }
}

struct KernelCounts {
  std::mutex mu;
  absl::flat_hash_map<std::string, int> counts;
};
KernelCounts& Counts() {
  static auto* const kCounts = new KernelCounts();
  return *kCounts;
}

bool Has(const std::vector<UOp>& v, const UOp& u) { return std::find(v.begin(), v.end(), u) != v.end(); }
bool HasType(std::initializer_list<AxisType> ts, AxisType t) { return std::find(ts.begin(), ts.end(), t) != ts.end(); }

// Python's list[i] with negative indices; nullopt is an IndexError.
std::optional<int> PyIndex(const std::vector<int>& v, int64_t i) {
  int64_t n = static_cast<int64_t>(v.size());
  if (i < -n || i >= n) return std::nullopt;
  return v[i < 0 ? i + n : i];
}

// An RANGE's first id (tinygrad's x.arg[0]).
int64_t FirstId(const UOp& r) { return r.arg()[0].int64(); }

// Python's repr of an OptOps (f"{op=}"): "<OptOps.UPCAST: 2>".
std::string OptOpsRepr(OptOps op) {
  return absl::StrCat("<OptOps.", std::string(OptOpsName(op)), ": ", static_cast<int>(op), ">");
}

std::string ReprOf(const UOp& u) {
  std::ostringstream os;
  os << u;
  return os.str();
}

std::string AxisTypeStr(AxisType t) {
  std::ostringstream os;
  os << t;
  return os.str();
}

UOp RemoveTag(const Match& m) {
  const UOp& x = m["x"];
  return x.tag().is_none() ? UOp() : x.replace_tag(Arg());
}

// tinygrad's remove_tags.
const PatternMatcher& RemoveTags() {
  static const auto* const kRules = new PatternMatcher({
      Rule(UPat(GroupOp::All).named("x"), RemoveTag),  // x.tag -> None
  });
  return *kRules;
}

int64_t MaxRangeId(const std::vector<UOp>& rngs) {
  int64_t m = 0;
  for (const UOp& r : rngs) m = std::max(m, FirstId(r));
  return m;
}

}  // namespace

Scheduler::Scheduler(UOp ast, const Renderer& ren, const CodegenOptions& options)
    : ast_(std::move(ast)), ren_(&ren), options_(options) {
  if (KernelInfo::IsKernelInfo(ast_.arg())) {
    KernelInfo ki = KernelInfo::FromArg(ast_.arg());
    dont_use_locals_ = ki.dont_use_locals;
    for (const Arg& a : ki.applied_opts) {
      absl::StatusOr<Opt> o = OptFromArg(a);
      TG_CHECK(o.ok()) << "bad applied opt in KernelInfo: " << o.status();
      applied_opts_.push_back(*o);
    }
  }
  next_range_id_ = MaxRangeId(rngs()) + 1;
}

Scheduler::Scheduler(UOp ast, const Renderer& ren, NoRecount) : ast_(std::move(ast)), ren_(&ren) {}

Scheduler::Scheduler(const Scheduler& o)
    : ast_(o.ast_), ren_(o.ren_), options_(o.options_), dont_use_locals_(o.dont_use_locals_), applied_opts_(o.applied_opts_),
      tensor_core_(o.tensor_core_) {
  next_range_id_ = MaxRangeId(rngs()) + 1;
}

Scheduler& Scheduler::operator=(const Scheduler& o) {
  ast_ = o.ast_;
  ren_ = o.ren_;
  options_ = o.options_;
  dont_use_locals_ = o.dont_use_locals_;
  applied_opts_ = o.applied_opts_;
  tensor_core_ = o.tensor_core_;
  next_range_id_ = o.next_range_id_;
  return *this;
}

// ** shape **

std::vector<UOp> Scheduler::rngs() const {
  std::vector<UOp> out;
  for (const UOp& u : ast_.backward_slice())
    if (u.op() == Ops::RANGE && PyGt(u.vmax(), ConstValue(0))) out.push_back(u);
  std::stable_sort(out.begin(), out.end(), [](const UOp& a, const UOp& b) {
    int pa = AxisToPos(RangeAxisType(a)), pb = AxisToPos(RangeAxisType(b));
    if (pa != pb) return pa < pb;
    return RangeArgLess(Arg::Tuple(RangeIds(a)), Arg::Tuple(RangeIds(b)));
  });
  return out;
}

int Scheduler::shape_len() const { return static_cast<int>(rngs().size()); }

std::vector<SInt> Scheduler::full_shape() const {
  std::vector<SInt> out;
  for (const UOp& r : rngs()) out.push_back(SInt(Simplify(r.src(0))));
  return out;
}

std::vector<AxisType> Scheduler::axis_types() const {
  std::vector<AxisType> out;
  for (const UOp& r : rngs()) out.push_back(RangeAxisType(r));
  return out;
}

std::vector<std::string> Scheduler::shape_str() const {
  std::vector<std::string> ret;
  absl::flat_hash_map<AxisType, int> cnt;
  for (AxisType t : axis_types()) {
    auto it = cnt.find(t);
    int c = it == cnt.end() ? 0 : it->second + 1;
    cnt[t] = c;
    ret.push_back(std::string(1, AxisLetter(t)) + std::to_string(c));
  }
  return ret;
}

std::vector<int> Scheduler::shape_str_to_axis(const std::vector<std::string>& names) const {
  std::vector<std::string> ss = shape_str();
  std::vector<int> out;
  for (const std::string& n : names) {
    auto it = std::find(ss.begin(), ss.end(), n);
    TG_CHECK(it != ss.end()) << n << " not in shape_str";
    out.push_back(static_cast<int>(it - ss.begin()));
  }
  return out;
}

std::vector<int> Scheduler::axes_of(std::initializer_list<AxisType> types) const {
  std::vector<int> out;
  std::vector<AxisType> ats = axis_types();
  for (size_t i = 0; i < ats.size(); ++i)
    if (HasType(types, ats[i])) out.push_back(static_cast<int>(i));
  return out;
}

std::vector<UOp> Scheduler::ranges_of(std::initializer_list<AxisType> types) const {
  std::vector<UOp> out;
  for (const UOp& r : rngs())
    if (HasType(types, RangeAxisType(r))) out.push_back(r);
  return out;
}

int64_t Scheduler::upcast_size() const {
  std::vector<SInt> fs = full_shape();
  SInt p = 1;
  for (int a : axes_of({AxisType::UPCAST, AxisType::UNROLL})) p = p * fs[a];
  TG_CHECK(p.is_int()) << "symbolic upcast size";
  return p.value();
}

std::vector<int> Scheduler::upcastable_dims() const {
  std::vector<SInt> fs = full_shape();
  std::vector<int> out;
  for (int i : axes_of({AxisType::GLOBAL, AxisType::LOCAL, AxisType::LOOP}))
    if (fs[i].is_int() && fs[i].value() > 1) out.push_back(i);
  return out;
}

std::vector<int> Scheduler::unrollable_dims() const {
  std::vector<SInt> fs = full_shape();
  std::vector<int> out;
  for (int i : axes_of({AxisType::GROUP_REDUCE, AxisType::REDUCE}))
    if (fs[i].is_int() && fs[i].value() > 1) out.push_back(i);
  return out;
}

std::vector<SInt> Scheduler::output_shape() const {
  std::vector<SInt> fs = full_shape();
  std::vector<AxisType> ats = axis_types();
  for (size_t i = 0; i < fs.size(); ++i)
    if (ats[i] == AxisType::REDUCE || ats[i] == AxisType::UNROLL || ats[i] == AxisType::GROUP_REDUCE) fs[i] = 1;
  return fs;
}

int Scheduler::upcasted() const { return static_cast<int>(axes_of({AxisType::UPCAST, AxisType::UNROLL}).size()); }
int Scheduler::group_for_reduces() const { return static_cast<int>(axes_of({AxisType::GROUP_REDUCE}).size()); }

// ** contents **

std::vector<UOp> Scheduler::reduceops() const {
  std::vector<UOp> out;
  for (const UOp& x : ast_.backward_slice())
    if (x.op() == Ops::REDUCE) out.push_back(x);
  return out;
}

std::optional<UOp> Scheduler::reduceop() const {
  std::vector<UOp> red = reduceops();
  if (red.empty()) return std::nullopt;
  return UOp::Make(Ops::REDUCE_AXIS, red[0].dtype(), red[0].src(), Arg::Tuple({red[0].arg(), Arg::Tuple({})}));
}

std::vector<UOp> Scheduler::bufs() const {
  std::vector<UOp> out;
  for (const UOp& x : ast_.toposort())
    if (x.op() == Ops::INDEX) out.push_back(x);
  std::reverse(out.begin(), out.end());
  return out;
}

std::vector<UOp> Scheduler::OutputRngs() const {
  std::vector<UOp> out;
  const std::optional<UOp> k_blocks = ReduceBlockLoop();  // ours: it ends the store but is no output axis
  for (const UOp& s : ast_.src()) {
    if (s.op() != Ops::END) continue;
    for (const UOp& r : Ranges(UOp::Sink(s.src().subspan(1))))
      if (RangeAxisType(r) != AxisType::REDUCE && r != k_blocks) out.push_back(r);
  }
  return out;
}

std::vector<UOp> Scheduler::GlobalizableRngs() const {
  std::vector<UOp> ret;
  for (const UOp& r : OutputRngs())
    if (RangeAxisType(r) == AxisType::LOOP) ret.push_back(r);
  // exclude output ranges that don't appear in every BUFFERIZE
  for (const UOp& x : ast_.toposort()) {
    if (x.op() != Ops::BUFFERIZE) continue;
    std::erase_if(ret, [&](const UOp& r) { return !x.has_range(r); });
  }
  return ret;
}

// ** display **

std::vector<std::string> Scheduler::colors() const {
  std::vector<UOp> output_rngs = OutputRngs(), glob = GlobalizableRngs();
  std::vector<std::string> ret;
  for (const UOp& r : rngs()) {
    AxisType t = RangeAxisType(r);
    if (dont_use_locals_ && t == AxisType::GLOBAL) ret.push_back("BLUE");
    else if (!Has(output_rngs, r) && t == AxisType::LOOP) ret.push_back("BLACK");
    else if (!Has(glob, r) && t == AxisType::LOOP) ret.push_back("white");
    else ret.push_back(AxisColor(t));
  }
  return ret;
}

std::string Scheduler::colored_shape() const {
  std::vector<UOp> rs = rngs();
  std::vector<std::string> cs = colors();
  std::vector<std::string> parts;
  for (size_t i = 0; i < rs.size(); ++i) {
    std::string s = Render(Simplify(rs[i].src(0)));
    if (s.size() < 4) s = std::string(4 - s.size(), ' ') + s;
    parts.push_back(Colored(s, cs[i]));
  }
  return absl::StrJoin(parts, " ");
}

// ** actions **

void Scheduler::ConvertLoopToGlobal() {
  if (!ren_->has_local) return;
  std::vector<UOp> glob = GlobalizableRngs();
  SubstituteMap subs;
  for (const UOp& x : rngs()) {
    if (!Has(glob, x)) continue;
    std::vector<Arg> arg = RangeIds(x);
    arg.emplace_back(AxisType::GLOBAL);
    subs[x] = x.replace_arg(Arg::Tuple(arg));
  }
  ast_ = Substitute(ast_, subs);
}

absl::StatusOr<std::pair<UOp, UOp>> Scheduler::ShiftTo(const UOp& rng, int64_t amount, AxisType new_type, bool top,
                                                      std::optional<UOp> input_new_rng) {
  // Split by 1, the kept range is the range itself and the substitution never ends (tinygrad
  // hangs there); a negative amount is no split at all.
  if (amount < 2)
    return KernelOptError(absl::StrCat("can't split ", ReprOf(rng.src(0)), " by ", amount,
                                       ": an amount is at least 2, in ", StripAnsi(colored_shape())));
  UOp old_sz = Divides(rng.src(0), amount);
  if (!old_sz)
    return KernelOptError(absl::StrCat(amount, " can't divide ", ReprOf(rng.src(0)), " in ", StripAnsi(colored_shape())));
  UOp new_rng = input_new_rng ? *input_new_rng : UOp::Range(amount, NextRangeId(), new_type);
  UOp replaced_rng = rng.replace_src({old_sz});
  UOp sub_axis = top ? new_rng * old_sz + replaced_rng : replaced_rng * ConstValue(amount) + new_rng;
  ast_ = Substitute(ast_, {{rng, sub_axis}});
  return std::make_pair(replaced_rng, new_rng);
}

absl::StatusOr<int> Scheduler::RealAxis(OptOps op, std::optional<int64_t> axis) const {
  if (!axis.has_value() || op == OptOps::TC) return -1;
  std::optional<int> r;
  if (op == OptOps::UNROLL) {
    r = PyIndex(unrollable_dims(), *axis);
  } else if (op == OptOps::GROUP || op == OptOps::GROUPTOP) {
    r = PyIndex(axes_of({AxisType::REDUCE}), *axis);
  } else {
    int sl = shape_len();
    if (!(*axis < sl))
      return KernelOptError(absl::StrCat("invalid axis on axis=", *axis, " op=", OptOpsRepr(op), " self.shape_len=", sl));
    // TODO(parity): tinygrad lets a negative axis through here and then fails outside
    // KernelOptError; it is a rejected opt here.
    if (*axis < 0) return KernelOptError(absl::StrCat("invalid axis on axis=", *axis));
    r = static_cast<int>(*axis);
  }
  if (!r) return KernelOptError("");  // tinygrad: IndexError -> KernelOptError()
  return *r;
}

absl::Status Scheduler::ApplyOpt(const Opt& opt, bool append_opt) { return ApplyOptRanges(opt, append_opt).status(); }

absl::StatusOr<std::vector<UOp>> Scheduler::ApplyOptRanges(const Opt& opt, bool append_opt) {
  // tinygrad mutates before some checks; a failed opt restores the state it started from
  // (copy assignment: no range recount, unlike the copy constructor).
  Scheduler saved(ast_, *ren_, NoRecount{});
  saved = *this;
  absl::StatusOr<std::vector<UOp>> r = ApplyOptImpl(opt, append_opt);
  if (!r.ok()) *this = saved;
  return r;
}

absl::StatusOr<std::vector<UOp>> Scheduler::ApplyOptImpl(const Opt& opt, bool append_opt) {
  auto check = [](bool cond, std::string_view msg) { return cond ? absl::OkStatus() : KernelOptError(msg); };
  // ours: after GEMM the kernel is the renderer's generated matmul, with nothing left to shape
  for (const Opt& o : applied_opts_)
    RETURN_IF_ERROR(check(o.op != OptOps::GEMM, "no opt after GEMM: the kernel is a generated matmul"));
  if (opt.op == OptOps::GEMM) {
    RETURN_IF_ERROR(check(applied_opts_.empty(), "GEMM must be the first opt"));
    ASSIGN_OR_RETURN(GemmTiling tiling, GemmTilingOf(opt));
    const std::optional<GemmProblem> problem = MatchGemm(ast_);
    RETURN_IF_ERROR(check(problem.has_value(), "GEMM needs a plain half or bfloat16 matmul kernel"));
    RETURN_IF_ERROR(CheckGemmOn(*ren_, *problem, tiling));
    if (append_opt) applied_opts_.push_back(opt);
    return std::vector<UOp>{};
  }
  if (opt.op == OptOps::NOLOCALS) {
    for (AxisType t : axis_types())
      RETURN_IF_ERROR(check(t != AxisType::WARP && t != AxisType::LOCAL && t != AxisType::GROUP_REDUCE,
                            "no locals can't have locals"));
    if (append_opt) applied_opts_.push_back(opt);
    dont_use_locals_ = true;
    return std::vector<UOp>{};
  }
  if (opt.op == OptOps::SIMD) {
    const int64_t* width = std::get_if<int64_t>(&opt.arg);
    RETURN_IF_ERROR(check(!opt.axis.has_value(), "SIMD takes no axis"));
    RETURN_IF_ERROR(check(width != nullptr && std::ranges::count(ren_->simd_widths, *width) > 0,
                          absl::StrCat("SIMD width ", width != nullptr ? absl::StrCat(*width) : "None", " is not one of the renderer's (",
                                       absl::StrJoin(ren_->simd_widths, ", "), ")")));
    for (const Opt& o : applied_opts_) RETURN_IF_ERROR(check(o.op != OptOps::SIMD, "SIMD applied twice"));
    if (append_opt) applied_opts_.push_back(opt);
    return std::vector<UOp>{};
  }
  if (opt.op == OptOps::PACK) {
    RETURN_IF_ERROR(ApplyPackOpt(opt));
    if (append_opt) applied_opts_.push_back(opt);
    return std::vector<UOp>{};
  }
  if (opt.op == OptOps::BLOCK) {
    ASSIGN_OR_RETURN(std::vector<UOp> ret, ApplyBlockOpt(opt));
    if (append_opt) applied_opts_.push_back(opt);
    return ret;
  }
  if (opt.op == OptOps::LOCAL || opt.op == OptOps::GROUP || opt.op == OptOps::GROUPTOP)
    RETURN_IF_ERROR(check(ren_->has_local, "locals needed for opt"));

  ASSIGN_OR_RETURN(int real_axis, RealAxis(opt.op, opt.axis));
  UOp rng = real_axis >= 0 ? rngs()[real_axis] : UOp::Make(Ops::NOOP);
  // ours: the loop over BLOCK's K blocks runs the reduction in order
  RETURN_IF_ERROR(check(real_axis < 0 || rng != ReduceBlockLoop(),
                        absl::StrCat(opt.ToString(), ": axis ", *opt.axis, " is the loop over K blocks (BLOCK)")));
  const int64_t* int_arg = std::get_if<int64_t>(&opt.arg);

  std::optional<AxisType> new_type;
  switch (opt.op) {
    case OptOps::LOCAL: new_type = AxisType::LOCAL; break;
    case OptOps::UPCAST: new_type = AxisType::UPCAST; break;
    case OptOps::UNROLL: new_type = AxisType::UNROLL; break;
    case OptOps::GROUP:
    case OptOps::GROUPTOP: new_type = AxisType::GROUP_REDUCE; break;
    case OptOps::THREAD: new_type = AxisType::THREAD; break;
    default: break;
  }

  std::vector<UOp> ret;
  if (new_type) {
    if (!int_arg) return KernelOptError(absl::StrCat(opt.ToString(), " needs an int arg"));
    if (rng.op() != Ops::RANGE) return KernelOptError(absl::StrCat(opt.ToString(), " needs an axis"));
    int64_t amt = *int_arg == 0 ? (rng.vmax() + ConstValue(1)).to_int64() : *int_arg;
    std::optional<UOp> red = reduceop();
    bool is_group = opt.op == OptOps::GROUP || opt.op == OptOps::GROUPTOP;
    // copied from kernel.py. prevents METAL compiler hangs
    if (red && (is_group || group_for_reduces() > 0)) {
      std::vector<SInt> fs = full_shape();
      int64_t upcast_local_sz = 1;
      for (int a : axes_of({AxisType::UPCAST, AxisType::WARP, AxisType::LOCAL, AxisType::GROUP_REDUCE})) {
        TG_CHECK(fs[a].is_int()) << "symbolic upcast/local axis";
        upcast_local_sz *= fs[a].value();
      }
      int64_t smem_sz = amt * upcast_local_sz * red->dtype().itemsize();
      RETURN_IF_ERROR(check(smem_sz <= ren_->shared_max, absl::StrCat("exceeds maximum shared memory size: needs ",
                                                                      smem_sz, ", max ", ren_->shared_max)));
    }
    if (red && is_group) {
      // We currently dont support a group within another reduce, TODO: fix if-contexts
      std::optional<UOp> reduce;
      for (const UOp& u : ast_.backward_slice()) {
        if (u.op() != Ops::REDUCE) continue;
        for (const UOp& r : u.src().subspan(1))
          if (r.has_range(rng)) reduce = u;
        if (reduce) break;
      }
      if (!reduce) return KernelOptError("");  // tinygrad: IndexError
      for (const UOp& u : reduce->ranges()) {
        AxisType t = RangeAxisType(u);
        RETURN_IF_ERROR(check(t != AxisType::REDUCE && t != AxisType::UNROLL && t != AxisType::GROUP_REDUCE,
                              "cannot have a GROUP_REDUCE inside another reduce"));
      }
    }
    AxisType rt = RangeAxisType(rng);
    if (opt.op == OptOps::UNROLL) {
      RETURN_IF_ERROR(check(amt <= 32, "don't unroll more than 32"));
      RETURN_IF_ERROR(check(rt == AxisType::GROUP_REDUCE || rt == AxisType::REDUCE, "unroll is for GROUP_REDUCE/REDUCE"));
    }
    if (opt.op == OptOps::UPCAST) {
      RETURN_IF_ERROR(check(ren_->device == "DSP" || amt <= 16, "don't upcast more than 16"));
      RETURN_IF_ERROR(check(rt == AxisType::GLOBAL || rt == AxisType::LOCAL || rt == AxisType::LOOP,
                            "upcast is for GLOBAL/LOCAL/LOOP, not " + AxisTypeStr(rt)));
    }
    if (opt.op == OptOps::LOCAL) {
      RETURN_IF_ERROR(check(!dont_use_locals_, "can't use locals"));
      RETURN_IF_ERROR(check(rt == AxisType::GLOBAL || rt == AxisType::LOOP, "local is for globals"));
    }
    if (opt.op == OptOps::THREAD) {
      RETURN_IF_ERROR(check(ren_->has_threads, "target does not support threads"));
      RETURN_IF_ERROR(check(ren_->global_max.has_value() && amt <= (*ren_->global_max)[0], "too many threads"));
      for (AxisType t : axis_types()) RETURN_IF_ERROR(check(t != AxisType::THREAD, "already threaded"));
      RETURN_IF_ERROR(check(Has(GlobalizableRngs(), rng), "can't apply range to this dim"));
    }
    if (is_group) {
      for (const Opt& o : applied_opts_) RETURN_IF_ERROR(check(o.op != OptOps::TC, "no grouping with tensor cores"));
      RETURN_IF_ERROR(check(!dont_use_locals_, "can't use locals"));
      RETURN_IF_ERROR(check(rt == AxisType::REDUCE, "group is for reduce"));
    }
    ASSIGN_OR_RETURN(auto pr, ShiftTo(rng, amt, *new_type, opt.op == OptOps::GROUPTOP || opt.op == OptOps::THREAD));
    ret = {pr.first, pr.second};
  } else if (opt.op == OptOps::TC) {
    RETURN_IF_ERROR(check(applied_opts_.empty(), "tensor core opts must be first"));
    RETURN_IF_ERROR(check(opt.axis.has_value(), "tensor core opts must have an axis"));
    const auto* tc_arg = std::get_if<std::array<int64_t, 3>>(&opt.arg);
    RETURN_IF_ERROR(check(tc_arg != nullptr, "tensor core opts must have valid arg"));
    int64_t tc_select = (*tc_arg)[0], tc_opt = (*tc_arg)[1], use_tensor_cores = (*tc_arg)[2];
    RETURN_IF_ERROR(check(-1 <= tc_select && tc_select < static_cast<int64_t>(ren_->tensor_cores.size()),
                          "tensor core opts must have valid tc_select"));
    RETURN_IF_ERROR(check(0 <= tc_opt && tc_opt <= 2, "tensor core opts must have valid tc_opt"));
    RETURN_IF_ERROR(check(0 < use_tensor_cores && use_tensor_cores <= 2, "use_tensor_cores value is not valid"));
    ASSIGN_OR_RETURN(std::optional<std::vector<UOp>> axes, ApplyTcOpt(use_tensor_cores, *opt.axis, tc_select, tc_opt));
    RETURN_IF_ERROR(check(axes.has_value(), "no tensor core available"));
    ret = *axes;
  } else if (opt.op == OptOps::PADTO) {
    if (!int_arg || *int_arg <= 0) return KernelOptError(absl::StrCat(opt.ToString(), " needs a positive int arg"));
    if (rng.op() != Ops::RANGE) return KernelOptError(absl::StrCat(opt.ToString(), " needs an axis"));
    AxisType rt = RangeAxisType(rng);
    RETURN_IF_ERROR(check(rng.src(0).op() == Ops::CONST, "only pad const axes"));
    RETURN_IF_ERROR(check(rt != AxisType::UPCAST && rt != AxisType::UNROLL, "cannot pad upcasted"));
    RETURN_IF_ERROR(check(rt != AxisType::THREAD, "cannot pad thread"));
    // ok to pad SUM if all parent ALU ops have f(0) = 0
    if (std::optional<UOp> r = reduceop(); r && (rt == AxisType::GROUP_REDUCE || rt == AxisType::REDUCE))
      RETURN_IF_ERROR(check(r->arg()[0].ops() == Ops::ADD && !OpInBackwardSliceWithSelf(*r, GroupOp::UnsafePad),
                            "cannot pad " + ReprOf(*r)));
    // ours: every reduce over the axis must add zeros on the added iterations (padded_reduce.h)
    if (rt == AxisType::GROUP_REDUCE || rt == AxisType::REDUCE)
      RETURN_IF_ERROR(check(PaddedReducesAddZeros(ast_, rng), "cannot pad a reduce that adds nonzero values where its reads are padded"));
    int64_t sz = (rng.vmax() + ConstValue(1)).to_int64();
    int64_t new_sz = (sz + *int_arg - 1) / *int_arg * *int_arg;
    RETURN_IF_ERROR(check(sz > new_sz / 4, "pad adds more than quadruple the work"));
    UOp replaced_rng = rng.replace_src({UOp::Const(dtypes::index, ConstValue(new_sz))});
    SubstituteMap replaces{{rng, replaced_rng}};
    UOp valid = replaced_rng.lt(ConstValue(sz));
    // ours, with SIMD on a CPU renderer: a padded output axis clamps the index of its loads to
    // the last real row instead of gating them (the stores keep the gate). The padded lanes then
    // compute garbage from real elements that no store writes, and the inner loop keeps no
    // branch per load: a 6x16 tile on a 512 matmul (PADTO0:6) ran at 0.45x of its clamped self.
    // A reduce axis must stay gated (its padding has to add zeros).
    const bool clamp_loads = !ren_->has_local && rt != AxisType::REDUCE && rt != AxisType::GROUP_REDUCE &&
                             std::ranges::any_of(applied_opts_, [](const Opt& o) { return o.op == OptOps::SIMD; });
    // the buffers any STORE writes (their loads keep the gate too: a clamped read of a buffer
    // the kernel also writes is not worth the reasoning)
    auto buffers_of = [](const UOp& u) {
      std::vector<UOp> out;
      for (const UOp& y : u.toposort())
        if (y.op() == Ops::DEFINE_GLOBAL || y.op() == Ops::DEFINE_LOCAL || y.op() == Ops::DEFINE_REG) out.push_back(y);
      return out;
    };
    absl::flat_hash_set<UOp> stored;
    for (const UOp& x : ast_.toposort())
      if (x.op() == Ops::STORE)
        for (const UOp& y : buffers_of(x.src(0))) stored.insert(y);
    auto only_read = [&](const UOp& index) {
      std::vector<UOp> bs = buffers_of(index.src(0));
      return !bs.empty() && std::ranges::none_of(bs, [&](const UOp& y) { return stored.contains(y); });
    };
    const UOp clamped = valid.where(replaced_rng, ConstValue(sz - 1));
    for (const UOp& b : bufs()) {
      UOp i = GetIdx(b.src(1));
      if (!InBackwardSliceWithSelf(i, rng)) continue;
      if (clamp_loads && only_read(b)) {
        replaces[b] = b.replace_src({b.src(0), Substitute(b.src(1), {{rng, clamped}})});
        continue;
      }
      replaces[b] = b.replace_src({b.src(0), (valid & GetValid(b.src(1))).where(i, UOp::Invalid())});
    }
    ast_ = Substitute(ast_, replaces);
  } else if (opt.op == OptOps::SWAP) {
    std::vector<UOp> rs = rngs();
    std::vector<int> idxs(rs.size());
    for (size_t i = 0; i < rs.size(); ++i) idxs[i] = static_cast<int>(i);
    std::optional<int> alt = int_arg ? PyIndex(idxs, *int_arg) : std::nullopt;
    if (!alt) return KernelOptError("");  // tinygrad: IndexError -> KernelOptError()
    if (rng.op() != Ops::RANGE) return KernelOptError(absl::StrCat(opt.ToString(), " needs an axis"));
    UOp altrng = rs[*alt];
    RETURN_IF_ERROR(check(RangeAxisType(rng) == AxisType::GLOBAL && RangeAxisType(altrng) == AxisType::GLOBAL,
                          "swap only for globals"));
    std::vector<Arg> a1 = RangeIds(altrng), a2 = RangeIds(rng);
    a1.emplace_back(RangeAxisType(rng));
    a2.emplace_back(RangeAxisType(altrng));
    ast_ = Substitute(ast_, {{rng, rng.replace_arg(Arg::Tuple(a1)).replace_tag(Arg(1))},
                             {altrng, altrng.replace_arg(Arg::Tuple(a2)).replace_tag(Arg(1))}});
    ast_ = GraphRewrite(ast_, RemoveTags(), {.name = "swap remove tags"});
  } else {
    return KernelOptError(absl::StrCat("unsupported opt ", std::string(OptOpsName(opt.op))));
  }
  if (append_opt) applied_opts_.push_back(opt);
  return ret;
}

std::string Scheduler::KernelName() const {
  std::vector<UOp> specials;
  for (const UOp& x : ast_.toposort())
    if (x.op() == Ops::SPECIAL) specials.push_back(x);
  std::sort(specials.begin(), specials.end(),
            [](const UOp& a, const UOp& b) { return a.arg().str() < b.arg().str(); });
  std::vector<std::string> parts{""};
  for (const UOp& x : specials)
    parts.push_back(Colored((x.vmax() + ConstValue(1)).repr(), x.arg().str()[0] == 'g' ? "blue" : "cyan"));
  std::vector<UOp> rs = rngs();
  std::vector<std::string> cs = colors();
  for (size_t i = 0; i < rs.size(); ++i) parts.push_back(Colored(Render(Simplify(rs[i].src(0))), cs[i]));
  std::string name = reduceop() ? "r" : "E";
  std::string sep = Colored("_", "BLACK");
  for (size_t i = 0; i < parts.size(); ++i) name += (i ? sep : "") + parts[i];
  return name;
}

UOp Scheduler::GetOptimizedAst(std::optional<std::string> name_override) const {
  std::string name;
  if (name_override) {
    name = *name_override;
  } else {
    name = KernelName();
    std::string fn = KernelInfo{.name = name}.function_name();
    int cnt;
    {
      KernelCounts& c = Counts();
      std::lock_guard<std::mutex> lock(c.mu);
      cnt = ++c.counts[fn];
    }
    name += Colored(cnt > 1 ? "n" + std::to_string(cnt - 1) : "", "BLACK");
  }
  UOp flat = GraphRewrite(ast_, PmFlattenRange(), {.name = "flatten range"});
  KernelInfo ki{.name = name, .dont_use_locals = dont_use_locals_};
  for (const Opt& o : applied_opts_) ki.applied_opts.push_back(OptToArg(o));
  return flat.replace_arg(ki.ToArg()).replace_tag(Arg(1));
}

void ResetKernelNameCounts() {
  KernelCounts& c = Counts();
  std::lock_guard<std::mutex> lock(c.mu);
  c.counts.clear();
}

}  // namespace tg
