// File: autotune/search/gpu_action_sweep_test.cc
// BEAM's GPU action space run on the UOp emulator: every candidate's output against the
// unoptimized kernel's.
//
// BEAM checks each candidate against the unoptimized kernel only where it runs, on a GPU, and
// GPU machines are rare here; the emulator (tinygrad's PYTHON device) runs the same programs
// with a GPU's semantics on the host. For each kernel of small Tensor programs (matmuls in
// float, half and bfloat16 with tensor cores, a padded conv2d, reductions over every axis,
// softmax, argmax, cumsum, max_pool2d, broadcasting, integer division, a symbolic reduce) the
// candidates are built as BEAM builds them: the optimizer's input (OptimizerInput) with loops
// made global, actions (BeamActions with TC, BEAM_PADTO and NOLOCALS) applied by the Scheduler
// and kept when GetKernelActions would keep them, then lowered as the measurer lowers them
// (GetProgram of CandidateAst). Every single action that applies is a candidate, then seeded
// random chains of 2-4 actions.
//
// A candidate that fails to lower with an error is counted (BEAM skips it). One that lowers and
// then fails in the interpreter (an access out of bounds, a loop the threads disagree on), or
// whose output differs from the unoptimized kernel's on the same inputs, is a bug: its kernel,
// opts, first differing elements and program are printed. Each kernel's outputs start as a
// sentinel (all bits set), so an element a candidate never writes differs too. An action the
// Scheduler refuses with an error that is no KernelOptError is a bug as well (it would end a
// search). Besides the emulator's own renderer (EMULATE=CUDA, and the tensor cores of AMD's
// RDNA3 and CDNA and of Metal), the CUDA and HIP renderers' programs run as uops.
//
// Bugs it found: the interpreter refused RANGEs carrying the linearizer's ordering edges
// (uop_interpreter_test), and PADTO padded reduces whose padded iterations add nonzero values
// (padded_reduce.h; scheduler_test). Per-program totals are printed.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "autotune/key/search_settings.h"
#include "autotune/measure/candidate_ast.h"
#include "autotune/search/beam_search.h"
#include "gtest/gtest.h"
#include "tinygrad/base/check.h"
#include "tinygrad/codegen/opt/scheduler.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/emulator/emulator_renderer.h"
#include "tinygrad/emulator/emulator_test_util.h"
#include "tinygrad/renderer/cuda/cuda.h"
#include "tinygrad/renderer/hip/hip.h"
#include "tinygrad/runtime/cuda/arch.h"
#include "tinygrad/schedule/schedule.h"
#include "tinygrad/tensor/tensor.h"

namespace tg::autotune {
namespace {

using emulator_testing::HostBuffers;
using emulator_testing::In;
using emulator_testing::IntIn;

// What BEAM runs with on a GPU that has tensor cores, plus the optional actions.
SearchSettings GpuSettings() {
  SearchSettings s;
  s.padto = true;
  s.nolocals = true;
  return s;
}

// The candidate being lowered or run, for the SIGABRT handler: an abort (a failed CHECK) ends
// the test, and this says which candidate did it.
char g_current[4096] = "";
void PrintCurrentOnAbort(int) {
  const char prefix[] = "\n*** aborted while lowering or running: ";
  (void)!write(2, prefix, sizeof(prefix) - 1);
  (void)!write(2, g_current, strnlen(g_current, sizeof(g_current)));
  (void)!write(2, "\n", 1);
}

struct Totals {
  int64_t kernels = 0;
  int64_t candidates = 0;  // opt lists tried
  int64_t lowered = 0;     // of those, lowered to a program
  int64_t opt_refused = 0;  // single actions the Scheduler refused (KernelOptError)
  int64_t refused = 0;     // failed to lower with an error (BEAM skips them)
  int64_t compared = 0;    // ran and compared equal
  int64_t bugs = 0;        // failed in the interpreter, or a different output
  int64_t unrunnable = 0;  // lowered by a real GPU renderer to ops the emulator cannot load
  absl::flat_hash_map<std::string, int64_t> refusals;  // by the error's first line
};

std::string OptsText(const std::vector<Opt>& opts) {
  std::string s = "[";
  for (const Opt& o : opts) s += (s.size() > 1 ? ", " : "") + o.ToString();
  return s + "]";
}

// Per dtype: |got - want| <= atol + rtol * |want| for floats, bit-exact otherwise.
struct Tolerance {
  double rtol, atol;
};
std::optional<Tolerance> ToleranceOf(DType d) {
  if (d == dtypes::float32 || d == dtypes::float64) return Tolerance{1e-5, 1e-6};
  if (d == dtypes::float16) return Tolerance{4e-3, 4e-3};
  if (d == dtypes::bfloat16) return Tolerance{3e-2, 3e-2};
  return std::nullopt;
}

// The first few elements where `got` differs from `want` (buffers of `d`), "" when none.
std::string Differences(DType d, std::span<const std::byte> got, std::span<const std::byte> want) {
  const size_t n = want.size() / d.itemsize();
  std::optional<Tolerance> tol = ToleranceOf(d);
  std::string out;
  int shown = 0;
  int64_t bad = 0;
  for (size_t i = 0; i < n; ++i) {
    const std::byte* g = got.data() + i * d.itemsize();
    const std::byte* w = want.data() + i * d.itemsize();
    bool same;
    if (tol) {
      const double gv = emulator_testing::ElementAsDouble(g, d), wv = emulator_testing::ElementAsDouble(w, d);
      same = (std::isnan(gv) && std::isnan(wv)) || gv == wv || std::fabs(gv - wv) <= tol->atol + tol->rtol * std::fabs(wv);
    } else {
      same = std::memcmp(g, w, d.itemsize()) == 0;
    }
    if (same) continue;
    ++bad;
    if (shown++ < 6)
      absl::StrAppend(&out, "  element ", i, ": got ", emulator_testing::ElementAsDouble(g, d), ", unoptimized ",
                      emulator_testing::ElementAsDouble(w, d), "\n");
  }
  if (bad) absl::StrAppend(&out, "  ", bad, " of ", n, " elements differ\n");
  return out;
}

// One kernel of a schedule, ready to run candidates: its AST, the unoptimized program's
// buffers (inputs as the earlier kernels left them) and outputs.
struct KernelUnderTest {
  std::string name;
  UOp ast;
  std::vector<DType> slot_dtypes;                      // per DEFINE_GLOBAL slot
  std::vector<std::vector<std::byte>> inputs;          // per slot; outputs hold the sentinel
  std::vector<bool> is_output;                         // per slot
  std::vector<std::vector<std::byte>> want;            // per slot: the unoptimized outputs
  std::vector<int64_t> vals;
  std::vector<UOp> vars;
  emulator_testing::ProgramForm form = emulator_testing::ProgramForm::kText;
};

// What running a program gave: "" (outputs equal), the differences or the interpreter's
// error, or `unrunnable` (the interpreter cannot load what a non-emulator renderer left).
struct RunOutcome {
  std::string diff;
  bool unrunnable = false;
};

// Runs `p` on copies of k's inputs; the error, or the differences of its outputs.
RunOutcome RunAndCompare(const KernelUnderTest& k, const ProgramSpec& p, std::vector<std::vector<std::byte>>* outs) {
  std::vector<std::vector<std::byte>> mem = k.inputs;
  std::vector<std::span<std::byte>> bufs;
  for (int64_t slot : p.globals) {
    if (slot < 0 || static_cast<size_t>(slot) >= mem.size()) return {absl::StrCat("  global slot ", slot, " is not the kernel's\n")};
    bufs.emplace_back(mem[static_cast<size_t>(slot)]);
  }
  std::vector<int64_t> vals;
  for (const UOp& v : p.vars) {
    auto it = std::find(k.vars.begin(), k.vars.end(), v);
    if (it == k.vars.end()) return {absl::StrCat("  a variable the unoptimized kernel does not have: ", v.arg()[0].str(), "\n")};
    vals.push_back(k.vals[static_cast<size_t>(it - k.vars.begin())]);
  }
  if (absl::Status st = emulator_testing::RunProgram(p, bufs, vals, nullptr, k.form); !st.ok()) {
    // a renderer's late rewrites may leave ops the emulator has no model for (Load's Unimplemented)
    const bool unrunnable = k.form == emulator_testing::ProgramForm::kUops && st.code() == absl::StatusCode::kUnimplemented;
    return {absl::StrCat("  interpreter: ", st.ToString(), "\n"), unrunnable};
  }
  std::string diff;
  for (size_t slot = 0; slot < mem.size(); ++slot) {
    if (!k.is_output[slot]) continue;
    if (outs == nullptr) {
      std::string d = Differences(k.slot_dtypes[slot], mem[slot], k.want[slot]);
      if (!d.empty()) absl::StrAppend(&diff, "  output slot ", slot, " (", k.slot_dtypes[slot].repr(), "):\n", d);
    }
  }
  if (outs != nullptr) *outs = std::move(mem);
  return {diff};
}

// Lowers and checks one candidate, counting it.
void TryCandidate(const KernelUnderTest& k, const Renderer& ren, const std::vector<Opt>& opts, Totals& t) {
  std::snprintf(g_current, sizeof(g_current), "%s on %s: %s", k.name.c_str(), ren.device.c_str(), OptsText(opts).c_str());
  t.candidates += 1;
  absl::StatusOr<ProgramSpec> p = GetProgram(CandidateAst(k.ast, opts), ren, CodegenOptions{});
  if (!p.ok()) {
    t.refused += 1;
    std::string why(p.status().message());
    t.refusals[why.substr(0, why.find('\n')).substr(0, 100)] += 1;
    return;
  }
  t.lowered += 1;
  RunOutcome run = RunAndCompare(k, *p, nullptr);
  if (run.unrunnable) {
    t.unrunnable += 1;
    t.refusals[absl::StrCat("(not run) ", run.diff.substr(0, run.diff.find('\n')).substr(0, 100))] += 1;
    return;
  }
  const std::string& diff = run.diff;
  if (diff.empty()) {
    t.compared += 1;
    return;
  }
  t.bugs += 1;
  ADD_FAILURE() << k.name << " on " << ren.device << " with " << OptsText(opts) << ":\n" << diff.substr(0, 4000)
                << (t.bugs <= 3 ? absl::StrCat("program:\n", p->src.substr(0, 20000)) : "");
}

// Seeded chains of 2-4 actions: each step an action that applies to the chain so far and
// stays within BEAM's limits (a first step from `singles`, the actions that apply alone).
std::vector<std::vector<Opt>> RandomChains(const std::vector<std::pair<int, Scheduler>>& singles,
                                           const std::vector<Opt>& actions, const SearchSettings& settings, int count,
                                           uint64_t seed) {
  std::vector<std::vector<Opt>> chains;
  if (singles.empty()) return chains;
  std::mt19937_64 rng(seed);
  const SearchLimits limits = SearchLimitsFor(settings, VectorIsa{});
  absl::flat_hash_set<std::string> seen;
  for (int attempt = 0; attempt < count * 4 && static_cast<int>(chains.size()) < count; ++attempt) {
    Scheduler cur = singles[rng() % singles.size()].second;
    const int length = 2 + static_cast<int>(rng() % 3);
    for (int step = 1; step < length; ++step) {
      for (int tries = 0; tries < 40; ++tries) {
        Scheduler next = cur;
        if (!next.ApplyOpt(actions[rng() % actions.size()]).ok() || !WithinLimits(next, limits, settings, VectorIsa{})) continue;
        cur = std::move(next);
        break;
      }
    }
    if (cur.applied_opts().size() < 2 || !seen.insert(OptsText(cur.applied_opts())).second) continue;
    chains.push_back(cur.applied_opts());
  }
  return chains;
}

// GPU_ACTION_SWEEP_SCALE=N (bazel test --test_env=...) multiplies the random chains per kernel:
// more for a deeper sweep than CI's, 0 for single actions only (an ASAN run); 1 by default.
int ChainScale() {
  const char* v = std::getenv("GPU_ACTION_SWEEP_SCALE");
  const int n = v == nullptr ? 1 : std::atoi(v);
  return n >= 0 ? n : 1;
}

struct SweepOptions {
  EmulateTarget target = EmulateTarget::kCuda;
  // Another GPU renderer in place of the emulator's (its uops run as they are), or null.
  const Renderer* renderer = nullptr;
  int chains = 16;        // random chains per kernel
  bool tc_only = false;   // only candidates that start with a TC action
};

// Every kernel of `t`'s schedule, in order: unoptimized first (its outputs feed the next
// kernel), then its candidates.
Totals Sweep(const std::string& name, const Tensor& t, const SweepOptions& o) {
  Totals totals;
  EmulatorRenderer emulator_renderer(o.target);
  const Renderer& ren = o.renderer != nullptr ? *o.renderer : emulator_renderer;
  const emulator_testing::ProgramForm form =
      o.renderer != nullptr ? emulator_testing::ProgramForm::kUops : emulator_testing::ProgramForm::kText;
  const SearchSettings settings = GpuSettings();
  const std::vector<Opt> actions = BeamActions(settings);
  Tensor x = t.contiguous();
  EXPECT_TRUE(x.ok()) << x.status();
  if (!x.ok()) return totals;
  absl::StatusOr<Schedule> s = CreateScheduleWithVars(UOp::Sink({x.uop()}));
  EXPECT_TRUE(s.ok()) << s.status();
  if (!s.ok()) return totals;
  HostBuffers memory;
  for (size_t i = 0; i < s->items.size(); ++i) {
    const ScheduleItem& item = s->items[i];
    if (item.ast.op() != Ops::SINK) continue;
    KernelUnderTest k{.name = absl::StrCat(name, " kernel ", i), .ast = item.ast, .form = form};
    absl::StatusOr<ProgramSpec> base = GetProgram(CandidateAst(item.ast, {}), ren, CodegenOptions{});
    EXPECT_TRUE(base.ok()) << k.name << ": " << base.status();
    if (!base.ok()) return totals;
    for (size_t slot = 0; slot < item.bufs.size(); ++slot) {
      absl::StatusOr<std::vector<std::byte>*> b = memory.Get(item.bufs[slot]);
      EXPECT_TRUE(b.ok()) << b.status();
      if (!b.ok()) return totals;
      const bool out = std::find(base->outs.begin(), base->outs.end(), static_cast<int64_t>(slot)) != base->outs.end();
      k.slot_dtypes.push_back(item.bufs[slot].dtype().base());
      k.is_output.push_back(out);
      k.inputs.push_back(**b);
      if (out) std::memset(k.inputs.back().data(), 0xff, k.inputs.back().size());
    }
    absl::StatusOr<std::vector<int64_t>> vals = emulator_testing::ProgramVarValues(*base, item, *s);
    EXPECT_TRUE(vals.ok()) << vals.status();
    if (!vals.ok()) return totals;
    k.vals = *vals;
    k.vars = base->vars;
    const std::string err = RunAndCompare(k, *base, &k.want).diff;
    EXPECT_TRUE(err.empty()) << k.name << " unoptimized:\n" << err;
    if (!err.empty()) return totals;
    for (size_t slot = 0; slot < item.bufs.size(); ++slot)
      if (k.is_output[slot]) **memory.Get(item.bufs[slot]) = k.want[slot];  // the next kernel's input
    totals.kernels += 1;

    absl::StatusOr<UOp> input = OptimizerInput(item.ast, ren, CodegenOptions{});
    EXPECT_TRUE(input.ok()) << k.name << ": " << input.status();
    if (!input.ok()) continue;
    Scheduler root(*input, ren, CodegenOptions{});
    root.ConvertLoopToGlobal();
    // The Scheduler's answer to each action alone: BEAM skips a KernelOptError; any other error
    // would end a search.
    for (const Opt& a : actions) {
      Scheduler s2 = root;
      absl::Status st = s2.ApplyOpt(a);
      if (st.ok()) continue;
      if (IsKernelOptError(st)) {
        totals.opt_refused += 1;
      } else {
        ADD_FAILURE() << k.name << ": " << a.ToString() << " is refused with an error that is no KernelOptError: " << st;
        totals.bugs += 1;
      }
    }
    std::vector<std::pair<int, Scheduler>> singles = GetKernelActions(root, actions, settings, /*include_0=*/false);
    if (o.tc_only)
      std::erase_if(singles, [&](const auto& a) { return actions[static_cast<size_t>(a.first - 1)].op != OptOps::TC; });
    for (const auto& [idx, child] : singles) TryCandidate(k, ren, child.applied_opts(), totals);
    const uint64_t seed = std::hash<std::string>{}(k.name) ^ static_cast<uint64_t>(o.target);
    for (const std::vector<Opt>& chain : RandomChains(singles, actions, settings, o.chains * ChainScale(), seed))
      TryCandidate(k, ren, chain, totals);
  }
  const std::string on = o.renderer != nullptr ? absl::StrCat(ren.device, "'s renderer, its uops")
                                               : absl::StrCat("the emulator, EMULATE=", std::string(EmulateTargetName(o.target)));
  std::printf("%s on %s: %lld kernels, %lld single actions refused by the Scheduler, %lld candidates, %lld lowered, "
              "%lld compared equal, %lld refused by the lowering, %lld not runnable, %lld bugs\n",
              name.c_str(), on.c_str(), static_cast<long long>(totals.kernels),
              static_cast<long long>(totals.opt_refused), static_cast<long long>(totals.candidates),
              static_cast<long long>(totals.lowered), static_cast<long long>(totals.compared),
              static_cast<long long>(totals.refused), static_cast<long long>(totals.unrunnable),
              static_cast<long long>(totals.bugs));
  for (const auto& [why, n] : totals.refusals) std::printf("  x%lld: %s\n", static_cast<long long>(n), why.c_str());
  std::fflush(stdout);
  return totals;
}

// The check itself: within the dtype's tolerance is equal, past it or an element a program
// never wrote (the sentinel's bits: a NaN, or -1) is a difference.
TEST(GpuActionSweepCheck, FlagsWrongAndUnwrittenElements) {
  std::vector<float> want = {1, 2, 3, 4}, got = {1, 2 + 1e-6f, 3.01f, 4};
  std::memset(&got[3], 0xff, sizeof(float));
  std::string d = Differences(dtypes::float32, std::as_bytes(std::span(got)), std::as_bytes(std::span(want)));
  EXPECT_EQ(d.find("element 0"), std::string::npos) << d;
  EXPECT_EQ(d.find("element 1"), std::string::npos) << d;
  EXPECT_NE(d.find("element 2: got 3.01"), std::string::npos) << d;
  EXPECT_NE(d.find("element 3: got nan"), std::string::npos) << d;
  EXPECT_NE(d.find("2 of 4 elements differ"), std::string::npos) << d;
  std::vector<int32_t> iwant = {7, -3}, igot = {7, -1};
  d = Differences(dtypes::int32, std::as_bytes(std::span(igot)), std::as_bytes(std::span(iwant)));
  EXPECT_NE(d.find("element 1: got -1, unoptimized -3"), std::string::npos) << d;
  std::vector<uint16_t> hwant = {0x3c00}, hgot = {0x3c01};  // 1.0 and the next half: within 4e-3
  EXPECT_EQ(Differences(dtypes::float16, std::as_bytes(std::span(hgot)), std::as_bytes(std::span(hwant))), "");
}


class GpuActionSweep : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { std::signal(SIGABRT, PrintCurrentOnAbort); }
};

TEST_F(GpuActionSweep, FloatMatmul) { Sweep("float matmul 16x24x16", In({16, 24}, 1).matmul(In({24, 16}, 2)), {}); }

TEST_F(GpuActionSweep, HalfMatmul) {
  Sweep("half matmul 32x32x32", In({32, 32}, 3).cast(dtypes::float16).matmul(In({32, 32}, 4).cast(dtypes::float16)), {});
}

// Sizes no tensor core divides: TC pads (opt level 2), PADTO pads.
TEST_F(GpuActionSweep, HalfMatmulOddSizes) {
  Sweep("half matmul 24x40x20", In({24, 40}, 22).cast(dtypes::float16).matmul(In({40, 20}, 23).cast(dtypes::float16)), {});
}

TEST_F(GpuActionSweep, Bfloat16Matmul) {
  Sweep("bfloat16 matmul 32x32x32",
        In({32, 32}, 5).cast(dtypes::bfloat16).matmul(In({32, 32}, 6).cast(dtypes::bfloat16)), {});
}

TEST_F(GpuActionSweep, Conv2dPadded) {
  Sweep("conv2d 4->8 3x3 pad 1 on 10x10", In({1, 4, 10, 10}, 7).conv2d(In({8, 4, 3, 3}, 8), std::nullopt, {.padding = {1}}), {});
}

TEST_F(GpuActionSweep, SumAndMaxOverEachAxis) {
  Tensor x = In({8, 12, 16}, 9);
  for (int64_t axis = 0; axis < 3; ++axis) {
    Sweep(absl::StrCat("sum axis ", axis, " of 8x12x16"), x.sum(axis), {.chains = 12});
    Sweep(absl::StrCat("max axis ", axis, " of 8x12x16"), x.max(axis), {.chains = 12});
  }
}

// A long reduce: GROUPTOP's 16, 32 and 64, GROUP's 4, 8 and 16 all split it.
TEST_F(GpuActionSweep, LongReduce) { Sweep("sum axis 1 of 6x64", In({6, 64}, 24).sum(1), {}); }

TEST_F(GpuActionSweep, Softmax) { Sweep("softmax 8x32", In({8, 32}, 10).softmax(1), {.chains = 12}); }

TEST_F(GpuActionSweep, Argmax) { Sweep("argmax 12x20", In({12, 20}, 11).argmax(1), {}); }

TEST_F(GpuActionSweep, Cumsum) { Sweep("cumsum 8x24", In({8, 24}, 12).cumsum(1), {}); }

TEST_F(GpuActionSweep, MaxPool2d) { Sweep("max_pool2d 2x12x12", In({1, 2, 12, 12}, 13).max_pool2d(), {}); }

TEST_F(GpuActionSweep, BroadcastElementwise) {
  Tensor a = In({16, 1}, 14), b = In({1, 24}, 15), c = In({24}, 16);
  Sweep("broadcast chain 16x24", ((a * b + c).relu() - a.exp()) * 0.5, {});
}

TEST_F(GpuActionSweep, IntegerDivision) {
  Tensor a = IntIn({16, 20}, 17, -500, 500), b = IntIn({16, 20}, 18, -9, 9, /*nonzero=*/true);
  Sweep("idiv and mod 16x20", a.idiv(b) + a.mod(7) * 3, {});
}

TEST_F(GpuActionSweep, SymbolicReduce) {
  Variable rows("rows", 1, 16);
  Sweep("sum over a symbolic 11 of 16 rows", In({16, 24}, 19).shrink({{0, rows.bind(11)}, {0, 24}}).sum(0), {});
}

// Tensor cores on a batched matmul (the TC actions' axis picks among more output axes), and a
// matmul with an elementwise epilogue.
TEST_F(GpuActionSweep, BatchedHalfMatmul) {
  Sweep("batched half matmul 2x16x32x16",
        In({2, 16, 32}, 25).cast(dtypes::float16).matmul(In({2, 32, 16}, 26).cast(dtypes::float16)), {});
}

TEST_F(GpuActionSweep, MatmulBiasRelu) {
  Sweep("matmul 12x16x20 + bias, relu", (In({12, 16}, 27).matmul(In({16, 20}, 28)) + In({20}, 29)).relu(), {});
}

// Two reduces of one input (mean, then the squared deviations' mean).
TEST_F(GpuActionSweep, Variance) { Sweep("var axis 1 of 8x24", In({8, 24}, 30).var(1), {}); }

// Exact dtypes other than int32 arithmetic: an int reduce and bool outputs.
TEST_F(GpuActionSweep, IntReduceAndBools) {
  Tensor a = IntIn({12, 20}, 31, -50, 50);
  Sweep("int sum axis 0 of 12x20", a.sum(0), {});
  Sweep("any axis 1 of 12x20 > 40", (a > IntIn({1, 20}, 32, -50, 50)).any(1), {});
}

// Reduces fused with their surroundings: over two axes at once, a count of comparisons (f(0)
// is not 0: PADTO must not pad it), a reduce kept and broadcast back, log_softmax, layernorm.
TEST_F(GpuActionSweep, FusedReduces) {
  Tensor x = In({6, 10, 12}, 40);
  Sweep("mean over axes 1 and 2 of 6x10x12", x.mean({1, 2}), {.chains = 8});
  Sweep("count of x < 0.25 over axis 1 of 8x24", (In({8, 24}, 41) < 0.25).cast(dtypes::int32).sum(1), {.chains = 8});
  Tensor y = In({8, 20}, 42);
  Sweep("x - x.sum(1, keepdim) of 8x20", y - y.sum(1, /*keepdim=*/true), {.chains = 8});
  Sweep("log_softmax 8x20", y.log_softmax(1), {.chains = 8});
  Sweep("layernorm 8x20", y.layernorm(), {.chains = 8});
}

// A symbolic output axis: the launch dims depend on the variable.
TEST_F(GpuActionSweep, SymbolicOutputAxis) {
  Variable rows("rows", 1, 16);
  Sweep("row sums of a symbolic 13 of 16 rows", In({16, 24}, 33).shrink({{0, rows.bind(13)}, {0, 24}}).sum(1), {});
}

// The other tensor-core layouts: RDNA3 (operands duplicated across lanes), CDNA's MFMA, Metal.
TEST_F(GpuActionSweep, TensorCoresOfOtherTargets) {
  Tensor a = In({32, 32}, 20), b = In({32, 32}, 21);
  for (EmulateTarget target : {EmulateTarget::kAmd, EmulateTarget::kAmdMfma, EmulateTarget::kMetal}) {
    SweepOptions o{.target = target, .chains = 12, .tc_only = true};
    Sweep("half matmul 32x32x32", a.cast(dtypes::float16).matmul(b.cast(dtypes::float16)), o);
  }
}

// The CUDA renderer's own programs (sm_89: its tensor cores, launch limits and late rewrites),
// their uops run on the emulator: what a real GPU would run, short of the CUDA C++ text.
const Renderer& CudaSm89() {
  static const CudaRenderer* const cuda = [] {
    absl::StatusOr<CudaArch> arch = ParseCudaArch("sm_89");
    TG_CHECK(arch.ok()) << arch.status();
    return new CudaRenderer(*arch);
  }();
  return *cuda;
}

TEST_F(GpuActionSweep, CudaRendererMatmuls) {
  SweepOptions o{.renderer = &CudaSm89(), .chains = 8};
  Tensor a = In({32, 32}, 34), b = In({32, 32}, 35);
  Sweep("half matmul 32x32x32", a.cast(dtypes::float16).matmul(b.cast(dtypes::float16)), o);
  Sweep("bfloat16 matmul 32x32x32", a.cast(dtypes::bfloat16).matmul(b.cast(dtypes::bfloat16)), o);
}

TEST_F(GpuActionSweep, CudaRendererReduces) {
  SweepOptions o{.renderer = &CudaSm89(), .chains = 8};
  Sweep("softmax 8x32", In({8, 32}, 36).softmax(1), o);
  Sweep("argmax 12x20", In({12, 20}, 37).argmax(1), o);
}

TEST_F(GpuActionSweep, CudaRendererConv2d) {
  SweepOptions o{.renderer = &CudaSm89(), .chains = 8};
  Sweep("conv2d 4->8 3x3 pad 1 on 10x10", In({1, 4, 10, 10}, 38).conv2d(In({8, 4, 3, 3}, 39), std::nullopt, {.padding = {1}}), o);
}

// The HIP renderer's programs for an AMD arch, their uops run on the emulator.
void SweepHip(const char* arch_name) {
  absl::StatusOr<AmdArch> arch = AmdArch::Parse(arch_name);
  ASSERT_TRUE(arch.ok()) << arch.status();
  HipRenderer hip(*arch);
  SweepOptions o{.renderer = &hip, .chains = 6};
  Tensor a = In({32, 32}, 43), b = In({32, 32}, 44);
  Sweep(absl::StrCat("half matmul 32x32x32 for ", arch_name), a.cast(dtypes::float16).matmul(b.cast(dtypes::float16)), o);
  Sweep(absl::StrCat("softmax 8x32 for ", arch_name), In({8, 32}, 45).softmax(1), o);
}

// RDNA3: WMMA with operands duplicated across lanes; CDNA3: MFMA.
TEST_F(GpuActionSweep, HipRendererRdna3) { SweepHip("gfx1100"); }
TEST_F(GpuActionSweep, HipRendererCdna3) { SweepHip("gfx942"); }

}  // namespace
}  // namespace tg::autotune
