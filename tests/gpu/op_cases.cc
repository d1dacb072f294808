// File: tests/gpu/op_cases.cc
#include "tests/gpu/op_cases.h"

#include <cmath>

#include "absl/strings/str_cat.h"

namespace tg {

std::vector<float> RandomData(int64_t n, uint64_t seed) {
  std::vector<float> v(static_cast<size_t>(n));
  uint64_t s = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  for (float& x : v) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    x = static_cast<float>((s >> 40) & 0xffffff) / 8388608.0f - 1.0f;
  }
  return v;
}

Tensor ConvPoolGradients(const Tensor& x_in, const Tensor& w_in, const Tensor& m_in) {
  Tensor x = x_in.requires_grad_(), w = w_in.requires_grad_(), m = m_in.requires_grad_();
  Tensor h = x.conv2d(w).relu().max_pool2d().flatten(1).matmul(m);
  if (absl::Status s = h.log_softmax(1).mean().neg().backward(); !s.ok()) return Tensor::Error(s);
  return x.grad()->flatten().cat({w.grad()->flatten(), m.grad()->flatten()}, 0);
}

absl::StatusOr<std::vector<float>> RunOpCase(const OpCase& c, const std::string& device) {
  std::vector<Tensor> ins;
  for (size_t i = 0; i < c.shapes.size(); ++i) {
    int64_t n = 1;
    for (int64_t d : c.shapes[i]) n *= d;
    ins.push_back(Tensor::FromVector<float>(RandomData(n, i + 1), c.shapes[i], device));
  }
  Tensor out = c.fn(ins);
  if (!out.ok()) return out.status();
  if (out.device() != device) return absl::InternalError("the result is on " + out.device());
  return out.cast(dtypes::float32).to_vector<float>();
}

std::vector<std::string> OpCaseMismatches(const OpCase& c, const std::vector<float>& want,
                                          const std::vector<float>& got, int max_lines) {
  std::vector<std::string> out;
  if (want.size() != got.size()) return {absl::StrCat(c.name, ": ", got.size(), " values, want ", want.size())};
  for (size_t i = 0; i < want.size() && static_cast<int>(out.size()) < max_lines; ++i) {
    const double w = want[i], g = got[i];
    const bool ok = (std::isnan(w) && std::isnan(g)) || w == g || std::abs(g - w) <= c.atol + c.rtol * std::abs(w);
    if (!ok) out.push_back(absl::StrCat(c.name, "[", i, "]: ", g, ", want ", w));
  }
  return out;
}

std::vector<OpCase> OpCases() {
  using V = const std::vector<Tensor>&;
  return {
      {"add", {{1000}, {1000}}, [](V v) { return v[0] + v[1]; }},
      {"mul_broadcast", {{64, 1}, {1, 48}}, [](V v) { return v[0] * v[1]; }},
      {"div", {{513}, {513}}, [](V v) { return v[0] / (v[1].abs() + 0.5); }},
      {"exp_log_sqrt", {{4096}}, [](V v) { return v[0].exp() + (v[0].abs() + 1).log() + v[0].abs().sqrt(); }, 1e-5, 1e-4},
      {"sin_cos", {{2048}}, [](V v) { return (v[0] * 10).sin() + (v[0] * 3).cos(); }, 1e-5, 1e-4},
      {"relu_sigmoid_gelu", {{3000}}, [](V v) { return v[0].relu() + v[0].sigmoid() + v[0].gelu(); }, 1e-5, 1e-4},
      {"where_gt", {{777}, {777}}, [](V v) { return v[0].gt(v[1]).where(v[0], v[1] * 2); }},
      {"big_elementwise", {{1 << 22}}, [](V v) { return v[0] * 2 + 1; }},
      {"sum_axis", {{96, 130}}, [](V v) { return v[0].sum(1); }, 1e-4, 1e-4},
      {"sum_all_large", {{1 << 20}}, [](V v) { return v[0].sum(); }, 1e-2, 1e-3},
      {"max_mean", {{33, 257}}, [](V v) { return v[0].max(1) + v[0].mean(1); }, 1e-5, 1e-4},
      {"argmax", {{40, 300}}, [](V v) { return v[0].argmax(1); }},
      {"softmax", {{16, 1000}}, [](V v) { return v[0].softmax(-1); }, 1e-6, 1e-4},
      {"log_softmax", {{7, 333}}, [](V v) { return v[0].log_softmax(-1); }, 1e-5, 1e-4},
      {"cumsum", {{5, 200}}, [](V v) { return v[0].cumsum(1); }, 1e-4, 1e-4},
      {"layernorm", {{8, 512}}, [](V v) { return v[0].layernorm(-1); }, 1e-4, 1e-3},
      {"matmul_64", {{64, 64}, {64, 64}}, [](V v) { return v[0].matmul(v[1]); }, 1e-4, 1e-4},
      {"matmul_rect", {{256, 512}, {512, 128}}, [](V v) { return v[0].matmul(v[1]); }, 1e-3, 1e-4},
      {"matmul_odd", {{33, 65}, {65, 17}}, [](V v) { return v[0].matmul(v[1]); }, 1e-4, 1e-4},
      {"matmul_half", {{256, 256}, {256, 256}},
       [](V v) { return v[0].cast(dtypes::float16).matmul(v[1].cast(dtypes::float16)); }, 5e-2, 1e-2},
      {"matmul_bf16", {{128, 256}, {256, 64}},
       [](V v) { return v[0].cast(dtypes::bfloat16).matmul(v[1].cast(dtypes::bfloat16)); }, 1e-1, 2e-2},
      {"conv2d", {{2, 3, 16, 16}, {8, 3, 3, 3}},
       [](V v) { return v[0].conv2d(v[1], std::nullopt, Conv2dOpts{.padding = {1}}); }, 1e-4, 1e-4},
      {"max_pool2d", {{2, 4, 16, 16}}, [](V v) { return v[0].max_pool2d(); }},
      {"transpose_pad", {{30, 40}}, [](V v) { return v[0].permute({1, 0}).pad({{1, 2}, {0, 3}}).contiguous(); }},
      {"int_math", {{1000}},
       [](V v) {
         Tensor i = (v[0] * 1000).cast(dtypes::int32);
         return (i * 3 + 7).idiv(Tensor::Full({1000}, 5, {.dtype = dtypes::int32, .device = v[0].device()}));
       }},
      // backward, as training computes it
      {"backward_conv_pool", {{2, 3, 12, 12}, {8, 3, 3, 3}, {8 * 5 * 5, 10}},
       [](V v) { return ConvPoolGradients(v[0], v[1], v[2]); }, 1e-5, 1e-4},
  };
}

}  // namespace tg
