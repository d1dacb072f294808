// File: tinygrad/workloads/workloads.cc
// The same models as tools/bench/tinygrad_workloads.py builds in Python tinygrad, so the two
// can be timed against each other.
#include "tinygrad/workloads/workloads.h"

#include <cmath>

namespace tg {
namespace {

int64_t P(const WorkloadParams& p, const char* name) { return p.at(name); }

// An input in the workload's dtype: made in float32 (the same random numbers whatever the
// dtype), then cast.
Tensor In(const Tensor& t, DType dt) { return dt == dtypes::float32 ? t : t.cast(dt); }

Tensor Rand(const std::vector<int64_t>& shape, DType dt) { return In(Tensor::Rand(shape), dt); }

// Kaiming-uniform-like weights: uniform in +-1/sqrt(fan_in), as tinygrad's nn layers.
Tensor Weight(const std::vector<int64_t>& shape, int64_t fan_in, DType dt) {
  double b = 1.0 / std::sqrt(static_cast<double>(fan_in));
  return In(Tensor::Uniform(shape, -b, b), dt);
}

Tensor Constant(const Tensor& t, DType dt) { return In(t, dt); }

WorkloadGraph Matmul(const WorkloadParams& p, DType dt) {
  Tensor a = Rand({P(p, "m"), P(p, "k")}, dt);
  Tensor b = Rand({P(p, "k"), P(p, "n")}, dt);
  return {{a, b}, {a.matmul(b)}};
}

WorkloadGraph Conv2d(const WorkloadParams& p, DType dt) {
  int64_t cin = P(p, "cin"), cout = P(p, "cout"), k = P(p, "kernel");
  Tensor x = Rand({P(p, "batch"), cin, P(p, "size"), P(p, "size")}, dt);
  Tensor w = Weight({cout, cin, k, k}, cin * k * k, dt);
  Conv2dOpts o;
  o.padding = {k / 2};
  return {{x, w}, {x.conv2d(w, std::nullopt, o)}};
}

WorkloadGraph Mlp(const WorkloadParams& p, DType dt) {
  int64_t in = P(p, "in"), hidden = P(p, "hidden"), out = P(p, "out");
  Tensor x = Rand({P(p, "batch"), in}, dt);
  Tensor w1 = Weight({hidden, in}, in, dt), b1 = Weight({hidden}, in, dt);
  Tensor w2 = Weight({hidden, hidden}, hidden, dt), b2 = Weight({hidden}, hidden, dt);
  Tensor w3 = Weight({out, hidden}, hidden, dt), b3 = Weight({out}, hidden, dt);
  Tensor h = x.linear(w1.T(), b1).relu();
  h = h.linear(w2.T(), b2).relu();
  return {{x, w1, b1, w2, b2, w3, b3}, {h.linear(w3.T(), b3)}};
}

// One pre-norm transformer attention block: x + proj(sdpa(q, k, v, causal)).
WorkloadGraph Attention(const WorkloadParams& p, DType dt) {
  int64_t b = P(p, "batch"), t = P(p, "seq"), d = P(p, "dim"), h = P(p, "heads");
  int64_t hd = d / h;
  Tensor x = Rand({b, t, d}, dt);
  Tensor wqkv = Weight({d, 3 * d}, d, dt), wo = Weight({d, d}, d, dt);
  Tensor qkv = x.layernorm().matmul(wqkv);                     // (b, t, 3d)
  std::vector<Tensor> parts = qkv.split(d, 2);
  auto heads = [&](const Tensor& z) { return z.reshape({b, t, h, hd}).transpose(1, 2); };
  Tensor att = heads(parts[0]).scaled_dot_product_attention(heads(parts[1]), heads(parts[2]),
                                                            std::nullopt, /*is_causal=*/true);
  Tensor out = att.transpose(1, 2).reshape({b, t, d}).matmul(wo);
  return {{x, wqkv, wo}, {x + out}};
}

// A ResNet basic block: relu(bn(conv(relu(bn(conv(x))))) + x), batchnorm in inference form.
WorkloadGraph ResnetBlock(const WorkloadParams& p, DType dt) {
  int64_t c = P(p, "channels"), s = P(p, "size");
  Tensor x = Rand({P(p, "batch"), c, s, s}, dt);
  Tensor w1 = Weight({c, c, 3, 3}, c * 9, dt), w2 = Weight({c, c, 3, 3}, c * 9, dt);
  Tensor g1 = Constant(Tensor::Ones({c}), dt), be1 = Constant(Tensor::Zeros({c}), dt), m1 = Weight({c}, 4, dt),
         v1 = Constant(Tensor::Ones({c}), dt);
  Tensor g2 = Constant(Tensor::Ones({c}), dt), be2 = Constant(Tensor::Zeros({c}), dt), m2 = Weight({c}, 4, dt),
         v2 = Constant(Tensor::Ones({c}), dt);
  Conv2dOpts o;
  o.padding = {1};
  Tensor h = x.conv2d(w1, std::nullopt, o).batchnorm(g1, be1, m1, v1).relu();
  h = h.conv2d(w2, std::nullopt, o).batchnorm(g2, be2, m2, v2);
  return {{x, w1, w2, m1, m2}, {(h + x).relu()}};
}

// The reduction benchmarks of the Performance table: a full sum, a row sum, a softmax.
WorkloadGraph Sum(const WorkloadParams& p, DType dt) {
  Tensor x = Rand({P(p, "n")}, dt);
  return {{x}, {x.sum()}};
}

WorkloadGraph RowSum(const WorkloadParams& p, DType dt) {
  Tensor x = Rand({P(p, "rows"), P(p, "cols")}, dt);
  return {{x}, {x.sum(1)}};
}

WorkloadGraph Softmax(const WorkloadParams& p, DType dt) {
  Tensor x = Rand({P(p, "rows"), P(p, "cols")}, dt);
  return {{x}, {x.softmax(-1)}};
}

const std::vector<Workload>& All() {
  static const auto* const kWorkloads = new std::vector<Workload>{
      {"matmul", "C = A @ B", {{"m", 512}, {"n", 512}, {"k", 512}}, Matmul},
      {"conv2d", "a 2-D convolution, padding kernel/2",
       {{"batch", 8}, {"cin", 16}, {"cout", 32}, {"size", 32}, {"kernel", 3}}, Conv2d},
      {"mlp", "a 3-layer MLP forward (linear-relu-linear-relu-linear)",
       {{"batch", 64}, {"in", 784}, {"hidden", 512}, {"out", 10}}, Mlp},
      {"attention", "one pre-norm causal self-attention block with its residual",
       {{"batch", 4}, {"seq", 64}, {"dim", 128}, {"heads", 4}}, Attention},
      {"resnet_block", "a ResNet basic block (conv-bn-relu-conv-bn, residual, relu)",
       {{"batch", 1}, {"channels", 64}, {"size", 32}}, ResnetBlock},
      {"sum", "the sum of n floats", {{"n", 4 * 1024 * 1024}}, Sum},
      {"rowsum", "the row sums of a rows x cols matrix", {{"rows", 4096}, {"cols", 1024}}, RowSum},
      {"softmax", "softmax over the rows of a rows x cols matrix", {{"rows", 4096}, {"cols", 1024}}, Softmax},
  };
  return *kWorkloads;
}

}  // namespace

WorkloadParams Workload::Defaults() const {
  WorkloadParams p;
  for (const auto& [name, value] : params) p[std::string(name)] = value;
  return p;
}

std::span<const Workload> Workloads() { return All(); }

std::span<const std::pair<std::string_view, DType>> WorkloadDTypes() {
  static const std::pair<std::string_view, DType> kDTypes[] = {
      {"float32", dtypes::float32}, {"half", dtypes::float16}, {"bfloat16", dtypes::bfloat16}};
  return kDTypes;
}

const Workload* FindWorkload(std::string_view name) {
  for (const Workload& w : All())
    if (w.name == name) return &w;
  return nullptr;
}

}  // namespace tg
