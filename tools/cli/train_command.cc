// File: tools/cli/train_command.cc
#include "tools/cli/train_command.h"

#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "autotune/tuner.h"
#include "tinygrad/base/clock.h"
#include "tinygrad/base/config.h"
#include "tinygrad/base/device_name.h"
#include "tinygrad/codegen/codegen_options.h"
#include "tinygrad/codegen/opt/opt.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/engine/engine_stats.h"
#include "tinygrad/engine/opt_chooser.h"
#include "tinygrad/nn/datasets.h"
#include "tinygrad/nn/module.h"
#include "tinygrad/nn/optim.h"
#include "tinygrad/nn/state.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/train/classifiers.h"
#include "tinygrad/train/trainer.h"
#include "tools/cli/command_line.h"
#include "tools/cli/counting_chooser.h"
#include "tools/cli/progress_line.h"

namespace tg {
namespace {

constexpr char kDescription[] =
    "Trains an image classifier on Fashion-MNIST with Adam under TinyJit, as tinygrad's\n"
    "beautiful_mnist does, the learning rate decaying linearly to 0: random batches from the seeded generator, a line\n"
    "with step, loss and steps/s (in place on a terminal), then the test-set accuracy, and the\n"
    "weights saved as safetensors. The dataset is Debian's dataset-fashion-mnist (tools/bootstrap\n"
    "installs it), or --data DIR, or $TG_FASHION_MNIST_DIR. Kernels tuned before (tg tune\n"
    "train_mlp, tg tune train_cnn) run with their tuned opts; --beam N (or BEAM=N) tunes the others first,\n"
    "JITBEAM=N only the training step's.";

struct TrainFlags {
  std::string dataset;
  std::string model = "mlp";
  // Defaults that reach the targets (MLP >= 85%, CNN >= 88% test accuracy) in a few minutes
  // on two CPU cores; README's "Training" section has the measured numbers.
  int64_t steps = 2000;
  int64_t batch = 128;
  double lr = 3e-3;
  uint64_t seed = 42;
  std::string out;    // empty: fashion_mnist_<model>.safetensors
  std::string data_dir = DefaultFashionMnistDir();
  bool no_jit = false;
  std::vector<std::string> devices;  // empty: the default device
};

int Fail(const std::string& message) {
  std::fprintf(stderr, "tg train: %s\n", message.c_str());
  return kExitFailed;
}

// How often a progress update is shown: every step in place, 20 lines in all into a pipe.
int64_t UpdateEvery(bool in_place, int64_t steps) { return in_place ? 1 : std::max<int64_t>(1, steps / 20); }

int Train(const TrainFlags& f, const CountingChooser* chooser) {
  absl::StatusOr<FashionMnist> data = LoadFashionMnist(f.data_dir);
  if (!data.ok()) return Fail(std::string(data.status().message()));
  absl::StatusOr<train::LabeledImages> train_set = train::LabeledImages::FromTensors(data->x_train, data->y_train);
  if (!train_set.ok()) return Fail("training set: " + std::string(train_set.status().message()));
  absl::StatusOr<train::LabeledImages> test_set = train::LabeledImages::FromTensors(data->x_test, data->y_test);
  if (!test_set.ok()) return Fail("test set: " + std::string(test_set.status().message()));
  data = absl::CancelledError("copied to host memory");  // drop the device copies

  // Data parallelism over several devices: the weights on each, every batch split among them.
  std::vector<std::string> devices;
  for (const std::string& d :
       f.devices.empty() ? std::vector<std::string>{DefaultDevice()} : f.devices) {
    devices.push_back(CanonicalDeviceName(d));
    if (absl::StatusOr<Device*> dev = GetDevice(devices.back()); !dev.ok()) {
      return Fail(absl::StrCat("device ", devices.back(), ": ", dev.status().message()));
    }
  }
  if (f.batch % static_cast<int64_t>(devices.size()) != 0) {
    return Fail(absl::StrCat("--batch ", f.batch, " does not split evenly among ", devices.size(),
                             " devices"));
  }
  const std::string device = devices.size() == 1 ? devices[0] : MultiDeviceName(devices);

  Tensor::ManualSeed(f.seed);  // the reference's initial weights for the same seed
  std::unique_ptr<train::Classifier> model = train::MakeClassifier(f.model);
  if (absl::Status s = train::PlaceModel(*model, devices); !s.ok())
    return Fail(std::string(s.message()));
  absl::StatusOr<std::unique_ptr<Optimizer>> opt = Adam(nn::GetParameters(*model), {.lr = f.lr});
  if (!opt.ok()) return Fail(std::string(opt.status().message()));
  std::printf(
      "fashion_mnist: model %s, %lld training images, batch %lld, %lld steps%s, Adam lr %g "
      "decaying linearly to 0, seed %llu, %s %s\n",
      f.model.c_str(), static_cast<long long>(train_set->n), static_cast<long long>(f.batch),
      static_cast<long long>(f.steps), f.no_jit ? " without TinyJit" : " under TinyJit", f.lr,
      static_cast<unsigned long long>(f.seed), devices.size() == 1 ? "on" : "data-parallel on",
      device.c_str());
  std::fflush(stdout);

  // The first step then runs the kernels every later step runs (the ones tg tune train_mlp tunes).
  if (absl::Status s = train::RealizeTrainingState(**opt); !s.ok()) {
    return Fail("initializing the weights: " + std::string(s.message()));
  }
  train::BatchSampler sampler(*train_set);
  // tinygrad's @TinyJit train_step: from the third step on, the captured kernels are replayed.
  train::JitTrainStep jitted(*model, **opt);
  auto train_step = [&](const train::Batch& b) {
    return f.no_jit ? train::TrainStep(*model, **opt, b.x, b.y) : jitted(b.x, b.y);
  };
  ProgressLine progress(stdout, ProgressLine::IsTerminal(stdout));
  const int64_t every = UpdateEvery(progress.in_place(), f.steps);
  const int64_t chosen_failed_before = GetEngineStats().chosen_opts_failed;
  // Speeds leave out the first step, which compiles the kernels.
  const auto start = std::chrono::steady_clock::now();
  auto after_first = start;
  float first_loss = 0, loss = 0;
  for (int64_t step = 1; step <= f.steps; ++step) {
    // Every 10 steps, so the copy it costs stays out of most steps.
    if ((step - 1) % 10 == 0) {
      if (absl::Status s = train::SetLearningRate(**opt, train::LinearDecay(f.lr, step - 1, f.steps)); !s.ok()) {
        progress.Finish();
        return Fail(absl::StrCat("step ", step, ": setting the learning rate: ", s.message()));
      }
    }
    train::Batch b = sampler.Next(f.batch, device);
    absl::StatusOr<float> l = train_step(b);
    if (!l.ok()) {
      progress.Finish();
      return Fail(absl::StrCat("step ", step, ": ", l.status().message()));
    }
    loss = *l;
    if (step == 1) {
      first_loss = loss;
      after_first = std::chrono::steady_clock::now();
    }
    if (step % every == 0 || step == f.steps) {
      std::string text = absl::StrFormat("step %lld/%lld  loss %.4f", static_cast<long long>(step),
                                         static_cast<long long>(f.steps), loss);
      if (step > 1) absl::StrAppendFormat(&text, "  %.1f steps/s", (step - 1) / SecondsSince(after_first));
      progress.Update(text);
    }
  }
  progress.Finish();
  const double first_s = std::chrono::duration<double>(after_first - start).count();
  const double rest_s = SecondsSince(after_first);
  std::printf("trained: %lld steps in %.1f s (first step %.2f s with compiling, then %.2f ms/step), "
              "loss %.4f -> %.4f\n",
              static_cast<long long>(f.steps), first_s + rest_s, first_s,
              f.steps > 1 ? 1e3 * rest_s / static_cast<double>(f.steps - 1) : 0.0, first_loss, loss);
  if (chooser != nullptr) {
    // The chooser counts what it answered; the engine, what of it did not work (and warned).
    const int64_t failed = GetEngineStats().chosen_opts_failed - chosen_failed_before;
    std::printf("kernels: %d compiled, %lld with tuned opts (tuning database or --beam)%s\n", chooser->asked(),
                static_cast<long long>(chooser->tuned() - failed),
                failed > 0 ? absl::StrFormat(", %lld whose tuned opts did not work", static_cast<long long>(failed)).c_str()
                           : "");
  }
  std::fflush(stdout);

  const auto eval_start = std::chrono::steady_clock::now();
  absl::StatusOr<double> accuracy = train::Accuracy(*model, *test_set, 1000, device);
  if (!accuracy.ok()) return Fail("evaluation: " + std::string(accuracy.status().message()));
  std::printf("test accuracy: %.2f%% of %lld images (%.1f s)\n", *accuracy,
              static_cast<long long>(test_set->n), SecondsSince(eval_start));

  const std::string out = f.out.empty() ? "fashion_mnist_" + f.model + ".safetensors" : f.out;
  std::map<std::string, std::string> metadata = {
      {"dataset", "fashion_mnist"}, {"model", f.model}, {"steps", std::to_string(f.steps)},
      {"seed", std::to_string(f.seed)}, {"test_accuracy", absl::StrFormat("%.2f", *accuracy)}};
  if (absl::Status s = SafeSave(out, nn::GetStateDict(*model), metadata); !s.ok()) {
    return Fail("saving the weights: " + std::string(s.message()));
  }
  std::printf("saved weights to %s\n", out.c_str());
  return kExitOk;
}

}  // namespace

int TrainCommand(std::span<const std::string_view> args) {
  CLI::App app(kDescription, "tg train");
  SetUpCommandApp(app);
  TrainFlags f;
  Config config = GetConfig();
  app.add_option("DATASET", f.dataset, "the dataset: fashion_mnist")
      ->required()
      ->check(CLI::IsMember({"fashion_mnist"}));
  const std::vector<std::string> models(train::ClassifierNames().begin(), train::ClassifierNames().end());
  app.add_option("--model", f.model, "the model: " + absl::StrJoin(models, ", "))
      ->capture_default_str()
      ->check(CLI::IsMember(models));
  app.add_option("--steps", f.steps, "training steps")->capture_default_str()->check(IntAtLeast(1));
  app.add_option("--batch", f.batch, "images per step")->capture_default_str()->check(IntAtLeast(1));
  app.add_option("--lr", f.lr, "Adam's learning rate at the start (it decays linearly to 0)")->capture_default_str()->check(PositiveNumber());
  app.add_option("--seed", f.seed, "seeds the initial weights and the batches")->capture_default_str();
  app.add_option("--out", f.out, "where to save the weights (default: fashion_mnist_<model>.safetensors)");
  app.add_option("--data", f.data_dir, "the directory of the four Fashion-MNIST IDX files")
      ->capture_default_str();
  app.add_option(
         "--devices", f.devices,
         "train data-parallel on these devices (comma-separated, e.g. CUDA:0,CUDA:1): the weights "
         "copied to each, every batch split evenly among them (default: the default device)")
      ->delimiter(',');
  app.add_flag("--no-jit", f.no_jit, "schedule every step (by default, steps after the second replay the captured kernels)");
  app.add_option("--beam", config.beam, "BEAM width to tune kernels not in the database (as BEAM=N)")
      ->capture_default_str()
      ->check(IntAtLeast(0));
  if (std::optional<int> rc = ParseCommandLine(app, args)) return *rc;

  ScopedConfig scoped(config);
  // Tuned opts from the database (BEAM=0: lookup only), or BEAM search for kernels not in it.
  std::unique_ptr<autotune::Tuner> tuner;
  std::unique_ptr<CountingChooser> counting;
  if (!config.noopt) {
    absl::StatusOr<std::unique_ptr<autotune::Tuner>> t =
        autotune::Tuner::Create(autotune::TunerOptions::FromConfig(config));
    if (!t.ok()) return Fail(t.status().ToString());
    tuner = *std::move(t);
    counting = std::make_unique<CountingChooser>(*tuner);
    SetKernelOptChooser(counting.get());
  }
  int rc = Train(f, counting.get());
  SetKernelOptChooser(nullptr);
  return rc;
}

}  // namespace tg
