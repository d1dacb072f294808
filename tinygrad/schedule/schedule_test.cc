// File: tinygrad/schedule/schedule_test.cc
// Tests of the scheduler against the reference: kernel counts, kernel buffers and kernel ASTs
// (testdata/schedule_golden.txt, written by tools/golden/gen_schedule_golden.py, which builds
// the same graphs with tinygrad's Tensor API), and the schedule cache.
#include "tinygrad/schedule/schedule.h"

#include <fstream>
#include <iostream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/pattern_matcher.h"
#include "tinygrad/uop/rewrite_trace.h"
#include "tinygrad/uop/shape.h"

namespace tg {
namespace {

// ** graph builders, mirroring what tinygrad's Tensor builds **

UOp Empty(const Shape& s) {
  return UOp::NewBuffer("CPU", Prod(s).value(), dtypes::float32).reshape(s);
}
UOp Full(double v, const Shape& s) { return UOp::ConstOn(dtypes::float32, v, "CPU", &s); }
UOp Contiguous(const UOp& x) { return UOp::Make(Ops::CONTIGUOUS, x.dtype(), {x}); }

// (a@b) as Tensor.matmul/dot builds it: a (n,k), b (k,m)
UOp Matmul(int64_t n, int64_t k, int64_t m) {
  UOp a = Empty({n, k}).reshape({n, 1, k}).expand({n, m, k});
  UOp b = Empty({k, m}).reshape({1, k, m}).permute({0, 2, 1}).expand({n, m, k});
  return (a * b).r(Ops::ADD, std::vector<int64_t>{2}).reshape({n, m});
}

UOp Relu(const UOp& x) {
  UOp zero = Full(0.0, *x.shape());
  return zero.lt(x).where(x, zero);
}

// buf + Tensor(Variable("pos", 0, 100).bind(k)): the BIND's var and value sit on the device
UOp BoundVar(int64_t k) {
  UOp dev = UOp::Make(Ops::DEVICE, dtypes::void_, {}, "CPU");
  UOp var = UOp::Make(Ops::DEFINE_VAR, dtypes::int32, {dev}, Arg::Tuple({"pos", 0, 100}));
  return UOp::Make(Ops::BIND, dtypes::int32, {var, UOp::Make(Ops::CONST, dtypes::int32, {dev}, k)});
}
UOp BoundVarGraph(const UOp& buf, int64_t k) { return buf + BoundVar(k).reshape({1}).expand({16}); }

std::map<std::string, std::function<std::vector<UOp>()>> Cases() {
  std::map<std::string, std::function<std::vector<UOp>()>> c;
  c["elementwise"] = [] {
    UOp a = Empty({16, 16}), b = Empty({16, 16});
    return std::vector<UOp>{((a + b) * a).sqrt()};
  };
  c["sum1"] = [] {
    return std::vector<UOp>{Empty({64, 32}).r(Ops::ADD, std::vector<int64_t>{1}).reshape({64})};
  };
  c["softmax"] = [] {
    UOp x = Empty({8, 32});
    UOp m = UOp::Make(Ops::DETACH, dtypes::float32, {x.r(Ops::MAX, std::vector<int64_t>{1})});
    UOp d = x + m.expand({8, 32}) * Full(-1.0, {8, 32});
    UOp e = (d * Full(1.4426950408889634, {8, 32})).exp2();
    return std::vector<UOp>{e * e.r(Ops::ADD, std::vector<int64_t>{1}).expand({8, 32}).reciprocal()};
  };
  c["matmul_relu"] = [] { return std::vector<UOp>{Relu(Matmul(16, 32, 8))}; };
  c["conv2d"] = [] {
    UOp x = Empty({1, 4, 10, 10})
                .reshape({1, 4, 1, 10, 1, 10})
                .expand({1, 4, 4, 10, 4, 10})
                .reshape({1, 4, 40, 40})
                .shrink({{0, 1}, {0, 4}, {0, 33}, {0, 33}})
                .reshape({1, 4, 3, 11, 3, 11})
                .shrink({{0, 1}, {0, 4}, {0, 3}, {0, 8}, {0, 3}, {0, 8}})
                .reshape({1, 4, 3, 8, 1, 3, 8, 1})
                .reshape({1, 4, 3, 8, 3, 8})
                .permute({0, 1, 3, 5, 2, 4})
                .reshape({1, 1, 4, 1, 8, 8, 3, 3})
                .expand({1, 1, 4, 8, 8, 8, 3, 3})
                .permute({0, 1, 3, 4, 5, 2, 6, 7});
    UOp w = Empty({8, 4, 3, 3}).reshape({1, 1, 8, 1, 1, 4, 3, 3}).expand({1, 1, 8, 8, 8, 4, 3, 3});
    return std::vector<UOp>{(x * w).r(Ops::ADD, std::vector<int64_t>{5, 6, 7}).reshape({1, 8, 8, 8})};
  };
  c["sum_big"] = [] {
    return std::vector<UOp>{Empty({4096, 4096}).r(Ops::ADD, std::vector<int64_t>{0, 1}).reshape(Shape{})};
  };
  c["sub_mean"] = [] {
    UOp x = Empty({16, 32});
    UOp mean = x.r(Ops::ADD, std::vector<int64_t>{1}) * Full(32.0, {16, 1}).reciprocal();
    return std::vector<UOp>{x + mean.expand({16, 32}) * Full(-1.0, {16, 32})};
  };
  c["pad_add"] = [] {
    return std::vector<UOp>{Empty({4, 4}).pad({{1, 1}, {1, 1}}) + Full(1.0, {6, 6})};
  };
  c["permute_contiguous"] = [] {
    return std::vector<UOp>{Contiguous(Empty({8, 16}).permute({1, 0}))};
  };
  c["multi_output"] = [] {
    UOp y = Empty({16, 16});
    return std::vector<UOp>{y + Full(1.0, {16, 16}), y * Full(2.0, {16, 16})};
  };
  c["two_views_inlined"] = [] {
    UOp z = Empty({8, 8}).exp2();
    return std::vector<UOp>{z + z.permute({1, 0})};
  };
  c["two_views_reduce"] = [] {
    UOp w = Matmul(8, 8, 8);
    return std::vector<UOp>{w + w.permute({1, 0})};
  };
  c["bound_var"] = [] { return std::vector<UOp>{BoundVarGraph(UOp::NewBuffer("CPU", 16, dtypes::int32), 3)}; };
  c["assign"] = [] {
    UOp a = Empty({16, 16}), b = Empty({16, 16});
    return std::vector<UOp>{UOp::Make(Ops::ASSIGN, dtypes::float32, {a, a + b})};
  };
  c["arange"] = [] {
    UOp ar = UOp::ConstOn(dtypes::int32, 1, "CPU")
                 .reshape({1})
                 .expand({16})
                 .pad({{15, 0}})
                 .reshape({1, 31})
                 .expand({17, 31})
                 .reshape({527})
                 .shrink({{0, 512}})
                 .reshape({16, 32})
                 .shrink({{0, 16}, {0, 16}})
                 .reshape({16, 16, 1})
                 .reshape({16, 16})
                 .permute({1, 0})
                 .r(Ops::ADD, std::vector<int64_t>{1})
                 .reshape({16});
    UOp m1 = UOp::ConstOn(dtypes::int32, -1, "CPU").reshape({1}).expand({16});
    return std::vector<UOp>{(ar + m1).cast(dtypes::float32) * Empty({16})};
  };
  c["kv_shrink"] = [] {
    UOp pos = UOp::Variable("pos", 1, 16).bind(5);
    UOp v = Empty({16, 8}).shrink({{0, SInt(pos)}, {0, 8}});
    return std::vector<UOp>{v.r(Ops::ADD, std::vector<int64_t>{0}).reshape({8})};
  };
  c["layernorm"] = [] {
    UOp x = Empty({4, 32});
    UOp inv_n = Full(32.0, {4, 1}).reciprocal();
    UOp y = x + (x.r(Ops::ADD, std::vector<int64_t>{1}) * inv_n).expand({4, 32}) * Full(-1.0, {4, 32});
    UOp var = (y * y).r(Ops::ADD, std::vector<int64_t>{1}) * inv_n;
    return std::vector<UOp>{y * (var + Full(1e-05, {4, 1})).sqrt().reciprocal().expand({4, 32})};
  };
  c["sum0"] = [] {
    return std::vector<UOp>{Empty({32, 16}).r(Ops::ADD, std::vector<int64_t>{0}).reshape({16})};
  };
  c["flip_shrink"] = [] {
    return std::vector<UOp>{Empty({8, 8}).flip({true, false}).shrink({{2, 6}, {0, 8}}) * Full(2.0, {4, 8})};
  };
  c["cast_half"] = [] {
    UOp h = Empty({16}).cast(dtypes::float16).cast(dtypes::float32).cast(dtypes::float16);
    UOp one = UOp::ConstOn(dtypes::float16, 1.0, "CPU").cast(dtypes::float32).reshape({1}).expand({16});
    return std::vector<UOp>{h + one.cast(dtypes::float16)};
  };
  c["copy"] = [] {
    UOp x = Empty({16}) + Full(1.0, {16});
    return std::vector<UOp>{
        UOp::Make(Ops::COPY, x.dtype(), {x, UOp::Make(Ops::DEVICE, dtypes::void_, {}, "CPU:1")})};
  };
  c["contiguous_buffer"] = [] { return std::vector<UOp>{Contiguous(Empty({4, 4}))}; };
  c["war_assign"] = [] {
    UOp a = Empty({16}), b = Empty({16});
    return std::vector<UOp>{a + Full(1.0, {16}),
                            UOp::Make(Ops::ASSIGN, dtypes::float32, {a, b * Full(2.0, {16})})};
  };
  return c;
}

struct GoldenKernel {
  std::string bufs;
  std::string ast;
};
struct GoldenCase {
  int kernels = 0;
  std::vector<GoldenKernel> k;
};

std::map<std::string, GoldenCase> ReadGolden() {
  std::ifstream f("tinygrad/schedule/testdata/schedule_golden.txt");
  EXPECT_TRUE(f.good());
  std::map<std::string, GoldenCase> out;
  std::string line, name;
  GoldenKernel* cur = nullptr;
  while (std::getline(f, line)) {
    if (line.rfind("# ", 0) == 0) continue;
    if (line.rfind("== ", 0) == 0) {
      name = line.substr(3);
      cur = nullptr;
    } else if (line.rfind("kernels ", 0) == 0) {
      out[name].kernels = std::stoi(line.substr(8));
    } else if (line.rfind("-- bufs ", 0) == 0) {
      out[name].k.push_back({line.substr(8), ""});
      cur = &out[name].k.back();
    } else if (line == "--") {
      cur = nullptr;
    } else if (cur != nullptr) {
      cur->ast += (cur->ast.empty() ? "" : "\n") + line;
    }
  }
  return out;
}

class ScheduleGoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ScheduleGoldenTest, MatchesReference) {
  static const auto* const golden = new std::map<std::string, GoldenCase>(ReadGolden());
  const std::string& name = GetParam();
  ASSERT_TRUE(golden->contains(name)) << name;
  const GoldenCase& g = golden->at(name);
  std::vector<UOp> outs = Cases().at(name)();
  absl::StatusOr<Schedule> s = CreateScheduleWithVars(UOp::Sink(outs));
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_EQ(static_cast<int>(s->items.size()), g.kernels);
  for (size_t i = 0; i < s->items.size(); ++i) {
    const ScheduleItem& si = s->items[i];
    std::vector<std::string> sizes;
    for (const UOp& b : si.bufs) {
      EXPECT_EQ(b.op(), Ops::BUFFER);
      sizes.push_back(std::to_string(b.arg().int64()) + "@" + b.device().str());
    }
    EXPECT_EQ(absl::StrJoin(sizes, ","), g.k[i].bufs) << "kernel " << i;
    EXPECT_EQ(PrettyPrint(si.ast), g.k[i].ast) << "kernel " << i;
  }
  // every output, with the becomes map applied (as the engine does to its tensors), is a view
  // of a realized buffer (the map also takes each AFTER to its BUFFER)
  for (const UOp& o : outs) {
    UOp r = Substitute(o, s->becomes_map);
    EXPECT_EQ(r.base().op(), Ops::BUFFER) << PrettyPrint(r);
  }
}

INSTANTIATE_TEST_SUITE_P(All, ScheduleGoldenTest,
                         ::testing::Values("elementwise", "sum1", "softmax", "matmul_relu", "conv2d",
                                           "sum_big", "sub_mean", "pad_add", "permute_contiguous",
                                           "multi_output", "two_views_inlined", "two_views_reduce",
                                           "bound_var", "assign", "arange", "kv_shrink", "layernorm",
                                           "sum0", "flip_shrink", "cast_half", "copy",
                                           "contiguous_buffer", "war_assign"));

TEST(ScheduleCacheTest, BoundVariableValuesShareAnEntry) {
  ClearScheduleCache();
  UOp b1 = UOp::NewBuffer("CPU", 16, dtypes::int32), b2 = UOp::NewBuffer("CPU", 16, dtypes::int32);
  absl::StatusOr<Schedule> s1 = CreateScheduleWithVars(UOp::Sink({BoundVarGraph(b1, 3)}));
  ASSERT_TRUE(s1.ok()) << s1.status();
  EXPECT_FALSE(s1->cache_hit);
  EXPECT_EQ(ScheduleCacheSize(), 1u);
  EXPECT_EQ(s1->var_vals.at("pos"), 3);

  // same structure, other buffer and other value: a hit with this call's buffers and value
  UOp t2 = BoundVarGraph(b2, 7);
  absl::StatusOr<Schedule> s2 = CreateScheduleWithVars(UOp::Sink({t2}));
  ASSERT_TRUE(s2.ok()) << s2.status();
  EXPECT_TRUE(s2->cache_hit);
  EXPECT_EQ(ScheduleCacheSize(), 1u);
  EXPECT_EQ(s2->var_vals.at("pos"), 7);
  ASSERT_EQ(s2->items.size(), 1u);
  EXPECT_EQ(s2->items[0].ast, s1->items[0].ast);
  ASSERT_EQ(s2->items[0].bufs.size(), 2u);
  EXPECT_EQ(s2->items[0].bufs[1], b2);
  // the output is a fresh buffer per call
  EXPECT_NE(s2->items[0].bufs[0], s1->items[0].bufs[0]);
  EXPECT_EQ(Substitute(t2, s2->becomes_map).base(), s2->items[0].bufs[0]);

  // different structure: a miss
  UOp t3 = b2 * BoundVar(5).reshape({1}).expand({16});
  absl::StatusOr<Schedule> s3 = CreateScheduleWithVars(UOp::Sink({t3}));
  ASSERT_TRUE(s3.ok()) << s3.status();
  EXPECT_FALSE(s3->cache_hit);
  EXPECT_EQ(ScheduleCacheSize(), 2u);
  EXPECT_EQ(s3->var_vals.at("pos"), 5);
  ClearScheduleCache();
  EXPECT_EQ(ScheduleCacheSize(), 0u);
}

TEST(ScheduleCacheTest, ConflictingBindsAreAnError) {
  UOp b = UOp::NewBuffer("CPU", 16, dtypes::int32);
  UOp t = BoundVarGraph(b, 3) + BoundVar(4).reshape({1}).expand({16});
  absl::StatusOr<Schedule> s = CreateScheduleWithVars(UOp::Sink({t}));
  EXPECT_FALSE(s.ok());
}

// `a % 1` reads nothing after simplification, but `a` keeps LUNIQUE(0) in the cache's input
// map: the output buffer must get another number, or it maps back onto `a` and the kernel
// overwrites the input (the reference does this; found as `a % 1` zeroing `a`).
TEST(ScheduleCacheTest, OutputBufferIsNotADroppedInput) {
  ClearScheduleCache();
  UOp a = UOp::NewBuffer("CPU", 16, dtypes::int32);
  Shape s16{16};
  UOp t = Contiguous(UOp::Make(Ops::MOD, dtypes::int32, {a, UOp::ConstOn(dtypes::int32, 1, "CPU", &s16)}));
  for (int pass = 0; pass < 2; ++pass) {  // a miss, then a hit on the same entry
    absl::StatusOr<Schedule> s = CreateScheduleWithVars(UOp::Sink({t}));
    ASSERT_TRUE(s.ok()) << s.status();
    EXPECT_EQ(s->cache_hit, pass == 1);
    ASSERT_EQ(s->items.size(), 1u);
    ASSERT_EQ(s->items[0].bufs.size(), 1u);  // the kernel stores 0 and reads nothing
    EXPECT_NE(s->items[0].bufs[0], a);
    EXPECT_NE(Substitute(t, s->becomes_map).base(), a);
    EXPECT_FALSE(s->becomes_map.contains(a));
  }
}

// The options decide the kernels and are part of the cache's key: a big sum is split in two
// kernels by default (SPLIT_REDUCEOP) and is one kernel without, and the second graph is not
// answered from the first one's entry.
TEST(ScheduleCacheTest, OptionsDecideTheKernelsAndAreKeyed) {
  ClearScheduleCache();
  UOp big = Empty({1 << 18}).r(Ops::ADD, std::vector<int64_t>{0});
  absl::StatusOr<Schedule> split = CreateScheduleWithVars(UOp::Sink({Contiguous(big)}));
  ASSERT_TRUE(split.ok()) << split.status();
  EXPECT_EQ(split->items.size(), 2u);
  absl::StatusOr<Schedule> whole =
      CreateScheduleWithVars(UOp::Sink({Contiguous(big)}), ScheduleOptions{.split_reduceop = false});
  ASSERT_TRUE(whole.ok()) << whole.status();
  EXPECT_FALSE(whole->cache_hit);
  EXPECT_EQ(whole->items.size(), 1u);
  EXPECT_EQ(ScheduleCacheSize(), 2u);
  // and a threshold above the ratio keeps it whole too
  absl::StatusOr<Schedule> high = CreateScheduleWithVars(
      UOp::Sink({Contiguous(big)}), ScheduleOptions{.reduceop_split_threshold = int64_t{1} << 20});
  ASSERT_TRUE(high.ok()) << high.status();
  EXPECT_EQ(high->items.size(), 1u);
  EXPECT_EQ(ScheduleOptions{}, ScheduleOptions::FromConfig(Config{}));
}

// SPEC >= 1: the tensor graph is checked with tensor_spec before it is scheduled, and a bad one
// is an error (not an abort) naming the spec and the node.
TEST(ScheduleTest, SpecChecksTheTensorGraph) {
  ClearScheduleCache();
  const Shape s{4};
  UOp bad = UOp::Make(Ops::ADD, dtypes::float32, {Empty(s), UOp::ConstOn(dtypes::int32, 1, "CPU", &s)});
  absl::StatusOr<Schedule> checked = CreateScheduleWithVars(UOp::Sink({Contiguous(bad)}), ScheduleOptions{});
  ASSERT_FALSE(checked.ok());
  EXPECT_EQ(checked.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(checked.status().message().find("tensor_spec: UOp verification failed"), std::string::npos)
      << checked.status();
  EXPECT_NE(checked.status().message().find("on Ops.ADD dtypes.float"), std::string::npos) << checked.status();
  EXPECT_TRUE(ScheduleOptions::FromConfig(Config{}).spec);
  Config off;
  off.spec = 0;
  EXPECT_FALSE(ScheduleOptions::FromConfig(off).spec);
}

// TRACK_MATCH_STATS=2: a schedule's rewrites form one trace group, named for its kernels as the
// reference's track_rewrites on complete_create_schedule_with_vars.
TEST(ScheduleTest, TraceGroupNamesTheKernelCount) {
  ClearScheduleCache();
  ResetRewriteTrace();
  SetTrackMatchStats(2);
  UOp a = Empty({16}), b = Empty({16});
  absl::StatusOr<Schedule> one = CreateScheduleWithVars(UOp::Sink({Contiguous(a + b)}), ScheduleOptions{});
  absl::StatusOr<Schedule> two =
      CreateScheduleWithVars(UOp::Sink({Contiguous(a * b), Contiguous(a - b)}), ScheduleOptions{});
  SetTrackMatchStats(0);
  ASSERT_TRUE(one.ok() && two.ok());
  RewriteTrace t = SnapshotRewriteTrace();
  ResetRewriteTrace();
  EXPECT_EQ(t.groups, (std::vector<std::string>{"Schedule 1 Kernel", "Schedule 2 Kernels"}));
  ASSERT_FALSE(t.rewrites.empty());
  EXPECT_EQ(t.rewrites.front().name, "rewrite for sched cache");
}

// A deep MLP: one kernel per layer, and scheduling stays fast (no quadratic passes).
TEST(ScheduleTest, DeepMlpOneKernelPerLayer) {
  ClearScheduleCache();
  const int kLayers = 60;
  UOp x = Empty({16, 64});
  for (int i = 0; i < kLayers; ++i) {
    UOp a = x.reshape({16, 1, 64}).expand({16, 64, 64});
    UOp w = Empty({64, 64}).reshape({1, 64, 64}).permute({0, 2, 1}).expand({16, 64, 64});
    x = Relu((a * w).r(Ops::ADD, std::vector<int64_t>{2}).reshape({16, 64}));
  }
  // Its time is measured in schedule_benchmark, not asserted here.
  absl::StatusOr<Schedule> s = CreateScheduleWithVars(UOp::Sink({x}));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->items.size(), static_cast<size_t>(kLayers));
}

TEST(ScheduleTest, KernelOrderFollowsDependencies) {
  // softmax: max, then sum (reads max), then the output (reads both)
  ClearScheduleCache();
  std::vector<UOp> outs = Cases().at("softmax")();
  absl::StatusOr<Schedule> s = CreateScheduleWithVars(UOp::Sink(outs));
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s->items.size(), 3u);
  EXPECT_EQ(s->items[1].bufs[2], s->items[0].bufs[0]);  // sum reads max's output
  EXPECT_EQ(s->items[2].bufs[2], s->items[0].bufs[0]);
  EXPECT_EQ(s->items[2].bufs[3], s->items[1].bufs[0]);
}

}  // namespace
}  // namespace tg
