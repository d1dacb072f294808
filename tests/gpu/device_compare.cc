// File: tests/gpu/device_compare.cc
// Checks a device's numbers against another device's: a suite of Tensor programs (elementwise,
// transcendentals, reductions, movement, casts, matmul, conv2d, pooling, softmax, layernorm-like
// chains) run on deterministic inputs, and tensor-core matmuls in half and bfloat16 against a
// float64 product computed here on the host.
//
//   device_compare record FILE [--device CPU]   the suite's outputs, written to FILE
//   device_compare check FILE --device CUDA     the suite on CUDA against FILE, a line each
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
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "tests/gpu/exact_inputs.h"
#include "tinygrad/tensor/tensor.h"

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

int Check(const std::string& file, const std::string& device) {
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
  for (const Program& p : Suite()) {
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
  std::printf("device_compare: %d of %zu programs outside their bound on %s\n", bad, Suite().size(),
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
               "usage: device_compare record FILE [--device D] | check FILE --device D |\n"
               "       tc --device D [--n N] [--dtypes half,bfloat16]\n");
  return 2;
}

int Main(int argc, char** argv) {
  if (argc < 2) return Usage();
  const std::string_view mode = argv[1];
  std::string file, device = "CPU";
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
  if (mode == "check") return Check(file, device);
  return TensorCores(device, n, half, bfloat16);
}

}  // namespace
}  // namespace tg

int main(int argc, char** argv) { return tg::Main(argc, argv); }
