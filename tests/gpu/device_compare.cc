// File: tests/gpu/device_compare.cc
// Checks a device's numbers against another device's: a suite of Tensor programs (elementwise,
// transcendentals, reductions, movement, casts, matmul, conv2d, pooling, softmax, layernorm-like
// chains, a backward pass, and a few Adam steps of tg train's models under TinyJit) run on
// deterministic inputs, and tensor-core matmuls in half and bfloat16 against a float64 product
// computed here on the host.
//
//   device_compare record FILE [--device CPU]   the suite's outputs, written to FILE
//   device_compare check FILE --device CUDA [--only P,P]
//                                               the suite (or the programs named) on CUDA
//                                               against FILE, a line each
//   device_compare tc --device CUDA [--n 1024] [--dtypes half,bfloat16]
//                                               half and bfloat16 matmuls against float64
//                                               (the PTX renderer has no bfloat16, as the
//                                               reference's: --dtypes half there)
//
// The GPU check (tools/gpu_check) records on this machine's CPU, carries the file, and checks on
// the GPU machine, which needs no CPU compiler for it. Each output is compared by
// ||out - ref|| / ||ref|| (NaN never passes) against a bound set per program: float32 arithmetic
// lands far below 1e-5, approximated transcendentals near 1e-6, half and bfloat16 near their
// precision. Exit status: 0 all within bounds, 1 some not, 2 usage or a program that failed.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "tests/gpu/exact_inputs.h"
#include "tests/gpu/op_cases.h"
#include "tinygrad/nn/module.h"
#include "tinygrad/nn/optim.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/train/classifiers.h"
#include "tinygrad/train/trainer.h"

namespace tg {
namespace {

Tensor Input(const std::vector<int64_t>& shape, uint32_t seed, const std::string& device) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return Tensor::FromVector<float>(ExactInputs(n, seed), shape, device);
}

struct Program {
  std::string name;
  double bound;  // of ||out - ref|| / ||ref||
  std::function<Tensor(const std::string& device)> build;
};

// The default device set for a scope: a model's weights and an optimizer's state are made there.
class ScopedDefaultDevice {
 public:
  explicit ScopedDefaultDevice(const std::string& device) : before_(DefaultDevice()) { SetDefaultDevice(device); }
  ~ScopedDefaultDevice() { SetDefaultDevice(before_); }
  ScopedDefaultDevice(const ScopedDefaultDevice&) = delete;
  ScopedDefaultDevice& operator=(const ScopedDefaultDevice&) = delete;

 private:
  std::string before_;
};

// A tensor's values, summarized for a record line: their mean, their root mean square and every
// 97th value (a weight of the MLP has 100,352 values; the record stays small). Means, not sums:
// the relative error of a program's line should weigh each parameter's values as the losses.
void AppendSummary(const std::vector<float>& v, std::vector<float>& out) {
  double sum = 0, squares = 0;
  for (float x : v) {
    sum += x;
    squares += static_cast<double>(x) * x;
  }
  const double n = v.empty() ? 1.0 : static_cast<double>(v.size());
  out.push_back(static_cast<float>(sum / n));
  out.push_back(static_cast<float>(std::sqrt(squares / n)));
  for (size_t i = 0; i < v.size(); i += 97) out.push_back(v[i]);
}

// `steps` Adam steps of tg train's model `name` (tinygrad/train) on `device` under TinyJit (the
// third step on replays the captured kernels), from weights and a batch made on the host, so
// both devices start from the same bits: the losses, then each parameter after the steps
// (AppendSummary). A failure is an errored tensor.
Tensor Training(const std::string& name, const std::string& device, int steps) {
  ScopedDefaultDevice on(device);
  std::unique_ptr<train::Classifier> model = train::MakeClassifier(name);
  std::vector<Tensor> params = nn::GetParameters(*model);
  uint32_t seed = 40;
  for (const Tensor& p : params) {
    if (!p.ok()) return p;  // e.g. the device does not open
    // ExactInputs' [-1, 1) scaled by 1/16: small weights, every value exact
    std::vector<float> w = ExactInputs(p.numel(), seed++);
    for (float& x : w) x /= 16;
    if (absl::Status s = p.assign(Tensor::FromVector<float>(w, p.shape(), device)).realize(); !s.ok())
      return Tensor::Error(s);
  }
  absl::StatusOr<std::unique_ptr<Optimizer>> opt = Adam(params, {.lr = 1e-3});
  if (!opt.ok()) return Tensor::Error(opt.status());
  constexpr int64_t kBatch = 16;
  std::vector<float> pixels = ExactInputs(kBatch * train::kImageSide * train::kImageSide, 30);
  for (float& x : pixels) x = (x + 1) / 2;  // [0, 1), as tg train's images
  std::vector<int32_t> labels(kBatch);
  for (int64_t i = 0; i < kBatch; ++i) labels[static_cast<size_t>(i)] = static_cast<int32_t>((i * 7) % train::kClasses);
  const Tensor x = Tensor::FromVector<float>(pixels, {kBatch, 1, train::kImageSide, train::kImageSide}, device);
  const Tensor y = Tensor::FromVector<int32_t>(labels, {kBatch}, device);
  train::JitTrainStep step(*model, **opt);
  std::vector<float> out;
  for (int i = 0; i < steps; ++i) {
    absl::StatusOr<float> loss = step(x, y);
    if (!loss.ok()) return Tensor::Error(loss.status());
    out.push_back(*loss);
  }
  for (const Tensor& p : params) {
    absl::StatusOr<std::vector<float>> v = p.to_vector<float>();
    if (!v.ok()) return Tensor::Error(v.status());
    AppendSummary(*v, out);
  }
  return Tensor::FromVector<float>(out, {static_cast<int64_t>(out.size())}, device);
}

std::vector<Program> Suite() {
  auto in = Input;
  return {
      {"add_mul", 1e-6,
       [=](const std::string& d) {
         return in({64, 64}, 1, d) * in({64, 64}, 2, d) + 0.5;
       }},
      {"broadcast", 1e-6,
       [=](const std::string& d) {
         return in({64, 1}, 3, d) - in({1, 64}, 4, d);
       }},
      {"div_where", 1e-6,
       [=](const std::string& d) {
         Tensor a = in({4096}, 5, d), b = in({4096}, 6, d);
         return (a > 0).where(a.div(b.abs() + 1), b);
       }},
      {"exp_log", 1e-5, [=](const std::string& d) { return (in({4096}, 7, d).exp() + 1).log(); }},
      {"sin_sqrt", 1e-5,
       [=](const std::string& d) {
         return in({4096}, 8, d).sin() + (in({4096}, 9, d).abs()).sqrt();
       }},
      {"sigmoid_tanh_gelu", 1e-5,
       [=](const std::string& d) {
         Tensor a = in({2048}, 10, d);
         return a.sigmoid() + a.tanh() + a.gelu();
       }},
      {"sum_rows", 1e-5,
       [=](const std::string& d) {
         return in({256, 300}, 11, d).sum(1);
       }},
      {"sum_all", 1e-5, [=](const std::string& d) { return in({1 << 16}, 12, d).sum(); }},
      {"max_mean", 1e-6,
       [=](const std::string& d) {
         Tensor a = in({128, 96}, 13, d);
         return a.max(0) + a.mean(0);
       }},
      {"argmax", 0,
       [=](const std::string& d) {
         return in({64, 333}, 14, d).argmax(1);
       }},
      {"cumsum", 1e-5, [=](const std::string& d) { return in({512}, 15, d).cumsum(0); }},
      {"permute_pad_shrink", 0,
       [=](const std::string& d) {
         return in({8, 16, 24}, 16, d)
             .permute({2, 0, 1})
             .pad({{1, 2}, {0, 0}, {3, 0}})
             .shrink({{0, 20}, {2, 8}, {1, 10}});
       }},
      {"flip_cat", 0,
       [=](const std::string& d) {
         return in({32, 32}, 17, d).flip(1).cat({in({32, 32}, 18, d)}, 0);
       }},
      {"cast_int_half", 1e-3,
       [=](const std::string& d) {
         Tensor a = in({1024}, 19, d) * 100;
         return a.cast(dtypes::int32).cast(dtypes::float32) +
                a.cast(dtypes::float16).cast(dtypes::float32);
       }},
      {"matmul_f32", 1e-5,
       [=](const std::string& d) {
         return in({96, 200}, 20, d).matmul(in({200, 72}, 21, d));
       }},
      {"matmul_f32_big", 1e-5,
       [=](const std::string& d) {
         return in({512, 512}, 22, d).matmul(in({512, 512}, 23, d));
       }},
      {"conv2d", 1e-5,
       [=](const std::string& d) {
         return in({2, 8, 20, 20}, 24, d)
             .conv2d(in({16, 8, 3, 3}, 25, d), std::nullopt, {.padding = {1}});
       }},
      {"pools", 1e-6,
       [=](const std::string& d) {
         Tensor a = in({2, 4, 16, 16}, 26, d);
         return a.max_pool2d() + a.avg_pool2d();
       }},
      {"softmax", 1e-5,
       [=](const std::string& d) {
         return in({64, 1000}, 27, d).softmax(1);
       }},
      {"log_softmax", 1e-5,
       [=](const std::string& d) {
         return in({64, 1000}, 28, d).log_softmax(1);
       }},
      {"norm_chain", 1e-5,
       [=](const std::string& d) {
         Tensor x = in({32, 256}, 29, d);
         Tensor c = x - x.mean(1, true);
         return c.div((c * c).mean(1, true).add(1e-5).sqrt()).relu();
       }},
      // the gradients of a conv -> relu -> max_pool -> matmul -> log_softmax loss (op_cases.h)
      {"backward_conv_pool", 1e-5,
       [=](const std::string& d) {
         return ConvPoolGradients(in({2, 3, 12, 12}, 30, d), in({8, 3, 3, 3}, 31, d), in({8 * 5 * 5, 10}, 32, d));
       }},
      // Adam steps from the same start. The devices' roundings drift apart a little each step
      // (the UOp emulator, lowering for CUDA: 6e-9 and 7e-8), and Adam's first update is lr times the
      // gradient's sign, so a gradient near 0 that rounds to the other sign moves its weight by
      // 2 lr: one such weight among the sampled is 4e-4 of a line. A wrong gradient moves the
      // losses: 1% of one loss is 5e-3.
      {"train_mlp", 1e-3, [](const std::string& d) { return Training("mlp", d, 4); }},
      {"train_cnn", 1e-3, [](const std::string& d) { return Training("cnn", d, 4); }},
  };
}

absl::StatusOr<std::vector<double>> Run(const Program& p, const std::string& device) {
  Tensor t = p.build(device);
  if (!t.ok()) return t.status();
  return t.cast(dtypes::float64).to_vector<double>();
}

double RelativeError(const std::vector<double>& got, const std::vector<double>& want) {
  if (got.size() != want.size()) return INFINITY;
  double num = 0, den = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(got[i]) != std::isnan(want[i])) return INFINITY;
    num += (got[i] - want[i]) * (got[i] - want[i]);
    den += want[i] * want[i];
  }
  if (std::isnan(num)) return INFINITY;
  return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

int Record(const std::string& file, const std::string& device) {
  std::ofstream out(file);
  if (!out) {
    std::fprintf(stderr, "device_compare: cannot write %s\n", file.c_str());
    return 2;
  }
  out << "# device_compare outputs on " << device << "\n";
  for (const Program& p : Suite()) {
    absl::StatusOr<std::vector<double>> v = Run(p, device);
    if (!v.ok()) {
      std::fprintf(stderr, "device_compare: %s on %s: %s\n", p.name.c_str(), device.c_str(),
                   v.status().ToString().c_str());
      return 2;
    }
    out << p.name << " " << v->size();
    char buf[32];
    for (double x : *v) {
      std::snprintf(buf, sizeof(buf), " %.17g", x);
      out << buf;
    }
    out << "\n";
  }
  return out.good() ? 0 : 2;
}

// The suite, or the programs `only` names (comma-separated; "": all). InvalidArgument naming an
// unknown one.
absl::StatusOr<std::vector<Program>> Selected(const std::string& only) {
  std::vector<Program> all = Suite();
  if (only.empty()) return all;
  std::vector<Program> picked;
  for (absl::string_view name : absl::StrSplit(only, ',')) {
    auto it = std::find_if(all.begin(), all.end(), [&](const Program& p) { return p.name == name; });
    if (it == all.end())
      return absl::InvalidArgumentError(absl::StrCat("--only: no program '", name, "' in the suite"));
    picked.push_back(*it);
  }
  return picked;
}

int Check(const std::string& file, const std::string& device, const std::string& only) {
  absl::StatusOr<std::vector<Program>> programs = Selected(only);
  if (!programs.ok()) {
    std::fprintf(stderr, "device_compare: %s\n", std::string(programs.status().message()).c_str());
    return 2;
  }
  std::ifstream in(file);
  if (!in) {
    std::fprintf(stderr, "device_compare: cannot read %s\n", file.c_str());
    return 2;
  }
  std::map<std::string, std::vector<double>> ref;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    std::string name;
    size_t n = 0;
    ls >> name >> n;
    std::vector<double> v(n);
    for (double& x : v) ls >> x;
    if (!ls) {
      std::fprintf(stderr, "device_compare: %s: the line of %s is cut short\n", file.c_str(),
                   name.c_str());
      return 2;
    }
    ref[name] = std::move(v);
  }
  int bad = 0;
  for (const Program& p : *programs) {
    auto it = ref.find(p.name);
    if (it == ref.end()) {
      std::printf("%-20s MISSING from %s\n", p.name.c_str(), file.c_str());
      ++bad;
      continue;
    }
    absl::StatusOr<std::vector<double>> v = Run(p, device);
    if (!v.ok()) {
      std::printf("%-20s ERROR %s\n", p.name.c_str(), v.status().ToString().c_str());
      ++bad;
      continue;
    }
    const double err = RelativeError(*v, it->second);
    const bool ok = err <= p.bound;
    std::printf("%-20s %s rel err %.3g (bound %.0e, %zu values)\n", p.name.c_str(),
                ok ? "ok  " : "FAIL", err, p.bound, v->size());
    bad += ok ? 0 : 1;
  }
  std::printf("device_compare: %d of %zu programs outside their bound on %s\n", bad, programs->size(),
              device.c_str());
  return bad == 0 ? 0 : 1;
}

// half and/or bfloat16 matmuls (tensor cores where the device has them) against float64.
int TensorCores(const std::string& device, int64_t n, bool half, bool bfloat16) {
  const std::vector<float> a = ExactInputs(n * n, 101), b = ExactInputs(n * n, 102);
  std::vector<double> want(static_cast<size_t>(n * n));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = 0; k < n; ++k) {
      const double aik = a[static_cast<size_t>(i * n + k)];
      for (int64_t j = 0; j < n; ++j)
        want[static_cast<size_t>(i * n + j)] += aik * b[static_cast<size_t>(k * n + j)];
    }
  int bad = 0;
  // The inputs are exact in both types and the products accumulate in float32: what is left
  // is the output's rounding (half: 2^-11, bfloat16: 2^-8 relative).
  for (auto [dt, bound] : {std::pair{dtypes::float16, 1e-3}, std::pair{dtypes::bfloat16, 8e-3}}) {
    if (!(dt == dtypes::float16 ? half : bfloat16)) continue;
    Tensor ta = Tensor::FromVector<float>(a, {n, n}, device).cast(dt);
    Tensor tb = Tensor::FromVector<float>(b, {n, n}, device).cast(dt);
    absl::StatusOr<std::vector<double>> got =
        ta.matmul(tb).cast(dtypes::float64).to_vector<double>();
    if (!got.ok()) {
      std::printf("tc matmul %lld %-8s ERROR %s\n", static_cast<long long>(n), dt.repr().c_str(),
                  got.status().ToString().c_str());
      ++bad;
      continue;
    }
    const double err = RelativeError(*got, want);
    const bool ok = err <= bound;
    std::printf("tc matmul %lld %-8s %s rel err %.3g (bound %.0e)\n", static_cast<long long>(n),
                dt.repr().c_str(), ok ? "ok  " : "FAIL", err, bound);
    bad += ok ? 0 : 1;
  }
  return bad == 0 ? 0 : 1;
}

int Usage() {
  std::fprintf(stderr,
               "usage: device_compare record FILE [--device D] | check FILE --device D [--only P,P] |\n"
               "       tc --device D [--n N] [--dtypes half,bfloat16]\n");
  return 2;
}

int Main(int argc, char** argv) {
  if (argc < 2) return Usage();
  const std::string_view mode = argv[1];
  std::string file, device = "CPU", only;
  int64_t n = 1024;
  bool half = true, bfloat16 = true;  // tc's dtypes
  int i = 2;
  if (mode == "record" || mode == "check") {
    if (argc < 3) return Usage();
    file = argv[i++];
  } else if (mode != "tc") {
    return Usage();
  }
  for (; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--device" && i + 1 < argc) {
      device = argv[++i];
    } else if (a == "--only" && mode == "check" && i + 1 < argc) {
      only = argv[++i];
    } else if (a == "--n" && i + 1 < argc && absl::SimpleAtoi(argv[i + 1], &n) && n > 0 &&
               n <= 8192) {
      ++i;
    } else if (a == "--dtypes" && i + 1 < argc) {
      const std::string_view list = argv[++i];
      half = list == "half" || list == "half,bfloat16" || list == "bfloat16,half";
      bfloat16 = list == "bfloat16" || list == "half,bfloat16" || list == "bfloat16,half";
      if (!half && !bfloat16) {
        std::fprintf(
            stderr, "device_compare: --dtypes '%s': want half, bfloat16 or both, comma-separated\n",
            argv[i]);
        return Usage();
      }
    } else {
      std::fprintf(stderr, "device_compare: bad argument '%s'\n", argv[i]);
      return Usage();
    }
  }
  if (mode == "record") return Record(file, device);
  if (mode == "check") return Check(file, device, only);
  return TensorCores(device, n, half, bfloat16);
}

}  // namespace
}  // namespace tg

int main(int argc, char** argv) {
  // a line at a time into a pipe too: a run cut short by its time limit keeps what it printed
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  return tg::Main(argc, argv);
}
