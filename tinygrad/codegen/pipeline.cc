// File: tinygrad/codegen/pipeline.cc
// Port of tinygrad/codegen/__init__.py: pm_syntactic_sugar, full_rewrite_to_sink, get_program
// (with pm_to_program's linearize and render steps).
#include "tinygrad/codegen/pipeline.h"

#include <iostream>
#include <string>
#include <variant>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/base/terminal.h"
#include "tinygrad/codegen/expander.h"
#include "tinygrad/codegen/gemm_program.h"
#include "tinygrad/codegen/gpudims.h"
#include "tinygrad/codegen/linearizer.h"
#include "tinygrad/codegen/lower/decompositions.h"
#include "tinygrad/codegen/lower/devectorizer.h"
#include "tinygrad/codegen/lower/lower_index.h"
#include "tinygrad/codegen/opt/opt.h"
#include "tinygrad/codegen/opt/pack_operands.h"
#include "tinygrad/codegen/opt/postrange.h"
#include "tinygrad/codegen/program.h"
#include "tinygrad/schedule/local_buffers.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/pyrender.h"
#include "tinygrad/uop/rewrite_trace.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/uop/movement/movement.h"
#include "tinygrad/uop/spec.h"
#include "tinygrad/uop/symbolic/range_simplify.h"
#include "tinygrad/uop/symbolic/symbolic.h"

namespace tg {
namespace {

// The fixed rule-set sums of the pipeline, built once.
struct Matchers {
  PatternMatcher early_mops = PmMops() + PmSyntacticSugar();
  PatternMatcher split_ranges = PmSplitRanges() + PmFlattenRange();
  PatternMatcher initial_symbolic = Sym() + PmFlattenRange();
  PatternMatcher postopt_symbolic = Sym() + PmMoveWhereOnLoad();
  PatternMatcher expander = Sym() + PmPreExpander() + PmGroupForReduce() + Expander();
  PatternMatcher add_local_buffers = PmAddBuffersLocal() + RangeifyCodegen();
  PatternMatcher remove_reduce = PmReduce() + GepPushing();
  PatternMatcher devectorize2 = Sym() + LoadStoreFolding() + LoadStoreIndexing();
  PatternMatcher devectorize1 =
      Sym() + Devectorize() + LoadStoreFolding() + CorrectLoadStore() + LoadStoreIndexing();
  PatternMatcher devectorize0 = Sym() + LoadStoreFolding() + CorrectLoadStore() + LoadStoreIndexing();
  PatternMatcher lower_index = PmLowerIndexDtype() + LoadStoreIndexing();
};
const Matchers& M() {
  static const auto* const kMatchers = new Matchers();
  return *kMatchers;
}

// The width of the kernel's SIMD opt (an extension of ours), 0 without one.
int SimdWidth(const UOp& sink) {
  if (!KernelInfo::IsKernelInfo(sink.arg())) return 0;
  for (const Arg& a : KernelInfo::FromArg(sink.arg()).applied_opts) {
    absl::StatusOr<Opt> o = OptFromArg(a);
    if (o.ok() && o->op == OptOps::SIMD) return static_cast<int>(std::get<int64_t>(o->arg));
  }
  return 0;
}

const PatternMatcher& Empty() {
  static const auto* const kEmpty = new PatternMatcher(std::vector<Rule>{});
  return *kEmpty;
}

}  // namespace

const PatternMatcher& PmSyntacticSugar() {
  static const auto* const kRules = new PatternMatcher({
      // INDEX on ptr INDEX concats them
      Rule(UPat(Ops::INDEX).src({UPat(Ops::INDEX).named("i1")}).allow_any_len().named("i2"),
           [](const Match& m) {
             const UOp &i1 = m["i1"], &i2 = m["i2"];
             if (!i1.dtype().is_ptr() || i2.dtype().is_ptr()) return UOp();
             std::vector<UOp> src(i1.src().begin(), i1.src().end());
             src.insert(src.end(), i2.src().begin() + 1, i2.src().end());
             return i2.replace_src(src);
           }),
  });
  return *kRules;
}

absl::StatusOr<UOp> FullRewriteToSink(const UOp& ast, const Renderer& ren, bool optimize,
                                      const CodegenOptions& options) {
  return FullRewriteToSinkTraced(ast, ren, optimize, options, [](std::string_view, const UOp&) {});
}

absl::StatusOr<UOp> FullRewriteToSinkTraced(const UOp& ast, const Renderer& ren, bool optimize,
                                            const CodegenOptions& cfg, PassObserver observer) {
  const Matchers& m = M();
  if (cfg.debug >= 5) std::cout << ForStream(PyRender(ast), stdout) << std::endl;  // tinygrad: pyrender
  UOp sink = ast;
  // one graph_rewrite, reported to the observer under its name
  auto run = [&](const PatternMatcher& pm, const RewriteOptions& opts) {
    sink = GraphRewrite(sink, pm, opts);
    observer(opts.name, sink);
  };

  // preprocess
  run(m.early_mops, {.name = "early movement ops", .bottom_up = true});

  // first we optimize
  if (optimize) {
    // collapse loads reduce (indexing by a tensor)
    run(PmLoadCollapse(), {.name = "load collapse"});
    // split ranges
    SplitRangesContext split_ctx;
    run(m.split_ranges, {.name = "split ranges", .ctx = RewriteCtx::Of(split_ctx)});
    // symbolic (required for pm_simplify_ranges to be correct)
    run(m.initial_symbolic, {.name = "initial symbolic"});
    // optimize (schedule) the AST
    run(PmSimplifyRanges(), {.name = "simplify ranges"});
    // split store range (only on CPU for now)
    const std::string& device = ren.device;
    run(PmSplitStore(), {.name = "cut store ranges", .ctx = RewriteCtx::Of(device)});
    // TODO(parity): make_images (IMAGE=1 on QCOM/CL) is not ported.
    // postrange optimization: opts_to_apply or hand_coded_optimizations
    ASSIGN_OR_RETURN(sink, ApplyOpts(sink, ren, cfg));
    observer("apply_opts", sink);
  }
  // ours: the PACK opts' copies of operand panels, in the final loop nest
  ASSIGN_OR_RETURN(sink, PackOperands(sink));

  // ** expander (expand_rewrite) **
  run(m.postopt_symbolic, {.name = "postopt symbolic"});
  // expand
  run(m.expander, {.name = "expander"});
  // add locals
  int64_t counter = 0;
  run(m.add_local_buffers, {.name = "add local buffers", .ctx = RewriteCtx::Of(counter)});

  // ** devectorizer (full_graph_rewrite) **
  // remove reduce
  ReduceContext reduce_ctx;
  run(m.remove_reduce, {.name = "remove_reduce", .ctx = RewriteCtx::Of(reduce_ctx)});
  // add gpu dims (late); this works after devectorize, but it's faster here
  RETURN_IF_ERROR(CheckLaunchDims(sink, ren));
  run(PmAddGpudims(), {.name = "add gpudims", .ctx = RewriteCtx::Of(ren)});

  // ** optimizations are done, now we lower to actual code **
  run(PmAddLoads(), {.name = "** add loads (code)"});
  const PatternMatcher& pm_devectorize =
      cfg.devectorize >= 2 ? m.devectorize2 : (cfg.devectorize ? m.devectorize1 : m.devectorize0);
  const LoadStoreTarget target{.ren = &ren, .simd_width = SimdWidth(sink)};
  run(pm_devectorize, {.name = "devectorize", .ctx = RewriteCtx::Of(target)});
  // ours: a program this big is rejected for its size anyway (CodegenOptions::max_devectorized_nodes)
  if (cfg.max_devectorized_nodes > 0) {
    if (const size_t nodes = sink.toposort().size(); static_cast<int64_t>(nodes) >= cfg.max_devectorized_nodes)
      return absl::ResourceExhaustedError(absl::StrCat("too many uops: ", nodes, " after devectorize, the limit ",
                                                       cfg.max_devectorized_nodes));
  }

  // lower the index dtype to a concrete int
  const std::string& device = ren.device;
  run(m.lower_index, {.name = "lower all index dtypes", .ctx = RewriteCtx::Of(device)});
  run(Symbolic(), {.name = "post index symbolic"});

  // optional pre matcher
  if (ren.pre_matcher != nullptr) run(*ren.pre_matcher, {.name = "pre_matcher"});

  // decompositions
  PatternMatcher pm_decomp =
      SymbolicSimple() + GetLateRewritePatterns(ren.code_for_op, cfg.transcendental >= 2, cfg.disable_fast_idiv);
  run(pm_decomp, {.name = "decompositions", .ctx = RewriteCtx::Of(device)});

  // final rules for the renderer (without sym)
  const PatternMatcher& extra = ren.extra_matcher != nullptr ? *ren.extra_matcher : Empty();
  PatternMatcher pm_final = pm_decomp + PmRender() + extra + PmSplitEnds();
  run(pm_final, {.name = "final rewrite", .ctx = RewriteCtx::Of(device)});

  // this was the linearizer
  CFGContext cfg_ctx(sink);
  run(PmAddControlFlow(), {.name = "add control flow", .bottom_up = true, .ctx = RewriteCtx::Of(cfg_ctx)});
  return sink;
}

// (`struct`: spec.h also declares a function named ProgramSpec, the program_spec rule set.)
absl::StatusOr<struct ProgramSpec> GetProgram(const UOp& ast, const Renderer& ren, const CodegenOptions& cfg) {
  if (!ast || ast.op() != Ops::SINK) return absl::InvalidArgumentError("get_program needs a SINK kernel AST");
  // TRACK_MATCH_STATS >= 2: this kernel's rewrites form one group, named after the kernel
  ScopedTraceGroup trace_group("get_program");
  // fix up KernelInfo
  UOp sink = ast.arg().is_none() ? ast.replace_arg(KernelInfo{}.ToArg()) : ast;
  if (!KernelInfo::IsKernelInfo(sink.arg())) return absl::InvalidArgumentError("the kernel SINK's arg is not a KernelInfo");
  bool optimize = sink.tag().is_none();
  if (cfg.spec) RETURN_IF_ERROR(VerifySpec(sink, SpecKind::kKernel));
  // ours: a GEMM opt makes the kernel the renderer's generated matmul, nothing to lower
  if (optimize) {
    ASSIGN_OR_RETURN(std::optional<struct ProgramSpec> gemm, GemmProgram(sink, ren));
    if (gemm.has_value()) return *std::move(gemm);
  }

  ASSIGN_OR_RETURN(UOp full_sink, FullRewriteToSink(sink, ren, optimize, cfg));
  // pm_to_program: linearize (+ IF/ENDIF cleanups), render
  std::vector<UOp> lst = LinearizeCleanups(Linearize(full_sink));
  if (cfg.spec) RETURN_IF_ERROR(VerifySpec(lst, SpecKind::kProgram));
  if (cfg.debug >= 6) std::cout << ForStream(PrintUops(lst), stdout) << std::flush;
  RETURN_IF_ERROR(ren.CheckRenderable(lst));
  std::string src = ren.Render(lst);
  std::string linear = trace_group.active() ? StripAnsi(PrintUops(lst)) : std::string();
  struct ProgramSpec spec = ProgramSpecFromUops(ast, std::move(lst), std::move(src), ren.device);
  trace_group.Rename(StripAnsi(spec.name));
  if (trace_group.active()) {
    trace_group.AttachProgram({.name = StripAnsi(spec.name), .device = spec.device, .source = spec.src,
                               .linear = absl::StrSplit(linear, '\n', absl::SkipEmpty())});
  }
  return spec;
}

}  // namespace tg
