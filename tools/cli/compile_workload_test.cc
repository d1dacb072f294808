// File: tools/cli/compile_workload_test.cc
// `tg compile`'s library: a workload rendered and compiled for CUDA (NVRTC) and HIP (comgr,
// clang) targets, tensor cores for half matmuls, tuned opts from a database, the error paths.
// Needs NVRTC / the AMD toolchain, not a GPU: each test skips, with the reason printed, where
// its compiler is missing.
#include "tools/cli/compile_workload.h"

#include <cstdio>

#include "absl/strings/match.h"
#include "autotune/key/device_class.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/schedule/schedule.h"
#include "tools/cli/compile_command.h"

namespace tg {
namespace {

using ::testing::HasSubstr;

// The target, or nullptr when its toolchain is missing here (the caller skips).
std::unique_ptr<CompileTarget> MakeTarget(const std::string& device, const std::string& arch,
                                          std::string* why) {
  absl::StatusOr<std::unique_ptr<CompileTarget>> t =
      CompileTarget::Create({.device = device,
                             .arch = arch,
                             .cuda = CudaLibraryOptions::FromEnvironment(),
                             .hip = HipToolchainOptions::FromEnvironment()});
  if (t.status().code() == absl::StatusCode::kNotFound) {
    *why = std::string(t.status().message());
    return nullptr;
  }
  EXPECT_TRUE(t.ok()) << device << " " << arch << ": " << t.status();
  return t.ok() ? *std::move(t) : nullptr;
}

CompileWorkloadOptions SmallMatmul(DType dtype) {
  const Workload* w = FindWorkload("matmul");
  return {.workload = w, .params = {{"m", 64}, {"n", 64}, {"k", 64}}, .dtype = dtype};
}

#define TARGET_OR_SKIP(var, device, arch)                                              \
  std::string why_##var;                                                               \
  std::unique_ptr<CompileTarget> var = MakeTarget(device, arch, &why_##var);           \
  if (var == nullptr && !why_##var.empty()) GTEST_SKIP() << device << " " << arch      \
                                                         << " toolchain missing: " << why_##var; \
  ASSERT_NE(var, nullptr)

TEST(CompileWorkloadTest, CudaHalfMatmulUsesTensorCores) {
  TARGET_OR_SKIP(target, "CUDA", "sm_90");
  absl::StatusOr<std::vector<CompiledKernel>> ks = CompileWorkload(*target, SmallMatmul(dtypes::float16));
  ASSERT_TRUE(ks.ok()) << ks.status();
  ASSERT_EQ(ks->size(), 1u);
  const CompiledKernel& k = ks->front();
  ASSERT_TRUE(k.status.ok()) << k.status;
  EXPECT_THAT(k.src, HasSubstr("mma.sync.aligned"));
  EXPECT_THAT(k.src, HasSubstr(k.function_name));
  EXPECT_FALSE(k.tuned);
  ASSERT_FALSE(k.opts.empty());
  EXPECT_EQ(k.opts.front().op, OptOps::TC) << ShortOptsText(k.opts);
  EXPECT_GT(k.binary_bytes, 0u);
  EXPECT_EQ(k.key.device, target->device_class().Digest());
}

TEST(CompileWorkloadTest, CudaPtxRendersPtxAndAssemblesIt) {
  std::string why;
  absl::StatusOr<std::unique_ptr<CompileTarget>> t = CompileTarget::Create(
      {.device = "CUDA", .arch = "sm_89", .cuda = CudaLibraryOptions::FromEnvironment(), .cuda_ptx = true});
  if (t.status().code() == absl::StatusCode::kNotFound) GTEST_SKIP() << "no nvJitLink here: " << t.status();
  ASSERT_TRUE(t.ok()) << t.status();
  absl::StatusOr<std::vector<CompiledKernel>> ks = CompileWorkload(**t, SmallMatmul(dtypes::float16));
  ASSERT_TRUE(ks.ok()) << ks.status();
  ASSERT_EQ(ks->size(), 1u);
  ASSERT_TRUE(ks->front().status.ok()) << ks->front().status;
  EXPECT_THAT(ks->front().src, HasSubstr("mma.sync.aligned"));
  EXPECT_THAT(ks->front().src, HasSubstr(".entry "));
  EXPECT_GT(ks->front().binary_bytes, 0u);
  EXPECT_THAT((*t)->compiler().id(), HasSubstr("nvjitlink"));
}

TEST(CompileWorkloadTest, EveryKernelOfAWorkloadCompilesForCuda) {
  TARGET_OR_SKIP(target, "CUDA", "sm_80");
  const Workload* w = FindWorkload("softmax");
  absl::StatusOr<std::vector<CompiledKernel>> ks =
      CompileWorkload(*target, {.workload = w, .params = {{"rows", 32}, {"cols", 64}}});
  ASSERT_TRUE(ks.ok()) << ks.status();
  EXPECT_GE(ks->size(), 2u);  // max, exp-sum, divide: tinygrad's kernels for a softmax
  for (const CompiledKernel& k : *ks) {
    EXPECT_TRUE(k.status.ok()) << k.name << ": " << k.status;
    EXPECT_THAT(k.src, HasSubstr("extern \"C\" __global__"));
  }
}

TEST(CompileWorkloadTest, HipHalfMatmulUsesWmmaOnRdna3) {
  TARGET_OR_SKIP(target, "HIP", "gfx1100");
  absl::StatusOr<std::vector<CompiledKernel>> ks = CompileWorkload(*target, SmallMatmul(dtypes::float16));
  ASSERT_TRUE(ks.ok()) << ks.status();
  ASSERT_EQ(ks->size(), 1u);
  ASSERT_TRUE(ks->front().status.ok()) << ks->front().status;
  EXPECT_THAT(ks->front().src, HasSubstr("__builtin_amdgcn_wmma_f32_16x16x16_f16_w32"));
  EXPECT_GT(ks->front().binary_bytes, 0u);
}

TEST(CompileWorkloadTest, HipFloatMatmulOnCdna2ThroughComgr) {
  TARGET_OR_SKIP(target, "HIP", "gfx90a");
  // comgr missing (or refused, in a sanitizer build): HIP falls back to clang
  if (!absl::StrContains(target->compiler().id(), "comgr"))
    GTEST_SKIP() << "comgr is not loaded here; HIP compiles with " << target->compiler().id();
  absl::StatusOr<std::vector<CompiledKernel>> ks = CompileWorkload(*target, SmallMatmul(dtypes::float32));
  ASSERT_TRUE(ks.ok()) << ks.status();
  ASSERT_EQ(ks->size(), 1u);
  EXPECT_TRUE(ks->front().status.ok()) << ks->front().status;
  EXPECT_THAT(target->compiler().id(), HasSubstr("comgr"));
}

// A CUDA sm_90 target (else HIP gfx90a, else skipped), an empty tuning database of the test's
// own, and the small float matmul's kernel as the heuristic compiles it.
class CompileWithDatabaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    target = MakeTarget("CUDA", "sm_90", &why);
    if (target == nullptr && why.empty()) FAIL();
    if (target == nullptr) target = MakeTarget("HIP", "gfx90a", &why);
    if (target == nullptr) GTEST_SKIP() << "neither NVRTC nor comgr here: " << why;
    path = ::testing::TempDir() + "/" + ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".db";
    std::remove(path.c_str());
    absl::StatusOr<std::unique_ptr<autotune::TuningDb>> opened = autotune::OpenTuningDb(path);
    ASSERT_TRUE(opened.ok()) << opened.status();
    db = *std::move(opened);
    options = SmallMatmul(dtypes::float32);
    absl::StatusOr<std::vector<CompiledKernel>> ks = CompileWorkload(*target, options);
    ASSERT_TRUE(ks.ok() && ks->size() == 1u) << ks.status();
    heuristic = ks->front();
    options.db = db.get();
  }

  // A record for the kernel under the target's own class.
  autotune::TuningRecord Store(std::vector<Opt> opts, double time_s) {
    autotune::TuningRecord r;
    r.key = heuristic.key;
    r.opts = std::move(opts);
    r.time_s = time_s;
    EXPECT_TRUE(db->Put(r).ok());
    return r;
  }
  // What `tg compile` of the fixture's matmul for the target with --db prints; `rc` its exit code.
  std::string TgCompileOutput(int& rc) {
    const std::string device = target->device(), arch = target->arch();
    const std::vector<std::string_view> args = {"matmul", "--device", device, "--arch", arch, "--m", "64",
                                                "--n",    "64",       "--k",  "64",  "--db", path};
    testing::internal::CaptureStdout();
    rc = CompileWorkloadCommand(args);
    return testing::internal::GetCapturedStdout();
  }
  // The one kernel of `options` compiled; `ks` keeps it.
  const CompiledKernel& CompileTheKernel(absl::StatusOr<std::vector<CompiledKernel>>& ks) {
    ks = CompileWorkload(*target, options);
    EXPECT_TRUE(ks.ok() && ks->size() == 1u) << ks.status();
    EXPECT_TRUE(ks->front().status.ok()) << ks->front().status;
    return ks->front();
  }

  std::unique_ptr<CompileTarget> target;
  std::string path;
  std::unique_ptr<autotune::TuningDb> db;
  CompileWorkloadOptions options;  // with `db`
  CompiledKernel heuristic;        // compiled without a database
};

// A database record for the target's class is used instead of the heuristic.
TEST_F(CompileWithDatabaseTest, TunedOptsComeFromTheDatabase) {
  std::string why;
  const std::vector<Opt> tuned = {Opt{OptOps::LOCAL, 0, int64_t{8}}, Opt{OptOps::UPCAST, 1, int64_t{2}}};
  ASSERT_NE(heuristic.opts, tuned);
  Store(tuned, 1e-5);
  absl::StatusOr<std::vector<CompiledKernel>> ks;
  const CompiledKernel& k = CompileTheKernel(ks);
  EXPECT_TRUE(k.tuned);
  EXPECT_EQ(k.opts, tuned) << ShortOptsText(k.opts);
  EXPECT_EQ(ShortOptsText(k.opts), "LOCAL0:8 UPCAST1:2");

  // Another target's class misses: the heuristic again.
  std::unique_ptr<CompileTarget> other = MakeTarget(target->device(), target->device() == "CUDA" ? "sm_80" : "gfx908", &why);
  ASSERT_NE(other, nullptr) << why;
  ks = CompileWorkload(*other, options);
  ASSERT_TRUE(ks.ok()) << ks.status();
  EXPECT_FALSE(ks->front().tuned);
}

// A record whose opts do not work for the kernel (a damaged or hand-edited row) does not fail the
// build: the kernel gets the heuristic's opts, and tg compile says why and names the record.
TEST_F(CompileWithDatabaseTest, TunedOptsThatDoNotWorkFallBackToTheHeuristic) {
  const autotune::TuningRecord r = Store({Opt{OptOps::UPCAST, 9, int64_t{4}}}, 1e-9);
  absl::StatusOr<std::vector<CompiledKernel>> ks;
  const CompiledKernel& k = CompileTheKernel(ks);
  EXPECT_FALSE(k.tuned);
  EXPECT_EQ(k.opts, heuristic.opts);
  EXPECT_THAT(k.untuned_why, HasSubstr("Opt(op=OptOps.UPCAST, axis=9, arg=4): invalid axis"));

  int rc = -1;
  const std::string out = TgCompileOutput(rc);
  EXPECT_EQ(rc, 0) << out;
  EXPECT_THAT(out, HasSubstr("do not work here (Opt(op=OptOps.UPCAST, axis=9, arg=4): invalid axis"));
  EXPECT_THAT(out, HasSubstr("the heuristic's instead; `tg db drop " + r.key.Digest().substr(0, 16) + "` drops the record"));
}

// A tuned GEMM (ours: the generated Hopper matmul) for a half matmul on sm_90: tg compile renders
// and compiles the generated kernel (for sm_90a, where wgmma is).
TEST(CompileWorkloadTest, ATunedGemmCompilesTheGeneratedKernelForSm90) {
  TARGET_OR_SKIP(target, "CUDA", "sm_90");
  const std::string path = ::testing::TempDir() + "/gemm.db";
  std::remove(path.c_str());
  absl::StatusOr<std::unique_ptr<autotune::TuningDb>> db = autotune::OpenTuningDb(path);
  ASSERT_TRUE(db.ok()) << db.status();
  CompileWorkloadOptions options = SmallMatmul(dtypes::float16);
  options.params = {{"m", 256}, {"n", 256}, {"k", 128}};
  absl::StatusOr<std::vector<CompiledKernel>> plain = CompileWorkload(*target, options);
  ASSERT_TRUE(plain.ok() && plain->size() == 1u) << plain.status();
  autotune::TuningRecord r;
  r.key = plain->front().key;
  r.opts = {Opt{OptOps::GEMM, std::nullopt, std::array<int64_t, 3>{128, 128, 3}}};
  r.time_s = 1e-5;
  ASSERT_TRUE((*db)->Put(r).ok());
  options.db = db->get();
  absl::StatusOr<std::vector<CompiledKernel>> ks = CompileWorkload(*target, options);
  ASSERT_TRUE(ks.ok()) << ks.status();
  const CompiledKernel& k = ks->front();
  ASSERT_TRUE(k.status.ok()) << k.status;
  EXPECT_TRUE(k.tuned);
  EXPECT_EQ(ShortOptsText(k.opts), "GEMM:128,128,3");
  EXPECT_EQ(k.name, "gemm_256_256_128");
  EXPECT_THAT(k.src, HasSubstr("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16"));
  EXPECT_FALSE(k.binary.empty());
  EXPECT_THAT(target->compiler().id(), HasSubstr("sm_90a"));
}

// A record a real GPU of the target's arch stored (its class names the GPU and its driver,
// which the compile-only target's cannot) is found by the arch: the fastest of them, saying
// which. A record under the target's own class still comes first.
TEST_F(CompileWithDatabaseTest, RecordsOfRealGpusOfTheArchAreUsed) {
  // What a GPU worker stores: its device's class (autotune/key/device_class.h) in the key.
  auto gpu_record = [&](const std::string& gpu, const std::string& arch, std::vector<Opt> opts, double time_s) {
    GpuDescription desc{.name = gpu, .arch = arch, .driver = "CUDA 13.0 (580.65.06)", .runtime = "NVRTC 13.0"};
    autotune::DeviceClass dc = autotune::GpuDeviceClass(target->device(), desc, target->compiler().id(),
                                                        autotune::RendererName(target->renderer()));
    autotune::TuningRecord r;
    r.key = heuristic.key;
    r.key.device = dc.Digest();
    r.key.settings.width = 4;
    r.opts = std::move(opts);
    r.time_s = time_s;
    r.device_description = dc.Describe();
    r.gpu_arch = dc.gpu_arch;
    r.worker = "worker 1";
    r.host = "gpu-node";
    return r;
  };
  const std::string arch = target->arch();
  const std::vector<Opt> slow = {Opt{OptOps::LOCAL, 0, int64_t{4}}};
  const std::vector<Opt> fast = {Opt{OptOps::LOCAL, 0, int64_t{8}}, Opt{OptOps::UPCAST, 1, int64_t{2}}};
  const std::vector<Opt> other_arch = {Opt{OptOps::UPCAST, 0, int64_t{4}}};
  for (const autotune::TuningRecord& r :
       {gpu_record("GPU model A", arch, slow, 2e-5), gpu_record("GPU model B", arch, fast, 1e-5),
        gpu_record("GPU model C", arch == "sm_90" ? "sm_89" : "gfx908", other_arch, 1e-6)})
    ASSERT_TRUE(db->Put(r).ok());

  absl::StatusOr<std::vector<CompiledKernel>> ks = CompileWorkload(*target, options);
  ASSERT_TRUE(ks.ok()) << ks.status();
  ASSERT_EQ(ks->size(), 1u);
  ASSERT_TRUE(ks->front().status.ok()) << ks->front().status;
  EXPECT_TRUE(ks->front().tuned);
  EXPECT_EQ(ShortOptsText(ks->front().opts), "LOCAL0:8 UPCAST1:2") << "the fastest GPU of " << arch;
  EXPECT_THAT(ks->front().tuned_on, HasSubstr("GPU model B | " + arch));
  EXPECT_THAT(ks->front().tuned_on, HasSubstr("worker 1 on gpu-node"));

  // `tg compile --db` says so under the kernel's line.
  const std::string device = target->device();
  int rc = -1;
  const std::string out = TgCompileOutput(rc);
  EXPECT_EQ(rc, 0) << out;
  EXPECT_THAT(out, HasSubstr("LOCAL0:8 UPCAST1:2 (tuned)"));
  EXPECT_THAT(out, HasSubstr("\n  opts tuned on " + device + " | GPU model B | " + arch + " | CUDA 13.0 (580.65.06), NVRTC 13.0"));

  // Tuned for the target's own class: that record, though slower.
  autotune::TuningRecord own;
  own.key = heuristic.key;
  own.opts = slow;
  own.time_s = 1e-3;
  ASSERT_TRUE(db->Put(own).ok());
  ks = CompileWorkload(*target, options);
  ASSERT_TRUE(ks.ok()) << ks.status();
  EXPECT_EQ(ks->front().opts, slow) << ShortOptsText(ks->front().opts);
}

// tg compile only allocates the inputs; tg tune realizes random ones. The kernels must be the
// same ASTs either way, or a database tg tune filled would never answer tg compile.
TEST(CompileWorkloadTest, KernelsAreTheOnesTgTuneTunes) {
  std::string why;
  std::unique_ptr<CompileTarget> target = MakeTarget("CUDA", "sm_90", &why);
  if (target == nullptr) target = MakeTarget("HIP", "gfx90a", &why);
  if (target == nullptr) GTEST_SKIP() << "neither NVRTC nor comgr here: " << why;
  for (const char* name : {"matmul", "conv2d"}) {
    const Workload* w = FindWorkload(name);
    WorkloadGraph g = w->build(w->Defaults());
    ASSERT_TRUE(Realize(g.inputs).ok());
    std::vector<UOp> roots;
    for (const Tensor& t : g.outputs) roots.push_back(t.uop());
    absl::StatusOr<Schedule> sched = CreateScheduleWithVars(UOp::Sink(roots));
    ASSERT_TRUE(sched.ok()) << sched.status();
    std::vector<uint64_t> tune_hashes;
    for (const ScheduleItem& item : sched->items)
      if (item.ast.op() == Ops::SINK) tune_hashes.push_back(autotune::AstTuningHash(item.ast));

    absl::StatusOr<std::vector<CompiledKernel>> ks = CompileWorkload(*target, {.workload = w});
    ASSERT_TRUE(ks.ok()) << ks.status();
    std::vector<uint64_t> compile_hashes;
    for (const CompiledKernel& k : *ks) compile_hashes.push_back(k.key.ast_hash);
    EXPECT_EQ(compile_hashes, tune_hashes) << name;
  }
}

TEST(CompileWorkloadTest, BadTargetsAreClearErrors) {
  absl::StatusOr<std::unique_ptr<CompileTarget>> t = CompileTarget::Create({.device = "METAL", .arch = "m1"});
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(t.status().message(), HasSubstr("unknown device 'METAL'"));
  t = CompileTarget::Create({.device = "CUDA", .arch = "gfx1100"});
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(t.status().message(), HasSubstr("gfx1100"));
  t = CompileTarget::Create({.device = "HIP", .arch = "sm_90"});
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(CompileWorkloadTest, ArchsTheCompilerDoesNotKnowAreInvalidArguments) {
  std::string why;
  // NVRTC 12/13 dropped sm_30 long ago.
  if (MakeTarget("CUDA", "sm_90", &why) != nullptr) {
    absl::StatusOr<std::unique_ptr<CompileTarget>> t = CompileTarget::Create(
        {.device = "CUDA", .arch = "sm_30", .cuda = CudaLibraryOptions::FromEnvironment()});
    EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument) << t.status();
    EXPECT_THAT(t.status().message(), HasSubstr("sm_30"));
  } else {
    std::printf("[ SKIPPED  ] CUDA part: %s\n", why.c_str());
  }
  absl::StatusOr<std::unique_ptr<CompileTarget>> t = CompileTarget::Create(
      {.device = "HIP", .arch = "gfx1200", .hip = HipToolchainOptions::FromEnvironment()});
  if (t.ok()) GTEST_SKIP() << "this AMD toolchain knows gfx1200";
  if (t.status().code() == absl::StatusCode::kNotFound) GTEST_SKIP() << t.status();
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument) << t.status();
}

TEST(CompileWorkloadTest, MissingToolchainsAreNotFoundNamingWhatWasTried) {
  HipToolchainOptions none = HipToolchainOptions::FromEnvironment();
  none.comgr_path = "/nonexistent/libamd_comgr.so";
  none.clang_path = "/nonexistent/clang";
  none.device_lib_dir = "/nonexistent/bitcode";
  absl::StatusOr<std::unique_ptr<CompileTarget>> t =
      CompileTarget::Create({.device = "HIP", .arch = "gfx1100", .hip = none});
  EXPECT_EQ(t.status().code(), absl::StatusCode::kNotFound) << t.status();
  EXPECT_THAT(t.status().message(), HasSubstr("/nonexistent/bitcode"));
}

}  // namespace
}  // namespace tg
