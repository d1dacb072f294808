// File: tinygrad/codegen/tensor_core.cc
// Port of tinygrad/codegen/opt/tc.py: TensorCore helpers and the per-target tables.
#include "tinygrad/codegen/tensor_core.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/check.h"
#include "tinygrad/uop/arg.h"

namespace tg {
namespace {

int64_t Log2(int64_t v) {
  int64_t r = 0;
  while ((int64_t{1} << (r + 1)) <= v) ++r;
  return r;
}

std::vector<std::string> Concat(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::string> r = a;
  r.insert(r.end(), b.begin(), b.end());
  return r;
}

// The forward names ("l0".., "u0".., "r0"..) mapped onto each input's swizzle (tinygrad's _remaps).
std::vector<std::map<std::string, std::string>> Remaps(const TensorCore& tc) {
  std::vector<std::string> fwd;
  for (size_t i = 0; i < tc.GetLocalAxes().size(); ++i) fwd.push_back("l" + std::to_string(i));
  for (size_t i = 0; i < tc.GetUpcastAxes().size(); ++i) fwd.push_back("u" + std::to_string(i));
  for (size_t i = 0; i < tc.GetReduceAxes().size(); ++i) fwd.push_back("r" + std::to_string(i));
  std::vector<std::map<std::string, std::string>> ret;
  for (const auto& s : tc.swizzle) {
    std::vector<std::string> flat = Concat(Concat(s[0], s[1]), s[2]);
    std::map<std::string, std::string> m;
    for (size_t i = 0; i < fwd.size() && i < flat.size(); ++i) m[fwd[i]] = flat[i];
    ret.push_back(std::move(m));
  }
  return ret;
}

using Swz = std::array<std::array<std::vector<std::string>, 3>, 2>;

std::vector<TensorCore> Make(std::array<int64_t, 3> dims, int64_t threads, std::array<int64_t, 3> ept,
                             const std::vector<std::pair<DType, DType>>& dts,
                             const std::vector<std::string>& opts, const Swz& swizzle) {
  std::vector<TensorCore> ret;
  for (const auto& [di, d_out] : dts) {
    TensorCore tc{.dims = dims, .threads = threads, .elements_per_thread = ept, .dtype_in = di,
                  .dtype_out = d_out, .opts = opts, .swizzle = swizzle};
    tc.Validate();
    ret.push_back(std::move(tc));
  }
  return ret;
}

std::vector<TensorCore> Cat(std::initializer_list<std::vector<TensorCore>> parts) {
  std::vector<TensorCore> r;
  for (const auto& p : parts) r.insert(r.end(), p.begin(), p.end());
  return r;
}

// ** NVIDIA ** (shared by all shapes with M=16 N=8)
const std::vector<std::string> kCudaOpts = {"u0", "l0", "l0", "l1", "l1", "l1", "u1"};
std::vector<TensorCore> Cuda81616() {
  return Make({8, 16, 16}, 32, {8, 4, 4},
              {{dtypes::float16, dtypes::float32}, {dtypes::bfloat16, dtypes::float32}, {dtypes::float16, dtypes::float16}},
              kCudaOpts,
              Swz{{{{{"r1", "r2", "l2", "l3", "l4"}, {"u1", "r3"}, {"l0", "l1", "u0", "r0"}}},
                   {{{"r1", "r2", "u0", "l0", "l1"}, {"r0", "r3"}, {"l2", "l3", "l4", "u1"}}}}});
}
std::vector<TensorCore> Cuda81632F8() {
  return Make({8, 16, 32}, 32, {16, 8, 4}, {{dtypes::fp8e4m3, dtypes::float32}, {dtypes::fp8e5m2, dtypes::float32}},
              kCudaOpts,
              Swz{{{{{"r2", "r3", "l2", "l3", "l4"}, {"u1", "r4"}, {"l0", "l1", "u0", "r0", "r1"}}},
                   {{{"r2", "r3", "u0", "l0", "l1"}, {"r1", "r4"}, {"l2", "l3", "l4", "u1", "r0"}}}}});
}
std::vector<TensorCore> Cuda8168F16() {
  return Make({8, 16, 8}, 32, {4, 2, 4}, {{dtypes::float16, dtypes::float32}, {dtypes::float16, dtypes::float16}},
              kCudaOpts,
              Swz{{{{{"r1", "r2", "l2", "l3", "l4"}, {"r0", "u1"}, {"l0", "l1", "u0"}}},
                   {{{"r1", "r2", "u0", "l0", "l1"}, {"u1", "r0"}, {"l2", "l3", "l4"}}}}});
}
std::vector<TensorCore> Cuda8168Tf32() {
  return Make({8, 16, 8}, 32, {4, 2, 4}, {{dtypes::float32, dtypes::float32}}, kCudaOpts,
              Swz{{{{{"r0", "r1", "l2", "l3", "l4"}, {"u1", "r2"}, {"l0", "l1", "u0"}}},
                   {{{"r0", "r1", "u0", "l0", "l1"}, {"u1", "r2"}, {"l2", "l3", "l4"}}}}});
}

// ** AMD **
std::vector<TensorCore> AmdCdna161616() {
  return Make({16, 16, 16}, 64, {4, 4, 4}, {{dtypes::float16, dtypes::float32}, {dtypes::bfloat16, dtypes::float32}},
              {"l0", "l0", "l0", "l0", "u1", "u1", "l1", "l1"},
              Swz{{{{{"u0", "u1", "l4", "l5", "r2", "r3"}, {"r0", "r1"}, {"l0", "l1", "l2", "l3"}}},
                   {{{"l0", "l1", "l2", "l3", "r2", "r3"}, {"r0", "r1"}, {"l4", "l5", "u0", "u1"}}}}});
}
std::vector<TensorCore> AmdCdna161632() {
  return Make({16, 16, 32}, 64, {8, 8, 4},
              {{dtypes::fp8e5m2, dtypes::float32}, {dtypes::fp8e4m3, dtypes::float32},
               {dtypes::float16, dtypes::float32}, {dtypes::bfloat16, dtypes::float32}},
              {"l0", "l0", "l0", "l0", "u1", "u1", "l1", "l1"},
              Swz{{{{{"u0", "u1", "l4", "l5", "r3", "r4"}, {"r0", "r1"}, {"l0", "l1", "l2", "l3", "r2"}}},
                   {{{"l0", "l1", "l2", "l3", "r3", "r4"}, {"r0", "r1"}, {"l4", "l5", "u0", "u1", "r2"}}}}});
}
std::vector<TensorCore> AmdCdna1616128() {
  return Make({16, 16, 128}, 64, {32, 32, 4}, {{dtypes::fp8e5m2, dtypes::float32}, {dtypes::fp8e4m3, dtypes::float32}},
              {"l0", "l0", "l0", "l0", "u1", "u1", "l1", "l1"},
              Swz{{{{{"u0", "u1", "l4", "l5", "r5", "r6"}, {"r0", "r1"}, {"l0", "l1", "l2", "l3", "r2", "r3", "r4"}}},
                   {{{"l0", "l1", "l2", "l3", "r5", "r6"}, {"r0", "r1"}, {"l4", "l5", "u0", "u1", "r2", "r3", "r4"}}}}});
}

}  // namespace

std::string TensorCore::ToString() const {
  return absl::StrCat("WMMA_", dims[0], "_", dims[1], "_", dims[2], "_", dtype_in.name(), "_", dtype_out.name());
}

std::vector<std::pair<int64_t, int64_t>> TensorCore::GetReduceAxes() const {
  std::vector<std::pair<int64_t, int64_t>> r;
  for (int64_t i = 0; i < Log2(dims[2]); ++i) r.emplace_back(i, 2);
  return r;
}

std::vector<std::string> TensorCore::GetUpcastAxes() const {
  std::vector<std::string> r;
  for (const std::string& o : opts)
    if (o[0] == 'u') r.push_back(o);
  return r;
}

std::vector<std::string> TensorCore::GetLocalAxes() const {
  std::vector<std::string> r;
  for (const std::string& o : opts)
    if (o[0] == 'l') r.push_back(o);
  return r;
}

std::vector<std::string> TensorCore::BaseShapeStr() const {
  std::vector<std::string> ret;
  int cnt_u = 0, cnt_l = 0;
  for (const std::string& o : opts) ret.push_back(o.substr(0, 1) + std::to_string(o[0] == 'u' ? cnt_u++ : cnt_l++));
  // assumes the UNROLL comes after the opts
  for (size_t i = 0; i < GetReduceAxes().size(); ++i) ret.push_back("r" + std::to_string(i));
  return ret;
}

std::vector<std::string> TensorCore::BaseUpcastAxes() const {
  std::vector<std::string> r;
  for (size_t i = 0; i < GetReduceAxes().size(); ++i) r.push_back("r" + std::to_string(i));
  for (size_t i = 0; i < GetUpcastAxes().size(); ++i) r.push_back("u" + std::to_string(i));
  std::reverse(r.begin(), r.end());
  return r;
}

std::pair<std::vector<int>, std::vector<int>> TensorCore::PermutesForShapeStr(
    const std::vector<std::string>& shape_str) const {
  std::vector<std::vector<int>> ret;
  for (const auto& remap : Remaps(*this)) {
    std::vector<int> p;
    for (size_t i = 0; i < shape_str.size(); ++i) {
      auto it = remap.find(shape_str[i]);
      if (it == remap.end()) {
        p.push_back(static_cast<int>(i));
        continue;
      }
      auto pos = std::find(shape_str.begin(), shape_str.end(), it->second);
      TG_CHECK(pos != shape_str.end()) << it->second << " not in shape_str";
      p.push_back(static_cast<int>(pos - shape_str.begin()));
    }
    ret.push_back(std::move(p));
  }
  return {ret[0], ret[1]};
}

void TensorCore::Validate() const {
  size_t local_axes = GetLocalAxes().size(), upcast_axes = GetUpcastAxes().size(),
         reduce_axes = GetReduceAxes().size();
  // all axes have size 2, <local> <reduce> <upcast> is the order
  TG_CHECK(dims[0] * dims[1] == (int64_t{1} << (local_axes + upcast_axes))) << ToString() << ": N x M != local x upcast";
  TG_CHECK((int64_t{1} << local_axes) == threads) << ToString() << ": threads";
  TG_CHECK((int64_t{1} << upcast_axes) == elements_per_thread[2]) << ToString() << ": elements from C";
  for (char d : {'0', '1'}) {
    int64_t n = std::count_if(opts.begin(), opts.end(), [&](const std::string& o) { return o[1] == d; });
    TG_CHECK(dims[d - '0'] == (int64_t{1} << n)) << ToString() << ": opts wrong on dims[" << d << "]";
  }
  for (const auto& s : swizzle) {
    TG_CHECK(s[0].size() == local_axes) << ToString() << ": local swizzle size is wrong";
    TG_CHECK(s[1].size() == upcast_axes) << ToString() << ": upcast swizzle size is wrong";
    TG_CHECK(s[2].size() == reduce_axes) << ToString() << ": reduce swizzle size is wrong";
  }
  // elements_per_thread: the upcast/reduce pieces an input does not broadcast over
  int un = 0, ln = 0;
  std::vector<std::string> zero_stride[2];
  for (const std::string& o : opts) {
    std::string nm = o.substr(0, 1) + std::to_string(o[0] == 'u' ? un : ln);
    if (o[1] == '0') zero_stride[0].push_back(nm);
    if (o[1] == '1') zero_stride[1].push_back(nm);
    (o[0] == 'u' ? un : ln) += 1;
  }
  for (int i = 0; i < 2; ++i) {
    int64_t n = 0;
    for (const std::string& x : Concat(swizzle[i][1], swizzle[i][2]))
      if (std::find(zero_stride[i].begin(), zero_stride[i].end(), x) == zero_stride[i].end() && x[0] != 'l') ++n;
    TG_CHECK((int64_t{1} << n) == elements_per_thread[i]) << ToString() << ": elements_per_thread[" << i << "]";
  }
}

namespace {
DType DTypeFromRepr(const Arg& a) {
  const std::string& s = a.str();
  DType d;
  TG_CHECK(s.rfind("dtypes.", 0) == 0 && dtypes::FromName(s.substr(7), &d)) << "not a dtype repr in a WMMA arg: " << s;
  return d;
}
}  // namespace

DType WmmaDTypeIn(const Arg& wmma_arg) { return DTypeFromRepr(wmma_arg[2]); }
DType WmmaDTypeOut(const Arg& wmma_arg) { return DTypeFromRepr(wmma_arg[3]); }

namespace tensor_cores {

const std::vector<TensorCore>& CudaSm75() {
  static const auto* const kTcs = new std::vector<TensorCore>(Cuda8168F16());
  return *kTcs;
}
const std::vector<TensorCore>& CudaSm80() {
  static const auto* const kTcs = new std::vector<TensorCore>(Cat({Cuda81616(), Cuda8168F16(), Cuda8168Tf32()}));
  return *kTcs;
}
const std::vector<TensorCore>& CudaSm89() {
  static const auto* const kTcs = new std::vector<TensorCore>(Cat({CudaSm80(), Cuda81632F8()}));
  return *kTcs;
}
const std::vector<TensorCore>& AmdRdna3() {
  static const auto* const kTcs = new std::vector<TensorCore>(Make(
      {16, 16, 16}, 32, {16, 16, 8},
      {{dtypes::float16, dtypes::float32}, {dtypes::float16, dtypes::float16}, {dtypes::bfloat16, dtypes::float32}},
      {"l0", "l0", "l0", "l0", "l1", "u1", "u1", "u1"},
      Swz{{{{{"l4", "u0", "u1", "u2", "l0"}, {"r1", "r2", "r3"}, {"l1", "l2", "l3", "r0"}}},
           {{{"l0", "l1", "l2", "l3", "l4"}, {"r1", "r2", "r3"}, {"u0", "u1", "u2", "r0"}}}}}));
  return *kTcs;
}
const std::vector<TensorCore>& AmdRdna4() {
  static const auto* const kTcs = new std::vector<TensorCore>(Make(
      {16, 16, 16}, 32, {8, 8, 8},
      {{dtypes::float16, dtypes::float32}, {dtypes::float16, dtypes::float16}, {dtypes::bfloat16, dtypes::float32},
       {dtypes::bfloat16, dtypes::bfloat16}},
      {"l0", "l0", "l0", "l0", "u1", "u1", "u1", "l1"},
      Swz{{{{{"u0", "u1", "u2", "l4", "r2"}, {"r0", "r1", "r3"}, {"l0", "l1", "l2", "l3"}}},
           {{{"l0", "l1", "l2", "l3", "r2"}, {"r0", "r1", "r3"}, {"l4", "u0", "u1", "u2"}}}}}));
  return *kTcs;
}
const std::vector<TensorCore>& AmdCdna3() {
  static const auto* const kTcs = [] {
    std::vector<TensorCore> c = AmdCdna161632();
    c.resize(2);  // only the fp8 ones of the 16x16x32 shape
    return new std::vector<TensorCore>(Cat({c, AmdCdna161616()}));
  }();
  return *kTcs;
}
const std::vector<TensorCore>& AmdCdna4() {
  static const auto* const kTcs = new std::vector<TensorCore>(Cat({AmdCdna1616128(), AmdCdna161632(), AmdCdna161616()}));
  return *kTcs;
}
const std::vector<TensorCore>& Metal() {
  static const auto* const kTcs = new std::vector<TensorCore>(Make(
      {8, 8, 8}, 32, {2, 2, 2},
      {{dtypes::float32, dtypes::float32}, {dtypes::float16, dtypes::float32}, {dtypes::float16, dtypes::float16},
       {dtypes::bfloat16, dtypes::float32}, {dtypes::bfloat16, dtypes::bfloat16}},
      {"u0", "l0", "l1", "l1", "l0", "l1"},
      Swz{{{{{"r1", "l1", "l2", "r2", "l4"}, {"r0"}, {"u0", "l0", "l3"}}},
           {{{"l0", "r0", "r1", "l3", "r2"}, {"u0"}, {"l1", "l2", "l4"}}}}}));
  return *kTcs;
}
const std::vector<TensorCore>& Amx() {
  // sz = 64 // itemsize for float: 16
  static const auto* const kTcs = new std::vector<TensorCore>(Make(
      {16, 16, 1}, 1, {16, 16, 256}, {{dtypes::float32, dtypes::float32}},
      {"u0", "u0", "u0", "u0", "u1", "u1", "u1", "u1"},
      Swz{{{{{}, {"u0", "u1", "u2", "u3", "u4", "u5", "u6", "u7"}, {}}},
           {{{}, {"u4", "u5", "u6", "u7", "u0", "u1", "u2", "u3"}, {}}}}}));
  return *kTcs;
}
const std::vector<TensorCore>& Intel() {
  static const auto* const kTcs = new std::vector<TensorCore>(Make(
      {8, 8, 16}, 8, {16, 16, 8}, {{dtypes::float16, dtypes::float32}}, {"l0", "l0", "l0", "u1", "u1", "u1"},
      Swz{{{{{"r1", "r2", "r3"}, {"u0", "u1", "u2"}, {"l0", "l1", "l2", "r0"}}},
           {{{"l0", "l1", "l2"}, {"r1", "r2", "r3"}, {"u0", "u1", "u2", "r0"}}}}}));
  return *kTcs;
}

}  // namespace tensor_cores
}  // namespace tg
