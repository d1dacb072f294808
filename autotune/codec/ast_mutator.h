// File: autotune/codec/ast_mutator.h (testonly)
// Structured mutations of a kernel AST in its wire form, for the lowering fuzz test: the node
// list the decoder reads (toposort order, sources as indices), edited one field at a time the
// way a careless or hostile sender could: an op, a dtype, an arg, a constant, a size, a source
// dropped, duplicated, swapped or redirected, the SINK's KernelInfo, a tag. The bytes stay
// well-formed Cap'n Proto and every source points to an earlier node, so what stands between
// a mutant and the compiler is the decoder's semantic checks, not its parser.
//
// Example:
//   AstMutator m(seed);
//   std::vector<WireNode> nodes = ToWireNodes(kernel);
//   std::string what = m.Mutate(nodes);          // "node 7 (RANGE): const 16 -> -1; ..."
//   absl::StatusOr<UOp> u = DecodeAst(EncodeWireNodes(nodes));
#ifndef AUTOTUNE_CODEC_AST_MUTATOR_H_
#define AUTOTUNE_CODEC_AST_MUTATOR_H_

#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "tinygrad/dtype/dtype.h"
#include "tinygrad/uop/arg.h"
#include "tinygrad/uop/ops.h"
#include "tinygrad/uop/uop.h"

namespace tg::autotune::codec {

// The schema's DType fields as they are (autotune/proto/kernel.capnp), so that a mutant can
// hold any combination, including ones DType itself would refuse.
struct WireDType {
  ScalarType scalar = ScalarType::kVoid;
  int count = 1;
  bool is_ptr = false;
  AddrSpace addrspace = AddrSpace::GLOBAL;
  int v = 1;
  int64_t size = -1;
};

struct WireNode {
  Ops op = Ops::NOOP;
  WireDType dtype;
  std::vector<uint32_t> src;  // indices of earlier nodes
  Arg arg;
  Arg tag;
};

// The node list EncodeAst writes for `root`.
std::vector<WireNode> ToWireNodes(const UOp& root);
// KernelAst bytes of `nodes` as they are (checking them is the decoder's job).
std::string EncodeWireNodes(std::span<const WireNode> nodes);

class AstMutator {
 public:
  explicit AstMutator(uint64_t seed) : rng_(seed) {}

  // One random edit of `nodes` (one time in four two or three), then the nodes no longer reachable from the root
  // (the last node) dropped and the rest renumbered. Returns what was done, one clause per
  // edit, naming the node (by its index before the clean-up) and the change.
  std::string Mutate(std::vector<WireNode>& nodes);

  uint64_t Uniform(uint64_t n) { return n == 0 ? 0 : rng_() % n; }

 private:
  std::string EditOp(std::vector<WireNode>& nodes, uint32_t i);
  std::string EditDType(WireNode& n);
  std::string EditArg(std::vector<WireNode>& nodes, uint32_t i);
  std::string EditSources(std::vector<WireNode>& nodes, uint32_t i);
  std::string EditConstant(std::vector<WireNode>& nodes);
  std::string EditSize(std::vector<WireNode>& nodes);
  std::string EditSinkArg(WireNode& sink);
  Arg RandomNumber();

  std::mt19937_64 rng_;
};

}  // namespace tg::autotune::codec

#endif  // AUTOTUNE_CODEC_AST_MUTATOR_H_
