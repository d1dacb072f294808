// File: autotune/codec/compile_codec.h
// Encode/decode of the compile service's messages (compile_messages.h, schema
// autotune/proto/compile.capnp).
//
// The encoder writes plain flat-array bytes (`capnp decode` prints them). The decoder takes
// untrusted bytes and returns a Status naming the field for anything malformed, truncated,
// over DecodeLimits (max_program_bytes bounds a source or binary) or inconsistent: an unknown
// enum ordinal or union tag, an outcome only a run gives, a failed reply with programs, a
// launch size that is not positive, a duplicateOf outside the request. It never aborts and
// never throws. The protocol version is carried, not checked: the server answers another
// version with an error reply.
//
// Example:
//   std::string bytes = codec::EncodeCompileMessage(codec::PrepareReply{.request_id = 7});
//   ASSIGN_OR_RETURN(codec::CompileMessage m, codec::DecodeCompileMessage(bytes));
//   // reply.programs[3].outcome: unknown outcome ordinal 99
#ifndef AUTOTUNE_CODEC_COMPILE_CODEC_H_
#define AUTOTUNE_CODEC_COMPILE_CODEC_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "autotune/codec/compile_messages.h"
#include "autotune/codec/limits.h"

namespace tg::autotune::codec {

std::string EncodeCompileMessage(const CompileMessage& m);
absl::StatusOr<CompileMessage> DecodeCompileMessage(std::string_view bytes,
                                                    const DecodeLimits& limits = {});

}  // namespace tg::autotune::codec

#endif  // AUTOTUNE_CODEC_COMPILE_CODEC_H_
