#include <cstring>
#include <memory>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/base/config.h"
#include "tinygrad/engine/buffer.h"
#include "tinygrad/engine/cpu_device.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/engine/memory.h"
#include "tinygrad/uop/shape.h"
#include "tinygrad/uop/uop.h"

namespace tg {
namespace {

std::span<const std::byte> Bytes(const std::vector<float>& v) {
  return std::as_bytes(std::span<const float>(v));
}

TEST(DeviceTest, UnknownDeviceIsAnError) {
  auto d = GetDevice("TPU");
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(d.status().message().find("unknown device 'TPU' (available: CUDA, CPU, PYTHON)"), std::string::npos)
      << d.status();
  ASSERT_TRUE(GetDevice("CPU").ok());
  EXPECT_EQ(*GetDevice("CPU"), *GetDevice("CPU"));
}

TEST(DeviceTest, NamesAreCanonicalized) {
  ASSERT_TRUE(GetDevice("CPU").ok());
  EXPECT_EQ(*GetDevice("cpu"), *GetDevice("CPU"));
  EXPECT_EQ(*GetDevice("CPU:0"), *GetDevice("CPU"));
  EXPECT_EQ((*GetDevice("cpu:0"))->name(), "CPU");
}

TEST(DeviceTest, DeviceLostIsTold) {
  absl::Status lost = DeviceLostError("CUDA is lost: illegal address");
  EXPECT_TRUE(IsDeviceLost(lost));
  EXPECT_EQ(lost.message(), "CUDA is lost: illegal address");
  EXPECT_FALSE(IsDeviceLost(absl::UnavailableError("CUDA is lost: illegal address")));
  EXPECT_FALSE(IsDeviceLost(absl::OkStatus()));
}

TEST(BufferTest, CopyRoundTripAndViews) {
  auto base = std::make_shared<Buffer>("CPU", 8, dtypes::float32);
  std::vector<float> in{0, 1, 2, 3, 4, 5, 6, 7};
  ASSERT_TRUE(base->CopyIn(Bytes(in), DeviceOptions()).ok());
  Buffer view(base, 3, dtypes::float32, 4 * sizeof(float));
  std::vector<float> out(3);
  ASSERT_TRUE(view.CopyOut(std::as_writable_bytes(std::span<float>(out))).ok());
  EXPECT_EQ(out, (std::vector<float>{4, 5, 6}));
  std::vector<float> wrong(5);
  EXPECT_FALSE(base->CopyIn(Bytes(wrong), DeviceOptions()).ok()) << "size mismatch is reported, not a crash";
  Buffer never("CPU", 4, dtypes::float32);
  EXPECT_FALSE(never.CopyOut(std::as_writable_bytes(std::span<float>(out.data(), 3))).ok());
}

// Host contents given before allocation (a file mapping's bytes): read in place until the
// buffer is allocated, then copied in once, and their owner let go.
TEST(BufferTest, PendingContentsAreCopiedInOnAllocation) {
  auto host = std::make_shared<std::vector<float>>(std::vector<float>{1, 2, 3, 4});
  std::weak_ptr<std::vector<float>> watch = host;
  auto base = std::make_shared<Buffer>("CPU", 4, dtypes::float32);
  EXPECT_FALSE(base->has_contents());
  ASSERT_TRUE(base->SetPendingContents(Bytes(*host), host).ok());
  host.reset();
  EXPECT_FALSE(watch.expired()) << "the buffer holds the owner while the contents are pending";
  EXPECT_TRUE(base->has_contents());
  EXPECT_TRUE(base->has_pending_contents());
  EXPECT_FALSE(base->is_allocated());

  Buffer view(base, 2, dtypes::float32, 1 * sizeof(float));
  EXPECT_TRUE(view.has_pending_contents());
  std::vector<float> out(2);
  ASSERT_TRUE(view.CopyOut(std::as_writable_bytes(std::span<float>(out))).ok());
  EXPECT_EQ(out, (std::vector<float>{2, 3})) << "read from the host bytes";
  EXPECT_FALSE(base->is_allocated()) << "reading does not allocate";

  ASSERT_TRUE(view.EnsureAllocated(DeviceOptions()).ok());
  EXPECT_TRUE(base->is_allocated());
  EXPECT_FALSE(base->has_pending_contents());
  EXPECT_TRUE(watch.expired()) << "the owner is let go once copied";
  std::vector<float> all(4);
  ASSERT_TRUE(base->CopyOut(std::as_writable_bytes(std::span<float>(all))).ok());
  EXPECT_EQ(all, (std::vector<float>{1, 2, 3, 4}));
}

TEST(BufferTest, PendingContentsNeedAnUnallocatedPlainBufferOfTheirSize) {
  auto owner = std::make_shared<int>(0);
  std::vector<float> four{1, 2, 3, 4};
  Buffer small("CPU", 3, dtypes::float32);
  EXPECT_FALSE(small.SetPendingContents(Bytes(four), owner).ok());
  auto allocated = std::make_shared<Buffer>("CPU", 4, dtypes::float32);
  ASSERT_TRUE(allocated->EnsureAllocated(DeviceOptions()).ok());
  EXPECT_FALSE(allocated->SetPendingContents(Bytes(four), owner).ok());
  Buffer view(allocated, 4, dtypes::float32, 0);
  EXPECT_FALSE(view.SetPendingContents(Bytes(four), owner).ok());
  Buffer ownerless("CPU", 4, dtypes::float32);
  EXPECT_FALSE(ownerless.SetPendingContents(Bytes(four), nullptr).ok());
}

TEST(BufferTableTest, SweepFreesUnreferencedBuffers) {
  BufferTable& t = BufferTable::Get();
  t.Sweep();
  size_t before = t.size();
  {
    UOp b = UOp::NewBuffer("CPU", 16, dtypes::float32);
    std::shared_ptr<Buffer> buf = t.GetOrCreate(b);
    EXPECT_EQ(t.GetOrCreate(b), buf);
    EXPECT_EQ(t.Sweep(), 0u) << "still referenced by `b`";
  }
  EXPECT_EQ(t.Sweep(), 1u);
  EXPECT_EQ(t.size(), before);
}

TEST(MemoryPlannerTest, ReusesBuffersWithDisjointLifetimes) {
  auto in = std::make_shared<Buffer>("CPU", 4, dtypes::float32);
  ASSERT_TRUE(in->EnsureAllocated(DeviceOptions()).ok());
  auto a = std::make_shared<Buffer>("CPU", 4, dtypes::float32);
  auto b = std::make_shared<Buffer>("CPU", 4, dtypes::float32);
  auto c = std::make_shared<Buffer>("CPU", 4, dtypes::float32);
  auto out = std::make_shared<Buffer>("CPU", 4, dtypes::float32);
  auto odd = std::make_shared<Buffer>("CPU", 5, dtypes::float32);
  // a = f(in); b = g(a); c = h(b); out = k(c, odd)
  std::vector<BufferList> items{{a, in}, {b, a}, {c, b}, {out, c, odd}};
  auto plan = PlanMemory(items, {out.get()});
  // a dies after item 1, so c (first used at item 2) takes its memory; b can't (a is alive).
  ASSERT_TRUE(plan.contains(c.get()));
  EXPECT_EQ(plan.at(c.get()), a);
  EXPECT_FALSE(plan.contains(b.get()));
  EXPECT_FALSE(plan.contains(out.get())) << "kept buffers are never replaced";
  EXPECT_FALSE(plan.contains(in.get())) << "allocated buffers are never replaced";
  EXPECT_FALSE(plan.contains(odd.get())) << "nothing of its size was free";
}

TEST(MemoryPlannerTest, NeverReplacesBuffersWithPendingContents) {
  std::vector<float> host{1, 2, 3, 4};
  auto a = std::make_shared<Buffer>("CPU", 4, dtypes::float32);
  auto loaded = std::make_shared<Buffer>("CPU", 4, dtypes::float32);
  ASSERT_TRUE(loaded->SetPendingContents(Bytes(host), std::make_shared<int>(0)).ok());
  auto b = std::make_shared<Buffer>("CPU", 4, dtypes::float32);
  auto out = std::make_shared<Buffer>("CPU", 4, dtypes::float32);
  // a = f(); b = g(a); out = h(b, loaded): `loaded` fits a's memory, free after item 1, but
  // holds data.
  std::vector<BufferList> items{{a}, {b, a}, {out, b, loaded}};
  auto plan = PlanMemory(items, {out.get()});
  EXPECT_FALSE(plan.contains(loaded.get()));
}

TEST(CpuDeviceTest, CompilesAndRunsAKernel) {
  Device* dev = *GetDevice("CPU");
  ProgramSpec spec;
  spec.function_name = "add1";
  spec.src = "void add1(float* restrict data0, const float* restrict data1, int core_id) {\n"
             "  for (int i = 0; i < 4; i++) data0[i] = data1[i] + 1.0f;\n}\n";
  spec.globals = {0, 1};
  auto lib = dev->Compile(spec);
  ASSERT_TRUE(lib.ok()) << lib.status();
  auto prog = dev->Load("add1", *lib);
  ASSERT_TRUE(prog.ok()) << prog.status();
  auto out = *dev->Allocate(16);
  auto in = *dev->Allocate(16);
  std::vector<float> x{1, 2, 3, 4}, y(4);
  ASSERT_TRUE(in->CopyIn(Bytes(x)).ok());
  std::vector<void*> bufs{out->data(), in->data()};
  ASSERT_TRUE((*prog)->Run(bufs, {}, {1, 1, 1}, std::nullopt, true, Program::kNoStop).ok());
  ASSERT_TRUE(out->CopyOut(std::as_writable_bytes(std::span<float>(y))).ok());
  EXPECT_EQ(y, (std::vector<float>{2, 3, 4, 5}));
  // a copy outside the buffer is an error, not a crash
  EXPECT_EQ(in->CopyIn(Bytes(x), 4).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(out->CopyOut(std::as_writable_bytes(std::span<float>(y)), SIZE_MAX).code(),
            absl::StatusCode::kInvalidArgument);
}

// A device compiles as the options it was made with say, whatever the process settings say
// later; the registry makes one device per options value.
TEST(CpuDeviceTest, CompilesWithTheOptionsItWasMadeWith) {
  ProgramSpec spec;
  spec.function_name = "mul3";
  spec.src = "void mul3(float* restrict data0, int core_id) { data0[0] *= 3.0f; }\n";
  spec.globals = {0};
  DeviceOptions good;
  good.cpu.cachelevel = 0;
  DeviceOptions bad = good;
  bad.cpu.cc = "/nonexistent/cc";
  Device* good_dev = *GetDevice("CPU", good);
  Device* bad_dev = *GetDevice("CPU", bad);
  EXPECT_NE(good_dev, bad_dev);
  EXPECT_EQ(*GetDevice("CPU", bad), bad_dev);
  EXPECT_NE(bad_dev->compiler_id(), good_dev->compiler_id()) << "the method cache must not mix compilers";
  {
    Config c = GetConfig();
    c.cc = "/nonexistent/cc";
    ScopedConfig scoped(c);  // read by no device
    EXPECT_TRUE(good_dev->Compile(spec).ok());
  }
  absl::StatusOr<std::string> lib = bad_dev->Compile(spec);
  ASSERT_FALSE(lib.ok());
  EXPECT_NE(lib.status().message().find("/nonexistent/cc"), std::string::npos) << lib.status();
  EXPECT_TRUE(good_dev->Compile(spec).ok());
}

// GetDevice(name) is the edge's shortcut: the device the current settings describe, so a changed
// Config (CPU_CC via ScopedConfig) reaches the next lookup, and the old settings give back the
// old device.
TEST(CpuDeviceTest, GetDeviceByNameFollowsTheCurrentConfig) {
  Device* dev = *GetDevice("CPU");
  EXPECT_EQ(dev, *GetDevice("CPU", DeviceOptions::FromConfig(GetConfig())));
  {
    Config c = GetConfig();
    c.cc = "/nonexistent/cc";
    c.cachelevel = 0;
    ScopedConfig bad(c);
    Device* bad_dev = *GetDevice("CPU");
    EXPECT_NE(bad_dev, dev);
    EXPECT_NE(bad_dev->compiler_id().find("/nonexistent/cc"), std::string::npos);
  }
  EXPECT_EQ(*GetDevice("CPU"), dev);
}

// The renderer's thread limits are options too (THREADS, CPU_COUNT).
TEST(CpuDeviceTest, RendererTakesTheThreadOptions) {
  std::unique_ptr<Device> none = MakeCpuDevice("CPU", {.renderer = {.threads = false}});
  EXPECT_FALSE(none->renderer().has_threads);
  std::unique_ptr<Device> six = MakeCpuDevice("CPU", {.renderer = {.threads = true, .cpu_count = 6}});
  EXPECT_TRUE(six->renderer().has_threads);
  ASSERT_TRUE(six->renderer().global_max.has_value());
  EXPECT_EQ((*six->renderer().global_max)[0], 6);
}

// The default CPU compiler is clang in this process (an ELF object, loaded by ORC); CPU_CC=clang
// is the same; another compiler name keeps the `clang` process path (a shared object). Both
// compute the same.
TEST(CpuDeviceTest, DefaultClangRunsInProcess) {
  ProgramSpec spec;
  spec.function_name = "sq";
  spec.src = "void sq(float* restrict data0, const float* restrict data1, const int n, "
             "int core_id) {\n  for (int i = 0; i < n; i++) data0[i] = data1[i] * data1[i];\n}\n";
  spec.globals = {0, 1};
  spec.vars = {UOp::Variable("n", 1, 8)};
  auto run = [&](const std::string& cc) {
    std::unique_ptr<Device> dev = MakeCpuDevice("CPU", {.cc = cc, .cachelevel = 0});
    auto lib = dev->Compile(spec);
    EXPECT_TRUE(lib.ok()) << lib.status();
    bool object = lib.ok() && (*lib)[16] == 1;  // ET_REL: an object, not a shared object
    auto prog = dev->Load("sq", *lib);
    EXPECT_TRUE(prog.ok()) << prog.status();
    auto out = *dev->Allocate(16);
    auto in = *dev->Allocate(16);
    std::vector<float> x{1, 2, 3, 4}, y(4);
    EXPECT_TRUE(in->CopyIn(Bytes(x)).ok());
    std::vector<void*> bufs{out->data(), in->data()};
    std::vector<int64_t> vals{3};
    EXPECT_TRUE((*prog)->Run(bufs, vals, {1, 1, 1}, std::nullopt, true, Program::kNoStop).ok());
    EXPECT_TRUE(out->CopyOut(std::as_writable_bytes(std::span<float>(y))).ok());
    EXPECT_EQ(y, (std::vector<float>{1, 4, 9, 0}));
    return std::make_pair(object, dev->compiler_id());
  };
  auto [default_obj, default_id] = run("");
  EXPECT_TRUE(default_obj);
  EXPECT_NE(default_id.find("in-process"), std::string::npos) << default_id;
  EXPECT_NE(default_id.find("clang version 14"), std::string::npos) << default_id;
  EXPECT_EQ(run("clang"), std::make_pair(true, default_id));
  auto [process_obj, process_id] = run("clang-14");
  EXPECT_FALSE(process_obj);
  EXPECT_EQ(process_id.find("in-process"), std::string::npos) << process_id;
}

}  // namespace
}  // namespace tg
