// File: tinygrad/emulator/emulator_renderer_test.cc
#include "tinygrad/emulator/emulator_renderer.h"

#include "gtest/gtest.h"
#include "tinygrad/codegen/tensor_core.h"
#include "tinygrad/uop/linear_text.h"

namespace tg {
namespace {

TEST(EmulatorRendererTest, EachEmulateValueNamesItsDeviceAndTensorCores) {
  struct Case {
    const char* emulate;
    const char* device;
    const std::vector<TensorCore>* tcs;
  };
  for (const Case& c : {Case{"CUDA", "CUDA", &tensor_cores::CudaSm80()},
                        Case{"CUDA_SM75", "CUDA", &tensor_cores::CudaSm75()},
                        Case{"CUDA_SM89", "CUDA", &tensor_cores::CudaSm89()},
                        Case{"AMD", "AMD", &tensor_cores::AmdRdna3()},
                        Case{"AMD_MFMA", "AMD", &tensor_cores::AmdCdna4()},
                        Case{"AMD_RDNA4", "AMD", &tensor_cores::AmdRdna4()},
                        Case{"METAL", "METAL", &tensor_cores::Metal()},
                        Case{"INTEL", "INTEL", &tensor_cores::Intel()},
                        Case{"AMX", "CPU", &tensor_cores::Amx()}}) {
    absl::StatusOr<EmulateTarget> t = ParseEmulateTarget(c.emulate);
    ASSERT_TRUE(t.ok()) << c.emulate << ": " << t.status();
    EXPECT_EQ(EmulateTargetName(*t), c.emulate);
    EmulatorRenderer ren(*t);
    EXPECT_EQ(ren.device, c.device) << c.emulate;
    ASSERT_EQ(ren.tensor_cores.size(), c.tcs->size()) << c.emulate;
    for (size_t i = 0; i < c.tcs->size(); ++i) EXPECT_EQ(ren.tensor_cores[i].ToString(), (*c.tcs)[i].ToString());
    EXPECT_TRUE(ren.has_local && ren.has_shared);
  }
  EmulatorRenderer plain(EmulateTarget::kNone);
  EXPECT_EQ(plain.device, "PYTHON");
  EXPECT_TRUE(plain.tensor_cores.empty());
  EXPECT_EQ(EmulatorRenderer(EmulateTarget::kIntel).suffix, "INTEL");
}

TEST(EmulatorRendererTest, AnUnknownEmulateValueIsAnErrorListingTheKnownOnes) {
  absl::StatusOr<EmulateTarget> t = ParseEmulateTarget("CUDA_SM100");
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("CUDA_SM100"), std::string::npos) << t.status();
  EXPECT_NE(t.status().message().find("AMD_RDNA4"), std::string::npos) << t.status();
  EXPECT_TRUE(ParseEmulateTarget("").ok());
}

TEST(EmulatorRendererTest, EveryAluOpIsItsOwnCodeSoNothingIsDecomposed) {
  EmulatorRenderer ren(EmulateTarget::kCuda);
  for (Ops op : {Ops::IDIV, Ops::MOD, Ops::SHL, Ops::SHR, Ops::SUB, Ops::POW, Ops::MULACC, Ops::CMPEQ,
                 Ops::EXP2, Ops::SIN, Ops::TRUNC})
    EXPECT_TRUE(ren.code_for_op.contains(op)) << op;
  EXPECT_FALSE(ren.code_for_op.contains(Ops::FDIV));
}

TEST(EmulatorRendererTest, TheSourceIsTheProgramAsText) {
  UOp buf = UOp::Make(Ops::DEFINE_GLOBAL, dtypes::float32.ptr(4), {}, 0);
  UOp idx = UOp::Make(Ops::INDEX, dtypes::float32.ptr(4), {buf, UOp::Const(dtypes::index, 1)});
  UOp st = UOp::Make(Ops::STORE, dtypes::void_, {idx, UOp::Const(dtypes::float32, 1.5)});
  UOp sink = UOp::Make(Ops::SINK, dtypes::void_, {st}, Arg::Tuple({"E_4", Arg::Tuple({}), false}));
  std::vector<UOp> prog = {buf, idx.src(1), idx, st.src(1), st, sink};
  std::string src = EmulatorRenderer(EmulateTarget::kNone).Render(prog);
  absl::StatusOr<std::vector<UOp>> back = ParseLinearProgram(src);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, prog);
}

}  // namespace
}  // namespace tg
