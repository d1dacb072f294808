// File: tinygrad/workloads/workloads.cc
// The same models as tools/bench/tinygrad_workloads.py builds in Python tinygrad, so the two
// can be timed against each other.
#include "tinygrad/workloads/workloads.h"

#include <cmath>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tinygrad/nn/losses.h"
#include "tinygrad/nn/optim.h"

namespace tg {
namespace {

int64_t P(const WorkloadParams& p, const char* name) { return p.at(name); }

// A constant in the workload's dtype.
Tensor Constant(const Tensor& t, const WorkloadOptions& o) {
  return o.dtype == dtypes::float32 ? t : t.cast(o.dtype);
}

// An input in the workload's dtype: made in float32 (the same random numbers whatever the
// dtype), then cast; or left empty.
Tensor Rand(const std::vector<int64_t>& shape, const WorkloadOptions& o) {
  if (o.empty_inputs) return Tensor::Empty(shape, {.dtype = o.dtype});
  return Constant(Tensor::Rand(shape), o);
}

// Kaiming-uniform-like weights: uniform in +-1/sqrt(fan_in), as tinygrad's nn layers.
// fan_in as a double: a product of user sizes, past int64 for huge ones (the tensors then fail)
Tensor Weight(const std::vector<int64_t>& shape, double fan_in, const WorkloadOptions& o) {
  if (o.empty_inputs) return Tensor::Empty(shape, {.dtype = o.dtype});
  double b = 1.0 / std::sqrt(fan_in);
  return Constant(Tensor::Uniform(shape, -b, b), o);
}

WorkloadGraph Matmul(const WorkloadParams& p, const WorkloadOptions& o) {
  Tensor a = Rand({P(p, "m"), P(p, "k")}, o);
  Tensor b = Rand({P(p, "k"), P(p, "n")}, o);
  return {{a, b}, {a.matmul(b)}};
}

// C = A @ B with B stored packed: Bp[j / nr, k, j % nr], the K x nr column panels of B one
// after another (what BLAS's packing makes); the matmul reads B through a view of Bp.
WorkloadGraph MatmulPackedB(const WorkloadParams& p, const WorkloadOptions& o) {
  const int64_t n = P(p, "n"), k = P(p, "k"), nr = P(p, "nr");
  Tensor a = Rand({P(p, "m"), k}, o);
  if (n % nr != 0)
    return {{a}, {Tensor::Error(absl::InvalidArgumentError(
                 absl::StrCat("matmul_packed_b: nr ", nr, " does not divide n ", n)))}};
  Tensor bp = Rand({n / nr, k, nr}, o);
  return {{a, bp}, {a.matmul(bp.permute({1, 0, 2}).reshape({k, n}))}};
}

// C[i] = A[i] @ B[i] for every i of the batch: one kernel with a batch axis (attention's shape).
WorkloadGraph BatchedMatmul(const WorkloadParams& p, const WorkloadOptions& o) {
  Tensor a = Rand({P(p, "batch"), P(p, "m"), P(p, "k")}, o);
  Tensor b = Rand({P(p, "batch"), P(p, "k"), P(p, "n")}, o);
  return {{a, b}, {a.matmul(b)}};
}

WorkloadGraph Conv2d(const WorkloadParams& p, const WorkloadOptions& o) {
  int64_t cin = P(p, "cin"), cout = P(p, "cout"), k = P(p, "kernel");
  Tensor x = Rand({P(p, "batch"), cin, P(p, "size"), P(p, "size")}, o);
  Tensor w = Weight({cout, cin, k, k}, static_cast<double>(cin) * k * k, o);
  Conv2dOpts conv;
  conv.padding = {k / 2};
  return {{x, w}, {x.conv2d(w, std::nullopt, conv)}};
}

WorkloadGraph Mlp(const WorkloadParams& p, const WorkloadOptions& o) {
  int64_t in = P(p, "in"), hidden = P(p, "hidden"), out = P(p, "out");
  Tensor x = Rand({P(p, "batch"), in}, o);
  Tensor w1 = Weight({hidden, in}, in, o), b1 = Weight({hidden}, in, o);
  Tensor w2 = Weight({hidden, hidden}, hidden, o), b2 = Weight({hidden}, hidden, o);
  Tensor w3 = Weight({out, hidden}, hidden, o), b3 = Weight({out}, hidden, o);
  Tensor h = x.linear(w1.T(), b1).relu();
  h = h.linear(w2.T(), b2).relu();
  return {{x, w1, b1, w2, b2, w3, b3}, {h.linear(w3.T(), b3)}};
}

// One pre-norm transformer attention block: x + proj(sdpa(q, k, v, causal)).
WorkloadGraph Attention(const WorkloadParams& p, const WorkloadOptions& o) {
  int64_t b = P(p, "batch"), t = P(p, "seq"), d = P(p, "dim"), h = P(p, "heads");
  int64_t hd = d / h, d3;
  Tensor x = Rand({b, t, d}, o);
  if (__builtin_mul_overflow(d, 3, &d3)) {
    return {{x}, {Tensor::Error(absl::InvalidArgumentError(
                     absl::StrCat("attention: q, k, v of dim ", d, " each do not fit the model")))}};
  }
  Tensor wqkv = Weight({d, d3}, d, o), wo = Weight({d, d}, d, o);
  Tensor qkv = x.layernorm().matmul(wqkv);                     // (b, t, 3d)
  std::vector<Tensor> parts = qkv.split(d, 2);
  if (parts.size() != 3) {  // split failed (one errored tensor)
    Tensor why = parts[0].ok() ? Tensor::Error(absl::InvalidArgumentError(absl::StrCat(
                                     "attention: q, k, v of dim ", d, " each do not fit the model")))
                               : parts[0];
    return {{x, wqkv, wo}, {why}};
  }
  auto heads = [&](const Tensor& z) { return z.reshape({b, t, h, hd}).transpose(1, 2); };
  Tensor att = heads(parts[0]).scaled_dot_product_attention(heads(parts[1]), heads(parts[2]),
                                                            std::nullopt, /*is_causal=*/true);
  Tensor out = att.transpose(1, 2).reshape({b, t, d}).matmul(wo);
  return {{x, wqkv, wo}, {x + out}};
}

// A ResNet basic block: relu(bn(conv(relu(bn(conv(x))))) + x), batchnorm in inference form.
WorkloadGraph ResnetBlock(const WorkloadParams& p, const WorkloadOptions& o) {
  int64_t c = P(p, "channels"), s = P(p, "size");
  Tensor x = Rand({P(p, "batch"), c, s, s}, o);
  Tensor w1 = Weight({c, c, 3, 3}, c * 9.0, o), w2 = Weight({c, c, 3, 3}, c * 9.0, o);
  Tensor g1 = Constant(Tensor::Ones({c}), o), be1 = Constant(Tensor::Zeros({c}), o), m1 = Weight({c}, 4, o),
         v1 = Constant(Tensor::Ones({c}), o);
  Tensor g2 = Constant(Tensor::Ones({c}), o), be2 = Constant(Tensor::Zeros({c}), o), m2 = Weight({c}, 4, o),
         v2 = Constant(Tensor::Ones({c}), o);
  Conv2dOpts conv;
  conv.padding = {1};
  Tensor h = x.conv2d(w1, std::nullopt, conv).batchnorm(g1, be1, m1, v1).relu();
  h = h.conv2d(w2, std::nullopt, conv).batchnorm(g2, be2, m2, v2);
  return {{x, w1, w2, m1, m2}, {(h + x).relu()}};
}

// The labels of a training workload: int32 class ids in [0, classes), or left empty.
Tensor Labels(int64_t batch, int64_t classes, const WorkloadOptions& o) {
  return o.empty_inputs ? Tensor::Empty({batch}, {.dtype = dtypes::int32}) : Tensor::Randint({batch}, 0, classes);
}

// The logits of a model from its input and its parameters (in the order given to TrainStep).
using Forward = Tensor (*)(const Tensor& x, const std::vector<Tensor>& w);

// One training step of a model as tg train runs it (tinygrad/train's TrainStep): forward,
// sparse_categorical_crossentropy, backward and an Adam update, realized together as one
// schedule, so tuning it tunes the forward, backward and optimizer kernels. Inputs: x, y, the
// parameters, then the parameters the step updates (other handles of them) and Adam's state
// (step counters, moments); outputs: Adam's state, the updated parameters, and the loss last.
// (tg train also draws each batch's indices, two small Randint kernels a step, outside the
// step: not part of these workloads.)
//
// The updated parameters and the state are inputs so that callers realize them first, as tg
// train does (tinygrad/train's RealizeTrainingState): the step is then the one every training
// step runs. Left lazy, its kernels would be a first step's, which folds the zero moments away:
// kernels no later step runs, and tg train's replays would find theirs untuned.
WorkloadGraph TrainStep(const Tensor& x, const Tensor& y, std::vector<Tensor> params, Forward forward) {
  WorkloadGraph g{{x, y}, {}};
  g.inputs.insert(g.inputs.end(), params.begin(), params.end());
  // The parameters are other tensors than the inputs: an assign makes every handle of a tensor
  // the update, so realizing an updated input would run the whole step with the inputs.
  for (Tensor& w : params) w = w.contiguous();
  absl::StatusOr<std::unique_ptr<Optimizer>> opt = Adam(params);
  if (!opt.ok()) return g.outputs.push_back(Tensor::Error(opt.status())), g;
  // Other handles of the same graphs, which the step's assigns leave alone: realizing them makes
  // the parameters and the state buffers, in the step's graph too.
  std::vector<Tensor> to_realize = params;
  for (const Tensor& s : (*opt)->state()) to_realize.push_back(s);
  for (const Tensor& t : to_realize) g.inputs.push_back(Tensor(t.uop()));
  Tensor::Train train;
  (*opt)->zero_grad();
  Tensor loss = nn::SparseCategoricalCrossentropy(forward(x, params), y);
  if (absl::Status s = loss.backward(); !s.ok()) return g.outputs.push_back(Tensor::Error(s)), g;
  absl::StatusOr<std::vector<Tensor>> step = (*opt)->schedule_step();
  if (!step.ok()) return g.outputs.push_back(Tensor::Error(step.status())), g;
  g.outputs = *std::move(step);
  g.outputs.push_back(loss);
  return g;
}

// tg train's MLP (tinygrad/train's Mlp at other sizes): linear-relu-linear.
// Inputs: x, y (int32 labels), w1, b1, w2, b2, then the step's state (TrainStep).
WorkloadGraph TrainMlp(const WorkloadParams& p, const WorkloadOptions& o) {
  int64_t batch = P(p, "batch"), in = P(p, "in"), hidden = P(p, "hidden"), out = P(p, "out");
  return TrainStep(Rand({batch, in}, o), Labels(batch, out, o),
                   {Weight({hidden, in}, in, o), Weight({hidden}, in, o), Weight({out, hidden}, hidden, o),
                    Weight({out}, hidden, o)},
                   [](const Tensor& x, const std::vector<Tensor>& w) {
                     return x.linear(w[0].T(), w[1]).relu().linear(w[2].T(), w[3]);
                   });
}

// tg train's CNN (tinygrad/train's Cnn at other sizes): conv 3x3 (c1) - relu - max_pool -
// conv 3x3 (c2) - relu - max_pool - flatten - linear (hidden) - relu - linear (out), on
// one-channel size x size images. Inputs: x, y (int32 labels), then the weight and bias of
// each layer in that order, then the step's state (TrainStep).
WorkloadGraph TrainCnn(const WorkloadParams& p, const WorkloadOptions& o) {
  int64_t batch = P(p, "batch"), size = P(p, "size"), c1 = P(p, "c1"), c2 = P(p, "c2");
  int64_t hidden = P(p, "hidden"), out = P(p, "out");
  // Each conv takes 2 from the side, each pool halves it (rounding down).
  int64_t side = ((size - 2) / 2 - 2) / 2;
  if (side < 1) {
    return {{}, {Tensor::Error(absl::InvalidArgumentError(
                absl::StrCat("train_cnn: size must be >= 10 (two 3x3 convs and pools), got ", size)))}};
  }
  int64_t flat;
  if (__builtin_mul_overflow(side, side, &flat) || __builtin_mul_overflow(c2, flat, &flat)) {
    return {{}, {Tensor::Error(absl::InvalidArgumentError(
                absl::StrCat("train_cnn: c2 * ", side, "**2 flattened features pass an int64, c2 = ", c2)))}};
  }
  return TrainStep(Rand({batch, 1, size, size}, o), Labels(batch, out, o),
                   {Weight({c1, 1, 3, 3}, 9, o), Weight({c1}, 9, o), Weight({c2, c1, 3, 3}, c1 * 9.0, o),
                    Weight({c2}, c1 * 9.0, o), Weight({hidden, flat}, flat, o), Weight({hidden}, flat, o),
                    Weight({out, hidden}, hidden, o), Weight({out}, hidden, o)},
                   [](const Tensor& x, const std::vector<Tensor>& w) {
                     Tensor h = x.conv2d(w[0], w[1]).relu().max_pool2d();
                     h = h.conv2d(w[2], w[3]).relu().max_pool2d();
                     return h.flatten(1).linear(w[4].T(), w[5]).relu().linear(w[6].T(), w[7]);
                   });
}

// The reduction benchmarks of the Performance table: a full sum, a row sum, a softmax.
WorkloadGraph Sum(const WorkloadParams& p, const WorkloadOptions& o) {
  Tensor x = Rand({P(p, "n")}, o);
  return {{x}, {x.sum()}};
}

WorkloadGraph RowSum(const WorkloadParams& p, const WorkloadOptions& o) {
  Tensor x = Rand({P(p, "rows"), P(p, "cols")}, o);
  return {{x}, {x.sum(1)}};
}

WorkloadGraph Softmax(const WorkloadParams& p, const WorkloadOptions& o) {
  Tensor x = Rand({P(p, "rows"), P(p, "cols")}, o);
  return {{x}, {x.softmax(-1)}};
}

const std::vector<Workload>& All() {
  static const auto* const kWorkloads = new std::vector<Workload>{
      {"matmul", "C = A @ B", {{"m", 512}, {"n", 512}, {"k", 512}}, Matmul},
      {"matmul_packed_b", "C = A @ B, B stored as K x nr panels", {{"m", 512}, {"n", 512}, {"k", 512}, {"nr", 32}},
       MatmulPackedB},
      {"bmm", "batched C[i] = A[i] @ B[i]", {{"batch", 8}, {"m", 256}, {"n", 256}, {"k", 256}}, BatchedMatmul},
      {"conv2d", "a 2-D convolution, padding kernel/2",
       {{"batch", 8}, {"cin", 16}, {"cout", 32}, {"size", 32}, {"kernel", 3}}, Conv2d},
      {"mlp", "a 3-layer MLP forward (linear-relu-linear-relu-linear)",
       {{"batch", 64}, {"in", 784}, {"hidden", 512}, {"out", 10}}, Mlp},
      {"attention", "one pre-norm causal self-attention block with its residual",
       {{"batch", 4}, {"seq", 64}, {"dim", 128}, {"heads", 4}}, Attention},
      {"resnet_block", "a ResNet basic block (conv-bn-relu-conv-bn, residual, relu)",
       {{"batch", 1}, {"channels", 64}, {"size", 32}}, ResnetBlock},
      {"train_mlp", "one training step of an MLP: forward, cross entropy, backward, Adam update",
       {{"batch", 128}, {"in", 784}, {"hidden", 128}, {"out", 10}}, TrainMlp},
      {"train_cnn", "one training step of a CNN (conv-pool-conv-pool-linear-linear): forward, cross entropy, "
                    "backward, Adam update",
       {{"batch", 128}, {"size", 28}, {"c1", 16}, {"c2", 32}, {"hidden", 128}, {"out", 10}}, TrainCnn},
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

WorkloadGraph Workload::build(const WorkloadParams& p, const WorkloadOptions& o) const {
  WorkloadParams full = Defaults();
  for (const auto& [k, v] : p) {
    auto it = full.find(k);
    if (it == full.end())
      return {{}, {Tensor::Error(absl::InvalidArgumentError(
                  absl::StrCat(std::string(name), " has no parameter '", k, "'")))}};
    if (v < 1)
      return {{}, {Tensor::Error(absl::InvalidArgumentError(
                  absl::StrCat(std::string(name), ": ", k, " must be >= 1, got ", v)))}};
    it->second = v;
  }
  return build_graph(full, o);
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
