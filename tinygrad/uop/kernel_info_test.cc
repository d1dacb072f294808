#include "tinygrad/uop/kernel_info.h"

#include "gtest/gtest.h"
#include "tinygrad/uop/uop.h"

namespace tg {
namespace {

TEST(KernelInfoTest, RoundTripsThroughArg) {
  KernelInfo k{.name = "r_16_8_32", .axis_types = {AxisType::LOOP, AxisType::REDUCE}};
  k.opts_to_apply = std::vector<Arg>{Arg::Tuple({"UPCAST", 0, 4})};
  KernelInfo back = KernelInfo::FromArg(k.ToArg());
  EXPECT_EQ(back.name, "r_16_8_32");
  EXPECT_EQ(back.axis_types, k.axis_types);
  EXPECT_FALSE(back.dont_use_locals);
  ASSERT_TRUE(back.opts_to_apply.has_value());
  EXPECT_EQ((*back.opts_to_apply)[0], Arg::Tuple({"UPCAST", 0, 4}));
  EXPECT_FALSE(KernelInfo::FromArg(KernelInfo{}.ToArg()).opts_to_apply.has_value());
}

TEST(KernelInfoTest, ArgIsPartOfTheKey) {
  UOp a = UOp::Make(Ops::SINK, dtypes::void_, {}, KernelInfo{.name = "a"}.ToArg());
  UOp b = UOp::Make(Ops::SINK, dtypes::void_, {}, KernelInfo{.name = "b"}.ToArg());
  EXPECT_NE(a, b);
  EXPECT_NE(a.key(), b.key());
  EXPECT_TRUE(KernelInfo::IsKernelInfo(a.arg()));
  EXPECT_FALSE(KernelInfo::IsKernelInfo(Arg(3)));
}

TEST(KernelInfoTest, FunctionNameEscapes) {
  EXPECT_EQ(KernelInfo{.name = "r_16_8"}.function_name(), "r_16_8");
  EXPECT_EQ(KernelInfo{.name = "\x1b[34mr\x1b[0m_1.2"}.function_name(), "r_12E2");
}

TEST(BufferizeOptsTest, RoundTrips) {
  BufferizeOpts o{.device = "CPU", .addrspace = AddrSpace::GLOBAL, .removable = false};
  BufferizeOpts back = BufferizeOpts::FromArg(o.ToArg());
  EXPECT_EQ(back.device, Arg("CPU"));
  EXPECT_EQ(back.addrspace, AddrSpace::GLOBAL);
  EXPECT_FALSE(back.removable);
  BufferizeOpts local{.device = Arg(), .addrspace = AddrSpace::LOCAL};
  EXPECT_TRUE(BufferizeOpts::FromArg(local.ToArg()).device.is_none());
}

}  // namespace
}  // namespace tg
