// The engine's CUDA device on the fake libcuda (runtime/cuda/fake_cuda_driver.cc), which runs
// everywhere: what the device reports, memory and copies, launch dimensions and arguments,
// kernel faults (the device is lost), the L2 clearing, the registry; and compiling a rendered
// kernel with NVRTC where NVRTC is installed (skipped, with the reason, where not). A real GPU
// is tested by //tests/gpu.
#include "tinygrad/engine/cuda_device.h"

#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/base/device_name.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/engine/fake_cuda_device_test_base.h"
#include "tinygrad/runtime/cuda/fake_cuda.h"

namespace tg {
namespace {

constexpr char kFakeImage[] = "tg-fake-module\nadd_n\nfault\n";

template <typename T>
std::span<const std::byte> Bytes(const std::vector<T>& v) {
  return std::as_bytes(std::span(v));
}
template <typename T>
std::span<std::byte> Bytes(std::vector<T>& v) {
  return std::as_writable_bytes(std::span(v));
}

using CudaEngineDeviceTest = FakeCudaDeviceTest;

TEST_F(CudaEngineDeviceTest, DescribesTheGpuAndItsLimits) {
  EXPECT_EQ(dev_->name(), "CUDA");
  const GpuDescription* gpu = dev_->gpu();
  ASSERT_NE(gpu, nullptr);
  EXPECT_EQ(gpu->name, "tinygrad-cc fake GPU");
  EXPECT_EQ(gpu->arch, "sm_90");
  EXPECT_EQ(gpu->driver.substr(0, 9), "CUDA 13.0");
  EXPECT_EQ(gpu->compute_units, 132);
  EXPECT_EQ(gpu->memory_bytes, size_t{80} << 30);
  EXPECT_EQ(gpu->l2_bytes, size_t{50} << 20);
  EXPECT_EQ(gpu->max_threads_per_block, 1024);
  EXPECT_EQ(gpu->max_shared_per_block, 49152);
  EXPECT_FALSE(dev_->can_stop_runs());
  const Renderer& r = dev_->renderer();
  EXPECT_EQ(r.device, "CUDA");
  EXPECT_TRUE(r.has_local);
  EXPECT_FALSE(r.has_threads);
  EXPECT_EQ(r.global_max, (LaunchDims{2147483647, 65535, 65535}));
  EXPECT_EQ(r.local_max, (LaunchDims{1024, 1024, 64}));
  EXPECT_EQ(r.shared_max, 49152);
  EXPECT_FALSE(r.tensor_cores.empty()) << "sm_90 has the sm_89 tensor cores";
}

TEST_F(CudaEngineDeviceTest, CopiesRoundTripAndRangesAreChecked) {
  absl::StatusOr<std::shared_ptr<RawBuffer>> buf = dev_->Allocate(16 * sizeof(float));
  ASSERT_TRUE(buf.ok()) << buf.status();
  EXPECT_EQ((*buf)->nbytes(), 16 * sizeof(float));
  EXPECT_NE((*buf)->data(), nullptr);
  std::vector<float> in(16), out(16);
  for (int i = 0; i < 16; ++i) in[i] = static_cast<float>(i) - 3.5f;
  ASSERT_TRUE((*buf)->CopyIn(Bytes(in)).ok());
  ASSERT_TRUE((*buf)->CopyOut(Bytes(out)).ok());
  EXPECT_EQ(in, out);
  std::vector<float> two(2);
  ASSERT_TRUE((*buf)->CopyOut(Bytes(two), 14 * sizeof(float)).ok());
  EXPECT_EQ(two, (std::vector<float>{10.5f, 11.5f}));
  EXPECT_EQ((*buf)->CopyIn(Bytes(in), 4).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ((*buf)->CopyOut(Bytes(out), SIZE_MAX).code(), absl::StatusCode::kInvalidArgument);
  absl::StatusOr<std::shared_ptr<RawBuffer>> huge = dev_->Allocate(size_t{1} << 46);
  EXPECT_EQ(huge.status().code(), absl::StatusCode::kResourceExhausted) << huge.status();
}

// A copy-in is queued through pinned memory (the reference's _copyin): it returns before the
// GPU copies (the fake does queued copies at the next call ordered after them), and what runs
// after it, a copy out, a synchronize, sees it; copy-ins one after another each land their own
// bytes.
TEST_F(CudaEngineDeviceTest, CopyInsAreQueuedWithoutWaitingForTheGpu) {
  std::vector<std::shared_ptr<RawBuffer>> bufs;
  for (int i = 0; i < 3; ++i) {
    absl::StatusOr<std::shared_ptr<RawBuffer>> b = dev_->Allocate(8 * sizeof(float));
    ASSERT_TRUE(b.ok()) << b.status();
    bufs.push_back(*b);
  }
  const FakeAsyncCopies before = fake_->AsyncCopies();
  for (int i = 0; i < 3; ++i) {
    std::vector<float> in(8, static_cast<float>(i));
    ASSERT_TRUE(bufs[i]->CopyIn(Bytes(in)).ok());
  }
  const FakeAsyncCopies queued = fake_->AsyncCopies();
  EXPECT_EQ(queued.copies, before.copies + 3);
  EXPECT_EQ(queued.queued, 3);
  ASSERT_TRUE(dev_->Synchronize().ok());
  EXPECT_EQ(fake_->AsyncCopies().queued, 0);
  for (int i = 0; i < 3; ++i) {
    std::vector<float> out(8);
    ASSERT_TRUE(bufs[i]->CopyOut(Bytes(out)).ok());
    EXPECT_EQ(out, std::vector<float>(8, static_cast<float>(i))) << i;
  }
}

// A program that asks for dynamic shared memory (a generated matmul) is launched with it, up to
// what the GPU lets a block opt in to; a CPU device refuses such a program.
TEST_F(CudaEngineDeviceTest, ProgramsLaunchWithTheirDynamicSharedMemory) {
  ProgramSpec spec;
  spec.function_name = "add_n";
  spec.dynamic_shared_bytes = 100 * 1024;
  absl::StatusOr<std::unique_ptr<Program>> prg = dev_->LoadProgram(spec, kFakeImage);
  ASSERT_TRUE(prg.ok()) << prg.status();
  auto buf = dev_->Allocate(32 * sizeof(float));
  ASSERT_TRUE(buf.ok());
  std::vector<void*> bufs = {(*buf)->data(), (*buf)->data()};
  absl::StatusOr<double> t =
      (*prg)->Run(bufs, std::vector<int64_t>{32}, {1, 1, 1}, LaunchDims{32, 1, 1},
                  /*wait=*/true, Program::kNoStop);
  EXPECT_TRUE(t.ok()) << t.status()
                      << ": the fake driver takes 100 KiB only once the limit is raised";
  spec.dynamic_shared_bytes = 300 * 1024;
  absl::StatusOr<std::unique_ptr<Program>> big = dev_->LoadProgram(spec, kFakeImage);
  EXPECT_EQ(big.status().code(), absl::StatusCode::kInvalidArgument) << big.status();
  EXPECT_NE(std::string(big.status().message()).find("307200 bytes of dynamic shared memory"),
            std::string::npos)
      << big.status();
  absl::StatusOr<Device*> cpu = GetDevice("CPU", DeviceOptions{});
  ASSERT_TRUE(cpu.ok()) << cpu.status();
  spec.dynamic_shared_bytes = 1024;
  EXPECT_EQ((*cpu)->LoadProgram(spec, "").status().code(), absl::StatusCode::kUnimplemented);
}

TEST_F(CudaEngineDeviceTest, ProgramsLaunchWithTensorMapsOfTheirBuffers) {
  ProgramSpec spec;
  spec.function_name = "tma_box";  // a kernel of the fake's that does nothing
  const std::string image = "tg-fake-module\ntma_box\n";
  spec.tensor_maps = {{.buffer = 1,
                       .element = dtypes::float16,
                       .rows = 16,
                       .cols = 64,
                       .box_rows = 8,
                       .box_cols = 64}};
  absl::StatusOr<std::unique_ptr<Program>> prg = dev_->LoadProgram(spec, image);
  ASSERT_TRUE(prg.ok()) << prg.status();
  auto a = dev_->Allocate(16 * 64 * 2);
  auto b = dev_->Allocate(16 * 64 * 2);
  ASSERT_TRUE(a.ok() && b.ok());
  // after the two buffers: the map of buffer argument 1, by value (the fake driver's map starts
  // with the buffer's address)
  fake_->RecordParams(3);
  for (void* second : {(*a)->data(), (*b)->data(), (*a)->data()}) {
    std::vector<void*> bufs = {(*a)->data(), second};
    absl::StatusOr<double> t = (*prg)->Run(bufs, {}, {1, 1, 1}, LaunchDims{32, 1, 1},
                                           /*wait=*/true, Program::kNoStop);
    ASSERT_TRUE(t.ok()) << t.status();
    EXPECT_EQ(fake_->LastLaunch().params[2], reinterpret_cast<uintptr_t>(second))
        << "a map follows its buffer from launch to launch";
  }
  fake_->RecordParams(0);
  // a map of a buffer the launch does not have, of an element type the copy engine does not
  // take, and on a device without tensor maps
  std::vector<void*> one = {(*a)->data()};
  absl::StatusOr<double> missing =
      (*prg)->Run(one, {}, {1, 1, 1}, LaunchDims{32, 1, 1}, true, Program::kNoStop);
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kInvalidArgument) << missing.status();
  EXPECT_NE(std::string(missing.status().message()).find("buffer argument 1, but the launch has 1"),
            std::string::npos)
      << missing.status();
  spec.tensor_maps[0].element = dtypes::int32;
  absl::StatusOr<std::unique_ptr<Program>> ints = dev_->LoadProgram(spec, image);
  EXPECT_EQ(ints.status().code(), absl::StatusCode::kInvalidArgument) << ints.status();
  absl::StatusOr<Device*> cpu = GetDevice("CPU", DeviceOptions{});
  ASSERT_TRUE(cpu.ok()) << cpu.status();
  spec.tensor_maps[0].element = dtypes::float16;
  EXPECT_EQ((*cpu)->LoadProgram(spec, "").status().code(), absl::StatusCode::kUnimplemented);
}

TEST_F(CudaEngineDeviceTest, RunsWithGridBlockBuffersAndVariables) {
  absl::StatusOr<std::unique_ptr<Program>> prg = dev_->Load("add_n", kFakeImage);
  ASSERT_TRUE(prg.ok()) << prg.status();
  auto out = dev_->Allocate(64 * sizeof(float));
  auto in = dev_->Allocate(64 * sizeof(float));
  ASSERT_TRUE(out.ok() && in.ok());
  std::vector<float> x(64), y(64, -1.0f);
  for (int i = 0; i < 64; ++i) x[i] = static_cast<float>(i);
  ASSERT_TRUE((*in)->CopyIn(Bytes(x)).ok());
  ASSERT_TRUE((*out)->CopyIn(Bytes(y)).ok());
  fake_->RecordParams(2);
  const int before = fake_->Launches();
  std::vector<void*> bufs = {(*out)->data(), (*in)->data()};
  std::vector<int64_t> vals = {40};
  absl::StatusOr<double> t =
      (*prg)->Run(bufs, vals, {2, 1, 1}, LaunchDims{32, 1, 1}, /*wait=*/true, Program::kNoStop);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_GE(*t, 0.0);
  EXPECT_EQ(fake_->Launches(), before + 1);
  FakeLaunch l = fake_->LastLaunch();
  EXPECT_EQ(l.kernel, "add_n");
  EXPECT_EQ(l.grid, (std::array<unsigned, 3>{2, 1, 1})) << "the global size is the grid";
  EXPECT_EQ(l.block, (std::array<unsigned, 3>{32, 1, 1})) << "the local size is the block";
  EXPECT_EQ(l.params, (std::vector<uint64_t>{reinterpret_cast<uintptr_t>(bufs[0]),
                                             reinterpret_cast<uintptr_t>(bufs[1])}));
  ASSERT_TRUE((*out)->CopyOut(Bytes(y)).ok());
  for (int i = 0; i < 64; ++i) EXPECT_EQ(y[i], i < 40 ? i + 40.0f : -1.0f) << i;
  // a value that does not fit the kernel's int
  EXPECT_EQ((*prg)
                ->Run(bufs, std::vector<int64_t>{int64_t{1} << 40}, {1, 1, 1}, std::nullopt, true,
                      Program::kNoStop)
                .status()
                .code(),
            absl::StatusCode::kOutOfRange);
  // nothing to compute: no launch
  EXPECT_TRUE((*prg)->Run(bufs, vals, {0, 1, 1}, std::nullopt, true, Program::kNoStop).ok());
  EXPECT_EQ(fake_->Launches(), before + 1);
}

TEST_F(CudaEngineDeviceTest, WithoutALocalSizeTheBlockTilesTheGlobalSize) {
  absl::StatusOr<std::unique_ptr<Program>> prg = dev_->Load("add_n", kFakeImage);
  ASSERT_TRUE(prg.ok()) << prg.status();
  auto buf = dev_->Allocate(4096 * sizeof(float));
  ASSERT_TRUE(buf.ok());
  std::vector<void*> bufs = {(*buf)->data(), (*buf)->data()};
  ASSERT_TRUE(
      (*prg)
          ->Run(bufs, std::vector<int64_t>{0}, {4096, 6, 1}, std::nullopt, true, Program::kNoStop)
          .ok());
  FakeLaunch l = fake_->LastLaunch();
  EXPECT_EQ(l.block, (std::array<unsigned, 3>{1024, 1, 1}));
  EXPECT_EQ(l.grid, (std::array<unsigned, 3>{4, 6, 1}));
}

TEST(PickLocalSizeTest, LargestPowersOfTwoThatDivideWithinTheLimits) {
  const std::array<int, 3> blocks = {1024, 1024, 64};
  EXPECT_EQ(PickLocalSize({4096, 1, 1}, blocks, 1024), (std::array<int64_t, 3>{1024, 1, 1}));
  EXPECT_EQ(PickLocalSize({96, 8, 3}, blocks, 1024), (std::array<int64_t, 3>{32, 8, 1}));
  EXPECT_EQ(PickLocalSize({7, 5, 3}, blocks, 1024), (std::array<int64_t, 3>{1, 1, 1}));
  EXPECT_EQ(PickLocalSize({64, 64, 64}, blocks, 1024), (std::array<int64_t, 3>{64, 16, 1}));
  EXPECT_EQ(PickLocalSize({2, 2, 256}, blocks, 1024), (std::array<int64_t, 3>{2, 2, 64}));
  EXPECT_EQ(PickLocalSize({4096, 1, 1}, {256, 1, 1}, 1024), (std::array<int64_t, 3>{256, 1, 1}));
}

TEST_F(CudaEngineDeviceTest, AKernelFaultLosesTheDeviceForEveryLaterCall) {
  auto buf = dev_->Allocate(64);
  ASSERT_TRUE(buf.ok());
  absl::StatusOr<std::unique_ptr<Program>> fault = dev_->Load("fault", kFakeImage);
  ASSERT_TRUE(fault.ok()) << fault.status();
  // queued without waiting: the fault shows at the next synchronizing call
  ASSERT_TRUE((*fault)->Run({}, {}, {1, 1, 1}, LaunchDims{1, 1, 1}, false, Program::kNoStop).ok());
  absl::Status sync = dev_->Synchronize();
  ASSERT_TRUE(IsDeviceLost(sync)) << sync;
  EXPECT_NE(sync.message().find("CUDA_ERROR_ILLEGAL_ADDRESS"), std::string_view::npos) << sync;
  EXPECT_NE(sync.message().find("CUDA is lost"), std::string_view::npos) << sync;
  std::vector<std::byte> host(64);
  EXPECT_TRUE(IsDeviceLost((*buf)->CopyOut(host)));
  EXPECT_TRUE(IsDeviceLost((*buf)->CopyIn(host)));
  EXPECT_TRUE(IsDeviceLost(dev_->Allocate(4).status()));
  EXPECT_TRUE(IsDeviceLost(dev_->Load("add_n", kFakeImage).status()));
  EXPECT_TRUE(IsDeviceLost(dev_->InvalidateCaches()));
  // even once the driver would answer again, this device stays lost (its context is gone)
  fake_->Reset();
  EXPECT_TRUE(IsDeviceLost(dev_->Synchronize()));
}

TEST_F(CudaEngineDeviceTest, AFaultSeenByAWaitedRunIsReportedByThatRun) {
  absl::StatusOr<std::unique_ptr<Program>> prg = dev_->Load("add_n", kFakeImage);
  ASSERT_TRUE(prg.ok());
  auto buf = dev_->Allocate(64);
  ASSERT_TRUE(buf.ok());
  fake_->FaultOnLaunch(1);
  std::vector<void*> bufs = {(*buf)->data(), (*buf)->data()};
  absl::StatusOr<double> t = (*prg)->Run(bufs, std::vector<int64_t>{0}, {1, 1, 1},
                                         LaunchDims{1, 1, 1}, true, Program::kNoStop);
  EXPECT_TRUE(IsDeviceLost(t.status())) << t.status();
}

TEST_F(CudaEngineDeviceTest, ARefusedLaunchIsNotAFault) {
  absl::StatusOr<std::unique_ptr<Program>> prg = dev_->Load("add_n", kFakeImage);
  ASSERT_TRUE(prg.ok());
  auto buf = dev_->Allocate(64);
  ASSERT_TRUE(buf.ok());
  std::vector<void*> bufs = {(*buf)->data(), (*buf)->data()};
  absl::StatusOr<double> big = (*prg)->Run(bufs, std::vector<int64_t>{0}, {1, 1, 1},
                                           LaunchDims{2048, 1, 1}, true, Program::kNoStop);
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.status().code(), absl::StatusCode::kInvalidArgument) << big.status();
  EXPECT_FALSE(IsDeviceLost(big.status()));
  EXPECT_TRUE(dev_->Synchronize().ok());
  // and a module the driver cannot load is a load error
  absl::StatusOr<std::unique_ptr<Program>> bad = dev_->Load("add_n", "not a module");
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument) << bad.status();
  EXPECT_FALSE(IsDeviceLost(bad.status()));
}

TEST_F(CudaEngineDeviceTest, InvalidateCachesWritesTwiceTheL2) {
  const int before = fake_->Memsets();
  ASSERT_TRUE(dev_->InvalidateCaches().ok());
  ASSERT_TRUE(dev_->InvalidateCaches().ok());
  size_t bytes = 0;
  EXPECT_EQ(fake_->Memsets(&bytes), before + 2);
  EXPECT_EQ(bytes, size_t{100} << 20);
}

TEST_F(CudaEngineDeviceTest, BuffersCopyDeviceToDeviceOnlyBetweenGpus) {
  absl::StatusOr<std::shared_ptr<RawBuffer>> a = dev_->Allocate(4 * sizeof(float));
  absl::StatusOr<std::shared_ptr<RawBuffer>> b = dev_->Allocate(4 * sizeof(float));
  ASSERT_TRUE(a.ok() && b.ok());
  std::vector<float> in = {1, 2, 3, 4}, out(4, 0.0f);
  ASSERT_TRUE((*a)->CopyIn(Bytes(in)).ok());
  ASSERT_TRUE((*b)->CopyIn(Bytes(out)).ok());
  const int peer = fake_->PeerCopies();
  ASSERT_TRUE((*b)->CopyFromDevice(**a, sizeof(float), 0, 2 * sizeof(float)).ok());
  EXPECT_EQ(fake_->PeerCopies(), peer + 1);
  ASSERT_TRUE((*b)->CopyOut(Bytes(out)).ok());
  EXPECT_EQ(out, (std::vector<float>{2, 3, 0, 0}));
  EXPECT_EQ((*b)->CopyFromDevice(**a, 0, 0, 5 * sizeof(float)).code(),
            absl::StatusCode::kInvalidArgument);
  // a CPU buffer is not a GPU's: the caller goes through the host
  absl::StatusOr<Device*> cpu = GetDevice("CPU", DeviceOptions{});
  ASSERT_TRUE(cpu.ok()) << cpu.status();
  absl::StatusOr<std::shared_ptr<RawBuffer>> host = (*cpu)->Allocate(4 * sizeof(float));
  ASSERT_TRUE(host.ok());
  EXPECT_EQ((*b)->CopyFromDevice(**host, 0, 0, 4).code(), absl::StatusCode::kUnimplemented);
  EXPECT_EQ((*host)->CopyFromDevice(**a, 0, 0, 4).code(), absl::StatusCode::kUnimplemented);
  // a fault lost the GPU: a copy says so (RunCopy does not then try the host)
  absl::StatusOr<std::unique_ptr<Program>> fault = dev_->Load("fault", kFakeImage);
  ASSERT_TRUE(fault.ok()) << fault.status();
  ASSERT_TRUE((*fault)->Run({}, {}, {1, 1, 1}, LaunchDims{1, 1, 1}, false, Program::kNoStop).ok());
  ASSERT_TRUE(IsDeviceLost(dev_->Synchronize()));
  absl::Status lost = (*b)->CopyFromDevice(**a, 0, 0, 4);
  EXPECT_TRUE(IsDeviceLost(lost)) << lost;
}

TEST_F(CudaEngineDeviceTest, TheRegistryCanonicalizesAndKeepsOneDevicePerOptions) {
  DeviceOptions o;
  o.cuda = options_;
  absl::StatusOr<Device*> a = GetDevice("CUDA", o);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(*GetDevice("cuda:0", o), *a);
  EXPECT_EQ((*a)->name(), "CUDA");
  // CPU options do not make another CUDA device
  DeviceOptions other_cpu = o;
  other_cpu.cpu.cachelevel = 0;
  EXPECT_EQ(*GetDevice("CUDA", other_cpu), *a);
  absl::StatusOr<Device*> second = GetDevice("CUDA:1", o);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), absl::StatusCode::kUnavailable) << second.status();
  EXPECT_NE(second.status().message().find("no CUDA device 1"), std::string_view::npos)
      << second.status();
  EXPECT_EQ(GetDevice("CUDA:x", o).status().code(), absl::StatusCode::kInvalidArgument);
  // CUDA_PTX: another device of the same GPU, rendering PTX
  DeviceOptions ptx = o;
  ptx.cuda.ptx = true;
  absl::StatusOr<Device*> p = GetDevice("CUDA", ptx);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_NE(*p, *a);
  EXPECT_EQ((*p)->renderer().suffix, "PTX");
}

// LRU (the default): memory a buffer frees is kept and handed to the next allocation of its
// size; out of memory, what is kept goes back first. LRU=0 frees at once.
TEST_F(CudaEngineDeviceTest, FreedMemoryIsKeptForTheNextAllocationOfItsSizeUnlessLruIsOff) {
  ASSERT_TRUE(options_.lru);
  const int live = fake_->LiveObjects();
  absl::StatusOr<std::shared_ptr<RawBuffer>> a = dev_->Allocate(4096);
  ASSERT_TRUE(a.ok()) << a.status();
  void* const address = (*a)->data();
  a->reset();
  EXPECT_EQ(fake_->LiveObjects(), live + 1) << "kept, not freed";
  absl::StatusOr<std::shared_ptr<RawBuffer>> again = dev_->Allocate(4096);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)->data(), address);
  EXPECT_EQ(fake_->LiveObjects(), live + 1);
  again->reset();
  absl::StatusOr<std::shared_ptr<RawBuffer>> huge = dev_->Allocate(size_t{1} << 46);
  EXPECT_EQ(huge.status().code(), absl::StatusCode::kResourceExhausted) << huge.status();
  EXPECT_EQ(fake_->LiveObjects(), live) << "out of memory: the kept buffer went back first";

  CudaDeviceOptions o = options_;
  o.lru = false;
  absl::StatusOr<std::unique_ptr<Device>> no_lru = MakeCudaDevice("CUDA", o);
  ASSERT_TRUE(no_lru.ok()) << no_lru.status();
  absl::StatusOr<std::shared_ptr<RawBuffer>> b = (*no_lru)->Allocate(4096);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(fake_->LiveObjects(), live + 1);
  b->reset();
  EXPECT_EQ(fake_->LiveObjects(), live) << "LRU=0: freed at once";
}

TEST(CudaDeviceOptionsTest, LruIsOnUnlessTheEnvironmentSaysZero) {
  unsetenv("LRU");
  EXPECT_TRUE(CudaDeviceOptions::FromConfig(GetConfig()).lru);
  setenv("LRU", "0", 1);
  EXPECT_FALSE(CudaDeviceOptions::FromConfig(GetConfig()).lru);
  setenv("LRU", "1", 1);
  EXPECT_TRUE(CudaDeviceOptions::FromConfig(GetConfig()).lru);
  unsetenv("LRU");
}

// A batch of launches as one CUDA graph (KernelGraph): run, updated, and once a kernel of it
// faults, lost like any other call; a program of another device is refused.
TEST_F(CudaEngineDeviceTest, GraphsRunUpdateAndLoseTheDeviceOnAFault) {
  ASSERT_TRUE(dev_->has_graphs());
  absl::StatusOr<std::unique_ptr<Program>> add = dev_->Load("add_n", "tg-fake-module\nadd_n\nfault\n");
  absl::StatusOr<std::unique_ptr<Program>> fault = dev_->Load("fault", "tg-fake-module\nadd_n\nfault\n");
  ASSERT_TRUE(add.ok() && fault.ok());
  auto in = dev_->Allocate(8 * sizeof(float)), out = dev_->Allocate(8 * sizeof(float));
  ASSERT_TRUE(in.ok() && out.ok());
  std::vector<float> host = {0, 1, 2, 3, 4, 5, 6, 7};
  ASSERT_TRUE((*in)->CopyIn(Bytes(host)).ok());
  const std::vector<GraphLaunch> launches = {
      {.program = add->get(), .bufs = {(*out)->data(), (*in)->data()}, .vals = {8},
       .global = {1, 1, 1}, .local = LaunchDims{8, 1, 1}}};
  absl::StatusOr<std::unique_ptr<KernelGraph>> graph = dev_->MakeGraph(launches);
  ASSERT_TRUE(graph.ok()) << graph.status();
  ASSERT_TRUE((*graph)->Run(/*wait=*/true).ok());
  ASSERT_TRUE((*out)->CopyOut(Bytes(host)).ok());
  EXPECT_EQ(host, (std::vector<float>{8, 9, 10, 11, 12, 13, 14, 15}));
  void* const swapped[] = {(*in)->data(), (*out)->data()};  // in <- out + 4
  const int64_t four[] = {4};
  ASSERT_TRUE((*graph)->Update(0, swapped, four, {1, 1, 1}, LaunchDims{8, 1, 1}).ok());
  ASSERT_TRUE((*graph)->Run(/*wait=*/false).ok());
  ASSERT_TRUE((*in)->CopyOut(Bytes(host)).ok());
  EXPECT_EQ(host, (std::vector<float>{12, 13, 14, 15, 4, 5, 6, 7}));
  EXPECT_EQ((*graph)->Update(1, swapped, four, {1, 1, 1}, std::nullopt).code(),
            absl::StatusCode::kInvalidArgument);

  // a program this device did not load
  struct NotCuda : Program {
    absl::StatusOr<double> Run(std::span<void* const>, std::span<const int64_t>, const LaunchDims&,
                               const std::optional<LaunchDims>&, bool, double) override {
      return 0.0;
    }
  } not_cuda;
  const GraphLaunch foreign[] = {{.program = &not_cuda}};
  EXPECT_EQ(dev_->MakeGraph(foreign).status().code(), absl::StatusCode::kInvalidArgument);

  const std::vector<GraphLaunch> with_fault = {
      {.program = fault->get(), .global = {1, 1, 1}, .local = LaunchDims{1, 1, 1}},
      {.program = add->get(), .bufs = {(*out)->data(), (*in)->data()}, .vals = {8},
       .global = {1, 1, 1}, .local = LaunchDims{8, 1, 1}, .after = {0}}};
  absl::StatusOr<std::unique_ptr<KernelGraph>> faulting = dev_->MakeGraph(with_fault);
  ASSERT_TRUE(faulting.ok()) << faulting.status();
  ASSERT_TRUE((*faulting)->Run(/*wait=*/false).ok());
  EXPECT_TRUE(IsDeviceLost(dev_->Synchronize()));
  EXPECT_TRUE(IsDeviceLost((*faulting)->Run(true).status()));
  EXPECT_TRUE(IsDeviceLost((*graph)->Update(0, swapped, four, {1, 1, 1}, std::nullopt)));
}

// CUDA_PTX=1: PtxRenderer's kernels, their VERSION/TARGET placeholders filled for the GPU, go
// to the driver's JIT as PTX text (the reference's PTXCompiler): no NVRTC needed.
TEST_F(CudaEngineDeviceTest, PtxDevicesHandTheDriverPtx) {
  CudaDeviceOptions o = options_;
  o.ptx = true;
  absl::StatusOr<std::unique_ptr<Device>> dev = MakeCudaDevice("CUDA", o);
  ASSERT_TRUE(dev.ok()) << dev.status();
  EXPECT_EQ((*dev)->renderer().device, "CUDA");
  EXPECT_EQ((*dev)->renderer().suffix, "PTX");
  EXPECT_EQ((*dev)->renderer().local_max, (LaunchDims{1024, 1024, 64}));
  EXPECT_EQ((*dev)->compiler_id().substr(0, 10), "ptx sm_90 ") << (*dev)->compiler_id();
  EXPECT_EQ((*dev)->gpu()->runtime, "driver PTX JIT");
  ProgramSpec spec;
  spec.function_name = "E_1";
  spec.src =
      ".version VERSION\n.target TARGET\n.address_size 64\n.visible .entry E_1(.param .u64 data0) "
      "{ ret; }\n";
  absl::StatusOr<std::string> lib = (*dev)->Compile(spec);
  ASSERT_TRUE(lib.ok()) << lib.status();
  EXPECT_NE(lib->find(".target sm_90"), std::string::npos) << *lib;
  EXPECT_EQ(lib->find("VERSION"), std::string::npos) << *lib;
  absl::StatusOr<std::unique_ptr<Program>> prg = (*dev)->Load("E_1", *lib);
  ASSERT_TRUE(prg.ok()) << prg.status();
  auto buf = (*dev)->Allocate(4);
  ASSERT_TRUE(buf.ok());
  std::vector<void*> bufs = {(*buf)->data()};
  ASSERT_TRUE((*prg)->Run(bufs, {}, {1, 1, 1}, LaunchDims{1, 1, 1}, true, Program::kNoStop).ok());
  EXPECT_EQ(fake_->LastLaunch().kernel, "E_1");
}

TEST(CudaEngineDeviceMissingTest, NoDriverMeansNoDeviceNamingTheLibrary) {
  CudaDeviceOptions o;
  o.libs.driver_path = "/nonexistent/libcuda.so.1";
  absl::StatusOr<std::unique_ptr<Device>> dev = MakeCudaDevice("CUDA", o);
  if (dev.ok()) GTEST_SKIP() << "a CUDA driver and GPU are installed here";
  EXPECT_EQ(dev.status().code(), absl::StatusCode::kUnavailable) << dev.status();
  const std::string m(dev.status().message());
  EXPECT_NE(m.find("device CUDA is not available"), std::string::npos) << m;
  // where no driver library exists, the message names it; a driver without a GPU says so
  EXPECT_TRUE(m.find("libcuda") != std::string::npos || m.find("cuInit") != std::string::npos) << m;
  DeviceOptions d;
  d.cuda = o;
  EXPECT_EQ(GetDevice("CUDA", d).status().code(), absl::StatusCode::kUnavailable);
}

// Rendering and compiling need NVRTC (no GPU): a kernel rendered by the device's renderer
// compiles to a CUBIN, which the fake loads and launches with the spec's launch dimensions.
TEST_F(CudaEngineDeviceTest, CompilesWithNvrtcToACubin) {
  const std::string id = dev_->compiler_id();
  if (id.starts_with("nvrtc unavailable")) GTEST_SKIP() << "no NVRTC here: " << id;
  EXPECT_NE(id.find("cubin"), std::string::npos) << id;
  EXPECT_NE(id.find("sm_90"), std::string::npos) << id;
  EXPECT_EQ(dev_->gpu()->runtime.substr(0, 6), "NVRTC ");
  ProgramSpec spec;
  spec.function_name = "E_4";
  spec.src =
      "extern \"C\" __global__ void __launch_bounds__(4) E_4(float* data0, const float* data1) {\n"
      "  int lidx0 = threadIdx.x;\n  data0[lidx0] = data1[lidx0] + 1.0f;\n}\n";
  absl::StatusOr<std::string> lib = dev_->Compile(spec);
  ASSERT_TRUE(lib.ok()) << lib.status();
  ASSERT_GE(lib->size(), 4u);
  EXPECT_EQ(lib->substr(0, 4),
            "\x7f"
            "ELF");
  absl::StatusOr<std::unique_ptr<Program>> prg = dev_->Load("E_4", *lib);
  ASSERT_TRUE(prg.ok()) << prg.status();
  auto out = dev_->Allocate(16), in = dev_->Allocate(16);
  ASSERT_TRUE(out.ok() && in.ok());
  std::vector<void*> bufs = {(*out)->data(), (*in)->data()};
  ASSERT_TRUE((*prg)->Run(bufs, {}, {1, 1, 1}, LaunchDims{4, 1, 1}, true, Program::kNoStop).ok());
  EXPECT_EQ(fake_->LastLaunch().kernel, "E_4");
  // a source NVRTC rejects is an error with its log
  spec.src = "this is not CUDA";
  absl::StatusOr<std::string> bad = dev_->Compile(spec);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("NVRTC_ERROR_COMPILATION"), std::string_view::npos)
      << bad.status();
}

}  // namespace
}  // namespace tg
