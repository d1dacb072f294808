// File: tinygrad/schedule/local_buffers_test.cc
// Tests of schedule/local_buffers.cc. The PrettyPrint strings are the reference's print() of
// the same graphs (tinygrad 35900290, schedule/rangeify.py's functions called directly).
#include "tinygrad/schedule/local_buffers.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/graph_util.h"
#include "tinygrad/uop/kernel_info.h"

namespace tg {
namespace {

UOp R(int64_t n, int64_t id) { return UOp::Range(n, id); }
UOp Buf(int slot) { return UOp::Make(Ops::DEFINE_GLOBAL, dtypes::float32.ptr(8), {}, slot); }

struct Graph {
  UOp r0 = R(2, 0), r1 = R(4, 1);
  UOp flat = r0 * 4 + r1;
  UOp val = Buf(1).index(std::vector<UOp>{flat}) * 2.0;
  UOp Bufferize(BufferizeOpts opts, std::vector<UOp> idx) const {
    std::vector<UOp> src{val};
    src.insert(src.end(), idx.begin(), idx.end());
    return UOp::Make(Ops::BUFFERIZE, dtypes::float32, src, opts.ToArg());
  }
};

TEST(LocalBuffersTest, GlobalBufferizeBecomesBufferAndStore) {
  Graph g;
  int64_t counter = 5;
  UOp x = g.Bufferize({.device = "CPU", .addrspace = AddrSpace::GLOBAL}, {g.flat});
  UOp out = BufferizeToStore(counter, x, g.flat, /*allow_locals=*/false);
  EXPECT_EQ(counter, 6);
  EXPECT_EQ(PrettyPrint(out), R"(UOp(Ops.AFTER, dtypes.float, arg=None, src=(
  x0:=UOp(Ops.BUFFER, dtypes.float, arg=8, src=(
    UOp(Ops.LUNIQUE, dtypes.void, arg=5, src=()),
    UOp(Ops.DEVICE, dtypes.void, arg='CPU', src=()),)),
  UOp(Ops.END, dtypes.void, arg=None, src=(
    UOp(Ops.STORE, dtypes.void, arg=None, src=(
      UOp(Ops.INDEX, dtypes.float.ptr(8), arg=None, src=(
        x0,
        x6:=UOp(Ops.ADD, dtypes.index, arg=None, src=(
          UOp(Ops.MUL, dtypes.index, arg=None, src=(
            x8:=UOp(Ops.RANGE, dtypes.index, arg=(0, AxisType.LOOP), src=(
              UOp(Ops.CONST, dtypes.index, arg=2, src=()),)),
            x10:=UOp(Ops.CONST, dtypes.index, arg=4, src=()),)),
          x11:=UOp(Ops.RANGE, dtypes.index, arg=(1, AxisType.LOOP), src=(
            x10,)),)),)),
      UOp(Ops.MUL, dtypes.float, arg=None, src=(
        UOp(Ops.INDEX, dtypes.float, arg=None, src=(
          UOp(Ops.DEFINE_GLOBAL, dtypes.float.ptr(8), arg=1, src=()),
          x6,)),
        UOp(Ops.CONST, dtypes.float, arg=2.0, src=()),)),)),
    x8,
    x11,)),)))");
}

TEST(LocalBuffersTest, LocalBufferizeBecomesDefineLocalAndBarrier) {
  Graph g;
  int64_t counter = 0;
  UOp x = g.Bufferize({.device = 3, .addrspace = AddrSpace::LOCAL}, {g.flat});
  EXPECT_FALSE(BufferizeToStore(counter, x, g.flat, /*allow_locals=*/false));
  UOp out = BufferizeToStore(counter, x, g.flat, /*allow_locals=*/true);
  EXPECT_EQ(PrettyPrint(out), R"(UOp(Ops.AFTER, dtypes.float.ptr(8, AddrSpace.LOCAL), arg=None, src=(
  x0:=UOp(Ops.DEFINE_LOCAL, dtypes.float.ptr(8, AddrSpace.LOCAL), arg=0, src=()),
  UOp(Ops.BARRIER, dtypes.void, arg=None, src=(
    UOp(Ops.END, dtypes.void, arg=None, src=(
      UOp(Ops.STORE, dtypes.void, arg=None, src=(
        UOp(Ops.INDEX, dtypes.float.ptr(8, AddrSpace.LOCAL), arg=None, src=(
          x0,
          x5:=UOp(Ops.ADD, dtypes.index, arg=None, src=(
            UOp(Ops.MUL, dtypes.index, arg=None, src=(
              x7:=UOp(Ops.RANGE, dtypes.index, arg=(0, AxisType.LOOP), src=(
                UOp(Ops.CONST, dtypes.index, arg=2, src=()),)),
              x9:=UOp(Ops.CONST, dtypes.index, arg=4, src=()),)),
            x10:=UOp(Ops.RANGE, dtypes.index, arg=(1, AxisType.LOOP), src=(
              x9,)),)),)),
        UOp(Ops.MUL, dtypes.float, arg=None, src=(
          UOp(Ops.INDEX, dtypes.float, arg=None, src=(
            UOp(Ops.DEFINE_GLOBAL, dtypes.float.ptr(8), arg=1, src=()),
            x5,)),
          UOp(Ops.CONST, dtypes.float, arg=2.0, src=()),)),)),
      x7,
      x10,)),)),)))");
}

TEST(LocalBuffersTest, FlattenBufferizeReshapesAFlatBufferize) {
  Graph g;
  UOp x = g.Bufferize({.device = 3, .addrspace = AddrSpace::LOCAL}, {g.r0, g.r1});
  UOp out = GraphRewrite(x, PmFlattenBufferize());
  // reference: RESHAPE(BUFFERIZE(val, r0*4+r1), VCONST (2, 4))
  ASSERT_EQ(out.op(), Ops::RESHAPE);
  const UOp& b = out.src(0);
  ASSERT_EQ(b.op(), Ops::BUFFERIZE);
  EXPECT_EQ(b.src(0), g.val);
  EXPECT_EQ(b.src(1), g.flat);
  EXPECT_EQ(b.arg(), x.arg());
  EXPECT_EQ(out.src(1), UOp::VConst(dtypes::index.vec(2), std::vector<ConstValue>{2, 4}));
}

TEST(LocalBuffersTest, AddBuffersLocalStagesAReadInLocalMemory) {
  Graph g;
  UOp x = g.Bufferize({.device = 3, .addrspace = AddrSpace::LOCAL}, {g.r0, g.r1});
  UOp r2 = R(8, 2);
  UOp rd = x.index(std::vector<UOp>{r2.idiv(4), r2 % 4});
  UOp st = End(Buf(0).index(std::vector<UOp>{r2}, true).store(rd), std::vector<UOp>{r2});
  int64_t counter = 0;
  UOp out = GraphRewrite(UOp::Sink({st}), PmAddBuffersLocal() + RangeifyCodegen(),
                         {.ctx = RewriteCtx::Of(counter)});
  EXPECT_EQ(PrettyPrint(out), R"(UOp(Ops.SINK, dtypes.void, arg=None, src=(
  UOp(Ops.END, dtypes.void, arg=None, src=(
    UOp(Ops.STORE, dtypes.void, arg=None, src=(
      UOp(Ops.INDEX, dtypes.float.ptr(8), arg=None, src=(
        UOp(Ops.DEFINE_GLOBAL, dtypes.float.ptr(8), arg=0, src=()),
        x4:=UOp(Ops.RANGE, dtypes.index, arg=(2, AxisType.LOOP), src=(
          UOp(Ops.CONST, dtypes.index, arg=8, src=()),)),)),
      UOp(Ops.INDEX, dtypes.float, arg=None, src=(
        UOp(Ops.AFTER, dtypes.float.ptr(8, AddrSpace.LOCAL), arg=None, src=(
          x8:=UOp(Ops.DEFINE_LOCAL, dtypes.float.ptr(8, AddrSpace.LOCAL), arg=0, src=()),
          UOp(Ops.BARRIER, dtypes.void, arg=None, src=(
            UOp(Ops.END, dtypes.void, arg=None, src=(
              UOp(Ops.STORE, dtypes.void, arg=None, src=(
                UOp(Ops.INDEX, dtypes.float.ptr(8, AddrSpace.LOCAL), arg=None, src=(
                  x8,
                  x13:=UOp(Ops.ADD, dtypes.index, arg=None, src=(
                    UOp(Ops.MUL, dtypes.index, arg=None, src=(
                      x15:=UOp(Ops.RANGE, dtypes.index, arg=(0, AxisType.LOOP), src=(
                        UOp(Ops.CONST, dtypes.index, arg=2, src=()),)),
                      x17:=UOp(Ops.CONST, dtypes.index, arg=4, src=()),)),
                    x18:=UOp(Ops.RANGE, dtypes.index, arg=(1, AxisType.LOOP), src=(
                      x17,)),)),)),
                UOp(Ops.MUL, dtypes.float, arg=None, src=(
                  UOp(Ops.INDEX, dtypes.float, arg=None, src=(
                    UOp(Ops.DEFINE_GLOBAL, dtypes.float.ptr(8), arg=1, src=()),
                    x13,)),
                  UOp(Ops.CONST, dtypes.float, arg=2.0, src=()),)),)),
              x15,
              x18,)),)),)),
        x4,)),)),
    x4,)),)))");
}

TEST(LocalBuffersTest, RangeifyCodegenCleansTheKernelGraph) {
  UOp v = UOp::Const(dtypes::float32, 1.0);
  UOp st = UOp::Make(Ops::STORE, dtypes::void_, {Buf(0).index(std::vector<UOp>{UOp::Const(dtypes::index, 0)}, true),
                                                 UOp::Make(Ops::NOOP, dtypes::float32, {UOp::Make(Ops::CONTIGUOUS, dtypes::float32, {v})})},
                     Arg(7));
  UOp out = GraphRewrite(st, RangeifyCodegen());
  EXPECT_TRUE(out.arg().is_none());
  EXPECT_EQ(out.src(1), v);
}

TEST(LocalBuffersTest, ContiguousOptsFindsTheOptTuple) {
  UOp v = UOp::Const(dtypes::float32, 1.0);
  Arg opts = Arg::Tuple({Arg::Tuple({"UPCAST", 0, 4})});
  EXPECT_FALSE(ContiguousOpts(UOp::Make(Ops::CONTIGUOUS, dtypes::float32, {v})).has_value());
  std::optional<Arg> got = ContiguousOpts(UOp::Make(Ops::CONTIGUOUS, dtypes::float32, {v}, opts));
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(*got, opts);
}

}  // namespace
}  // namespace tg
