// File: tinygrad/codegen/lower/reduce_to_acc.cc
// Port of tinygrad/codegen/late/devectorizer.py: pm_reduce (horizontal_reduce, reduce_to_acc,
// the WMMA built-in accumulate).
#include <vector>

#include "tinygrad/base/check.h"
#include "tinygrad/codegen/lower/devectorizer.h"
#include "tinygrad/uop/symbolic/helpers.h"

namespace tg {
namespace {

// The lane groups of a vector input wider than the output, to be combined pairwise:
// [0 1 2 3 4 5 6 7] -> [0+4, 1+5, 2+6, 3+7].
std::vector<UOp> HorizontalReduce(const UOp& inp, DType out_dtype) {
  if (inp.dtype() == out_dtype) return {inp};
  int amount = inp.dtype().count() / out_dtype.count();
  std::vector<UOp> out;
  for (int i = 0; i < amount; ++i) {
    std::vector<int> lanes;
    for (int l = i; l < inp.dtype().count(); l += amount) lanes.push_back(l);
    out.push_back(inp.gep(lanes));
  }
  return out;
}

UOp AfterOf(const UOp& buf, const std::vector<UOp>& deps) {
  std::vector<UOp> srcs{buf};
  srcs.insert(srcs.end(), deps.begin(), deps.end());
  return UOp::Make(Ops::AFTER, buf.dtype(), srcs);
}

UOp Index0(const UOp& buf) {
  return buf.index(std::vector<UOp>{UOp::Const(dtypes::int32, 0)});
}

// REDUCE -> DEFINE_REG accumulator: init store, update inside the reduce ranges, read after
UOp ReduceToAcc(const Match& m) {
  ReduceContext& ctx = m.ctx<ReduceContext>();
  const UOp& red = m["red"];
  const UOp& inp = red.src(0);
  std::vector<UOp> reduce_range(red.src().begin() + 1, red.src().end());
  Ops op = red.arg().ops();
  std::vector<UOp> lst = HorizontalReduce(inp, red.dtype());
  for (const UOp& x : lst)
    TG_CHECK(x.dtype() == red.dtype())
        << "horizontal reduction mismatch " << lst[0].dtype() << " != " << red.dtype();
  UOp acc;
  // if we have a range
  if (!reduce_range.empty()) {
    std::vector<UOp> topo = inp.toposort();
    std::vector<UOp> ended;
    for (const UOp& x : topo)
      if (x.op() == Ops::END)
        for (const UOp& r : x.ended_ranges()) ended.push_back(r);
    std::vector<UOp> input_ranges;
    for (const UOp& x : topo)
      if (x.op() == Ops::RANGE && !Contains(reduce_range, x) && !Contains(ended, x))
        input_ranges.push_back(x);
    UOp identity = UOp::Const(red.dtype(), IdentityElement(op, red.dtype().scalar()));
    acc = UOp::Make(Ops::DEFINE_REG, red.dtype().ptr(1, AddrSpace::REG), {}, Arg(ctx.acc_num));
    UOp acc_init = Index0(input_ranges.empty() ? acc : AfterOf(acc, input_ranges)).store(identity);
    std::vector<UOp> deps{acc_init};
    deps.insert(deps.end(), reduce_range.begin(), reduce_range.end());
    lst.insert(lst.begin(), Index0(AfterOf(acc, deps)));  // put acc as the first element
    ctx.acc_num += 1;
  }
  UOp ret = lst[0];
  for (size_t i = 1; i < lst.size(); ++i) ret = ret.alu(op, {lst[i]});
  if (reduce_range.empty()) return ret;
  std::vector<UOp> end_srcs{Index0(acc).store(ret)};
  end_srcs.insert(end_srcs.end(), reduce_range.begin(), reduce_range.end());
  UOp end = UOp::Make(Ops::END, dtypes::void_, end_srcs);
  return Index0(AfterOf(acc, {end}));
}

// WMMA + add -> WMMA accumulating add into its C operand
UOp WmmaAccumulate(const Match& m) {
  const UOp &wmma = m["wmma"], &add = m["add"];
  return UOp::Make(wmma.op(), wmma.dtype(), {wmma.src(0), wmma.src(1), wmma.src(2) + add},
                   wmma.arg());
}

}  // namespace

const PatternMatcher& PmReduce() {
  static const PatternMatcher* const kRules = new PatternMatcher({
      // REDUCE -> DEFINE_ACC+ASSIGN
      Rule(UPat(Ops::REDUCE).named("red"), ReduceToAcc),
      // tensor core built in accumulate
      Rule(UPat(Ops::WMMA).named("wmma") + UPat::Var("add"), WmmaAccumulate),
  });
  return *kRules;
}

}  // namespace tg
