// File: autotune/codec/value_wire.cc
// DType and Arg wire forms.
#include "autotune/codec/value_wire.h"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "autotune/codec/message_io.h"
#include "autotune/codec/wire_enums.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/status_macros.h"

namespace tg::autotune::codec::internal {
namespace {

void WriteNumber(const ConstValue& c, proto::Arg::Builder b) {
  switch (c.kind()) {
    case ConstValue::Kind::kBool: b.setBool(c.to_bool()); return;
    case ConstValue::Kind::kFloat: b.setFloat(c.to_float()); return;
    case ConstValue::Kind::kInvalid: b.setInvalid(); return;
    case ConstValue::Kind::kInt: break;
  }
  i128 v = c.to_int();
  if (v >= std::numeric_limits<int64_t>::min() && v <= std::numeric_limits<int64_t>::max()) {
    b.setInt(static_cast<int64_t>(v));
    return;
  }
  auto big = b.initBigInt();
  big.setHi(static_cast<int64_t>(v >> 64));
  big.setLo(static_cast<uint64_t>(v));
}

absl::StatusOr<Arg> ReadArgAt(proto::Arg::Reader r, const DecodeLimits& limits,
                              absl::string_view where, int depth) {
  using W = proto::Arg::Which;
  switch (r.which()) {
    case W::NONE: return Arg();
    case W::BOOL: return Arg(r.getBool());
    case W::INT: return Arg(r.getInt());
    case W::BIG_INT: {
      auto big = r.getBigInt();
      i128 v = (static_cast<i128>(big.getHi()) << 64) | static_cast<i128>(big.getLo());
      // ConstValue saturates beyond +-2**120: a larger value would not come back as sent.
      if (v > kIntInf || v < -kIntInf) return Bad(where, "integer beyond +-2**120");
      return Arg(ConstValue(v));
    }
    case W::FLOAT: return Arg(ConstValue(r.getFloat()));
    case W::INVALID: return Arg(ConstValue::Invalid());
    case W::STRING: {
      ASSIGN_OR_RETURN(std::string s, ReadText(r.getString(), limits, where));
      return Arg(std::move(s));
    }
    case W::OP: {
      ASSIGN_OR_RETURN(Ops op, FromWire(r.getOp(), where));
      return Arg(op);
    }
    case W::AXIS_TYPE: {
      ASSIGN_OR_RETURN(AxisType t, FromWire(r.getAxisType(), where));
      return Arg(t);
    }
    case W::TUPLE: {
      if (depth >= limits.max_tuple_depth)
        return Bad(where, absl::StrCat("tuples nested deeper than ", limits.max_tuple_depth));
      auto items = r.getTuple();
      if (static_cast<int64_t>(items.size()) > limits.max_tuple_len)
        return Bad(where, absl::StrCat("tuple of ", items.size(), " items is over the limit of ",
                                       limits.max_tuple_len));
      std::vector<Arg> out;
      out.reserve(items.size());
      for (uint32_t i = 0; i < items.size(); ++i) {
        ASSIGN_OR_RETURN(Arg a, ReadArgAt(items[i], limits, where, depth + 1));
        out.push_back(std::move(a));
      }
      return Arg::Tuple(std::move(out));
    }
  }
  return Bad(where, absl::StrCat("unknown arg kind ", static_cast<uint16_t>(r.which())));
}

}  // namespace

void WriteDType(DType d, proto::DType::Builder b) {
  b.setScalar(ToWire(d.scalar_type()));
  b.setCount(static_cast<uint16_t>(d.count()));
  b.setIsPtr(d.is_ptr());
  b.setAddrSpace(ToWire(d.is_ptr() ? d.addrspace() : AddrSpace::GLOBAL));
  b.setV(static_cast<uint16_t>(d.is_ptr() ? d.v() : 1));
  b.setSize(d.is_ptr() ? d.size() : -1);
}

absl::StatusOr<DType> ReadDType(proto::DType::Reader r, absl::string_view where) {
  ASSIGN_OR_RETURN(ScalarType s, FromWire(r.getScalar(), where));
  ASSIGN_OR_RETURN(AddrSpace as, FromWire(r.getAddrSpace(), where));
  int count = r.getCount(), v = r.getV();
  int64_t size = r.getSize();
  // Mirror DType::vec/ptr's CHECKs, so building it below cannot abort.
  if (s == ScalarType::kVoid && count != 1) return Bad(where, "void dtype with a vector width");
  if (count > kMaxVectorWidth || v > kMaxVectorWidth)
    return Bad(where, absl::StrCat("vector width ", std::max(count, v), " over ", kMaxVectorWidth));
  if (count == 0 && r.getIsPtr()) return Bad(where, "pointer to a 0-wide vector");
  DType d = DType(s);
  if (count != 1) d = d.vec(count);
  if (!r.getIsPtr()) {
    if (as != AddrSpace::GLOBAL || v != 1 || size != -1)
      return Bad(where, "pointer fields (addrSpace, v, size) set on a non-pointer dtype");
    return d;
  }
  if (size < -1 || size > kMaxPtrSize)
    return Bad(where, absl::StrCat("pointer size ", size, " out of range [-1, 2**40]"));
  if (v < 1) return Bad(where, "pointer vector width 0");
  d = d.ptr(size, as);
  if (v != 1) d = d.vec(v);
  return d;
}

void WriteArg(const Arg& a, proto::Arg::Builder b) {
  if (a.is_none()) {
    b.setNone();
  } else if (a.is_number()) {
    WriteNumber(a.number(), b);
  } else if (a.is_string()) {
    b.setString(Txt(a.str()));
  } else if (a.is_ops()) {
    b.setOp(ToWire(a.ops()));
  } else if (a.is_axis_type()) {
    b.setAxisType(ToWire(a.axis_type()));
  } else {
    // An opaque value (a custom kernel's functions) lives only in tensor graphs: a kernel AST
    // with one is refused where custom kernels resolve, so none reaches the wire.
    TG_CHECK(!a.is_opaque()) << "an opaque arg can't be encoded: " << a.repr();
    std::span<const Arg> items = a.tuple();
    auto list = b.initTuple(static_cast<unsigned>(items.size()));
    for (size_t i = 0; i < items.size(); ++i) WriteArg(items[i], list[static_cast<unsigned>(i)]);
  }
}

absl::StatusOr<Arg> ReadArg(proto::Arg::Reader r, const DecodeLimits& limits,
                            absl::string_view where) {
  return ReadArgAt(r, limits, where, 0);
}

}  // namespace tg::autotune::codec::internal
