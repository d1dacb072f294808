#include "tinygrad/uop/uop.h"

#include <atomic>
#include <memory>
#include <string>
#include <thread>

#include "gtest/gtest.h"

namespace tg {
namespace {

TEST(UOpTest, InterningGivesTheSameNode) {
  UOp a = UOp::Variable("a", 0, 10);
  UOp b = UOp::Variable("a", 0, 10);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.id(), b.id());
  EXPECT_EQ(a * 2 + 3, a * 2 + 3);
  EXPECT_NE(a * 2, a * 3);
  EXPECT_NE(UOp::Variable("a", 0, 11), a);
}

TEST(UOpTest, ConstKindsAreDistinct) {
  // tinygrad's as_const converts by dtype: an int arg on a float dtype becomes 1.0.
  EXPECT_EQ(UOp::Const(dtypes::float32, 1), UOp::Const(dtypes::float32, 1.0));
  EXPECT_TRUE(UOp::Const(dtypes::float32, 1).arg().number().is_float());
  EXPECT_NE(UOp::Const(dtypes::int32, 1), UOp::Const(dtypes::float32, 1));
  EXPECT_EQ(UOp::Const(dtypes::bool_, 5).arg(), Arg(true));
}

TEST(UOpTest, TagIsPartOfIdentityButNotOfKey) {
  UOp a = UOp::Variable("a", 0, 10);
  UOp t = a.replace_tag(Arg(1));
  EXPECT_NE(a, t);
  EXPECT_EQ(a.key(), t.key());
  EXPECT_EQ(t.replace_tag(Arg()), a);
}

// An opaque arg (a custom kernel's functions) is equal only to itself, in Args and in nodes.
TEST(UOpTest, OpaqueArgsCompareByIdentity) {
  struct Held : OpaqueValue {
    std::string repr() const override { return "Held"; }
  };
  auto h1 = std::make_shared<const Held>(), h2 = std::make_shared<const Held>();
  EXPECT_EQ(Arg(h1), Arg(h1));
  EXPECT_NE(Arg(h1), Arg(h2));
  EXPECT_EQ(Arg(h1).StableHash(), Arg(h1).StableHash());
  EXPECT_NE(Arg(h1).StableHash(), Arg(h2).StableHash());
  EXPECT_EQ(Arg(h1).repr(), "Held");
  EXPECT_EQ(Arg(h1).opaque_as<Held>(), h1.get());
  EXPECT_EQ(Arg(1).opaque_as<Held>(), nullptr);
  EXPECT_EQ(UOp::Make(Ops::NOOP, dtypes::void_, {}, Arg(h1)),
            UOp::Make(Ops::NOOP, dtypes::void_, {}, Arg(h1)));
  EXPECT_NE(UOp::Make(Ops::NOOP, dtypes::void_, {}, Arg(h1)),
            UOp::Make(Ops::NOOP, dtypes::void_, {}, Arg(h2)));
}

TEST(UOpTest, ReplaceReturnsSelfWhenUnchanged) {
  UOp a = UOp::Variable("a", 0, 10) + 1;
  EXPECT_EQ(a.replace_arg(a.arg()), a);
  EXPECT_EQ(a.replace_dtype(a.dtype()), a);
  EXPECT_EQ(a.replace_src(a.src()), a);
  UOp b = a.replace_op(Ops::MUL);
  EXPECT_EQ(b.op(), Ops::MUL);
  EXPECT_EQ(b, a.src(0) * a.src(1));
}

TEST(UOpTest, SugarBuildsWhatTinygradBuilds) {
  UOp a = UOp::Variable("a", 0, 10), b = UOp::Variable("b", 0, 10);
  // a-b is a + b*-1
  UOp sub = a - b;
  EXPECT_EQ(sub.op(), Ops::ADD);
  EXPECT_EQ(sub.src(1), b * -1);
  // a/b is a * RECIPROCAL(b)
  EXPECT_EQ((a / b).src(1).op(), Ops::RECIPROCAL);
  // comparisons give bool, >= is NOT(<)
  EXPECT_EQ(a.lt(b).dtype(), dtypes::bool_);
  EXPECT_EQ(a.ge(b), a.lt(b).ne(ConstValue(true)));
  EXPECT_EQ(a.gt(3), UOp::Make(Ops::CMPLT, dtypes::bool_, {a.const_like(3), a}));
  // min(a, b) = -max(-a, -b)
  EXPECT_EQ(a.minimum(b), -((-a).maximum(-b)));
  // 3 - a = 3 + a*-1
  EXPECT_EQ(ConstValue(3) - a, a.const_like(3) + a * -1);
  // bool negation is logical_not
  UOp c = a.lt(b);
  EXPECT_EQ(-c, c.ne(ConstValue(true)));
}

TEST(UOpTest, CastKeepsVectorWidthAndSkipsNoop) {
  UOp v = UOp::Variable("a", 0, 10).cast(dtypes::int32);
  EXPECT_EQ(v.cast(dtypes::int32), v);
  UOp vec = v.broadcast(4);
  EXPECT_EQ(vec.dtype(), dtypes::int32.vec(4));
  EXPECT_EQ(vec.cast(dtypes::float32).dtype(), dtypes::float32.vec(4));
  EXPECT_EQ(vec.gep(2), v);  // GEP of VECTORIZE is its source
  EXPECT_EQ(UOp::Const(dtypes::int32.vec(4), 7).gep(1), UOp::Const(dtypes::int32, 7));
}

TEST(UOpTest, VConstFoldsToConstWhenLanesAreEqual) {
  ConstValue same[] = {1, 1, 1};
  EXPECT_EQ(UOp::VConst(dtypes::int32.vec(3), same).op(), Ops::CONST);
  ConstValue diff[] = {1, 2, 3};
  UOp v = UOp::VConst(dtypes::int32.vec(3), diff);
  EXPECT_EQ(v.op(), Ops::VCONST);
  EXPECT_EQ(v.vmin(), ConstValue(1));
  EXPECT_EQ(v.vmax(), ConstValue(3));
}

TEST(UOpTest, MinMaxFollowsTinygrad) {
  UOp a = UOp::Variable("a", 0, 10), b = UOp::Variable("b", -3, 4);
  EXPECT_EQ((a + b).vmin(), ConstValue(-3));
  EXPECT_EQ((a + b).vmax(), ConstValue(14));
  EXPECT_EQ((a * b).vmin(), ConstValue(-30));
  EXPECT_EQ((a * b).vmax(), ConstValue(40));
  EXPECT_EQ((a % 4).vmax(), ConstValue(3));
  EXPECT_EQ((b % 3).vmin(), ConstValue(-2));
  EXPECT_EQ(a.idiv(3).vmax(), ConstValue(3));
  EXPECT_EQ(b.idiv(2).vmin(), ConstValue(-1));  // truncation toward zero
  EXPECT_EQ(a.lt(11).vmin(), ConstValue(true));
  EXPECT_EQ(a.maximum(b).vmin(), ConstValue(0));
  UOp r = UOp::Range(16, 0);
  EXPECT_EQ(r.vmin(), ConstValue(0));
  EXPECT_EQ(r.vmax(), ConstValue(15));
  // CAST to a signed int clamps to the dtype's range.
  EXPECT_EQ(UOp::Variable("x", -1000, 1000).cast(dtypes::int8).vmin(), ConstValue(-128));
  // Floats are not analysed.
  UOp f = UOp::Const(dtypes::float32, 2.0) + UOp::Const(dtypes::float32, 3.0);
  EXPECT_TRUE(f.vmax().is_float());
}

TEST(UOpTest, ToposortPutsChildrenFirstInSourceOrder) {
  UOp a = UOp::Variable("a", 0, 10), b = UOp::Variable("b", 0, 10);
  UOp e = (a + b) * a;
  std::vector<UOp> order = e.toposort();
  ASSERT_EQ(order.size(), 4u);
  EXPECT_EQ(order[0], a);
  EXPECT_EQ(order[1], b);
  EXPECT_EQ(order[2], a + b);
  EXPECT_EQ(order[3], e);
  EXPECT_EQ(e.backward_slice().size(), 3u);
}

TEST(UOpTest, ToposortOfADeepChainDoesNotRecurse) {
  UOp x = UOp::Variable("x", 0, 10);
  for (int i = 0; i < 200000; ++i) x = x + 1;
  EXPECT_EQ(x.toposort().size(), 200002u);  // the var, the const 1, and 200000 ADDs
}

TEST(UOpTest, PrettyPrintMatchesTinygrad) {
  // Expected text printed by the reference at 35900290:
  //   a=UOp.variable('a',0,10); print((a*2+3)//2)
  UOp a = UOp::Variable("a", 0, 10);
  UOp e = (a * 2 + 3).idiv(2);
  EXPECT_EQ(PrettyPrint(e),
            "UOp(Ops.IDIV, dtypes.index, arg=None, src=(\n"
            "  UOp(Ops.ADD, dtypes.index, arg=None, src=(\n"
            "    UOp(Ops.MUL, dtypes.index, arg=None, src=(\n"
            "      UOp(Ops.DEFINE_VAR, dtypes.index, arg=('a', 0, 10), src=()),\n"
            "      x3:=UOp(Ops.CONST, dtypes.index, arg=2, src=()),)),\n"
            "    UOp(Ops.CONST, dtypes.index, arg=3, src=()),)),\n"
            "  x3,))");
}

TEST(UOpTest, StructuralKeyIsStableAcrossProcesses) {
  // A golden value: if this changes, every tuning database key changes with it. Only update it
  // on purpose (and bump the database's key version).
  UOp a = UOp::Variable("a", 0, 10);
  UOp r = UOp::Range(16, 0, AxisType::LOOP);
  UOp e = (a * 4 + r).idiv(3).lt(7).where(UOp::Const(dtypes::float32, 1.5),
                                           UOp::Const(dtypes::float32, -2.0));
  EXPECT_EQ(e.key(), e.key());
  EXPECT_EQ(e.key(), 0x9e4badb80a953d47ULL) << std::hex << e.key();
}

TEST(UOpTest, KeyDependsOnStructureNotConstructionOrder) {
  UOp b1 = UOp::Variable("b", 0, 5);
  UOp a1 = UOp::Variable("a", 0, 5);
  uint64_t k1 = (a1 + b1).key();
  UOp a2 = UOp::Variable("a", 0, 5);
  EXPECT_EQ((a2 + UOp::Variable("b", 0, 5)).key(), k1);
  EXPECT_NE((UOp::Variable("b", 0, 5) + a2).key(), k1);  // source order is structure
}

TEST(UOpTest, DroppedGraphsAreFreed) {
  size_t baseline = LiveUOpCount();
  for (int i = 0; i < 100000; ++i) {
    UOp v = UOp::Variable("v" + std::to_string(i % 97), 0, i);
    UOp e = ((v * (i + 1) + i) % 7).idiv(3).lt(i).where(v, v + 1);
    ASSERT_GT(LiveUOpCount(), baseline);
  }
  EXPECT_EQ(LiveUOpCount(), baseline);
}

TEST(UOpTest, DroppingADeepChainDoesNotRecurse) {
  size_t baseline = LiveUOpCount();
  {
    UOp x = UOp::Variable("deep", 0, 10);
    for (int i = 0; i < 1000000; ++i) x = x * 1 + i;
  }
  EXPECT_EQ(LiveUOpCount(), baseline);
}

TEST(UOpTest, InterningIsThreadSafe) {
  size_t baseline = LiveUOpCount();
  constexpr int kThreads = 4;
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &mismatches] {
      for (int i = 0; i < 20000; ++i) {
        // Shared nodes, built and dropped by every thread at once.
        UOp v = UOp::Variable("shared", 0, 100);
        UOp e = (v * (i % 50) + 1).idiv(2);
        if ((v * (i % 50) + 1).idiv(2) != e) ++mismatches;
        // Churn: nodes no other thread has.
        UOp tmp = v * (1000 + t * 100000 + i);
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_EQ(LiveUOpCount(), baseline);
}

// Every thread builds and drops the same nodes, which no one else holds: they die and are born
// again all the time, on one shard of the intern table, whose lock is then contended (more
// threads than cores: holders are preempted, and waiters go to sleep on it).
TEST(UOpTest, OneShardFromManyThreads) {
  size_t baseline = LiveUOpCount();
  constexpr int kThreads = 8;
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&mismatches] {
      for (int i = 0; i < 20000; ++i) {
        UOp c = UOp::Const(dtypes::int32, 987654321);
        UOp sum = c + c;
        if (UOp::Const(dtypes::int32, 987654321) != c || c + c != sum || sum.src(0) != c) ++mismatches;
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_EQ(LiveUOpCount(), baseline);
}

TEST(UOpTest, ConcurrentBuildersAgreeOnIdentity) {
  UOp v = UOp::Variable("agree", 0, 100);
  constexpr int kThreads = 4;
  std::vector<UOp> results(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      UOp acc = v;
      for (int i = 0; i < 5000; ++i) acc = acc + (i % 13);
      results[t] = acc;
    });
  for (auto& th : threads) th.join();
  for (int t = 1; t < kThreads; ++t) EXPECT_EQ(results[t], results[0]);
}

TEST(UOpDeathTest, NullSourceIsABug) {
  EXPECT_DEATH(UOp::Make(Ops::ADD, dtypes::index, {UOp(), UOp()}), "null source");
}

TEST(UOpRangesTest, RangesFollowTinygrad) {
  UOp r0 = UOp::Range(4, 0), r1 = UOp::Range(8, 1, AxisType::REDUCE);
  UOp x = r0 * 8 + r1;
  EXPECT_EQ(r0.ranges(), (std::vector<UOp>{r0}));
  EXPECT_EQ(x.ranges(), (std::vector<UOp>{r0, r1}));
  UOp red = UOp::Make(Ops::REDUCE, dtypes::index, {x, r1}, Ops::ADD);
  EXPECT_EQ(red.ranges(), (std::vector<UOp>{r0})) << "REDUCE closes its ranges";
  UOp buf = UOp::Make(Ops::DEFINE_GLOBAL, dtypes::float32.ptr(4), {}, 0);
  UOp st = buf.index(std::vector<UOp>{r0}, true).store(UOp::Const(dtypes::float32, 1.0));
  UOp end = st.end(std::vector<UOp>{r0});
  EXPECT_EQ(st.ranges(), (std::vector<UOp>{r0}));
  EXPECT_TRUE(end.ranges().empty()) << "END closes its ranges";
  EXPECT_EQ(end.ended_ranges(), (std::vector<UOp>{r0}));
  UOp after = buf.after(std::vector<UOp>{end});
  EXPECT_EQ(after.ended_ranges(), (std::vector<UOp>{r0})) << "AFTER closes what its deps close";
}

TEST(UOpRangesTest, DeepChainsDoNotRecurse) {
  UOp r = UOp::Range(4, 0);
  UOp x = r;
  for (int i = 0; i < 200000; ++i) x = x + 1;
  EXPECT_EQ(x.ranges(), (std::vector<UOp>{r}));
  EXPECT_EQ(&x.ranges(), &x.ranges()) << "memoized";
}

}  // namespace
}  // namespace tg
