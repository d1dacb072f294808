// File: autotune/codec/ast_codec.cc
// Kernel AST encoding (toposort order, indices) and checked decoding.
#include "autotune/codec/ast_codec.h"

#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "autotune/codec/ast_wire.h"
#include "autotune/codec/message_io.h"
#include "autotune/codec/node_check.h"
#include "autotune/codec/value_wire.h"
#include "autotune/codec/wire_enums.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/stable_hash.h"
#include "tinygrad/base/status_macros.h"

namespace tg::autotune::codec {
namespace internal {

void WriteAst(const UOp& root, proto::KernelAst::Builder b) {
  TG_CHECK(root) << "EncodeAst of a null UOp";
  // tinygrad's toposort: deterministic for a graph, children first, the root last.
  std::vector<UOp> order = root.toposort();
  absl::flat_hash_map<const void*, uint32_t> index;
  index.reserve(order.size());
  auto nodes = b.initNodes(static_cast<unsigned>(order.size()));
  for (uint32_t i = 0; i < order.size(); ++i) {
    const UOp& u = order[i];
    index.emplace(u.id(), i);
    auto n = nodes[i];
    n.setOp(ToWire(u.op()));
    WriteDType(u.dtype(), n.initDtype());
    std::span<const UOp> src = u.src();
    auto s = n.initSrc(static_cast<unsigned>(src.size()));
    for (uint32_t j = 0; j < src.size(); ++j) s.set(j, index.at(src[j].id()));
    // None stays a null pointer: smaller, and what a reader sees as None anyway.
    if (!u.arg().is_none()) WriteArg(u.arg(), n.initArg());
    if (!u.tag().is_none()) WriteArg(u.tag(), n.initTag());
  }
}

absl::StatusOr<UOp> ReadAst(proto::KernelAst::Reader r, const DecodeLimits& limits) {
  auto nodes = r.getNodes();
  if (nodes.size() == 0) return absl::InvalidArgumentError("kernel AST without nodes");
  if (static_cast<int64_t>(nodes.size()) > limits.max_nodes)
    return absl::InvalidArgumentError(absl::StrCat("kernel AST of ", nodes.size(),
                                                   " nodes is over the limit of ",
                                                   limits.max_nodes));
  std::vector<UOp> built;
  built.reserve(nodes.size());
  std::vector<char> used(nodes.size(), 0);  // reachable from the root
  std::vector<UOp> src;
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    auto n = nodes[i];
    std::string where = absl::StrCat("node ", i);
    auto field = [&](absl::string_view f) { return absl::StrCat(where, " ", f); };
    ASSIGN_OR_RETURN(Ops op, FromWire(n.getOp(), field("op")));
    ASSIGN_OR_RETURN(DType dtype, ReadDType(n.getDtype(), field("dtype")));
    auto s = n.getSrc();
    if (static_cast<int64_t>(s.size()) > limits.max_sources)
      return absl::InvalidArgumentError(absl::StrCat(where, " src: ", s.size(),
                                                     " sources is over the limit of ",
                                                     limits.max_sources));
    src.clear();
    for (uint32_t j = 0; j < s.size(); ++j) {
      uint32_t k = s[j];
      if (k >= i)
        return absl::InvalidArgumentError(absl::StrCat(
            where, " src[", j, "]: index ", k, " is not an earlier node (",
            k == i ? "a self reference" : "a forward reference or cycle", ")"));
      src.push_back(built[k]);
    }
    Arg arg, tag;
    if (n.hasArg()) {
      ASSIGN_OR_RETURN(arg, ReadArg(n.getArg(), limits, field("arg")));
    }
    if (n.hasTag()) {
      ASSIGN_OR_RETURN(tag, ReadArg(n.getTag(), limits, field("tag")));
    }
    absl::Status st = CheckNode(op, dtype, src, arg);
    if (st.ok() && !limits.allow_source_text) st = CheckNoSourceText(op, arg);
    if (!st.ok())
      return absl::InvalidArgumentError(absl::StrCat(where, " (", Sv(OpName(op)), "): ", st.message()));
    built.push_back(UOp::Make(op, dtype, src, std::move(arg), std::move(tag)));
  }
  // Every node must feed the root: the encoder writes nothing else, and a reader must not
  // intern (and keep alive) junk a sender appended.
  used.back() = 1;
  for (uint32_t i = nodes.size(); i-- > 0;) {
    if (!used[i])
      return absl::InvalidArgumentError(absl::StrCat("node ", i, " is not reachable from the root"));
    auto s = nodes[i].getSrc();
    for (uint32_t j = 0; j < s.size(); ++j) used[s[j]] = 1;
  }
  return built.back();
}

}  // namespace internal

std::string EncodeAst(const UOp& root) {
  capnp::MallocMessageBuilder message;
  auto b = message.initRoot<proto::KernelAst>();
  internal::WriteAst(root, b);
  return internal::CanonicalBytes(b.asReader());
}

absl::StatusOr<UOp> DecodeAst(std::string_view bytes, const DecodeLimits& limits) {
  return internal::CatchCapnp("kernel AST", [&]() -> absl::StatusOr<UOp> {
    ASSIGN_OR_RETURN(auto parsed, internal::ParsedMessage::Parse(bytes, limits));
    return internal::ReadAst(parsed->reader().getRoot<proto::KernelAst>(), limits);
  });
}

uint64_t WireDigest(std::string_view canonical_bytes) {
  return StableHasher().AddBytes(canonical_bytes).Finish();
}

std::string DigestHex(uint64_t digest) { return absl::StrFormat("%016x", digest); }

uint64_t AstWireDigest(const UOp& root) { return WireDigest(EncodeAst(root)); }

std::string AstWireDigestHex(const UOp& root) { return DigestHex(AstWireDigest(root)); }

}  // namespace tg::autotune::codec
