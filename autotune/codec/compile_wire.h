// File: autotune/codec/compile_wire.h
// The compile service's values (compile_messages.h) <-> their schema structs
// (autotune/proto/compile.capnp). Internal to autotune/codec; ReadCompileMessage may throw
// kj::Exception (callers run it inside CatchCapnp).
#ifndef AUTOTUNE_CODEC_COMPILE_WIRE_H_
#define AUTOTUNE_CODEC_COMPILE_WIRE_H_

#include "absl/status/statusor.h"
#include "autotune/codec/compile_messages.h"
#include "autotune/codec/limits.h"
#include "autotune/proto/compile.capnp.h"

namespace tg::autotune::codec::internal {

void WriteCompileMessage(const CompileMessage& m, proto::CompileMessage::Builder b);
// Errors name the field: "reply.programs[3].outcome: unknown outcome ordinal 99".
absl::StatusOr<CompileMessage> ReadCompileMessage(proto::CompileMessage::Reader r,
                                                  const DecodeLimits& limits);

}  // namespace tg::autotune::codec::internal

#endif  // AUTOTUNE_CODEC_COMPILE_WIRE_H_
