// File: autotune/codec/ast_codec.h
// A kernel AST (a UOp DAG) <-> its Cap'n Proto bytes (autotune/proto/kernel.capnp KernelAst).
//
// The bytes are canonical: the nodes in toposort order (children before parents, the root
// last), each field written the same way, laid out in Cap'n Proto's canonical form, so one
// graph gives the same bytes on every machine and AstWireDigest is a stable cache key.
// Decoding rebuilds the graph through UOp::Make, so the result is the identical interned node.
// Untrusted bytes are checked against DecodeLimits and node_check.h; every failure is a Status
// naming the node and field, never an abort or an exception.
//
// Example:
//   std::string bytes = codec::EncodeAst(kernel);
//   ASSIGN_OR_RETURN(UOp back, codec::DecodeAst(bytes));   // back == kernel (same node)
//   codec::AstWireDigestHex(kernel)                       // "9c1f...": same on every machine
#ifndef AUTOTUNE_CODEC_AST_CODEC_H_
#define AUTOTUNE_CODEC_AST_CODEC_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "autotune/codec/limits.h"
#include "tinygrad/uop/uop.h"

namespace tg::autotune::codec {

// Canonical flat-array bytes of a KernelAst message with `root` as its last node.
std::string EncodeAst(const UOp& root);

// The graph back. Errors: over a limit, malformed/truncated bytes, a source index that is not
// an earlier node (a cycle or forward reference), an unknown op/dtype/enum ordinal, a node
// that is not reachable from the root, a node that fails node_check.h.
absl::StatusOr<UOp> DecodeAst(std::string_view bytes, const DecodeLimits& limits = {});

// StableHasher over EncodeAst(root): equal on every machine for one graph.
uint64_t AstWireDigest(const UOp& root);
std::string AstWireDigestHex(const UOp& root);  // 16 hex digits

// The same hash over any canonical bytes (tasks, opt lists).
uint64_t WireDigest(std::string_view canonical_bytes);
std::string DigestHex(uint64_t digest);

}  // namespace tg::autotune::codec

#endif  // AUTOTUNE_CODEC_AST_CODEC_H_
