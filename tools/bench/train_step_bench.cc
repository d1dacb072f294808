// File: tools/bench/train_step_bench.cc
// Times one training step of tg train's models on random data (no dataset needed), for
// tools/bench/train_bench.sh: the step under TinyJit (train::JitTrainStep: replays from the
// third call) and without it (train::TrainStep: scheduled every call), each the median of
// --steps timed calls after --warmup untimed ones. Kernels take their opts from the tuning
// database when it has them (as tg train does; TG_CACHE_DIR picks the database), else the
// heuristic; --beam N tunes the missing ones first (BEAM search, stored in the database).
// Prints one JSON object, with how many of the step's kernels were compiled and how many of
// them had tuned opts.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/strings/str_format.h"
#include "autotune/tuner.h"
#include "tinygrad/base/config.h"
#include "tinygrad/engine/opt_chooser.h"
#include "tinygrad/engine/engine_stats.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/nn/module.h"
#include "tinygrad/nn/optim.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/train/classifiers.h"
#include "tinygrad/train/trainer.h"
#include "tools/cli/counting_chooser.h"

namespace tg {
namespace {

struct Flags {
  std::string model = "mlp";
  int64_t batch = 128;
  int warmup = 5;
  int steps = 30;
  int beam = 0;
  bool eager = true;
};

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct Timing {
  double ms = -1;       // the median; -1 after an error
  double kernels = 0;   // kernels run per timed step
};

// Runs `step` warmup times, then times `steps` calls.
template <typename Step>
Timing Time(int warmup, int steps, Step step) {
  for (int i = 0; i < warmup; ++i) {
    if (!step()) return {};
  }
  const int64_t kernels_before = GetEngineStats().kernel_count;
  std::vector<double> ms;
  for (int i = 0; i < steps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    if (!step()) return {};
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return {Median(ms), static_cast<double>(GetEngineStats().kernel_count - kernels_before) / steps};
}

int Run(const Flags& f, const CountingChooser& chooser) {
  Tensor::ManualSeed(1);
  std::unique_ptr<train::Classifier> model = train::MakeClassifier(f.model);
  if (model == nullptr) {
    std::fprintf(stderr, "train_step_bench: unknown model %s\n", f.model.c_str());
    return 1;
  }
  absl::StatusOr<std::unique_ptr<Optimizer>> opt = Adam(nn::GetParameters(*model), {.lr = 1e-3});
  if (!opt.ok()) {
    std::fprintf(stderr, "train_step_bench: %s\n", opt.status().ToString().c_str());
    return 1;
  }
  // One random batch, as the reference side's: the timing does not depend on the values.
  Tensor x = Tensor::Rand({f.batch, 1, train::kImageSide, train::kImageSide}).contiguous();
  Tensor y = Tensor::Randint({f.batch}, 0, train::kClasses).contiguous();
  // The initial weights and Adam's state realized first, as tg train does, so that the first
  // step compiles the kernels every step runs (those tg tune train_mlp tunes).
  absl::Status s = train::RealizeTrainingState(**opt);
  if (s.ok()) s = Realize(std::vector<Tensor>{x, y});
  if (!s.ok()) {
    std::fprintf(stderr, "train_step_bench: %s\n", s.ToString().c_str());
    return 1;
  }
  // Counted from here: the step's kernels, not the random initial weights' and batch's.
  const int asked_before = chooser.asked(), tuned_before = chooser.tuned();
  auto report = [](const char* what, const absl::StatusOr<float>& loss) {
    if (!loss.ok()) std::fprintf(stderr, "train_step_bench: %s step: %s\n", what, loss.status().ToString().c_str());
    return loss.ok();
  };
  train::JitTrainStep jitted(*model, **opt);
  // The first two calls run the step as TrainStep does (the second captures it): replays after.
  const Timing jit = Time(std::max(f.warmup, 2), f.steps, [&] { return report("jit", jitted(x, y)); });
  Timing eager{.ms = 0};
  if (f.eager) {
    eager = Time(f.warmup, f.steps, [&] { return report("eager", train::TrainStep(*model, **opt, x, y)); });
  }
  if (jit.ms < 0 || eager.ms < 0) return 1;
  std::printf("%s\n", absl::StrFormat(R"({"side": "ours", "model": "%s", "batch": %d, "beam": %d, )"
                                      R"("jit_ms": %.4f, "eager_ms": %.4f, "kernels_per_step": %.0f, )"
                                      R"("kernels_compiled": %d, "kernels_tuned": %d})",
                                      f.model, f.batch, f.beam, jit.ms, eager.ms, jit.kernels,
                                      chooser.asked() - asked_before, chooser.tuned() - tuned_before)
                          .c_str());
  return 0;
}

}  // namespace
}  // namespace tg

int main(int argc, char** argv) {
  tg::Flags f;
  CLI::App app("Times tg train's training step on random data (tools/bench/train_bench.sh)");
  app.add_option("--model", f.model, "mlp or cnn")->capture_default_str();
  app.add_option("--batch", f.batch, "images per step")->capture_default_str()->check(CLI::Range(1, 1 << 16));
  app.add_option("--warmup", f.warmup, "untimed steps first")->capture_default_str()->check(CLI::Range(0, 1000));
  app.add_option("--steps", f.steps, "timed steps (the median is shown)")->capture_default_str()->check(CLI::Range(1, 100000));
  app.add_option("--beam", f.beam, "BEAM width for kernels the database lacks (0: lookup only)")
      ->capture_default_str()
      ->check(CLI::Range(0, 64));
  app.add_flag("!--no-eager", f.eager, "skip the step without TinyJit");
  CLI11_PARSE(app, argc, argv);

  tg::Config config = tg::GetConfig();
  config.beam = f.beam;
  tg::ScopedConfig scoped(config);
  absl::StatusOr<std::unique_ptr<tg::autotune::Tuner>> tuner =
      tg::autotune::Tuner::Create(tg::autotune::TunerOptions::FromConfig(config));
  if (!tuner.ok()) {
    std::fprintf(stderr, "train_step_bench: %s\n", tuner.status().ToString().c_str());
    return 1;
  }
  tg::CountingChooser counting(**tuner);
  tg::SetKernelOptChooser(&counting);
  int rc = tg::Run(f, counting);
  tg::SetKernelOptChooser(nullptr);
  return rc;
}
