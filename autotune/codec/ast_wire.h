// File: autotune/codec/ast_wire.h
// A UOp DAG <-> a KernelAst struct inside a larger message (a KernelTask embeds one). Internal
// to autotune/codec; ReadAst may throw kj::Exception (run it inside CatchCapnp).
#ifndef AUTOTUNE_CODEC_AST_WIRE_H_
#define AUTOTUNE_CODEC_AST_WIRE_H_

#include "absl/status/statusor.h"
#include "autotune/codec/limits.h"
#include "autotune/proto/kernel.capnp.h"
#include "tinygrad/uop/uop.h"

namespace tg::autotune::codec::internal {

void WriteAst(const UOp& root, proto::KernelAst::Builder b);
absl::StatusOr<UOp> ReadAst(proto::KernelAst::Reader r, const DecodeLimits& limits);

}  // namespace tg::autotune::codec::internal

#endif  // AUTOTUNE_CODEC_AST_WIRE_H_
