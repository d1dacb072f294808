// File: tinygrad/codegen/program.cc
// Port of tinygrad/renderer/__init__.py: Estimates.from_uops, ProgramSpec.from_uop, and
// tinygrad/uop/ops.py print_uops.
#include "tinygrad/codegen/program.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "tinygrad/base/check.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/graph_util.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/uop/symbolic/helpers.h"
#include "tinygrad/uop/symbolic/symbolic.h"

namespace tg {
namespace {

// Numbers here are Python ints in the reference (sints): unbounded, so a kernel of ranges
// whose product passes int64 (nested loops of 2**33 each, or one range the simplifier merged
// from them) is counted, not a CHECK-failure. ConstValue's arithmetic saturates far beyond
// int64 instead; what reads the estimates converts with to_float or a StatusOr.
UOp I(const ConstValue& v) { return UOp::Const(dtypes::index, v); }

// A launch size or loop bound as an index-dtype UOp (a lowered int32 CONST becomes index).
UOp AsIndex(const UOp& u) {
  UOp s = Simplify(u);
  if (s.op() == Ops::CONST) return I(s.arg().number());
  return s.dtype() == dtypes::index ? s : s.cast(dtypes::index);
}

// A loop bound or launch size as tinygrad's ssimplify() gives it: an index CONST for a number,
// else the (lowered, int) expression itself.
UOp SSimplify(const UOp& u) {
  UOp s = Simplify(u);
  return s.op() == Ops::CONST ? I(s.arg().number()) : s;
}

// Python's int/UOp arithmetic on sints: numbers fold, a number next to a UOp takes its dtype.
UOp Mul(const UOp& a, const UOp& b) {
  if (a.op() == Ops::CONST && b.op() == Ops::CONST) return I(a.arg().number() * b.arg().number());
  if (a.op() == Ops::CONST) return a.arg().number() * b;
  if (b.op() == Ops::CONST) return a * b.arg().number();
  return a * b;
}
UOp Add(const UOp& a, const UOp& b) {
  if (a.op() == Ops::CONST && b.op() == Ops::CONST) return I(a.arg().number() + b.arg().number());
  if (a.op() == Ops::CONST) return a.arg().number() + b;
  if (b.op() == Ops::CONST) return a + b.arg().number();
  return a + b;
}

void AddAll(absl::flat_hash_set<UOp>& set, const std::vector<UOp>& nodes) { set.insert(nodes.begin(), nodes.end()); }

}  // namespace

Estimates EstimatesFromUops(std::span<const UOp> uops, bool ignore_indexing) {
  UOp flops = I(0), lds = I(0), mults = I(1);
  std::vector<std::pair<std::pair<UOp, Ops>, int64_t>> mem;
  std::vector<UOp> mult_stack;
  absl::flat_hash_set<UOp> dont_count;
  if (ignore_indexing) {
    auto range_gate = [](const UOp& x) { return x.op() != Ops::RANGE; };
    for (const UOp& u : uops) {
      if (u.op() == Ops::LOAD || u.op() == Ops::STORE) {
        // with an INDEX, the buffer counts too (it might be an AFTER)
        UOp root = u.src(0).op() == Ops::INDEX ? UOp::Sink(u.src(0).src().subspan(1)) : u.src(0);
        AddAll(dont_count, Toposort(root, range_gate));
        if (u.src().size() > 2) AddAll(dont_count, u.src(2).toposort());
      } else if (u.op() == Ops::IF) {
        AddAll(dont_count, u.src(0).toposort());
      }
    }
  }
  auto not_reg = [](const UOp& p) { return !p.dtype().is_ptr() || p.dtype().addrspace() != AddrSpace::REG; };
  for (const UOp& u : uops) {
    if (u.op() == Ops::LOAD || u.op() == Ops::STORE) {
      UOp buf = u;
      while (!buf.src().empty()) buf = buf.src(0);
      if (buf.op() == Ops::DEFINE_GLOBAL) {  // all DEFINE_GLOBAL memory counts as accessed
        std::pair<UOp, Ops> key{buf, u.op()};
        int64_t bytes = buf.dtype().size() * buf.dtype().base().itemsize();
        auto it = std::find_if(mem.begin(), mem.end(), [&](const auto& kv) { return kv.first == key; });
        if (it == mem.end()) {
          mem.emplace_back(key, bytes);
        } else {
          it->second = bytes;
        }
      }
    }
    if (u.op() == Ops::RANGE) {
      mult_stack.push_back(mults);
      mults = Mul(mults, SSimplify(u.src(0)));
      if (mults.op() != Ops::CONST) {
        // SPECIALs are already counted in mults
        SubstituteMap subs;
        for (const UOp& x : mults.toposort())
          if (x.op() == Ops::SPECIAL) subs[x] = x.const_like(0);
        mults = Substitute(mults, subs);
      }
    } else if (u.op() == Ops::END) {
      TG_CHECK(!mult_stack.empty()) << "END without RANGE in a linear program";
      mults = mult_stack.back();
      mult_stack.pop_back();
    } else if (u.op() == Ops::SPECIAL) {
      mults = Mul(mults, SSimplify(u.src(0)));  // launch dims can't be ended
    } else if (u.op() == Ops::LOAD && not_reg(u.src(0))) {
      lds = Add(lds, Mul(I(u.dtype().itemsize()), mults));
    } else if (u.op() == Ops::STORE && not_reg(u.src(0))) {
      lds = Add(lds, Mul(I(u.src(1).dtype().itemsize()), mults));
    } else if (GroupOp::ALU.contains(u.op()) && !dont_count.contains(u)) {
      flops = Add(flops, Mul(Mul(mults, I(u.op() == Ops::MULACC ? 2 : 1)), I(u.dtype().count())));
    } else if (u.op() == Ops::WMMA && !dont_count.contains(u)) {
      // 2*prod(dims)//threads per WMMA (arg: name, dims, dtype_in, dtype_out, device, threads, ...)
      int64_t dims = 1;
      for (const Arg& d : u.arg()[1].tuple()) dims *= d.int64();
      flops = Add(flops, Mul(I(2 * dims / u.arg()[5].int64()), mults));
    }
  }
  int64_t mem_total = 0;
  for (const auto& kv : mem) mem_total += kv.second;
  return Estimates{.ops = Simplify(flops), .lds = Simplify(lds), .mem = I(mem_total)};
}

ProgramSpec ProgramSpecFromUops(const UOp& ast, std::vector<UOp> uops, std::string src, std::string device) {
  TG_CHECK(!uops.empty() && uops.back().op() == Ops::SINK) << "a linear program ends with its SINK";
  KernelInfo ki = KernelInfo::FromArg(uops.back().arg());
  ProgramSpec p;
  p.name = ki.name;
  p.function_name = ki.function_name();
  p.src = std::move(src);
  p.device = std::move(device);
  p.ast = ast;
  p.applied_opts = ki.applied_opts;
  p.global_size = {I(1), I(1), I(1)};
  std::vector<UOp> local_size = {I(1), I(1), I(1)};
  bool has_local = true;
  for (const UOp& u : uops) {
    if (u.op() == Ops::DEFINE_VAR) p.vars.push_back(u);
    if (u.op() == Ops::DEFINE_GLOBAL) p.globals.push_back(u.arg().int64());
    if (u.op() == Ops::STORE || u.op() == Ops::LOAD) {
      UOp idx = u.src(0);
      if (idx.op() == Ops::CAST) idx = idx.src(0);
      if (idx.op() == Ops::INDEX && idx.src(0).op() == Ops::DEFINE_GLOBAL)
        (u.op() == Ops::STORE ? p.outs : p.ins).push_back(idx.src(0).arg().int64());
    }
    if (u.op() == Ops::SPECIAL) {
      const std::string& name = u.arg().str();
      if (name[0] == 'i') has_local = false;
      int dim = name.back() - '0';
      TG_CHECK(dim >= 0 && dim < 3) << "bad SPECIAL " << name;
      if (name[0] == 'l') {
        local_size[dim] = AsIndex(u.src(0));
      } else {
        p.global_size[dim] = AsIndex(u.src(0));
      }
    }
  }
  if (has_local) p.local_size = local_size;
  std::stable_sort(p.vars.begin(), p.vars.end(), [](const UOp& a, const UOp& b) {
    return a.arg()[0].str() < b.arg()[0].str();
  });
  for (std::vector<int64_t>* v : {&p.globals, &p.outs, &p.ins}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  p.estimates = EstimatesFromUops(uops, true);
  p.uops = std::move(uops);
  return p;
}

std::string PrintUops(std::span<const UOp> uops) {
  absl::flat_hash_map<UOp, size_t> index;
  for (size_t i = 0; i < uops.size(); ++i) index.emplace(uops[i], i);
  std::ostringstream os;
  for (size_t i = 0; i < uops.size(); ++i) {
    const UOp& u = uops[i];
    std::string srcs = "[";
    for (size_t k = 0; k < u.src().size(); ++k) {
      const UOp& x = u.src(k);
      if (k) srcs += ", ";
      auto it = index.find(x);
      if (it == index.end()) {
        srcs += "'--'";
      } else if (x.op() == Ops::CONST) {
        srcs += "'" + x.arg().repr() + "'";
      } else {
        srcs += std::to_string(it->second);
      }
    }
    srcs += "]";
    std::ostringstream dt;
    dt << u.dtype();
    std::string ranges;
    {
      std::vector<UOp> rs = u.ranges();
      std::sort(rs.begin(), rs.end(), [](const UOp& a, const UOp& b) { return RangeArgLess(a.arg(), b.arg()); });
      for (size_t k = 0; k < rs.size(); ++k) {
        if (k) ranges += ",";
        std::vector<Arg> ids = RangeIds(rs[k]);
        for (size_t j = 0; j < ids.size(); ++j) ranges += (j ? "_" : "") + ids[j].repr();
      }
    }
    char line[64];
    std::snprintf(line, sizeof(line), "%4zu ", i);
    std::string op = "Ops." + std::string(OpName(u.op()));
    auto pad = [](std::string s, size_t n) { return s.size() < n ? s + std::string(n - s.size(), ' ') : s; };
    os << line << pad(op, 20) << ": " << pad(ranges, 10) << " " << pad(dt.str(), 40) << " " << pad(srcs, 32) << " "
       << u.arg().repr() << "\n";
  }
  return os.str();
}

}  // namespace tg
