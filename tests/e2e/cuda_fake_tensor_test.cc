// Tensors on a CUDA device whose driver is the fake libcuda (tinygrad/runtime/cuda/
// fake_cuda_driver.cc), so the Tensor API -> engine -> CUDA device path runs on any machine.
// The fake holds memory and copies it for real, but cannot run GPU code: a kernel launch is
// logged and does nothing. So copies are checked for their values, kernels for what is
// launched (name, grid, block, buffer arguments). Rendering and compiling need NVRTC (no GPU);
// the kernel tests skip, saying so, where it is missing. Real GPUs: //tests/gpu.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/base/config.h"
#include "tinygrad/engine/buffer.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/runtime/cuda/fake_cuda.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/tensor/tiny_jit.h"

namespace tg {
namespace {

FakeCuda* fake = nullptr;  // set in main, before any device is made

class CudaFakeTensorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NE(fake, nullptr);
    fake->Reset();
    // the realize path makes its device from the process settings: the fake, by CUDA_DRIVER_PATH
    absl::StatusOr<Device*> dev = GetDevice("CUDA");
    ASSERT_TRUE(dev.ok()) << dev.status();
    dev_ = *dev;
    ASSERT_EQ(dev_->gpu()->name, "tinygrad-cc fake GPU");
  }
  bool HaveNvrtc() const { return !dev_->compiler_id().starts_with("nvrtc unavailable"); }
  Device* dev_ = nullptr;
};

TEST_F(CudaFakeTensorTest, CopiesToTheGpuAndBack) {
  std::vector<float> x = {1.0f, -2.5f, 3.0f, 4.75f, 1e-3f, -0.0f};
  Tensor on_gpu = Tensor::FromVector<float>(x, {2, 3}).to("cuda");
  EXPECT_EQ(on_gpu.device(), "CUDA");
  const int launches = fake->Launches();
  absl::StatusOr<std::vector<float>> back = on_gpu.to("CPU").to_vector<float>();
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, x);
  // straight from host memory into GPU memory, read back without a kernel
  Tensor direct = Tensor::FromVector<float>(x, {6}, "CUDA");
  absl::StatusOr<std::vector<float>> read = direct.to_vector<float>();
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, x);
  EXPECT_EQ(fake->Launches(), launches) << "copies launch no kernels";
  // int data through GPU -> CPU -> GPU -> CPU (reading a copy's result on a device runs a
  // kernel there, as in the reference, which the fake would not run: read it on the CPU)
  std::vector<int32_t> ints = {7, -8, 9};
  absl::StatusOr<std::vector<int32_t>> ib =
      Tensor::FromVector<int32_t>(ints, {3}, "CUDA").to("CPU").to("CUDA").to("CPU").to_vector<int32_t>();
  ASSERT_TRUE(ib.ok()) << ib.status();
  EXPECT_EQ(*ib, ints);
}

TEST_F(CudaFakeTensorTest, AKernelIsRenderedCompiledAndLaunchedOnTheGpu) {
  if (!HaveNvrtc()) GTEST_SKIP() << "no NVRTC here: " << dev_->compiler_id();
  Tensor a = Tensor::FromVector<float>(std::vector<float>(4096, 1.0f), {64, 64}, "CUDA");
  Tensor b = Tensor::FromVector<float>(std::vector<float>(4096, 2.0f), {64, 64}, "CUDA");
  ASSERT_TRUE(a.realize().ok() && b.realize().ok());
  fake->RecordParams(3);
  const int launches = fake->Launches();
  const size_t cached = MethodCacheSize();
  Tensor c = a + b;
  ASSERT_TRUE(c.realize().ok()) << c.realize();
  EXPECT_EQ(fake->Launches(), launches + 1);
  EXPECT_EQ(MethodCacheSize(), cached + 1);
  FakeLaunch l = fake->LastLaunch();
  EXPECT_EQ(l.kernel.substr(0, 2), "E_") << l.kernel;
  // the heuristic's GPU launch: 4096 elements as blocks times threads
  uint64_t threads = 1;
  for (int i = 0; i < 3; ++i) threads *= uint64_t{l.grid[i]} * l.block[i];
  EXPECT_EQ(threads * 4, 4096u) << "float4 upcast: each thread writes 4 elements";
  EXPECT_GT(l.block[0] * l.block[1] * l.block[2], 1u) << "locals are used on a GPU";
  // the arguments are the GPU addresses of the output and the two inputs, all distinct
  ASSERT_EQ(l.params.size(), 3u);
  EXPECT_NE(l.params[0], 0u);
  EXPECT_NE(l.params[0], l.params[1]);
  EXPECT_NE(l.params[1], l.params[2]);
  // the same graph again: the method cache answers, the kernel is launched again
  Tensor d = a + b;
  ASSERT_TRUE(d.realize().ok());
  EXPECT_EQ(fake->Launches(), launches + 2);
  EXPECT_EQ(MethodCacheSize(), cached + 1);
  // the same computation on the CPU is another method-cache entry (keyed per device)
  Tensor e = a.to("CPU") + b.to("CPU");
  absl::StatusOr<std::vector<float>> ev = e.to_vector<float>();
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(*ev, std::vector<float>(4096, 3.0f));
  EXPECT_GT(MethodCacheSize(), cached + 1);
}

// Two GPUs: a tensor moves from one to the other by a peer copy (cuMemcpyPeer), not through
// the host; where the GPUs cannot reach each other, through the host, with the same values.
TEST_F(CudaFakeTensorTest, CopiesBetweenGpusArePeerCopiesElseThroughTheHost) {
  fake->SetDevices(2);
  std::vector<float> x = {1.5f, -2.0f, 3.25f, 4.0f, 0.0f};
  Tensor on0 = Tensor::FromVector<float>(x, {5}, "CUDA");
  ASSERT_TRUE(on0.realize().ok());
  const int peer = fake->PeerCopies();
  absl::StatusOr<std::vector<float>> via_peer = on0.to("CUDA:1").to("CPU").to_vector<float>();
  ASSERT_TRUE(via_peer.ok()) << via_peer.status();
  EXPECT_EQ(*via_peer, x);
  EXPECT_EQ(fake->PeerCopies(), peer + 1) << "CUDA -> CUDA:1 is one peer copy";

  fake->FailPeerCopies(217);  // CUDA_ERROR_PEER_ACCESS_UNSUPPORTED
  Tensor back = Tensor::FromVector<float>(x, {5}, "CUDA:1");
  absl::StatusOr<std::vector<float>> via_host = back.to("CUDA").to("CPU").to_vector<float>();
  fake->FailPeerCopies(0);
  fake->SetDevices(1);
  ASSERT_TRUE(via_host.ok()) << via_host.status();
  EXPECT_EQ(*via_host, x);
  EXPECT_EQ(fake->PeerCopies(), peer + 1) << "the refused peer copy went through the host";
}

// CUDA_PTX=1 (read where realize reads the settings): the same graph rendered to PTX by
// PtxRenderer, handed to the driver's JIT, launched.
TEST_F(CudaFakeTensorTest, CudaPtxRendersThroughThePtxRenderer) {
  Tensor a = Tensor::FromVector<float>(std::vector<float>(256, 1.0f), {256}, "CUDA");
  ASSERT_TRUE(a.realize().ok());
  setenv("CUDA_PTX", "1", 1);
  absl::StatusOr<Device*> ptx = GetDevice("CUDA", DeviceOptions::FromConfig(GetConfig()));
  const int launches = fake->Launches();
  absl::Status s = (a * 3).realize();
  unsetenv("CUDA_PTX");
  ASSERT_TRUE(ptx.ok()) << ptx.status();
  EXPECT_EQ((*ptx)->renderer().suffix, "PTX");
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(fake->Launches(), launches + 1);
  EXPECT_EQ(fake->LastLaunch().kernel.substr(0, 2), "E_");
}

// DEBUG=7: the compiled kernel's SASS where nvdisasm is installed, else one line saying so;
// either way the kernel runs.
TEST_F(CudaFakeTensorTest, Debug7ShowsTheSassOrOneLineSayingWhyNot) {
  if (!HaveNvrtc()) GTEST_SKIP() << "no NVRTC here: " << dev_->compiler_id();
  Tensor a = Tensor::FromVector<float>(std::vector<float>(96, 1.0f), {96}, "CUDA");
  ASSERT_TRUE(a.realize().ok());
  const int launches = fake->Launches();
  Config c = GetConfig();
  c.debug = 7;
  absl::Status s;
  std::string out;
  {
    ScopedConfig scoped(c);
    testing::internal::CaptureStdout();
    s = (a * 5 + 2).realize();
    out = testing::internal::GetCapturedStdout();
  }
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(fake->Launches(), launches + 1) << "a missing disassembler does not stop the run";
  const std::string none = "DEBUG=7: no disassembly: no disassembler for a CUBIN: none of nvdisasm, cuobjdump";
  if (size_t at = out.find("DEBUG=7: no disassembly"); at != std::string::npos) {
    const std::string line = out.substr(at, out.find('\n', at) - at);
    EXPECT_TRUE(line.starts_with(none) && line.ends_with("is installed")) << "one line: " << line;
    EXPECT_EQ(out.find("DEBUG=7", at + 1), std::string::npos) << "once, for the one kernel: " << out;
  } else {
    EXPECT_NE(out.find("EXIT"), std::string::npos) << "SASS ends a kernel with EXIT: " << out;
  }
}

TEST_F(CudaFakeTensorTest, AKernelFaultIsAnErrorNotACrash) {
  if (!HaveNvrtc()) GTEST_SKIP() << "no NVRTC here: " << dev_->compiler_id();
  // a device of its own: the fault loses it, not the process's shared "CUDA"
  DeviceOptions o = DeviceOptions::FromConfig(GetConfig());
  o.cuda.cache_dir = "";  // another options value: another device
  o.cuda.cachelevel = 0;
  absl::StatusOr<Device*> dev = GetDevice("CUDA", o);
  ASSERT_TRUE(dev.ok()) << dev.status();
  ASSERT_NE(*dev, dev_);
  auto buf = (*dev)->Allocate(64);
  ASSERT_TRUE(buf.ok());
  absl::StatusOr<std::unique_ptr<Program>> prg = (*dev)->Load("fault", "tg-fake-module\nfault\n");
  ASSERT_TRUE(prg.ok()) << prg.status();
  ASSERT_TRUE((*prg)->Run({}, {}, {1, 1, 1}, LaunchDims{1, 1, 1}, false, Program::kNoStop).ok());
  std::vector<std::byte> host(64);
  absl::Status s = (*buf)->CopyOut(host);
  EXPECT_TRUE(IsDeviceLost(s)) << s;
  fake->Reset();
}

// With no DEV, DEVICE or <KIND>=1 set, the default device is the first that opens, as
// tinygrad's Device.DEFAULT: the GPU where the CUDA driver opens one, else the CPU. The suite
// runs with DEV=CPU (.bazelrc), and the default is decided once per process: each case runs in
// a fresh one (a threadsafe death test re-runs this binary), unsets DEV and prints what it got.
void PrintDefaultDevice(const char* dev, const std::string& driver) {
  if (dev == nullptr)
    unsetenv("DEV");
  else
    setenv("DEV", dev, 1);
  setenv("CUDA_DRIVER_PATH", driver.c_str(), 1);
  std::fprintf(stderr, "default %s, a new tensor's %s\n", DefaultDevice().c_str(),
               Tensor::Zeros({2}).device().c_str());
  std::exit(0);
}

TEST(CudaFakeDefaultDeviceTest, NothingSetIsTheGpuWhereOneOpensElseTheCpu) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  ASSERT_NE(fake, nullptr);
  const std::string gpu = fake->path();
  std::string no_gpu = gpu;  // the fake's variant whose driver finds no GPU (cuInit fails)
  no_gpu.replace(no_gpu.rfind("libfake_cuda.so"), 15, "libfake_cuda_no_device.so");
  EXPECT_EXIT(PrintDefaultDevice(nullptr, gpu), ::testing::ExitedWithCode(0),
              "default CUDA, a new tensor's CUDA");
  EXPECT_EXIT(PrintDefaultDevice(nullptr, no_gpu), ::testing::ExitedWithCode(0),
              "default CPU, a new tensor's CPU");
  // the environment's choice wins, and nothing else is tried
  EXPECT_EXIT(PrintDefaultDevice("cpu", gpu), ::testing::ExitedWithCode(0), "default CPU, a new tensor's CPU");
  EXPECT_EXIT(PrintDefaultDevice("cuda", no_gpu), ::testing::ExitedWithCode(0),
              "default CUDA, a new tensor's CUDA");
}

TEST_F(CudaFakeTensorTest, TinyJitReplaysLaunchItsKernelsAsOneGraphWithTheNewInputs) {
  if (!HaveNvrtc()) GTEST_SKIP() << "no NVRTC here: " << dev_->compiler_id();
  auto step_fn = [](std::span<const Tensor> in) -> absl::StatusOr<std::vector<Tensor>> {
    return std::vector<Tensor>{in[0] * 2, in[0] + 1};  // two kernels, each reading the input
  };
  auto input = [](float v) {
    Tensor t = Tensor::FromVector<float>(std::vector<float>(256, v), {256}, "CUDA");
    EXPECT_TRUE(t.realize().ok());
    return t;
  };
  auto address = [](const Tensor& t) {
    return reinterpret_cast<uint64_t>(BufferTable::Get().Find(t.uop().base())->data());
  };
  TinyJit step(step_fn);
  for (float v : {1.0f, 2.0f}) ASSERT_TRUE(step({input(v)}).ok());  // run, then capture
  ASSERT_EQ(step.captured_size(), 2u);
  fake->RecordParams(2);
  for (float v : {3.0f, 4.0f}) {
    const int graphs = fake->GraphLaunches(), launches = fake->Launches();
    Tensor x = input(v);
    ASSERT_TRUE(step({x}).ok());
    EXPECT_EQ(step.captured_graphs(), 1u);
    EXPECT_EQ(fake->GraphLaunches(), graphs + 1) << "one launch for the replay";
    EXPECT_EQ(fake->Launches(), launches + 2) << "both kernels ran, in the graph";
    EXPECT_EQ(fake->LastLaunch().params[1], address(x)) << "this replay's input is in the graph";
  }

  // JIT=2: replays launch the kernels one by one; JIT=0: nothing is captured
  for (int jit : {2, 0}) {
    Config c = GetConfig();
    c.jit = jit;
    ScopedConfig scoped(c);
    TinyJit plain(step_fn);
    const int graphs = fake->GraphLaunches(), launches = fake->Launches();
    for (float v : {1.0f, 2.0f, 3.0f, 4.0f}) ASSERT_TRUE(plain({input(v)}).ok());
    EXPECT_EQ(plain.captured_size(), jit == 2 ? 2u : 0u) << "JIT=" << jit;
    EXPECT_EQ(plain.captured_graphs(), 0u) << "JIT=" << jit;
    EXPECT_EQ(fake->GraphLaunches(), graphs) << "JIT=" << jit;
    EXPECT_EQ(fake->Launches(), launches + 8) << "JIT=" << jit;
  }
}

}  // namespace
}  // namespace tg

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  absl::StatusOr<tg::FakeCuda> f = tg::FakeCuda::Open();
  if (!f.ok()) {
    std::fprintf(stderr, "cuda_fake_tensor_test: %s\n", std::string(f.status().message()).c_str());
    return 1;
  }
  static tg::FakeCuda opened = *std::move(f);
  tg::fake = &opened;
  setenv("CUDA_DRIVER_PATH", opened.path().c_str(), 1);
  return RUN_ALL_TESTS();
}
