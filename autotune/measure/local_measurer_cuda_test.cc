// The measurer on a CUDA device whose driver is the fake libcuda (runtime/cuda/
// fake_cuda_driver.cc): candidates are lowered for the CUDA renderer and compiled by NVRTC
// (skipped, saying so, where NVRTC is missing), loaded and launched on the fake, which runs no
// GPU code: every output keeps its contents, so every candidate matches the reference. What is
// checked is the GPU path's plumbing: the reference kernel's launch, the L2 clearing before
// each timed run, the run limits reported, the device's launch limits, and a kernel fault (the
// faulting candidate, the rest, the measurer afterwards). Real GPUs: //tests/gpu.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "autotune/measure/local_measurer.h"
#include "autotune/measure/test_kernels.h"
#include "tinygrad/codegen/opt/gemm_opt.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tinygrad/engine/fake_cuda_device_test_base.h"

namespace tg::autotune {
namespace {

using ::testing::HasSubstr;
using ::tg::FakeCudaDeviceTest;

std::string Describe(const CandidateResult& r) { return std::string(OutcomeName(r.outcome)) + ": " + r.error; }

class CudaMeasurerTest : public FakeCudaDeviceTest {
 protected:
  void SetUp() override {
    FakeCudaDeviceTest::SetUp();
    if (HasFatalFailure()) return;
    if (dev_->compiler_id().starts_with("nvrtc unavailable")) GTEST_SKIP() << "no NVRTC here: " << dev_->compiler_id();
    absl::StatusOr<KernelTask> t = KernelTask::FromAst(AddKernel(4096));
    ASSERT_TRUE(t.ok()) << t.status();
    task_ = *t;
  }
  std::unique_ptr<LocalMeasurer> Measurer(LocalMeasurerOptions o = {}) {
    o.compile_threads = 2;
    return std::make_unique<LocalMeasurer>(dev_.get(), std::move(o));
  }

  KernelTask task_;
};

TEST_F(CudaMeasurerTest, TheReferenceRunsInBlocksAndCandidatesAreTimedWithCachesCleared) {
  std::vector<double> limits;
  std::unique_ptr<LocalMeasurer> m = Measurer({.before_run = [&](double l) { limits.push_back(l); }});
  // no candidates: only the reference kernel runs, split into blocks of threads
  const int launches = fake_->Launches();
  absl::StatusOr<MeasureBatch> none = m->Measure(task_, {}, MeasureOptions{});
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_EQ(fake_->Launches(), launches + 1);
  FakeLaunch ref = fake_->LastLaunch();
  EXPECT_EQ(ref.block, (std::array<unsigned, 3>{256, 1, 1})) << "LOCAL 256 on the first axis";
  EXPECT_EQ(ref.grid, (std::array<unsigned, 3>{16, 1, 1}));

  const int memsets = fake_->Memsets();
  std::vector<std::vector<Opt>> cands = {{}, {Opt{OptOps::LOCAL, 0, int64_t{32}}}, {Opt{OptOps::UPCAST, 0, int64_t{4}}}};
  MeasureOptions o;
  o.runs = 3;
  o.early_stop_s = 1.0;
  o.first_run_stop_s = 0.5;
  absl::StatusOr<MeasureBatch> b = m->Measure(task_, cands, o);
  ASSERT_TRUE(b.ok()) << b.status();
  int runs = 0;
  for (const CandidateResult& r : b->results) {
    EXPECT_EQ(r.outcome, Outcome::kOk) << Describe(r);
    runs += static_cast<int>(r.samples_s.size());
    EXPECT_GE(r.min_s, 0.0);
  }
  EXPECT_EQ(runs, 9);
  EXPECT_EQ(fake_->Memsets(), memsets + runs) << "the L2 is cleared before every timed run";
  // a GPU run cannot be stopped: no limit of its own is reported to a worker's pool
  ASSERT_EQ(limits.size(), static_cast<size_t>(runs));
  for (double l : limits) EXPECT_EQ(l, kInf);
  EXPECT_FALSE(m->device_lost());
}

TEST_F(CudaMeasurerTest, ANoLocalsCandidateIsTimedWithTheBlockOptimizeLocalSizeChose) {
  std::unique_ptr<LocalMeasurer> m = Measurer();
  ASSERT_TRUE(m->Measure(task_, {}, MeasureOptions{}).ok()) << "the reference first";
  const int launches = fake_->Launches();
  MeasureOptions o;
  o.runs = 3;
  const std::vector<std::vector<Opt>> nolocals = {{Opt{OptOps::NOLOCALS, std::nullopt, std::monostate{}}}};
  absl::StatusOr<MeasureBatch> b = m->Measure(task_, nolocals, o);
  ASSERT_TRUE(b.ok()) << b.status();
  const CandidateResult& r = b->results[0];
  ASSERT_EQ(r.outcome, Outcome::kOk) << Describe(r);
  ASSERT_EQ(r.samples_s.size(), 3u);
  // 4096 threads: blocks of 1, 2, 4, ..., 256 and 1024 threads, each tried twice, then the runs
  EXPECT_EQ(fake_->Launches(), launches + 2 * 10 + 3);
  FakeLaunch last = fake_->LastLaunch();
  EXPECT_EQ(static_cast<int64_t>(last.grid[0]) * last.block[0], 4096) << "a block that tiles the grid";
  EXPECT_EQ(last.grid[1] * last.block[1] * last.grid[2] * last.block[2], 1u);
}

TEST_F(CudaMeasurerTest, WithoutClearL2NothingIsWritten) {
  std::unique_ptr<LocalMeasurer> m = Measurer({.clear_l2 = false});
  const int memsets = fake_->Memsets();
  absl::StatusOr<MeasureBatch> b = m->Measure(task_, std::vector<std::vector<Opt>>{{}}, MeasureOptions{});
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b->results[0].outcome, Outcome::kOk) << Describe(b->results[0]);
  EXPECT_EQ(fake_->Memsets(), memsets);
}

TEST_F(CudaMeasurerTest, ALaunchOverTheThreadsPerBlockIsRejectedBeforeItRuns) {
  std::unique_ptr<LocalMeasurer> m = Measurer();
  // 64 x 32 = 2048 threads: each dimension within the renderer's limits, the product not
  absl::StatusOr<KernelTask> t = KernelTask::FromAst(MatmulKernel(128));
  ASSERT_TRUE(t.ok());
  std::vector<std::vector<Opt>> cands = {
      {Opt{OptOps::LOCAL, 0, int64_t{64}}, Opt{OptOps::LOCAL, 1, int64_t{32}}},
      {Opt{OptOps::LOCAL, 0, int64_t{16}}}};
  absl::StatusOr<MeasureBatch> b = m->Measure(*t, cands, MeasureOptions{});
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b->results[0].outcome, Outcome::kRejected) << Describe(b->results[0]);
  EXPECT_NE(b->results[0].error.find("local size 2048 > the device's 1024 threads per block"), std::string::npos)
      << b->results[0].error;
  EXPECT_EQ(b->results[1].outcome, Outcome::kOk) << Describe(b->results[1]);
}

// The GEMM opt's candidate through every phase on the fake Hopper (compute 9.0): the generated
// kernel compiled for sm_90a, loaded with its shared memory (past the 48 KiB default: the fake
// refuses a launch whose function limit was not raised) and launched with its own grid and block.
TEST_F(CudaMeasurerTest, AGemmCandidateLaunchesTheGeneratedKernelWithItsSharedMemory) {
  std::unique_ptr<LocalMeasurer> m = Measurer();
  absl::StatusOr<KernelTask> t = KernelTask::FromAst(MatmulKernel(256, dtypes::float16));
  ASSERT_TRUE(t.ok()) << t.status();
  const std::vector<std::vector<Opt>> cands = {{GemmOpt({.bm = 128, .bn = 128, .stages = 3})}};
  MeasureOptions o;
  o.runs = 2;
  absl::StatusOr<MeasureBatch> b = m->Measure(*t, cands, o);
  ASSERT_TRUE(b.ok()) << b.status();
  ASSERT_EQ(b->results[0].outcome, Outcome::kOk) << Describe(b->results[0]);
  EXPECT_EQ(b->results[0].samples_s.size(), 2u);
  const FakeLaunch last = fake_->LastLaunch();
  EXPECT_EQ(last.kernel, "gemm_256_256_256");
  EXPECT_EQ(last.grid, (std::array<unsigned, 3>{2, 2, 1}));
  EXPECT_EQ(last.block, (std::array<unsigned, 3>{256, 1, 1})) << "two warpgroups";
}

TEST_F(CudaMeasurerTest, AKernelFaultLosesTheDeviceAndTheRestOfTheBatch) {
  std::vector<std::string> lost_calls;
  std::unique_ptr<LocalMeasurer> m =
      Measurer({.on_device_lost = [&](const absl::Status& s) { lost_calls.emplace_back(s.message()); }});
  // the task's reference run first, so that the launches below are the candidates'
  ASSERT_TRUE(m->Measure(task_, {}, MeasureOptions{}).ok());
  std::vector<std::vector<Opt>> cands = {{},
                                         {Opt{OptOps::LOCAL, 0, int64_t{32}}},
                                         {Opt{OptOps::UPCAST, 0, int64_t{4}}},
                                         {Opt{OptOps::LOCAL, 0, int64_t{16}}}};
  MeasureOptions o;
  o.runs = 2;
  fake_->FaultOnLaunch(2);  // the second candidate's check run faults
  absl::StatusOr<MeasureBatch> b = m->Measure(task_, cands, o);
  ASSERT_TRUE(b.ok()) << b.status();
  const std::vector<CandidateResult>& r = b->results;
  EXPECT_EQ(r[0].outcome, Outcome::kOk) << Describe(r[0]) << ": timed before the fault, its run stands";
  EXPECT_EQ(r[0].samples_s.size(), 1u);
  EXPECT_EQ(r[1].outcome, Outcome::kRuntimeError) << Describe(r[1]);
  EXPECT_NE(r[1].error.find("CUDA_ERROR_ILLEGAL_ADDRESS"), std::string::npos) << r[1].error;
  for (size_t i : {2u, 3u}) {
    EXPECT_EQ(r[i].outcome, Outcome::kWorkerLost) << Describe(r[i]);
    EXPECT_NE(r[i].error.find("not measured: CUDA is lost"), std::string::npos) << r[i].error;
  }
  EXPECT_TRUE(m->device_lost());
  ASSERT_EQ(lost_calls.size(), 1u);
  EXPECT_NE(lost_calls[0].find("CUDA_ERROR_ILLEGAL_ADDRESS"), std::string::npos);
  // from now on the measurer answers nothing
  fake_->Reset();
  absl::StatusOr<MeasureBatch> later = m->Measure(task_, cands, o);
  ASSERT_FALSE(later.ok());
  EXPECT_TRUE(IsDeviceLost(later.status())) << later.status();
  EXPECT_EQ(lost_calls.size(), 1u);
}

TEST_F(CudaMeasurerTest, AFaultOfTheReferenceKernelFailsTheBatch) {
  bool lost = false;
  std::unique_ptr<LocalMeasurer> m = Measurer({.on_device_lost = [&](const absl::Status&) { lost = true; }});
  fake_->FaultOnLaunch(1);
  absl::StatusOr<MeasureBatch> b = m->Measure(task_, std::vector<std::vector<Opt>>{{}}, MeasureOptions{});
  ASSERT_FALSE(b.ok());
  EXPECT_TRUE(IsDeviceLost(b.status())) << b.status();
  EXPECT_NE(b.status().message().find("the unoptimized kernel"), std::string_view::npos) << b.status();
  EXPECT_TRUE(lost);
  EXPECT_TRUE(m->device_lost());
}

// The measurer readies the device's compiler for its compile threads (an NVRTC instance each,
// copies made in the device's temp dir); where the copies cannot be made it says so on stderr
// and measures all the same, its threads sharing one NVRTC.
TEST_F(CudaMeasurerTest, CompileThreadsGetAnNvrtcEachOrShareOneWithAWarning) {
  const std::vector<std::vector<Opt>> cands = {{}, {Opt{OptOps::UPCAST, 0, int64_t{4}}}, {Opt{OptOps::LOCAL, 0, int64_t{32}}}};
  for (bool copies_fail : {false, true}) {
    SCOPED_TRACE(copies_fail ? "copies fail" : "copies made");
    CudaDeviceOptions o = options_;
    o.temp_dir = (std::filesystem::path(testing::TempDir()) / (copies_fail ? "no/such/dir" : "")).string();
    absl::StatusOr<std::unique_ptr<Device>> dev = MakeCudaDevice("CUDA", o);
    ASSERT_TRUE(dev.ok()) << dev.status();
    testing::internal::CaptureStderr();
    LocalMeasurer m(dev->get(), {.compile_threads = 2});
    const std::string said = testing::internal::GetCapturedStderr();
    if (copies_fail) {
      EXPECT_THAT(said, HasSubstr("warning: CUDA: NVRTC compiles on 1 instance, not 2"));
      EXPECT_THAT(said, HasSubstr("cannot make a directory in"));
    } else {
      EXPECT_EQ(said, "");
    }
    absl::StatusOr<MeasureBatch> b = m.Measure(task_, cands, MeasureOptions{});
    ASSERT_TRUE(b.ok()) << b.status();
    for (const CandidateResult& r : b->results) EXPECT_EQ(r.outcome, Outcome::kOk) << Describe(r);
  }
}

}  // namespace
}  // namespace tg::autotune
