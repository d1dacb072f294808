// File: tinygrad/uop/spec.h
// Port of tinygrad/uop/spec.py: the rule sets that say which UOps are valid where, and
// type_verify.
//
// A spec is an ordered list of (UPat, check) rules, like a PatternMatcher whose rules answer
// "valid", "invalid" or "no opinion" (tinygrad's True / False / None). For one node, the first
// rule that matches and has an opinion decides; when none does, the node is invalid.
//
//   shared_spec   usable anywhere
//   tensor_spec   the tensor graph (no tags allowed)
//   kernel_spec   a kernel AST passed into codegen (index dtype allowed)
//   program_spec  a linearized program (index dtype lowered away)
//   full_spec     every UOp ever created
//
// Example:
//   if (absl::Status st = VerifySpec(ast, SpecKind::kKernel); !st.ok()) return st;
//
// Verifying is for debugging: it walks the whole graph. tinygrad runs it at the pipeline's entry
// points by default (SPEC=1: tensor_spec before scheduling, kernel_spec on codegen's input,
// program_spec on the linearized list); our callers do that with VerifySpec. SpecCheckLevel() >= 2
// additionally verifies every node GraphRewrite makes against full_spec, which is tinygrad's
// SPEC=2 (full_spec on every UOp as it is created) for the nodes passes make.
#ifndef TINYGRAD_UOP_SPEC_H_
#define TINYGRAD_UOP_SPEC_H_

#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <source_location>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "tinygrad/uop/upat.h"

namespace tg {

// A spec rule's answer: tinygrad's True, False, None.
enum class Verdict : uint8_t { kNoOpinion, kValid, kInvalid };

using SpecCheckFn = Verdict (*)(const Match&);

struct SpecRule {
  // The location defaults to where the rule is written; errors name it.
  SpecRule(UPat pat, SpecCheckFn check,
           std::source_location where = std::source_location::current());
  std::string location() const;  // "spec.cc:42"

  UPat pat;
  SpecCheckFn check;
  std::source_location where;
};

// An ordered rule list, indexed by root op and pre-filtered by child ops (early reject), as
// PatternMatcher is.
class SpecMatcher {
 public:
  SpecMatcher(std::initializer_list<SpecRule> rules) : SpecMatcher(std::vector<SpecRule>(rules)) {}
  explicit SpecMatcher(std::vector<SpecRule> rules);

  // Both rule lists, this one's first (tinygrad's PatternMatcher +).
  SpecMatcher operator+(const SpecMatcher& more) const;

  // The verdict of the first rule that matches `u` and has an opinion, or kInvalid when none
  // does (never kNoOpinion). `decided`, when given, receives that rule (null when none).
  Verdict Check(const UOp& u, const SpecRule** decided = nullptr) const;

  const std::vector<SpecRule>& rules() const { return rules_; }

 private:
  std::vector<SpecRule> rules_;
  std::array<std::vector<uint32_t>, kNumOps> by_op_;
};

// tinygrad's rule sets, by their names.
const SpecMatcher& SharedSpec();
const SpecMatcher& TensorSpec();
const SpecMatcher& KernelSpec();
// tinygrad's program_spec (named apart from struct ProgramSpec in codegen/renderer.h).
const SpecMatcher& ProgramSpecRules();
const SpecMatcher& FullSpec();

enum class SpecKind : uint8_t { kShared, kTensor, kKernel, kProgram, kFull };
std::string_view SpecName(SpecKind kind);  // "kernel_spec"
const SpecMatcher& GetSpec(SpecKind kind);

// The first node a spec rejects.
struct SpecViolation {
  size_t index;  // position in the checked order (toposort, or the given list)
  UOp node;
  const SpecRule* rule;  // the rule that said invalid; null when no rule matched
};

// Checks `nodes` in order and returns the first invalid one, if any.
std::optional<SpecViolation> FindSpecViolation(std::span<const UOp> nodes, SpecKind kind);

// tinygrad's type_verify: checks every node of `sink`'s graph (toposort order). OK, or an
// InvalidArgument error naming the spec, the node's index, op, dtype, arg and sources, the rule
// that rejected it, and a (truncated) PrettyPrint of it.
absl::Status VerifySpec(const UOp& sink, SpecKind kind);
// The same over a list, e.g. a linearized program (checked in the list's order).
absl::Status VerifySpec(std::span<const UOp> nodes, SpecKind kind);

// tinygrad's SPEC as the rewriter sees it, set by the entry points (tools/tg, the engine's
// Realize) from their Config; 0, the default here, is off. At >= 2 GraphRewrite checks every
// node a rule makes with full_spec as it appears (tinygrad checks every UOp as it is created)
// and TG_CHECK-fails on a bad one, naming the node and the rule: a pass that makes an invalid
// node is a bug in the pass. Level 1's checks are the pipeline's VerifySpec calls (tensor_spec
// before scheduling, kernel_spec and program_spec in codegen), switched by their own options.
void SetSpecCheckLevel(int level);
int SpecCheckLevel();

}  // namespace tg

#endif  // TINYGRAD_UOP_SPEC_H_
