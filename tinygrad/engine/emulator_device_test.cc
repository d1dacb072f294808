// File: tinygrad/engine/emulator_device_test.cc
#include "tinygrad/engine/emulator_device.h"

#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/uop/linear_text.h"

namespace tg {
namespace {

// out[i] = in[i] * 2 for i < 4, one thread per element (lidx0).
constexpr char kDouble[] =
    "0 | Ops.DEFINE_GLOBAL | float ptr:4:GLOBAL | - | 0\n"
    "1 | Ops.DEFINE_GLOBAL | float ptr:4:GLOBAL | - | 1\n"
    "2 | Ops.CONST | int | - | 4\n"
    "3 | Ops.SPECIAL | int | 2 | 'lidx0'\n"
    "4 | Ops.INDEX | float ptr:4:GLOBAL | 1,3 | None\n"
    "5 | Ops.LOAD | float | 4 | None\n"
    "6 | Ops.CONST | float | - | 2.0\n"
    "7 | Ops.MUL | float | 5,6 | None\n"
    "8 | Ops.INDEX | float ptr:4:GLOBAL | 0,3 | None\n"
    "9 | Ops.STORE | void | 8,7 | None\n"
    "10 | Ops.SINK | void | 9 | None\n";

std::span<const std::byte> Bytes(const std::vector<float>& v) { return std::as_bytes(std::span<const float>(v)); }

class EmulatorDeviceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::unique_ptr<Device>> dev = MakeEmulatorDevice("PYTHON", {.emulate = "CUDA"});
    ASSERT_TRUE(dev.ok()) << dev.status();
    dev_ = std::move(*dev);
  }
  std::unique_ptr<Device> dev_;
};

TEST_F(EmulatorDeviceTest, RunsTheProgramItsRendererWrote) {
  EXPECT_EQ(dev_->renderer().device, "CUDA");
  EXPECT_EQ(dev_->compiler_id(), "emulator EMULATE=CUDA");
  absl::StatusOr<std::vector<UOp>> uops = ParseLinearProgram(kDouble);
  ASSERT_TRUE(uops.ok()) << uops.status();
  ProgramSpec spec;
  spec.src = dev_->renderer().Render(*uops);
  absl::StatusOr<std::string> lib = dev_->Compile(spec);
  ASSERT_TRUE(lib.ok()) << lib.status();
  absl::StatusOr<std::unique_ptr<Program>> prog = dev_->Load("E_4", *lib);
  ASSERT_TRUE(prog.ok()) << prog.status();
  auto out = dev_->Allocate(16), in = dev_->Allocate(16);
  ASSERT_TRUE(out.ok() && in.ok());
  ASSERT_TRUE((*in)->CopyIn(Bytes({1, 2, 3, 4})).ok());
  std::vector<void*> bufs = {(*out)->data(), (*in)->data()};
  absl::StatusOr<double> t = (*prog)->Run(bufs, {}, {1, 1, 1}, LaunchDims{4, 1, 1}, true, Program::kNoStop);
  ASSERT_TRUE(t.ok()) << t.status();
  std::vector<float> got(4);
  ASSERT_TRUE((*out)->CopyOut(std::as_writable_bytes(std::span<float>(got))).ok());
  EXPECT_EQ(got, (std::vector<float>{2, 4, 6, 8}));
}

TEST_F(EmulatorDeviceTest, AnAccessPastTheBuffersMemoryIsAnErrorNotACorruption) {
  absl::StatusOr<std::unique_ptr<Program>> prog = dev_->Load("E_4", kDouble);
  ASSERT_TRUE(prog.ok()) << prog.status();
  // the kernel reads 4 floats of its input; the buffer has 3 (a view's bytes end where its
  // buffer's do)
  auto out = dev_->Allocate(16), in = dev_->Allocate(12);
  ASSERT_TRUE(out.ok() && in.ok());
  std::vector<void*> bufs = {(*out)->data(), (*in)->data()};
  absl::StatusOr<double> t = (*prog)->Run(bufs, {}, {1, 1, 1}, LaunchDims{4, 1, 1}, true, Program::kNoStop);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("out of bounds"), std::string::npos) << t.status();
  // memory the device did not allocate is refused before the run
  std::vector<float> host(4);
  bufs[1] = host.data();
  t = (*prog)->Run(bufs, {}, {1, 1, 1}, LaunchDims{4, 1, 1}, true, Program::kNoStop);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("buffer argument 1"), std::string::npos) << t.status();
}

TEST_F(EmulatorDeviceTest, ARunPastItsStopIsCutShort) {
  EXPECT_TRUE(dev_->can_stop_runs());
  absl::StatusOr<std::unique_ptr<Program>> prog = dev_->Load("E_4", kDouble);
  ASSERT_TRUE(prog.ok()) << prog.status();
  auto out = dev_->Allocate(16), in = dev_->Allocate(16);
  ASSERT_TRUE(out.ok() && in.ok());
  std::vector<void*> bufs = {(*out)->data(), (*in)->data()};
  // a stop already passed: the deadline is checked before the first workgroup, whatever the
  // machine's speed
  absl::StatusOr<double> t = (*prog)->Run(bufs, {}, {8, 1, 1}, LaunchDims{4, 1, 1}, true, 0.0);
  ASSERT_FALSE(t.ok());
  EXPECT_TRUE(absl::IsDeadlineExceeded(t.status())) << t.status();
  EXPECT_TRUE((*prog)->Run(bufs, {}, {1, 1, 1}, LaunchDims{4, 1, 1}, true, 3600).ok());
}

TEST_F(EmulatorDeviceTest, TextThatIsNoProgramIsALoadError) {
  for (const char* bad : {"", "garbage", "0 | Ops.CUSTOM | void | - | 'system(\"rm -rf /\")'\n1 | Ops.SINK | void | 0 | None\n"}) {
    absl::StatusOr<std::unique_ptr<Program>> prog = dev_->Load("k", bad);
    EXPECT_FALSE(prog.ok()) << bad;
  }
}

TEST(EmulatorDeviceOptionsTest, AnUnknownTargetIsAnErrorNamingIt) {
  absl::StatusOr<std::unique_ptr<Device>> dev = MakeEmulatorDevice("PYTHON", {.emulate = "GPU9000"});
  ASSERT_FALSE(dev.ok());
  EXPECT_NE(dev.status().message().find("GPU9000"), std::string::npos) << dev.status();
}

}  // namespace
}  // namespace tg
