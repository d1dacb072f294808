// Regression: an AFTER takes its source's name. Copying that name while inserting the AFTER's
// own entry into the name table once read a string the table had just moved (a rehash), so
// the accumulator rendered as `*(+0)` for some program sizes.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/renderer/c/clang.h"
#include "tinygrad/uop/kernel_info.h"

namespace tg {
namespace {

TEST(AfterAliasTest, AfterKeepsItsSourcesNameAtEveryTableSize) {
  ClangRenderer ren;
  for (int n = 0; n < 200; ++n) {
    UOp acc = UOp::Make(Ops::DEFINE_REG, dtypes::float32.ptr(1, AddrSpace::REG), {}, 0);
    std::vector<UOp> uops{acc};
    for (int i = 0; i < n; ++i) uops.push_back(UOp::Const(dtypes::int32, 1000 + i));
    UOp zero = UOp::Const(dtypes::int32, 0);
    UOp after = UOp::Make(Ops::AFTER, acc.dtype(), {acc});
    UOp idx = UOp::Make(Ops::INDEX, acc.dtype(), {after, zero});
    UOp fzero = UOp::Const(dtypes::float32, 0.0);
    UOp st = UOp::Make(Ops::STORE, dtypes::void_, {idx, fzero});
    uops.insert(uops.end(), {zero, fzero, after, idx, st});
    uops.push_back(UOp::Make(Ops::SINK, dtypes::void_, {st}, KernelInfo{.name = "k"}.ToArg()));
    std::string src = ren.Render(uops);
    EXPECT_NE(src.find("*(acc0+0) = 0.0f;"), std::string::npos) << "n=" << n << "\n" << src;
  }
}

}  // namespace
}  // namespace tg
