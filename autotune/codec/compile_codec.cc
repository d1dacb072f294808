// File: autotune/codec/compile_codec.cc
// Byte-level entry points of the compile service's codec.
#include "autotune/codec/compile_codec.h"

#include "autotune/codec/compile_wire.h"
#include "autotune/codec/message_io.h"

namespace tg::autotune::codec {

std::string EncodeCompileMessage(const CompileMessage& m) {
  capnp::MallocMessageBuilder message;
  internal::WriteCompileMessage(m, message.initRoot<proto::CompileMessage>());
  return internal::ToBytes(message);
}

absl::StatusOr<CompileMessage> DecodeCompileMessage(std::string_view bytes,
                                                    const DecodeLimits& limits) {
  return internal::DecodeRoot<proto::CompileMessage>("compile message", bytes, limits, [&](auto r) {
    return internal::ReadCompileMessage(r, limits);
  });
}

}  // namespace tg::autotune::codec
