// File: autotune/codec/codec_test_kernels.cc (testonly)
// Kernel ASTs for the codec's tests, benchmark and corpus tool.
#include "autotune/codec/codec_test_kernels.h"

#include <cmath>
#include <limits>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "tinygrad/base/check.h"
#include "tinygrad/codegen/opt/heuristic.h"
#include "tinygrad/codegen/opt/scheduler.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/renderer/c/clang.h"
#include "tinygrad/schedule/schedule.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/workloads/workloads.h"

namespace tg::autotune::codec {
namespace {

std::vector<NamedKernel> ScheduleRoots(std::string_view name, const std::vector<Tensor>& outs) {
  std::vector<UOp> roots;
  for (const Tensor& t : outs) {
    TG_CHECK(t.ok()) << name << ": " << t.status();
    roots.push_back(t.uop());
  }
  absl::StatusOr<tg::Schedule> s = CreateScheduleWithVars(UOp::Sink(roots));
  TG_CHECK(s.ok()) << name << ": " << s.status();
  std::vector<NamedKernel> out;
  absl::flat_hash_set<uint64_t> seen;
  for (const ScheduleItem& item : s->items)
    if (item.ast.op() == Ops::SINK && seen.insert(item.ast.key()).second)
      out.push_back({absl::StrCat(std::string(name), "/", out.size()), item.ast});
  return out;
}

std::vector<NamedKernel> Schedule(const Workload& w) {
  return ScheduleRoots(w.name, w.build(w.Defaults()).outputs);
}

// Threads on 8 cores whatever this machine has, so the optimized kernels carry THREAD opts
// everywhere.
const Renderer& Clang() {
  static const ClangRenderer* const kRen = new ClangRenderer({.threads = true, .cpu_count = 8});
  return *kRen;
}

}  // namespace

std::vector<NamedKernel> WorkloadKernels() {
  std::vector<NamedKernel> out;
  for (const Workload& w : Workloads())
    for (NamedKernel& k : Schedule(w)) out.push_back(std::move(k));
  return out;
}

std::vector<NamedKernel> TensorKernels() {
  using V = std::vector<int64_t>;
  std::vector<NamedKernel> out;
  auto add = [&](std::string_view name, const Tensor& t) {
    for (NamedKernel& k : ScheduleRoots(name, {t})) out.push_back(std::move(k));
  };
  add("add", Tensor::Empty(V{64}) + Tensor::Empty(V{64}));
  add("sum", Tensor::Empty(V{16, 32}).sum(1));
  add("matmul", Tensor::Empty(V{16, 16}).matmul(Tensor::Empty(V{16, 16})));
  add("cast_where", (Tensor::Empty(V{8, 8}) > Tensor::Empty(V{8, 8}))
                        .where(Tensor::Empty(V{8, 8}).cast(dtypes::float16).cast(dtypes::float32),
                               Tensor::Empty(V{8, 8})));
  return out;
}

std::vector<NamedKernel> KernelsOf(std::string_view workload) {
  const Workload* w = FindWorkload(workload);
  TG_CHECK(w) << "no workload " << workload;
  return Schedule(*w);
}

UOp OptimizedAst(const UOp& k) {
  Scheduler s(k, Clang());
  absl::StatusOr<Scheduler> h = HandCodedOptimizations(s);
  if (!h.ok()) return {};
  return h->GetOptimizedAst();
}

UOp FullyRewritten(const UOp& k) {
  absl::StatusOr<UOp> r = FullRewriteToSink(k, Clang(), /*optimize=*/true);
  return r.ok() ? *r : UOp();
}

UOp HandBuiltAddKernel() {
  DType p = dtypes::float32.ptr(16);
  UOp g0 = UOp::Make(Ops::DEFINE_GLOBAL, p, {}, 0);
  UOp g1 = UOp::Make(Ops::DEFINE_GLOBAL, p, {}, 1);
  UOp g2 = UOp::Make(Ops::DEFINE_GLOBAL, p, {}, 2);
  UOp r = UOp::Make(Ops::RANGE, dtypes::index, {UOp::Const(dtypes::index, 16)},
                    Arg::Tuple({0, AxisType::LOOP}));
  UOp a = UOp::Make(Ops::LOAD, dtypes::float32, {UOp::Make(Ops::INDEX, p, {g1, r})});
  UOp b = UOp::Make(Ops::LOAD, dtypes::float32, {UOp::Make(Ops::INDEX, p, {g2, r})});
  UOp st = UOp::Make(Ops::STORE, dtypes::void_,
                     {UOp::Make(Ops::INDEX, p, {g0, r}), UOp::Make(Ops::ADD, dtypes::float32, {a, b})});
  UOp end = UOp::Make(Ops::END, dtypes::void_, {st, r});
  return UOp::Make(Ops::SINK, dtypes::void_, {end},
                   KernelInfo{.name = "E_16", .axis_types = {AxisType::LOOP}}.ToArg());
}

UOp CustomCodeKernel(std::string_view c_text) {
  DType p = dtypes::float32.ptr(16);
  UOp g0 = UOp::Make(Ops::DEFINE_GLOBAL, p, {}, 0);
  UOp g1 = UOp::Make(Ops::DEFINE_GLOBAL, p, {}, 1);
  UOp r = UOp::Make(Ops::RANGE, dtypes::index, {UOp::Const(dtypes::index, 16)},
                    Arg::Tuple({0, AxisType::LOOP}));
  UOp a = UOp::Make(Ops::LOAD, dtypes::float32, {UOp::Make(Ops::INDEX, p, {g1, r})});
  UOp code = UOp::Make(Ops::CUSTOMI, dtypes::float32, {a}, std::string(c_text));
  UOp st = UOp::Make(Ops::STORE, dtypes::void_, {UOp::Make(Ops::INDEX, p, {g0, r}), code});
  UOp end = UOp::Make(Ops::END, dtypes::void_, {st, r});
  return UOp::Make(Ops::SINK, dtypes::void_, {end}, KernelInfo{.name = "custom"}.ToArg());
}

UOp HandBuiltArgZoo() {
  UOp n = UOp::Make(Ops::DEFINE_VAR, dtypes::index, {}, Arg::Tuple({"n", 1, 64}));
  UOp big = UOp::Const(dtypes::index, ConstValue(i128{1} << 100));
  UOp nan = UOp::Const(dtypes::float32, std::numeric_limits<double>::quiet_NaN());
  UOp negzero = UOp::Const(dtypes::float32, -0.0);
  UOp inv = UOp::Invalid();
  UOp vc = UOp::Make(Ops::VCONST, dtypes::int32.vec(4), {}, Arg::Tuple({1, 2, -3, 1 << 30}));
  UOp flag = UOp::Const(dtypes::bool_, true);
  UOp lp = UOp::Make(Ops::DEFINE_LOCAL, dtypes::float16.vec(2).ptr(8, AddrSpace::LOCAL), {}, "temp0");
  UOp red = UOp::Make(Ops::REDUCE, dtypes::float32, {nan, n}, Ops::ADD);
  UOp custom = UOp::Make(Ops::CUSTOMI, dtypes::float32, {negzero}, "fabsf({0})", Arg::Tuple({7}));
  return UOp::Make(
      Ops::SINK, dtypes::void_, {n, big, inv, vc, flag, lp, red, custom},
      Arg::Tuple({"zoo", Arg::Tuple({AxisType::GLOBAL, AxisType::REDUCE, AxisType::UPCAST}), true,
                  Arg::Tuple({Arg::Tuple({"UPCAST", 0, 4}), Arg::Tuple({"TC", 0, Arg::Tuple({-1, 2, 1})})}),
                  2.5, Ops::MUL}));
}

}  // namespace tg::autotune::codec
