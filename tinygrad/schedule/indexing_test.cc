// File: tinygrad/schedule/indexing_test.cc
// Tests of apply_movement_op against the reference (testdata/apply_movement_op.txt, written by
// tools/golden/gen_apply_movement_op.py), of pm_mops, and of run_rangeify.
#include "tinygrad/schedule/indexing.h"
#include "tinygrad/uop/movement/movement.h"

#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/render.h"

namespace tg {
namespace {

std::vector<int64_t> Ints(absl::string_view s) {
  std::vector<int64_t> out;
  for (absl::string_view t : absl::StrSplit(s, ',')) {
    int64_t v = 0;
    EXPECT_TRUE(absl::SimpleAtoi(t, &v)) << t;
    out.push_back(v);
  }
  return out;
}

Shape ToShape(const std::vector<int64_t>& v) { return Shape(v.begin(), v.end()); }

MovementArg ParseArg(Ops op, absl::string_view s) {
  MovementArg a;
  if (op == Ops::RESHAPE || op == Ops::EXPAND) a.shape = ToShape(Ints(s));
  if (op == Ops::PERMUTE) a.perm = Ints(s);
  if (op == Ops::FLIP)
    for (int64_t v : Ints(s)) a.flip.push_back(v != 0);
  if (op == Ops::PAD || op == Ops::SHRINK) {
    for (absl::string_view p : absl::StrSplit(s, ',')) {
      std::vector<absl::string_view> be = absl::StrSplit(p, ':');
      int64_t b = 0, e = 0;
      EXPECT_TRUE(absl::SimpleAtoi(be[0], &b) && absl::SimpleAtoi(be[1], &e));
      a.pairs.emplace_back(b, e);
    }
  }
  return a;
}

Ops ParseOp(const std::string& s) {
  for (Ops op : {Ops::RESHAPE, Ops::EXPAND, Ops::PERMUTE, Ops::FLIP, Ops::PAD, Ops::SHRINK})
    if (s == OpName(op)) return op;
  ADD_FAILURE() << "unknown op " << s;
  return Ops::NOOP;
}

TEST(ApplyMovementOpTest, MatchesReference) {
  std::ifstream f("tinygrad/schedule/testdata/apply_movement_op.txt");
  ASSERT_TRUE(f.good());
  std::string line;
  int n = 0;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fl = absl::StrSplit(line, " | ");
    ASSERT_EQ(fl.size(), 6u) << line;
    Ops op = ParseOp(fl[0]);
    Shape in_shape = ToShape(Ints(fl[1]));
    std::vector<int64_t> out_shape = Ints(fl[3]);
    std::vector<UOp> rngs;
    int i = 0;
    for (absl::string_view t : absl::StrSplit(fl[4], ',')) {
      int64_t v = 0;
      if (t == "R") {
        rngs.push_back(UOp::Range(out_shape[i], i));
      } else if (t[0] == 'R' && absl::SimpleAtoi(t.substr(1), &v)) {
        rngs.push_back(UOp::Range(out_shape[i], v));
      } else {
        ASSERT_TRUE(absl::SimpleAtoi(t, &v)) << t;
        rngs.push_back(UOp::Const(dtypes::index, v));
      }
      ++i;
    }
    std::vector<UOp> got = ApplyMovementOp(op, in_shape, ParseArg(op, fl[2]), rngs);
    std::vector<std::string> rendered;
    for (const UOp& g : got) rendered.push_back(Render(g));
    EXPECT_EQ(absl::StrJoin(rendered, " ; "), fl[5]) << line;
    ++n;
  }
  EXPECT_GE(n, 25);
}

TEST(ApplyMovementOpTest, FromMovementNode) {
  UOp b = UOp::NewBuffer("CPU", 6, dtypes::float32);
  UOp r = b.reshape({2, 3});
  UOp r0 = UOp::Range(2, 0), r1 = UOp::Range(3, 1);
  std::vector<UOp> got = ApplyMovementOp(r, std::vector<UOp>{r0, r1});
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(Render(got[0]), "(r0*3+r1)");
}

TEST(PmMopsTest, IndexThroughPermuteAndReshape) {
  UOp b = UOp::NewBuffer("CPU", 6, dtypes::float32);
  UOp v = b.reshape({2, 3}).permute({1, 0});
  UOp r0 = UOp::Range(3, 0), r1 = UOp::Range(2, 1);
  UOp idx = v.index(std::vector<UOp>{r0, r1});
  UOp out = GraphRewrite(idx, PmMops(), {.name = "mops"});
  ASSERT_EQ(out.op(), Ops::INDEX);
  EXPECT_EQ(out.src(0), b);
  ASSERT_EQ(out.src().size(), 2u);
  EXPECT_EQ(Render(out.src(1)), "(r1*3+r0)");
}

TEST(PmMopsTest, MovementMovesAfterAfterAndOutOfEnd) {
  UOp b = UOp::NewBuffer("CPU", 6, dtypes::float32);
  UOp v = b.reshape({2, 3});
  UOp dep = UOp::NewBuffer("CPU", 1, dtypes::float32);
  UOp a = v.after(std::vector<UOp>{dep});
  UOp out = GraphRewrite(a, PmMops(), {.name = "mops"});
  ASSERT_EQ(out.op(), Ops::RESHAPE);
  EXPECT_EQ(out.src(0).op(), Ops::AFTER);
  EXPECT_EQ(out.src(0).src(0), b);
  UOp r = UOp::Range(4, 0);
  UOp e = UOp::Make(Ops::END, dtypes::void_, {v, r});
  UOp eo = GraphRewrite(e, PmMops(), {.name = "mops"});
  EXPECT_EQ(eo.src(0), b);
}

// Regression: pm_apply_rangeify copied a node's ranges with `range_map[new] = it->second`, which
// reads a moved-away slot when inserting `new` rehashes the map. Whether that happened depended on
// the map's size: `(x.sum() * 2).contiguous()` of a schedule-cache input (BUFFER of a LUNIQUE)
// lost the buffer's index and the reduce folded to `x * 4`. Varying the graph size walks the map
// over its rehash points; every REDUCE must read its buffer at its own range.
TEST(RunRangeifyTest, ReduceOfABufferKeepsItsIndexAtEveryGraphSize) {
  for (bool local_unique : {false, true}) {
    for (int extra = 0; extra < 24; ++extra) {
      SCOPED_TRACE(absl::StrCat("lunique=", local_unique, " extra ops=", extra));
      UOp dev = UOp::Make(Ops::DEVICE, dtypes::void_, {}, std::string("CPU"));
      UOp uniq = UOp::Make(local_unique ? Ops::LUNIQUE : Ops::UNIQUE, dtypes::void_, {}, int64_t{0});
      UOp buf = UOp::Make(Ops::BUFFER, dtypes::float32, {uniq, dev}, int64_t{2});
      UOp x = buf.r(Ops::ADD, std::vector<int64_t>{0}).reshape(Shape{});
      for (int i = 0; i < extra; ++i) x = x * UOp::ConstOn(dtypes::float32, 2.0, "CPU");
      UOp sink = UOp::Sink({UOp::Make(Ops::CONTIGUOUS, dtypes::float32, {x})});
      IndexingContext ctx;
      UOp out = RunRangeify(sink, ctx);
      int reduces = 0;
      for (const UOp& u : out.toposort()) {
        if (u.op() != Ops::REDUCE) continue;
        ++reduces;
        ASSERT_EQ(u.src().size(), 2u);
        const UOp& idx = u.src(0);
        ASSERT_EQ(idx.op(), Ops::INDEX);
        ASSERT_EQ(idx.src().size(), 2u) << PrettyPrint(out);
        EXPECT_EQ(idx.src(0), buf);
        EXPECT_EQ(idx.src(1), u.src(1));
        EXPECT_EQ(u.src(1).op(), Ops::RANGE);
      }
      EXPECT_EQ(reduces, 1);
    }
  }
}

// Regression (NN.Norms, layernorm): the same rehash, when it came at the
// variance's REDUCE (or at a PAD), left the new node with no ranges, so the INDEX into the
// realized mean it reads had no indices and bufferize.cc stopped on "index on wrong bufferize".
// The extra ops (with and without a PAD in front) walk the map across its rehash points (before
// the fix: 7, 9, 35 and 37 extra ops failed); every INDEX into a BUFFERIZE must give one index
// per BUFFERIZE range, and every INDEX must have an index.
TEST(RunRangeifyTest, IndexesIntoRealizedReducesMatchTheirBufferizeAtEveryGraphSize) {
  for (bool pad : {false, true}) {
    for (int extra = 0; extra < 40; ++extra) {
      SCOPED_TRACE(absl::StrCat("pad=", pad, " extra ops=", extra));
      UOp dev = UOp::Make(Ops::DEVICE, dtypes::void_, {}, std::string("CPU"));
      UOp uniq = UOp::Make(Ops::LUNIQUE, dtypes::void_, {}, int64_t{0});
      UOp x = UOp::Make(Ops::BUFFER, dtypes::float32, {uniq, dev}, int64_t{99}).reshape(Shape{3, 33});
      if (pad) x = x.pad({{0, 0}, {1, 2}});  // (3, 36)
      const int64_t n = pad ? 36 : 33;
      Shape full{3, n};
      std::vector<int64_t> axis1{1};
      UOp sum = x.r(Ops::ADD, axis1);
      UOp mean = sum * UOp::ConstOn(dtypes::float32, 1.0 / n, "CPU", sum.shape());
      UOp c = x - mean.expand(full);
      UOp v = (c * c).r(Ops::ADD, axis1);
      for (int i = 0; i < extra; ++i) v = v * UOp::ConstOn(dtypes::float32, 2.0, "CPU", v.shape());
      UOp sink = UOp::Sink({UOp::Make(Ops::CONTIGUOUS, dtypes::float32, {v})});
      IndexingContext ctx;
      UOp out = RunRangeify(sink, ctx);
      int bufferize_reads = 0;
      for (const UOp& u : out.toposort()) {
        if (u.op() != Ops::INDEX) continue;
        EXPECT_GE(u.src().size(), 2u) << "INDEX without an index";
        if (u.src(0).op() != Ops::BUFFERIZE) continue;
        ++bufferize_reads;
        EXPECT_EQ(u.src().size(), u.src(0).src().size()) << "index on wrong bufferize";
      }
      EXPECT_GE(bufferize_reads, 1);  // the mean is realized and read back
    }
  }
}

}  // namespace
}  // namespace tg
