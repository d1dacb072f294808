// File: autotune/codec/ast_mutator.cc (testonly)
// Structured kernel-AST mutations on the wire form (see the header).
#include "autotune/codec/ast_mutator.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "autotune/codec/ast_wire.h"
#include "autotune/codec/message_io.h"
#include "autotune/codec/node_check.h"
#include "autotune/codec/value_wire.h"
#include "autotune/codec/wire_enums.h"
#include "tinygrad/uop/kernel_info.h"

namespace tg::autotune::codec {
namespace {

WireDType FromDType(DType d) {
  return {.scalar = d.scalar_type(), .count = d.count(), .is_ptr = d.is_ptr(),
          .addrspace = d.is_ptr() ? d.addrspace() : AddrSpace::GLOBAL, .v = d.is_ptr() ? d.v() : 1,
          .size = d.is_ptr() ? d.size() : -1};
}

std::string DTypeText(const WireDType& d) {
  return absl::StrCat("(scalar ", static_cast<int>(d.scalar), " x", d.count, d.is_ptr ? " ptr" : "",
                      d.is_ptr ? absl::StrCat(" size ", d.size, " v ", d.v, " as ", static_cast<int>(d.addrspace)) : "",
                      ")");
}

std::string Where(const std::vector<WireNode>& nodes, uint32_t i) {
  return absl::StrCat("node ", i, " (", std::string(OpName(nodes[i].op)), ")");
}

// Sizes, bounds and counts a sender could put anywhere a number goes.
constexpr int64_t kSizes[] = {0, -1, 1, 2, 3, 7, 16, 255, (int64_t{1} << 31) - 1, int64_t{1} << 31,
                              int64_t{1} << 32, int64_t{1} << 40, -(int64_t{1} << 40), int64_t{1} << 62,
                              std::numeric_limits<int64_t>::min()};

// Sizes a kernel could have: a mutant with one of these is often still a kernel the pipeline
// must lower (and the sizes exercise its grouping, splitting and padding of dims).
constexpr int64_t kPlausibleSizes[] = {2, 3, 4, 5, 8, 13, 32, 100, 1000, 4096, 65536, 65537, int64_t{1} << 20,
                                       (int64_t{1} << 31) - 1, int64_t{1} << 33};

// The ops a kernel AST on the wire may hold, as a list to draw from.
std::vector<Ops> WireKernelOps() {
  std::vector<Ops> out;
  for (int i = 0; i < kNumOps; ++i)
    if (IsWireKernelOp(static_cast<Ops>(i))) out.push_back(static_cast<Ops>(i));
  return out;
}

// Keeps the nodes reachable from the last one, in order, renumbering the sources.
void DropUnreachable(std::vector<WireNode>& nodes) {
  if (nodes.empty()) return;
  std::vector<char> used(nodes.size(), 0);
  used.back() = 1;
  for (size_t i = nodes.size(); i-- > 0;)
    if (used[i])
      for (uint32_t s : nodes[i].src) used[s] = 1;
  std::vector<uint32_t> new_index(nodes.size(), 0);
  std::vector<WireNode> kept;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (!used[i]) continue;
    new_index[i] = static_cast<uint32_t>(kept.size());
    kept.push_back(std::move(nodes[i]));
    for (uint32_t& s : kept.back().src) s = new_index[s];
  }
  nodes = std::move(kept);
}

}  // namespace

std::vector<WireNode> ToWireNodes(const UOp& root) {
  std::vector<UOp> order = root.toposort();
  absl::flat_hash_map<const void*, uint32_t> index;
  std::vector<WireNode> out;
  for (const UOp& u : order) {
    WireNode n{.op = u.op(), .dtype = FromDType(u.dtype()), .arg = u.arg(), .tag = u.tag()};
    for (const UOp& s : u.src()) n.src.push_back(index.at(s.id()));
    index.emplace(u.id(), static_cast<uint32_t>(out.size()));
    out.push_back(std::move(n));
  }
  return out;
}

std::string EncodeWireNodes(std::span<const WireNode> nodes) {
  capnp::MallocMessageBuilder m;
  auto list = m.initRoot<proto::KernelAst>().initNodes(static_cast<unsigned>(nodes.size()));
  for (unsigned i = 0; i < nodes.size(); ++i) {
    const WireNode& n = nodes[i];
    auto b = list[i];
    b.setOp(internal::ToWire(n.op));
    auto d = b.initDtype();
    d.setScalar(internal::ToWire(n.dtype.scalar));
    d.setCount(static_cast<uint16_t>(n.dtype.count));
    d.setIsPtr(n.dtype.is_ptr);
    d.setAddrSpace(internal::ToWire(n.dtype.addrspace));
    d.setV(static_cast<uint16_t>(n.dtype.v));
    d.setSize(n.dtype.size);
    auto s = b.initSrc(static_cast<unsigned>(n.src.size()));
    for (unsigned j = 0; j < n.src.size(); ++j) s.set(j, n.src[j]);
    if (!n.arg.is_none()) internal::WriteArg(n.arg, b.initArg());
    if (!n.tag.is_none()) internal::WriteArg(n.tag, b.initTag());
  }
  return internal::ToBytes(m);
}

Arg AstMutator::RandomNumber() {
  switch (Uniform(6)) {
    case 0: return Arg(kSizes[Uniform(std::size(kSizes))]);
    case 1: return Arg(static_cast<double>(kSizes[Uniform(std::size(kSizes))]) / 2);
    case 2: return Arg(Uniform(2) == 1);
    case 3: return Arg(ConstValue::Invalid());
    case 4: {
      static constexpr double kOdd[] = {std::numeric_limits<double>::quiet_NaN(),
                                        std::numeric_limits<double>::infinity(), -0.0, 1e300};
      return Arg(kOdd[Uniform(std::size(kOdd))]);
    }
    default: return Arg(ConstValue(i128{1} << 100));
  }
}

std::string AstMutator::EditOp(std::vector<WireNode>& nodes, uint32_t i) {
  static const std::vector<Ops> kOps = WireKernelOps();
  WireNode& n = nodes[i];
  Ops to = kOps[Uniform(kOps.size())];
  if (GroupOp::ALU.contains(n.op) && Uniform(2)) {  // another ALU op, often of the same arity
    std::vector<Ops> alu;
    GroupOp::ALU.ForEach([&](Ops op) { alu.push_back(op); });
    to = alu[Uniform(alu.size())];
  }
  std::string out = absl::StrCat(Where(nodes, i), " op -> ", std::string(OpName(to)));
  n.op = to;
  return out;
}

std::string AstMutator::EditDType(WireNode& n) {
  WireDType& d = n.dtype;
  std::string before = DTypeText(d);
  switch (Uniform(6)) {
    case 0: d.scalar = static_cast<ScalarType>(Uniform(kNumScalarTypes)); break;
    case 1: {
      static constexpr int kCounts[] = {1, 2, 3, 4, 8, 16, 0, 4096, 5000};
      d.count = kCounts[Uniform(std::size(kCounts))];
      break;
    }
    case 2:
      d.is_ptr = !d.is_ptr;
      d.size = d.is_ptr ? (Uniform(2) ? 16 : -1) : -1;
      d.v = 1;
      d.addrspace = AddrSpace::GLOBAL;
      break;
    case 3: d.addrspace = static_cast<AddrSpace>(Uniform(3)); break;
    case 4: d.v = static_cast<int>(1 + Uniform(4)); break;
    default: {  // a common value dtype
      static constexpr ScalarType kCommon[] = {ScalarType::kIndex, ScalarType::kInt32, ScalarType::kFloat32,
                                               ScalarType::kBool, ScalarType::kVoid, ScalarType::kFloat16};
      d = WireDType{.scalar = kCommon[Uniform(std::size(kCommon))]};
      break;
    }
  }
  return absl::StrCat("dtype ", before, " -> ", DTypeText(d));
}

std::string AstMutator::EditArg(std::vector<WireNode>& nodes, uint32_t i) {
  WireNode& n = nodes[i];
  Arg before = n.arg;
  static const AxisType kAxes[] = {AxisType::GLOBAL, AxisType::LOCAL, AxisType::LOOP, AxisType::REDUCE,
                                   AxisType::UPCAST, AxisType::UNROLL, AxisType::THREAD, AxisType::GROUP_REDUCE,
                                   AxisType::WARP, AxisType::OUTER, AxisType::PLACEHOLDER};
  auto small = [&] { return Arg(kSizes[Uniform(8)]); };
  switch (n.op) {
    case Ops::CONST: n.arg = RandomNumber(); break;
    case Ops::RANGE:
      switch (Uniform(3)) {
        case 0: n.arg = Arg::Tuple({small(), kAxes[Uniform(std::size(kAxes))]}); break;
        case 1: n.arg = Arg::Tuple({n.arg.is_tuple() && n.arg.size() > 0 ? n.arg[0] : Arg(0),
                                    kAxes[Uniform(std::size(kAxes))], small()}); break;
        default: n.arg = Uniform(2) ? small() : Arg::Tuple({kAxes[Uniform(std::size(kAxes))], 0}); break;
      }
      break;
    case Ops::DEFINE_GLOBAL: case Ops::DEFINE_LOCAL: case Ops::DEFINE_REG: {
      // another node's slot, or a number
      std::vector<Arg> slots;
      for (const WireNode& o : nodes)
        if (o.op == n.op && &o != &n) slots.push_back(o.arg);
      n.arg = !slots.empty() && Uniform(2) ? slots[Uniform(slots.size())] : Arg(kSizes[Uniform(std::size(kSizes))]);
      break;
    }
    case Ops::DEFINE_VAR:
      n.arg = Arg::Tuple({Uniform(2) ? "n" : "var_b", RandomNumber(), RandomNumber()});
      break;
    case Ops::REDUCE: {
      static constexpr Ops kRed[] = {Ops::ADD, Ops::MUL, Ops::MAX, Ops::SUB, Ops::WHERE, Ops::CMPLT, Ops::AND};
      n.arg = Uniform(4) ? Arg(kRed[Uniform(std::size(kRed))]) : small();
      break;
    }
    case Ops::GEP: {
      std::vector<Arg> lanes;
      for (uint64_t k = 0, m = Uniform(5); k < m; ++k) lanes.push_back(small());
      n.arg = Uniform(4) ? Arg::Tuple(std::move(lanes)) : small();
      break;
    }
    case Ops::VCONST: {
      std::vector<Arg> lanes;
      for (uint64_t k = 0, m = Uniform(9); k < m; ++k) lanes.push_back(RandomNumber());
      n.arg = Arg::Tuple(std::move(lanes));
      break;
    }
    case Ops::SPECIAL: n.arg = Uniform(2) ? Arg("gidx0") : Arg("lidx3"); break;
    case Ops::SINK: return EditSinkArg(n);
    default: {
      static const Arg kArgs[] = {Arg(), Arg(0), Arg(-3), Arg(2.5), Arg(true), Arg("x"), Arg(Ops::ADD),
                                  Arg(AxisType::REDUCE), Arg::Tuple({}), Arg::Tuple({"v", 0, 10}),
                                  Arg::Tuple({1, 2, 3, 4}), Arg::Tuple({0, AxisType::LOOP}),
                                  Arg(ConstValue::Invalid())};
      n.arg = kArgs[Uniform(std::size(kArgs))];
      break;
    }
  }
  return absl::StrCat(Where(nodes, i), " arg ", before.repr(), " -> ", n.arg.repr());
}

std::string AstMutator::EditSources(std::vector<WireNode>& nodes, uint32_t i) {
  std::vector<uint32_t>& s = nodes[i].src;
  std::string what = absl::StrCat(Where(nodes, i), " src (", absl::StrJoin(s, ","), ") -> (");
  auto earlier = [&] { return static_cast<uint32_t>(Uniform(i)); };
  switch (s.empty() ? 4 : Uniform(5)) {
    case 0: s.erase(s.begin() + static_cast<ptrdiff_t>(Uniform(s.size()))); break;
    case 1: {
      size_t k = Uniform(s.size());
      s.insert(s.begin() + static_cast<ptrdiff_t>(k), s[k]);
      break;
    }
    case 2: std::swap(s[Uniform(s.size())], s[Uniform(s.size())]); break;
    case 3: if (i > 0) s[Uniform(s.size())] = earlier(); break;
    default: if (i > 0) s.insert(s.begin() + static_cast<ptrdiff_t>(Uniform(s.size() + 1)), earlier()); break;
  }
  return absl::StrCat(what, absl::StrJoin(s, ","), ")");
}

std::string AstMutator::EditConstant(std::vector<WireNode>& nodes) {
  // A range's bound most of the time: the size of a loop.
  std::vector<uint32_t> consts, bounds;
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].op == Ops::CONST) consts.push_back(i);
    if (nodes[i].op == Ops::RANGE && !nodes[i].src.empty() && nodes[nodes[i].src[0]].op == Ops::CONST)
      bounds.push_back(nodes[i].src[0]);
  }
  const std::vector<uint32_t>& pick = !bounds.empty() && Uniform(3) ? bounds : consts;
  if (pick.empty()) return "no constant";
  uint32_t i = pick[Uniform(pick.size())];
  Arg before = nodes[i].arg;
  switch (Uniform(4)) {
    case 0: nodes[i].arg = RandomNumber(); break;
    case 1: nodes[i].arg = Arg(kSizes[Uniform(std::size(kSizes))]); break;
    default: nodes[i].arg = Arg(kPlausibleSizes[Uniform(std::size(kPlausibleSizes))]); break;
  }
  return absl::StrCat(Where(nodes, i), " constant ", before.repr(), " -> ", nodes[i].arg.repr());
}

std::string AstMutator::EditSize(std::vector<WireNode>& nodes) {
  std::vector<uint32_t> ptrs;
  for (uint32_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].dtype.is_ptr) ptrs.push_back(i);
  if (ptrs.empty()) return "no pointer";
  uint32_t i = ptrs[Uniform(ptrs.size())];
  WireDType& d = nodes[i].dtype;
  std::string before = DTypeText(d);
  if (Uniform(4)) {
    d.size = kSizes[Uniform(std::size(kSizes))];
  } else {
    d.count = static_cast<int>(1 + Uniform(8));
  }
  return absl::StrCat(Where(nodes, i), " pointer ", before, " -> ", DTypeText(d));
}

std::string AstMutator::EditSinkArg(WireNode& sink) {
  Arg before = sink.arg;
  std::vector<Arg> ki;  // a KernelInfo's fields, to spoil one
  {
    Arg base = KernelInfo::IsKernelInfo(sink.arg) ? sink.arg : KernelInfo{.name = "k"}.ToArg();
    ki.assign(base.tuple().begin(), base.tuple().end());
  }
  static const Arg kOpts[] = {Arg::Tuple({"UPCAST", 0, 4}), Arg::Tuple({"UPCAST", 99, 4}),
                              Arg::Tuple({"NOPE", 0, 1}), Arg::Tuple({"SIMD", Arg(), 0}),
                              Arg::Tuple({"SIMD", Arg(), -8}), Arg::Tuple({"SIMD", Arg(), 3}),
                              Arg::Tuple({"TC", 0, Arg::Tuple({-1, 2, 1})}), Arg(7), Arg::Tuple({})};
  switch (Uniform(9)) {
    case 0: sink.arg = Arg(); break;
    case 1:  // the KernelInfo of before the tag: a plain 5-tuple
      sink.arg = Arg::Tuple({"E_16", Arg::Tuple({AxisType::LOOP}), false, Arg::Tuple({}), Arg()});
      break;
    case 2: sink.arg = Uniform(2) ? Arg("KernelInfo") : Arg::Tuple({"KernelInfo", "k"}); break;
    case 3: ki[1] = Uniform(2) ? Arg(5) : Arg(Arg::Tuple({"k"})); sink.arg = Arg::Tuple(ki); break;
    case 4: ki[2] = Uniform(2) ? Arg(3) : Arg::Tuple({1, "LOOP"}); sink.arg = Arg::Tuple(ki); break;
    case 5: {  // one axis type more or less than the kernel has ranges
      std::vector<Arg> axes;
      if (ki[2].is_tuple()) axes.assign(ki[2].tuple().begin(), ki[2].tuple().end());
      if (!axes.empty() && Uniform(2)) {
        axes.pop_back();
      } else {
        axes.push_back(Uniform(2) ? AxisType::REDUCE : AxisType::UPCAST);
      }
      ki[2] = Arg::Tuple(std::move(axes));
      sink.arg = Arg::Tuple(ki);
      break;
    }
    case 6: ki[3] = Uniform(2) ? Arg("yes") : Arg(2.5); sink.arg = Arg::Tuple(ki); break;
    case 7:
      ki[4] = Uniform(4) ? Arg::Tuple({kOpts[Uniform(std::size(kOpts))]}) : kOpts[Uniform(std::size(kOpts))];
      sink.arg = Arg::Tuple(ki);
      break;
    default: ki[5] = Uniform(2) ? Arg(3) : Arg::Tuple({kOpts[Uniform(std::size(kOpts))]}); sink.arg = Arg::Tuple(ki); break;
  }
  return absl::StrCat("SINK arg ", before.repr(), " -> ", sink.arg.repr());
}

std::string AstMutator::Mutate(std::vector<WireNode>& nodes) {
  std::vector<std::string> done;
  for (int k = 0, edits = Uniform(4) ? 1 : 2 + static_cast<int>(Uniform(2)); k < edits && !nodes.empty(); ++k) {
    // Not the root for op, dtype and source edits: a root that is not a SINK is refused at once.
    const uint32_t last = static_cast<uint32_t>(nodes.size() - 1);
    const uint32_t i = static_cast<uint32_t>(Uniform(last > 0 ? last : 1));
    switch (Uniform(8)) {
      case 0: done.push_back(EditOp(nodes, i)); break;
      case 1: done.push_back(absl::StrCat(Where(nodes, i), " ", EditDType(nodes[i]))); break;
      case 2: done.push_back(EditArg(nodes, i)); break;
      case 3: done.push_back(EditSources(nodes, Uniform(4) ? i : last)); break;
      case 4: done.push_back(EditConstant(nodes)); break;
      case 5: done.push_back(EditSize(nodes)); break;
      case 6: done.push_back(EditSinkArg(nodes[last])); break;
      default: {
        const uint32_t t = Uniform(3) ? i : last;  // a tagged SINK is lowered without optimizing
        nodes[t].tag = Uniform(4) ? Arg(static_cast<int>(Uniform(3))) : Arg();
        done.push_back(absl::StrCat(Where(nodes, t), " tag -> ", nodes[t].tag.repr()));
        break;
      }
    }
  }
  DropUnreachable(nodes);
  return absl::StrJoin(done, "; ");
}

}  // namespace tg::autotune::codec
