// File: autotune/device_class_test.cc
#include "autotune/key/device_class.h"

#include <algorithm>
#include <set>
#include <string>

#include "gtest/gtest.h"
#include "tinygrad/base/config.h"
#include "tinygrad/engine/cuda_device.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/runtime/cpu/cpu_target.h"
#include "tinygrad/runtime/cuda/fake_cuda.h"

namespace tg::autotune {
namespace {

// Two logical CPUs of a VM, trimmed; the second lacks avx512_vnni (as a hybrid CPU's small
// cores would), the bug list and power fields are noise.
constexpr std::string_view kX86CpuInfo = R"(processor	: 0
vendor_id	: AuthenticAMD
cpu family	: 26
model		: 2
model name	: AMD EPYC
flags		: fpu vme sse sse2 pni ssse3 fma sse4_1 sse4_2 popcnt avx f16c hypervisor bmi1 avx2 bmi2 avx512f avx512dq avx512cd avx512bw avx512vl avx_vnni avx512_bf16 avx512_vnni constant_tsc
bugs		: cpu_meltdown spectre_v1
bogomips	: 4192.00

processor	: 1
vendor_id	: AuthenticAMD
cpu family	: 26
model		: 2
model name	: AMD EPYC
flags		: fpu vme sse sse2 pni ssse3 fma sse4_1 sse4_2 popcnt avx f16c hypervisor bmi1 avx2 bmi2 avx512f avx512dq avx512cd avx512bw avx512vl avx_vnni avx512_bf16 constant_tsc
bugs		: cpu_meltdown spectre_v1 spectre_v2
)";

constexpr std::string_view kArmCpuInfo = R"(processor	: 0
BogoMIPS	: 243.75
Features	: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm jscvt fcma lrcpc dcpop sha3 asimddp sha512 sve asimdfhm dit uscat ilrcpc flagm ssbs sb paca pacg dcpodp sve2 i8mm bf16
CPU implementer	: 0x41
CPU architecture: 8
CPU variant	: 0x0
CPU part	: 0xd4f
)";

TEST(DeviceClassTest, ParsesX86CpuInfo) {
  CpuInfo info = ParseCpuInfo(kX86CpuInfo);
  EXPECT_EQ(info.model_name, "AMD EPYC");
  EXPECT_EQ(info.family, "26");
  EXPECT_EQ(info.model, "2");
  EXPECT_EQ(info.logical_cpus, 2);
  std::set<std::string> flags(info.flags.begin(), info.flags.end());
  EXPECT_TRUE(flags.contains("avx512f"));
  EXPECT_FALSE(flags.contains("avx512_vnni")) << "a flag some core lacks is not the machine's";
  EXPECT_EQ(
      RelevantIsaFlags(info.flags),
      (std::vector<std::string>{"avx", "avx2", "avx512_bf16", "avx512bw", "avx512cd", "avx512dq",
                                "avx512f", "avx512vl", "avx_vnni", "bmi1", "bmi2", "f16c", "fma",
                                "pni", "popcnt", "sse4_1", "sse4_2", "ssse3"}));
}

TEST(DeviceClassTest, ParsesArmCpuInfo) {
  CpuInfo info = ParseCpuInfo(kArmCpuInfo);
  EXPECT_EQ(info.model_name, "ARM implementer 0x41 part 0xd4f");
  EXPECT_EQ(info.logical_cpus, 1);
  EXPECT_EQ(RelevantIsaFlags(info.flags),
            (std::vector<std::string>{"asimd", "asimddp", "asimdhp", "bf16", "fphp", "i8mm", "sve",
                                      "sve2"}));
}

TEST(DeviceClassTest, EmptyTextGivesEmptyInfo) {
  CpuInfo info = ParseCpuInfo("");
  EXPECT_EQ(info.model_name, "");
  EXPECT_TRUE(info.flags.empty());
  EXPECT_EQ(info.logical_cpus, 0);
}

DeviceClass Sample() {
  return CpuDeviceClass(ParseCpuInfo(kX86CpuInfo), 2, "clang -O2 -march=native",
                        "tg::ClangRenderer");
}

TEST(DeviceClassTest, CpuClassFields) {
  DeviceClass dc = Sample();
  EXPECT_EQ(dc.device, "CPU");
  EXPECT_EQ(dc.cpu_model, "AMD EPYC (family 26, model 2)");
  EXPECT_EQ(dc.cores, 2);
  EXPECT_EQ(CpuDeviceClass(ParseCpuInfo(kX86CpuInfo), 1, "cc", "r").cores, 1);
  EXPECT_EQ(dc.Describe().substr(0, 38), "CPU | AMD EPYC (family 26, model 2) | ");
  EXPECT_NE(dc.Describe().find("| 2 cores | tg::ClangRenderer | clang -O2 -march=native"),
            std::string::npos)
      << dc.Describe();
}

TEST(DeviceClassTest, DigestIsStableAndSeesEveryField) {
  DeviceClass dc = Sample();
  // Pinned: the digest must be the same in every process and on every machine (it keys the
  // tuning database and workers announce it). Changing it orphans every cached result.
  EXPECT_EQ(dc.Digest(), Sample().Digest());
  EXPECT_EQ(dc.Digest().size(), 16u);
  EXPECT_EQ(dc.Digest(), "c94acfaa25f43855") << "digest changed: bump the tuning db's key";
  std::set<std::string> digests = {dc.Digest()};
  auto flip = [&](auto mutate) {
    DeviceClass d = Sample();
    mutate(d);
    EXPECT_TRUE(digests.insert(d.Digest()).second) << d.Describe();
  };
  flip([](DeviceClass& d) { d.device = "CUDA"; });
  flip([](DeviceClass& d) { d.cpu_model = "AMD EPYC (family 25, model 1)"; });
  flip([](DeviceClass& d) { d.isa_flags.pop_back(); });
  flip([](DeviceClass& d) { d.cores = 1; });
  flip([](DeviceClass& d) { d.gpu_name = "NVIDIA H100"; });
  flip([](DeviceClass& d) { d.gpu_arch = "sm_90"; });
  flip([](DeviceClass& d) { d.gpu_driver = "550.54"; });
  flip([](DeviceClass& d) { d.compiler_id = "clang -O3"; });
  flip([](DeviceClass& d) { d.renderer = "tg::LLVMRenderer"; });
  // Length-prefixed fields: moving text from one field to the next is another class.
  flip([](DeviceClass& d) {
    d.gpu_name = "a";
    d.gpu_arch = "";
  });
  flip([](DeviceClass& d) {
    d.gpu_name = "";
    d.gpu_arch = "a";
  });
}

TEST(DeviceClassTest, HostCpuDevice) {
  absl::StatusOr<Device*> dev = GetDevice("CPU");
  ASSERT_TRUE(dev.ok()) << dev.status();
  absl::StatusOr<DeviceClass> dc = DeviceClassFor(**dev);
  ASSERT_TRUE(dc.ok()) << dc.status();
  EXPECT_EQ(dc->device, "CPU");
  EXPECT_FALSE(dc->cpu_model.empty());
  EXPECT_EQ(dc->renderer.find("Renderer") != std::string::npos, true) << dc->renderer;
  EXPECT_EQ(dc->compiler_id, (*dev)->compiler_id());
  // the cores a kernel may use are the renderer's: its THREAD limit, or 1 without threads
  const Renderer& ren = (*dev)->renderer();
  EXPECT_EQ(dc->cores, ren.has_threads ? (*ren.global_max)[0] : 1);
  EXPECT_EQ(dc->Digest(), DeviceClassFor(**dev)->Digest());
}

// Compiled for an x86-64 level, the class keeps only the level's flags: AVX2 records tuned on an
// AVX-512 machine are another class than that machine's own.
TEST(DeviceClassTest, CpuTargetLimitsTheIsaFlags) {
  CpuInfo info = ParseCpuInfo(kX86CpuInfo);
  DeviceClass native = CpuDeviceClass(info, 2, "cc", "r");
  DeviceClass v3 = CpuDeviceClass(info, 2, "cc", "r", "x86-64-v3");
  EXPECT_EQ(v3.isa_flags, (std::vector<std::string>{"avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "pni",
                                                    "popcnt", "sse4_1", "sse4_2", "ssse3"}));
  EXPECT_NE(native.Digest(), v3.Digest());
  EXPECT_EQ(v3.cpu_model, native.cpu_model);  // the timings are still this CPU's
  DeviceClass v4 = CpuDeviceClass(info, 2, "cc", "r", "x86-64-v4");
  EXPECT_TRUE(std::ranges::count(v4.isa_flags, "avx512f") == 1);
  EXPECT_TRUE(std::ranges::count(v4.isa_flags, "avx_vnni") == 0);  // not part of the level
  EXPECT_NE(v4.Digest(), native.Digest());
  EXPECT_EQ(CpuDeviceClass(info, 2, "cc", "r", "native"), native);
}

TEST(DeviceClassTest, HostCpuDeviceWithATarget) {
  CpuDeviceOptions o = CpuDeviceOptions::FromConfig(GetConfig());
  o.cpu_target = "x86-64-v3";
  if (!CheckCpuTarget(o.cpu_target).ok()) GTEST_SKIP() << CheckCpuTarget(o.cpu_target);
  absl::StatusOr<Device*> dev = GetDevice("CPU", DeviceOptions{.cpu = o});
  ASSERT_TRUE(dev.ok()) << dev.status();
  EXPECT_EQ((*dev)->cpu_target(), "x86-64-v3");
  absl::StatusOr<DeviceClass> dc = DeviceClassFor(**dev);
  ASSERT_TRUE(dc.ok()) << dc.status();
  EXPECT_TRUE(std::ranges::count(dc->isa_flags, "avx2") == 1);
  EXPECT_TRUE(std::ranges::count(dc->isa_flags, "avx512f") == 0);
  EXPECT_NE(dc->compiler_id.find("x86-64-v3"), std::string::npos) << dc->compiler_id;
  absl::StatusOr<Device*> host = GetDevice("CPU");
  ASSERT_TRUE(host.ok()) << host.status();
  EXPECT_NE(DeviceClassFor(**host)->Digest(), dc->Digest());
}

TEST(DeviceClassTest, UnknownCpuTargetIsAnErrorOfGetDevice) {
  CpuDeviceOptions o = CpuDeviceOptions::FromConfig(GetConfig());
  o.cpu_target = "x86-64-v9";
  absl::StatusOr<Device*> dev = GetDevice("CPU", DeviceOptions{.cpu = o});
  EXPECT_EQ(dev.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(dev.status().message().find("unknown CPU target 'x86-64-v9'"), std::string::npos) << dev.status();
}

TEST(DeviceClassTest, CudaDeviceOnTheFakeDriver) {
  absl::StatusOr<FakeCuda> fake = FakeCuda::Open();
  ASSERT_TRUE(fake.ok()) << fake.status();
  CudaDeviceOptions o;
  o.libs.driver_path = fake->path();
  absl::StatusOr<std::unique_ptr<Device>> dev = MakeCudaDevice("CUDA", o);
  ASSERT_TRUE(dev.ok()) << dev.status();
  absl::StatusOr<DeviceClass> dc = DeviceClassFor(**dev);
  ASSERT_TRUE(dc.ok()) << dc.status();
  EXPECT_EQ(dc->device, "CUDA");
  EXPECT_EQ(dc->gpu_name, "tinygrad-cc fake GPU");
  EXPECT_EQ(dc->gpu_arch, "sm_90");
  EXPECT_EQ(dc->gpu_driver.substr(0, 9), "CUDA 13.0") << dc->gpu_driver;
  EXPECT_NE(dc->gpu_driver.find("NVRTC"), std::string::npos) << dc->gpu_driver;
  EXPECT_EQ(dc->compiler_id, (*dev)->compiler_id());
  EXPECT_EQ(dc->renderer, "tg::CudaRenderer");
  EXPECT_TRUE(dc->cpu_model.empty()) << "the host CPU is not part of a GPU's class";
  EXPECT_TRUE(dc->isa_flags.empty());
  EXPECT_EQ(dc->cores, 0);
  const std::string line = dc->Describe();
  EXPECT_NE(line.find("CUDA | tinygrad-cc fake GPU | sm_90 | CUDA 13.0"), std::string::npos) << line;
  // a GPU of another arch, driver or compiler is another class
  GpuDescription other = *(*dev)->gpu();
  const std::string digest = dc->Digest();
  EXPECT_EQ(GpuDeviceClass("CUDA", other, dc->compiler_id, dc->renderer).Digest(), digest);
  other.arch = "sm_89";
  EXPECT_NE(GpuDeviceClass("CUDA", other, dc->compiler_id, dc->renderer).Digest(), digest);
  other = *(*dev)->gpu();
  other.driver = "CUDA 12.8";
  EXPECT_NE(GpuDeviceClass("CUDA", other, dc->compiler_id, dc->renderer).Digest(), digest);
  other = *(*dev)->gpu();
  other.runtime = "NVRTC 12.8";
  EXPECT_NE(GpuDeviceClass("CUDA", other, dc->compiler_id, dc->renderer).Digest(), digest);
}

}  // namespace
}  // namespace tg::autotune
