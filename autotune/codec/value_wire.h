// File: autotune/codec/value_wire.h
// DType and Arg <-> their schema structs, with the reader's checks: a DType the DType class
// would CHECK-fail on, an unknown union tag or enum ordinal, an Arg nested or sized past the
// limits are errors naming `where`. Internal to autotune/codec; the Read functions may throw
// kj::Exception (callers run them inside CatchCapnp).
#ifndef AUTOTUNE_CODEC_VALUE_WIRE_H_
#define AUTOTUNE_CODEC_VALUE_WIRE_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "autotune/codec/limits.h"
#include "autotune/proto/kernel.capnp.h"
#include "tinygrad/dtype/dtype.h"
#include "tinygrad/uop/arg.h"

namespace tg::autotune::codec::internal {

// Pointer sizes and vector widths beyond these are rejected: shape math multiplies sizes by
// item sizes in int64 (2**40 elements * 4096 lanes * 8 bytes stays below 2**63).
inline constexpr int64_t kMaxPtrSize = int64_t{1} << 40;
inline constexpr int kMaxVectorWidth = 4096;

void WriteDType(DType d, proto::DType::Builder b);
absl::StatusOr<DType> ReadDType(proto::DType::Reader r, absl::string_view where);

void WriteArg(const Arg& a, proto::Arg::Builder b);
absl::StatusOr<Arg> ReadArg(proto::Arg::Reader r, const DecodeLimits& limits,
                            absl::string_view where);

}  // namespace tg::autotune::codec::internal

#endif  // AUTOTUNE_CODEC_VALUE_WIRE_H_
