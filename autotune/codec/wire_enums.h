// File: autotune/codec/wire_enums.h
// Our enums <-> the schema's enums (autotune/proto), matched by NAME: the schema's ordinals are
// frozen, ours may be reordered. Decoding an ordinal the schema doesn't know (a newer peer,
// or a hostile one) is an error naming the field, never a cast.
// Internal to autotune/codec: nothing outside it sees capnp types.
#ifndef AUTOTUNE_CODEC_WIRE_ENUMS_H_
#define AUTOTUNE_CODEC_WIRE_ENUMS_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "autotune/measure/measurer.h"
#include "autotune/proto/farm.capnp.h"
#include "autotune/proto/kernel.capnp.h"
#include "tinygrad/codegen/opt/opt.h"
#include "tinygrad/dtype/dtype.h"
#include "tinygrad/uop/arg.h"
#include "tinygrad/uop/ops.h"

namespace tg::autotune::codec::internal {

proto::Op ToWire(Ops op);
proto::ScalarType ToWire(ScalarType s);
proto::AddrSpace ToWire(AddrSpace a);
proto::AxisType ToWire(AxisType t);
proto::OptOp ToWire(OptOps op);
proto::Outcome ToWire(Outcome o);

// `where` names the field in the error ("node 12 op").
absl::StatusOr<Ops> FromWire(proto::Op op, absl::string_view where);
absl::StatusOr<ScalarType> FromWire(proto::ScalarType s, absl::string_view where);
absl::StatusOr<AddrSpace> FromWire(proto::AddrSpace a, absl::string_view where);
absl::StatusOr<AxisType> FromWire(proto::AxisType t, absl::string_view where);
absl::StatusOr<OptOps> FromWire(proto::OptOp op, absl::string_view where);
absl::StatusOr<Outcome> FromWire(proto::Outcome o, absl::string_view where);

}  // namespace tg::autotune::codec::internal

#endif  // AUTOTUNE_CODEC_WIRE_ENUMS_H_
