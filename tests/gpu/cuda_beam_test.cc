// BEAM=2 on a real NVIDIA GPU: the tuner searches a small matmul's opts on "CUDA" (locals,
// groups, tensor cores: the GPU half of BEAM's action space), the tuned kernel's result is
// checked against host loops when realized with the tuner installed, and the times are printed. Skips,
// saying why, where there is no CUDA device. A self-contained binary (static) for the GPU
// bundle (tools/gpu_check).
#include <cmath>
#include <cstdio>
#include <vector>

#include "autotune/key/search_settings.h"
#include "autotune/measure/test_kernels.h"
#include "autotune/tuner.h"
#include "gtest/gtest.h"
#include "tinygrad/base/config.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/engine/opt_chooser.h"
#include "tinygrad/tensor/tensor.h"

namespace tg::autotune {
namespace {

absl::StatusOr<Device*> Gpu() {
  absl::StatusOr<Device*> dev = GetDevice("CUDA");
  if (dev.ok() && (*dev)->compiler_id().starts_with("nvrtc unavailable"))
    return absl::UnavailableError((*dev)->compiler_id());
  return dev;
}

std::string OptsText(const std::vector<Opt>& opts) {
  std::string s;
  for (const Opt& o : opts) s += OptToArg(o).repr() + " ";
  return s;
}

std::unique_ptr<Tuner> MakeTuner() {
  TunerOptions o;
  o.beam = 2;
  o.settings = SearchSettings::FromConfig(GetConfig());
  o.settings.width = 2;
  o.codegen = CodegenOptions::FromConfig(GetConfig());
  absl::StatusOr<std::unique_ptr<Tuner>> t = Tuner::Create(o);  // no database: always searches
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *std::move(t) : nullptr;
}

TEST(CudaBeamTest, Beam2OfASmallMatmulFindsOptsThatBeatTheUnoptimizedKernel) {
  absl::StatusOr<Device*> dev = Gpu();
  if (!dev.ok()) GTEST_SKIP() << "no CUDA device here: " << dev.status();
  std::unique_ptr<Tuner> tuner = MakeTuner();
  ASSERT_NE(tuner, nullptr);
  for (int64_t n : {256}) {
    absl::StatusOr<KernelTuning> t = tuner->Tune(MatmulKernel(n), **dev);
    ASSERT_TRUE(t.ok()) << t.status();
    ASSERT_TRUE(t->status.ok()) << t->status;
    ASSERT_TRUE(t->record.has_value());
    ASSERT_TRUE(t->search.has_value());
    const BeamResult& s = *t->search;
    std::printf("matmul %lld on %s: BEAM=2 %.2f us (unoptimized %.2f us, heuristic %.2f us), %lld candidates "
                "(%lld timed) in %.1f s, opts %s\n",
                static_cast<long long>(n), (*dev)->gpu()->name.c_str(), s.time_s * 1e6, s.noopt_s * 1e6,
                s.heuristic_s * 1e6, static_cast<long long>(s.candidates), static_cast<long long>(s.timed),
                s.search_wall_s, OptsText(s.opts).c_str());
    EXPECT_GT(s.timed, 0);
    EXPECT_TRUE(std::isfinite(s.time_s));
    EXPECT_LT(s.time_s, s.noopt_s) << "a search on a GPU beats one thread per output element";
    bool gpu_opts = false;
    for (const Opt& o : s.opts)
      gpu_opts |= o.op == OptOps::LOCAL || o.op == OptOps::GROUP || o.op == OptOps::GROUPTOP || o.op == OptOps::TC;
    EXPECT_TRUE(gpu_opts) << "the winner uses the GPU's locals: " << OptsText(s.opts);
    for (const std::string& e : s.first_error)
      if (!e.empty()) std::printf("  a failure seen: %s\n", e.c_str());
  }
}

TEST(CudaBeamTest, ARealizeWithTheTunerInstalledComputesTheRightAnswer) {
  absl::StatusOr<Device*> dev = Gpu();
  if (!dev.ok()) GTEST_SKIP() << "no CUDA device here: " << dev.status();
  std::unique_ptr<Tuner> tuner = MakeTuner();
  ASSERT_NE(tuner, nullptr);
  Config c = GetConfig();
  c.beam = 2;
  ScopedConfig scoped(c);
  SetKernelOptChooser(tuner.get());
  std::vector<float> a(128 * 96), b(96 * 64);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>((i * 37) % 17) / 8.0f - 1.0f;
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>((i * 11) % 13) / 6.0f - 1.0f;
  absl::StatusOr<std::vector<float>> gpu =
      Tensor::FromVector<float>(a, {128, 96}, "CUDA").matmul(Tensor::FromVector<float>(b, {96, 64}, "CUDA")).to_vector<float>();
  SetKernelOptChooser(nullptr);
  ASSERT_TRUE(gpu.ok()) << gpu.status();
  // the answer, in plain loops on the host (no CPU device needed: the GPU bundle has no compiler)
  ASSERT_EQ(gpu->size(), size_t{128 * 64});
  for (int i = 0; i < 128; ++i)
    for (int j = 0; j < 64; ++j) {
      double want = 0;
      for (int k = 0; k < 96; ++k) want += double{a[i * 96 + k]} * b[k * 64 + j];
      ASSERT_NEAR((*gpu)[i * 64 + j], want, 1e-3 + 1e-4 * std::abs(want)) << i << "," << j;
    }
}

}  // namespace
}  // namespace tg::autotune
