// File: tinygrad/codegen/lower/graph_eval.cc
// Test helper: a scalar graph evaluator (see graph_eval.h).
#include "tinygrad/codegen/lower/graph_eval.h"

#include <cmath>
#include <cstring>

#include "tinygrad/base/check.h"
#include "tinygrad/uop/exec_alu.h"

namespace tg::testing {
namespace {

uint16_t HalfBits(double x) {
  uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  x = std::fabs(x);
  if (std::isnan(x)) return 0x7e00;
  if (std::isinf(x)) return sign | 0x7c00;
  if (x == 0) return sign;
  int e;
  std::frexp(x, &e);
  int big_e = e - 1;
  if (big_e >= -14) {
    auto mant = static_cast<uint16_t>(std::ldexp(x, -big_e) * 1024 - 1024);
    return static_cast<uint16_t>(sign | ((big_e + 15) << 10) | mant);
  }
  return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::ldexp(x, 24)));
}

double HalfValue(uint16_t h) {
  double sign = (h & 0x8000) ? -1.0 : 1.0;
  int e = (h >> 10) & 31, m = h & 1023;
  if (e == 31) return m ? NAN : sign * INFINITY;
  if (e == 0) return sign * std::ldexp(m, -24);
  return sign * std::ldexp(1024 + m, e - 25);
}

}  // namespace

ConstValue CastValue(const ConstValue& v, DType to) {
  if (to == dtypes::bool_) return ConstValue(v.to_bool());
  if (dtypes::is_int(to)) {
    if (v.is_float() && std::isnan(v.to_float())) return Truncate(ConstValue(0), to);
    return Truncate(ConstValue(v.to_int()), to);
  }
  return Truncate(ConstValue(v.to_float()), to);
}

ConstValue BitcastValue(const ConstValue& v, DType from, DType to) {
  TG_CHECK(from.itemsize() == to.itemsize()) << "bitcast " << from << " -> " << to;
  uint64_t bits;
  if (from == dtypes::float32) {
    auto f = static_cast<float>(v.to_float());
    uint32_t b;
    std::memcpy(&b, &f, 4);
    bits = b;
  } else if (from == dtypes::float64) {
    double f = v.to_float();
    std::memcpy(&bits, &f, 8);
  } else if (from == dtypes::float16) {
    bits = HalfBits(v.to_float());
  } else {
    bits = static_cast<uint64_t>(Truncate(v, from).to_int());
  }
  int width = to.itemsize() * 8;
  if (width < 64) bits &= (uint64_t{1} << width) - 1;
  if (to == dtypes::float32) {
    auto b = static_cast<uint32_t>(bits);
    float f;
    std::memcpy(&f, &b, 4);
    return ConstValue(static_cast<double>(f));
  }
  if (to == dtypes::float64) {
    double f;
    std::memcpy(&f, &bits, 8);
    return ConstValue(f);
  }
  if (to == dtypes::float16) return ConstValue(HalfValue(static_cast<uint16_t>(bits)));
  return Truncate(ConstValue(static_cast<i128>(bits)), to);  // wraps into a signed dtype
}

ScalarGraph::ScalarGraph(const UOp& root) : topo_(root.toposort()) {
  absl::flat_hash_map<const void*, int> pos;
  for (size_t i = 0; i < topo_.size(); ++i) pos[topo_[i].id()] = static_cast<int>(i);
  for (const UOp& u : topo_) {
    std::vector<int> s;
    for (const UOp& x : u.src()) s.push_back(pos.at(x.id()));
    src_idx_.push_back(std::move(s));
  }
}

ConstValue ScalarGraph::Eval(const absl::flat_hash_map<std::string, ConstValue>& vars) const {
  std::vector<ConstValue> val(topo_.size());
  for (size_t i = 0; i < topo_.size(); ++i) {
    const UOp& u = topo_[i];
    TG_CHECK(u.dtype().count() == 1) << "ScalarGraph: vector node " << u.op();
    std::vector<ConstValue> in;
    for (int s : src_idx_[i]) in.push_back(val[s]);
    switch (u.op()) {
      case Ops::CONST:
        val[i] = Truncate(u.arg().number(), u.dtype());
        break;
      case Ops::DEFINE_VAR: {
        auto it = vars.find(u.arg()[0].str());
        TG_CHECK(it != vars.end()) << "no value for " << u.arg()[0].str();
        val[i] = Truncate(it->second, u.dtype());
        break;
      }
      case Ops::CAST:
        val[i] = CastValue(in[0], u.dtype());
        break;
      case Ops::BITCAST:
        val[i] = BitcastValue(in[0], u.src(0).dtype(), u.dtype());
        break;
      default:
        TG_CHECK(GroupOp::ALU.contains(u.op())) << "ScalarGraph: can't evaluate " << u.op();
        val[i] = ExecAlu(u.op(), u.dtype(), in);
    }
  }
  return val.back();
}

}  // namespace tg::testing
