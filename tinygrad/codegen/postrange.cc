// File: tinygrad/codegen/postrange.cc
// Port of tinygrad/codegen/opt/postrange.py: Scheduler.rngs, _output_rngs,
// _globalizable_rngs, convert_loop_to_global, colors, get_optimized_ast and apply_opts (no opts).
#include "tinygrad/codegen/postrange.h"

#include <algorithm>
#include <cctype>
#include <mutex>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "tinygrad/base/config.h"
#include "tinygrad/codegen/graph_util.h"
#include "tinygrad/codegen/simplify.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/uop/render.h"
#include "tinygrad/uop/symbolic/helpers.h"
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

// tinygrad's colored(): an ANSI SGR code, bright for upper-case color names.
std::string Colored(const std::string& st, const std::string& color) {
  static const char* const kColors[] = {"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"};
  std::string lower = color;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  int idx = 0;
  for (int i = 0; i < 8; ++i)
    if (lower == kColors[i]) idx = i;
  bool bright = !color.empty() && std::isupper(static_cast<unsigned char>(color[0]));
  return "\x1b[" + std::to_string(60 * bright + 30 + idx) + "m" + st + "\x1b[0m";
}

std::vector<UOp> OutputRngs(const UOp& ast) {
  std::vector<UOp> out;
  for (const UOp& s : ast.src()) {
    if (s.op() != Ops::END) continue;
    for (const UOp& r : Ranges(UOp::Sink(s.src().subspan(1))))
      if (RangeAxisType(r) != AxisType::REDUCE) out.push_back(r);
  }
  return out;
}

std::vector<UOp> GlobalizableRngs(const UOp& ast) {
  std::vector<UOp> ret;
  for (const UOp& r : OutputRngs(ast))
    if (RangeAxisType(r) == AxisType::LOOP) ret.push_back(r);
  // exclude output ranges that don't appear in every BUFFERIZE
  for (const UOp& x : ast.toposort()) {
    if (x.op() != Ops::BUFFERIZE) continue;
    std::erase_if(ret, [&](const UOp& r) { return !x.has_range(r); });
  }
  return ret;
}

struct KernelCounts {
  std::mutex mu;
  absl::flat_hash_map<std::string, int> counts;
};
KernelCounts& Counts() {
  static auto* const kCounts = new KernelCounts();
  return *kCounts;
}

}  // namespace

std::vector<UOp> KernelRanges(const UOp& ast) {
  std::vector<UOp> out;
  for (const UOp& u : ast.backward_slice())
    if (u.op() == Ops::RANGE && PyGt(u.vmax(), ConstValue(0))) out.push_back(u);
  std::stable_sort(out.begin(), out.end(), [](const UOp& a, const UOp& b) {
    int pa = AxisToPos(RangeAxisType(a)), pb = AxisToPos(RangeAxisType(b));
    if (pa != pb) return pa < pb;
    return RangeArgLess(Arg::Tuple(RangeIds(a)), Arg::Tuple(RangeIds(b)));
  });
  return out;
}

UOp ConvertLoopToGlobal(const UOp& ast, const Renderer& ren) {
  if (!ren.has_local) return ast;
  std::vector<UOp> glob = GlobalizableRngs(ast);
  SubstituteMap subs;
  for (const UOp& x : KernelRanges(ast)) {
    if (std::find(glob.begin(), glob.end(), x) == glob.end()) continue;
    std::vector<Arg> arg = RangeIds(x);
    arg.emplace_back(AxisType::GLOBAL);
    subs[x] = x.replace_arg(Arg::Tuple(arg));
  }
  return Substitute(ast, subs);
}

UOp GetOptimizedAst(const UOp& ast, const std::optional<std::string>& name_override) {
  KernelInfo old = KernelInfo::IsKernelInfo(ast.arg()) ? KernelInfo::FromArg(ast.arg()) : KernelInfo{};
  std::string name;
  if (name_override) {
    name = *name_override;
  } else {
    bool has_reduce = false;
    std::vector<UOp> specials;
    for (const UOp& x : ast.toposort()) {
      has_reduce |= (x.op() == Ops::REDUCE && x != ast);
      if (x.op() == Ops::SPECIAL) specials.push_back(x);
    }
    std::sort(specials.begin(), specials.end(),
              [](const UOp& a, const UOp& b) { return a.arg().str() < b.arg().str(); });
    std::vector<std::string> parts{""};
    for (const UOp& x : specials)
      parts.push_back(Colored((x.vmax() + ConstValue(1)).repr(), x.arg().str()[0] == 'g' ? "blue" : "cyan"));
    std::vector<UOp> rngs = KernelRanges(ast);
    std::vector<UOp> output_rngs = OutputRngs(ast), glob = GlobalizableRngs(ast);
    for (const UOp& r : rngs) {
      AxisType t = RangeAxisType(r);
      std::string color;
      bool is_output = std::find(output_rngs.begin(), output_rngs.end(), r) != output_rngs.end();
      bool is_glob = std::find(glob.begin(), glob.end(), r) != glob.end();
      if (old.dont_use_locals && t == AxisType::GLOBAL) {
        color = "BLUE";
      } else if (!is_output && t == AxisType::LOOP) {
        color = "BLACK";
      } else if (!is_glob && t == AxisType::LOOP) {
        color = "white";
      } else {
        color = AxisColor(t);
      }
      parts.push_back(Colored(Render(Simplify(r.src(0))), color));
    }
    name = has_reduce ? "r" : "E";
    std::string sep = Colored("_", "BLACK");
    for (size_t i = 0; i < parts.size(); ++i) name += (i ? sep : "") + parts[i];
    std::string fn = KernelInfo{.name = name}.function_name();
    int cnt;
    {
      KernelCounts& c = Counts();
      std::lock_guard<std::mutex> lock(c.mu);
      cnt = ++c.counts[fn];
    }
    name += Colored(cnt > 1 ? "n" + std::to_string(cnt - 1) : "", "BLACK");
  }
  UOp flat = GraphRewrite(ast, PmFlattenRange(), {.name = "flatten range"});
  KernelInfo ki{.name = name, .dont_use_locals = old.dont_use_locals, .applied_opts = old.applied_opts};
  return flat.replace_arg(ki.ToArg()).replace_tag(Arg(1));
}

absl::StatusOr<UOp> ApplyOpts(const UOp& ast, const Renderer& ren) {
  if (!ast.tag().is_none()) return ast;
  KernelInfo ki = KernelInfo::IsKernelInfo(ast.arg()) ? KernelInfo::FromArg(ast.arg()) : KernelInfo{};
  UOp k = ConvertLoopToGlobal(ast, ren);
  // ** where the optimizer goes (issue 4) **
  // tinygrad: opts_to_apply -> apply each; BEAM>=1 -> beam_search; else unless NOOPT (and no
  // opts applied yet, and no BUFFERIZE in the AST) -> hand_coded_optimizations.
  if (ki.opts_to_apply.has_value())
    return absl::UnimplementedError("KernelInfo.opts_to_apply is set, but opts are not supported yet");
  if (GetConfig().beam >= 1) return absl::UnimplementedError("BEAM search is not supported yet");
  // TODO(parity): hand_coded_optimizations (not NOOPT) is not ported; kernels stay unoptimized.
  std::optional<std::string> name_override;
  if (KernelInfo::IsKernelInfo(ast.arg()) && ki.name != "test") name_override = ki.name;
  return GetOptimizedAst(k, name_override);
}

void ResetKernelNameCounts() {
  KernelCounts& c = Counts();
  std::lock_guard<std::mutex> lock(c.mu);
  c.counts.clear();
}

}  // namespace tg
