// File: autotune/codec/wire_enums.cc
// Name-matched enum tables between tinygrad-cc and the wire schema.
#include "autotune/codec/wire_enums.h"

#include <cstdint>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/check.h"

namespace tg::autotune::codec::internal {
namespace {

// Linear search over a small pair table: these run once per node, and the tables are short.
template <typename Ours, typename Wire, size_t N>
Wire Find(const std::pair<Ours, Wire> (&table)[N], Ours v) {
  for (const auto& [o, w] : table)
    if (o == v) return w;
  TG_CHECK(false) << "no wire value for enum " << static_cast<int>(v);
  return table[0].second;
}

template <typename Ours, typename Wire, size_t N>
absl::StatusOr<Ours> Back(const std::pair<Ours, Wire> (&table)[N], Wire v, absl::string_view what,
                          absl::string_view where) {
  for (const auto& [o, w] : table)
    if (w == v) return o;
  return absl::InvalidArgumentError(absl::StrCat(where, ": unknown ", what, " ordinal ",
                                                 static_cast<uint16_t>(v)));
}

// Every op, by name: a new op in ops.h that the schema lacks fails to compile here.
constexpr std::pair<Ops, proto::Op> kOps[] = {
#define TG_WIRE_OP(name) {Ops::name, proto::Op::name},
    TG_FOR_EACH_OP(TG_WIRE_OP)
#undef TG_WIRE_OP
};

using S = ScalarType;
using PS = proto::ScalarType;
constexpr std::pair<S, PS> kScalars[] = {
    {S::kVoid, PS::VOID},       {S::kIndex, PS::INDEX},       {S::kBool, PS::BOOL},
    {S::kInt8, PS::INT8},       {S::kUInt8, PS::UINT8},       {S::kInt16, PS::INT16},
    {S::kUInt16, PS::UINT16},   {S::kInt32, PS::INT32},       {S::kUInt32, PS::UINT32},
    {S::kInt64, PS::INT64},     {S::kUInt64, PS::UINT64},     {S::kFp8e4m3, PS::FP8E4M3},
    {S::kFp8e5m2, PS::FP8E5M2}, {S::kFloat16, PS::FLOAT16},   {S::kBFloat16, PS::BFLOAT16},
    {S::kFloat32, PS::FLOAT32}, {S::kFloat64, PS::FLOAT64},
};
static_assert(std::size(kScalars) == kNumScalarTypes);

constexpr std::pair<AddrSpace, proto::AddrSpace> kAddrSpaces[] = {
    {AddrSpace::GLOBAL, proto::AddrSpace::GLOBAL},
    {AddrSpace::LOCAL, proto::AddrSpace::LOCAL},
    {AddrSpace::REG, proto::AddrSpace::REG},
};

using A = AxisType;
using PA = proto::AxisType;
constexpr std::pair<A, PA> kAxisTypes[] = {
    {A::GLOBAL, PA::GLOBAL}, {A::WARP, PA::WARP},     {A::LOCAL, PA::LOCAL},
    {A::LOOP, PA::LOOP},     {A::GROUP_REDUCE, PA::GROUP_REDUCE},
    {A::REDUCE, PA::REDUCE}, {A::UPCAST, PA::UPCAST}, {A::UNROLL, PA::UNROLL},
    {A::THREAD, PA::THREAD}, {A::OUTER, PA::OUTER},   {A::PLACEHOLDER, PA::PLACEHOLDER},
};

using PO = proto::OptOp;
constexpr std::pair<OptOps, PO> kOptOps[] = {
    {OptOps::TC, PO::TC},           {OptOps::UPCAST, PO::UPCAST},
    {OptOps::UNROLL, PO::UNROLL},   {OptOps::LOCAL, PO::LOCAL},
    {OptOps::THREAD, PO::THREAD},   {OptOps::GROUP, PO::GROUP},
    {OptOps::GROUPTOP, PO::GROUP_TOP}, {OptOps::NOLOCALS, PO::NO_LOCALS},
    {OptOps::PADTO, PO::PAD_TO},    {OptOps::SWAP, PO::SWAP},
    {OptOps::SIMD, PO::SIMD},       {OptOps::BLOCK, PO::BLOCK},
    {OptOps::PACK, PO::PACK},       {OptOps::GEMM, PO::GEMM},
};

using O = Outcome;
using PW = proto::Outcome;
constexpr std::pair<O, PW> kOutcomes[] = {
    {O::kOk, PW::OK},
    {O::kInvalidOpts, PW::INVALID_OPTS},
    {O::kLoweringError, PW::LOWERING_ERROR},
    {O::kRejected, PW::REJECTED},
    {O::kCompileError, PW::COMPILE_ERROR},
    {O::kRuntimeError, PW::RUNTIME_ERROR},
    {O::kTimeout, PW::TIMEOUT},
    {O::kTooSlow, PW::TOO_SLOW},
    {O::kWrongResult, PW::WRONG_RESULT},
    {O::kDuplicate, PW::DUPLICATE},
    {O::kWorkerLost, PW::WORKER_LOST},
};
static_assert(std::size(kOutcomes) == kNumOutcomes);

}  // namespace

proto::Op ToWire(Ops op) { return kOps[static_cast<int>(op)].second; }
proto::ScalarType ToWire(ScalarType s) { return Find(kScalars, s); }
proto::AddrSpace ToWire(AddrSpace a) { return Find(kAddrSpaces, a); }
proto::AxisType ToWire(AxisType t) { return Find(kAxisTypes, t); }
proto::OptOp ToWire(OptOps op) { return Find(kOptOps, op); }
proto::Outcome ToWire(Outcome o) { return Find(kOutcomes, o); }

absl::StatusOr<Ops> FromWire(proto::Op op, absl::string_view where) {
  // The schema's ordinals start as our order; a lookup by ordinal is checked by the table.
  auto i = static_cast<uint16_t>(op);
  if (i < std::size(kOps) && kOps[i].second == op) return kOps[i].first;
  return Back(kOps, op, "op", where);
}
absl::StatusOr<ScalarType> FromWire(proto::ScalarType s, absl::string_view where) {
  return Back(kScalars, s, "scalar type", where);
}
absl::StatusOr<AddrSpace> FromWire(proto::AddrSpace a, absl::string_view where) {
  return Back(kAddrSpaces, a, "address space", where);
}
absl::StatusOr<AxisType> FromWire(proto::AxisType t, absl::string_view where) {
  return Back(kAxisTypes, t, "axis type", where);
}
absl::StatusOr<OptOps> FromWire(proto::OptOp op, absl::string_view where) {
  return Back(kOptOps, op, "opt op", where);
}
absl::StatusOr<Outcome> FromWire(proto::Outcome o, absl::string_view where) {
  return Back(kOutcomes, o, "outcome", where);
}

}  // namespace tg::autotune::codec::internal
