// File: tinygrad/tensor/random.cc
// Random tensors: rand (uniform [0, 1)), randn (Box-Muller), randint, uniform.
// Port of tinygrad/tensor.py manual_seed, _threefry_random_bits, rand, randn_like, randint,
// uniform. The generator is Threefry-2x32 (20 rounds) built from uint32 tensor ops, so it runs
// inside the kernel; the per-device counter lives on the host (tinygrad keeps it in a device
// tensor it assigns to), which gives the same counter values and therefore the same numbers
// as tinygrad for the same seed and call sequence. Each call hands the counter and key to the
// kernel in a 4-word buffer, so repeated calls reuse one compiled kernel.
#include <array>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "tinygrad/base/device_name.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/tensor/tensor_internal.h"

namespace tg {

using tensor_internal::CeilDiv;
using tensor_internal::Err;

namespace {

// int.from_bytes(sha256(i.to_bytes(4, "big")).digest(), "big") truncated to uint32: the first
// key word of the i-th device that draws random numbers.
constexpr uint32_t kDeviceKeys[] = {0x14b81119u, 0x764f528du, 0xdb12cf1au, 0x0f79f7d3u,
                                    0x900b0937u, 0x3eaa7569u, 0x7c0172cbu, 0x28a3a23bu};

struct RngState {
  std::mutex mu;
  uint64_t seed = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::seconds>(
          std::chrono::system_clock::now().time_since_epoch())
          .count());
  struct Device {
    uint32_t key0;
    uint32_t counter;
  };
  absl::flat_hash_map<std::string, Device> devices;
};
RngState& Rng() {
  static RngState* r = new RngState();
  return *r;
}

// threefry2x32 (tinygrad/uop/decompositions.py) on the two uint32 halves of the counter.
// `ks` are the three key words as tensors (see Rand for why they are not constants).
std::pair<Tensor, Tensor> Threefry(Tensor x0, Tensor x1, const Tensor (&ks)[3]) {
  constexpr int kRot[2][4] = {{13, 15, 26, 6}, {17, 29, 16, 24}};
  Tensor a = x0 + ks[2], b = x1 + ks[0];
  for (int i = 0; i < 5; ++i) {
    for (int r : kRot[i % 2]) {
      Tensor s = a + b;
      b = s ^ (b.lshift(r) + b.rshift(32 - r));
      a = s;
    }
    a = a + ks[i % 3];
    b = b + ks[(i + 1) % 3] + ConstValue(int64_t{i + 1});
  }
  return {a, b};
}

thread_local tensor_internal::RandomDrawRecorder* active_recorder = nullptr;

}  // namespace

namespace tensor_internal {

RandomDrawRecorder::RandomDrawRecorder() : previous_(active_recorder) { active_recorder = this; }
RandomDrawRecorder::~RandomDrawRecorder() { active_recorder = previous_; }
RandomDrawRecorder* RandomDrawRecorder::Active() { return active_recorder; }

absl::StatusOr<std::array<uint32_t, 4>> NextRandomParams(const std::string& device, uint32_t words) {
  std::lock_guard<std::mutex> l(Rng().mu);
  RngState& st = Rng();
  auto it = st.devices.find(device);
  if (it == st.devices.end()) {
    size_t idx = st.devices.size();
    if (idx >= std::size(kDeviceKeys)) return absl::InvalidArgumentError("too many devices");
    it = st.devices.emplace(device, RngState::Device{kDeviceKeys[idx], words}).first;
  } else {
    it->second.counter += words;
  }
  const uint32_t key0 = it->second.key0;
  const uint32_t key1 = static_cast<uint32_t>(st.seed);
  const uint32_t bits_count = it->second.counter - words;
  return std::array<uint32_t, 4>{bits_count, key1, key0 ^ key1 ^ 0x1BD11BDAu, key0};
}

}  // namespace tensor_internal

void Tensor::ManualSeed(uint64_t seed) {
  std::lock_guard<std::mutex> l(Rng().mu);
  Rng().seed = seed;
  Rng().devices.clear();
}

Tensor Tensor::Rand(const std::vector<int64_t>& shape, const TensorOpts& o) {
  return tensor_internal::RandNoContiguous(shape, o).contiguous();
}

Tensor tensor_internal::RandNoContiguous(const std::vector<int64_t>& shape, const TensorOpts& o) {
  DType dt = o.dtype.value_or(dtypes::default_float);
  if (IsMultiDeviceName(o.device))
    return Err("rand", "only makes tensors on one device, got " + o.device +
                           " (shard a tensor, then rand_like it)");
  if (!dtypes::is_float(dt) || dt.itemsize() > 8)
    return Err("rand", "only supports float dtypes, got " + dt.repr());
  for (int64_t s : shape)
    if (s < 0) return Err("rand", "invalid shape " + tensor_internal::ShapeStr(shape));
  if (absl::Status st = tensor_internal::CheckNumel("rand", Shape(shape.begin(), shape.end())); !st.ok())
    return Tensor::Error(st);
  int64_t numel = tensor_internal::Prod(shape);
  if (numel == 0) return Tensor::Zeros(shape, {.dtype = dt, .device = o.device});
  int64_t bytes = 0;
  if (__builtin_mul_overflow(numel, static_cast<int64_t>(dt.itemsize()), &bytes))
    return Err("rand", absl::StrCat(numel, " numbers of ", dt.repr(), " have more bytes than an int64 counts"));
  int64_t num = CeilDiv(bytes, 4);
  // The generator counts in uint32 (as the reference's counter tensor): past that it would wrap.
  if (num > int64_t{UINT32_MAX})
    return Err("rand", absl::StrCat(numel, " numbers of ", dt.repr(), " need ", num,
                                    " 32-bit words, more than the generator's uint32 counter can count"));
  // The counter and the key words travel in a small buffer rather than as constants, so every
  // call with the same shape is the same kernel: one compile, schedule- and method-cache hits
  // afterwards (tinygrad keeps them in device tensors for the same reason).
  absl::StatusOr<std::array<uint32_t, 4>> params = tensor_internal::NextRandomParams(o.device, static_cast<uint32_t>(num));
  if (!params.ok()) return Err("rand", std::string(params.status().message()));
  Tensor p = Tensor::FromVector(std::vector<uint32_t>(params->begin(), params->end()), {4}, o.device);
  if (tensor_internal::RandomDrawRecorder* r = tensor_internal::RandomDrawRecorder::Active(); r != nullptr && p.ok())
    r->draws.push_back({p.uop().base(), o.device, static_cast<uint32_t>(num)});
  const Tensor ks[3] = {p[1], p[2], p[3]};
  int64_t half = CeilDiv(num, 2);
  Tensor counts0 = Tensor::Arange(half, {.dtype = dtypes::uint32, .device = o.device}) + p[0];
  Tensor counts1 = counts0 + half;
  auto [lo, hi] = Threefry(counts0, counts1, ks);
  Tensor bits = lo.cat({hi}).slice({Slice(std::nullopt, num)});
  // Random mantissa bits under the exponent of 1.0 give [1, 2); subtract 1.
  auto [nexp, nmant] = dtypes::finfo(dt);
  (void)nexp;
  DType uint_dt = dt.itemsize() == 1 ? dtypes::uint8
                  : dt.itemsize() == 2 ? dtypes::uint16
                  : dt.itemsize() == 4 ? dtypes::uint32
                                       : dtypes::uint64;
  bits = bits.bitcast(uint_dt);
  if (!bits.ok()) return bits;  // e.g. more random numbers than a uint32 counter can index
  Tensor one = Tensor::Full(bits.shape(), 1.0, {.dtype = dt, .device = o.device}).bitcast(uint_dt);
  bits = bits.rshift(dt.bitsize() - nmant).bitwise_or(one);
  return bits.bitcast(dt).slice({Slice(std::nullopt, numel)}).sub(1).reshape(shape);
}

namespace {
// Box-Muller: normal numbers from the two halves of `src`, uniform in [0, 1).
Tensor BoxMuller(const Tensor& src) {
  return src[0].mul(2 * M_PI).cos().mul((1 - src[1]).log().mul(-2).sqrt());
}
}  // namespace

Tensor Tensor::Randn(const std::vector<int64_t>& shape, const TensorOpts& o) {
  std::vector<int64_t> s2{2};
  s2.insert(s2.end(), shape.begin(), shape.end());
  Tensor src = Rand(s2, {.dtype = dtypes::float32, .device = o.device});
  return BoxMuller(src).cast(o.dtype.value_or(dtypes::default_float));
}

Tensor tensor_internal::RandLike(const Tensor& like, DType dtype, bool contiguous) {
  TG_TENSOR_RETURN_IF_ERROR(&like);
  if (like.is_symbolic()) return Tensor::Error(NeedsIntShape("rand_like", like));
  auto make = [&](const Shape& shape, const std::string& device) {
    Tensor r = RandNoContiguous(ToInts(shape), {.dtype = dtype, .device = device});
    return contiguous ? r.contiguous() : r;
  };
  if (!like.uop().device().is_tuple()) return make(like.sshape(), like.device());
  return MultiLike(like, make);
}

Tensor Tensor::rand_like(std::optional<DType> dtype) const {
  return tensor_internal::RandLike(*this, dtype.value_or(this->dtype()), /*contiguous=*/true);
}

Tensor Tensor::randn_like(std::optional<DType> dtype) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  // the two halves come from one draw of twice the numbers, split as this tensor is
  Tensor src = Stack({*this, *this}).rand_like(dtypes::float32);
  return BoxMuller(src).cast(dtype.value_or(this->dtype()));
}

Tensor Tensor::Uniform(const std::vector<int64_t>& shape, double low, double high,
                       const TensorOpts& o) {
  Tensor r = Rand(shape, {.device = o.device});
  return ((high - low) * r).cast(o.dtype.value_or(dtypes::default_float)) + low;
}

Tensor Tensor::Randint(const std::vector<int64_t>& shape, int64_t low, int64_t high,
                       const TensorOpts& o) {
  DType dt = o.dtype.value_or(dtypes::int32);
  if (!dtypes::is_int(dt)) return Err("randint", "dtype must be int, got " + dt.repr());
  Tensor r = Rand(shape, {.device = o.device});
  return ((high - low) * r).cast(dt) + low;
}

}  // namespace tg
