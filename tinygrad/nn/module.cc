// File: tinygrad/nn/module.cc
#include "tinygrad/nn/module.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tg::nn {
namespace {

struct Entry {
  Tensor* tensor;
  StateKind kind;
};

// The model's tensors by full name, as pointers into the model (LoadStateDict replaces them).
std::map<std::string, Entry> CollectEntries(Module& m) {
  std::map<std::string, Entry> out;
  StateVisitor v([&](const std::string& name, Tensor& t, StateKind kind) {
    out.insert_or_assign(name, Entry{&t, kind});
  });
  m.VisitState(v);
  return out;
}

std::string ShapeText(const std::vector<int64_t>& s) {
  return absl::StrCat("(", absl::StrJoin(s, ", "), s.size() == 1 ? ",)" : ")");
}

std::string NameList(const std::vector<std::string>& names) {
  constexpr size_t kShown = 8;  // enough to see the pattern of a wrong prefix
  std::vector<std::string> shown(names.begin(), names.begin() + std::min(names.size(), kShown));
  std::string s = absl::StrJoin(shown, ", ");
  if (names.size() > kShown) absl::StrAppend(&s, ", ... (", names.size(), " in all)");
  return s;
}

// The state dict's tensor to load for `name`, shaped as the model's, or why it can't be.
absl::StatusOr<Tensor> Checked(const std::string& name, const Tensor& model, const Tensor& given) {
  if (!model.ok())
    return absl::InvalidArgumentError(absl::StrCat("`", name, "` of the model is errored: ", model.status().message()));
  if (!given.ok())
    return absl::InvalidArgumentError(absl::StrCat("`", name, "` of the state dict is errored: ", given.status().message()));
  Tensor t = given;
  if (t.shape() != model.shape()) {
    bool scalar_vs_one = (t.shape().empty() && model.shape() == std::vector<int64_t>{1}) ||
                         (model.shape().empty() && t.shape() == std::vector<int64_t>{1});
    if (!scalar_vs_one)
      return absl::InvalidArgumentError(absl::StrCat("shape mismatch in `", name, "`: the model has ",
                                                     ShapeText(model.shape()), ", the state dict ",
                                                     ShapeText(t.shape())));
    t = t.reshape(model.sshape());
  }
  if (t.dtype() != model.dtype())
    return absl::InvalidArgumentError(absl::StrCat("dtype mismatch in `", name, "`: the model has ",
                                                   model.dtype().repr(), ", the state dict ",
                                                   t.dtype().repr()));
  return t.to(model.device());
}

}  // namespace

void StateVisitor::Child(std::string_view name, Module& m) {
  StateVisitor child(on_tensor_, prefix_ + std::string(name) + ".");
  m.VisitState(child);
}

void StateVisitor::ChildAt(std::string_view name, size_t i, Module& m) {
  Child(std::string(name) + "." + std::to_string(i), m);
}

std::map<std::string, Tensor> GetStateDict(Module& m) {
  std::map<std::string, Tensor> out;
  for (auto& [name, e] : CollectEntries(m)) out.insert_or_assign(name, *e.tensor);
  return out;
}

std::vector<Tensor> GetParameters(Module& m, bool include_buffers) {
  std::vector<Tensor> out;
  StateVisitor v([&](const std::string&, Tensor& t, StateKind kind) {
    if (include_buffers || kind == StateKind::kParameter) out.push_back(t);
  });
  m.VisitState(v);
  return out;
}

absl::Status LoadStateDict(Module& m, const std::map<std::string, Tensor>& state,
                           const LoadStateDictOptions& o) {
  std::map<std::string, Entry> entries = CollectEntries(m);
  if (o.strict) {
    std::vector<std::string> missing, extra;
    for (const auto& [name, e] : entries)
      if (!state.contains(name)) missing.push_back(name);
    for (const auto& [name, t] : state)
      if (!entries.contains(name)) extra.push_back(name);
    if (!missing.empty() || !extra.empty()) {
      std::vector<std::string> parts;
      if (!missing.empty()) parts.push_back("missing from the state dict: " + NameList(missing));
      if (!extra.empty()) parts.push_back("not in the model: " + NameList(extra));
      return absl::InvalidArgumentError("load_state_dict: " + absl::StrJoin(parts, "; "));
    }
  }
  // Check everything first, so that a refused load changes nothing.
  std::vector<std::pair<Tensor*, Tensor>> loads;
  for (const auto& [name, e] : entries) {
    auto it = state.find(name);
    if (it == state.end()) continue;  // not strict
    absl::StatusOr<Tensor> t = Checked(name, *e.tensor, it->second);
    if (!t.ok()) return absl::InvalidArgumentError("load_state_dict: " + std::string(t.status().message()));
    loads.emplace_back(e.tensor, *std::move(t));
  }
  // assign, as the reference's replace: every handle of the model's tensor (an optimizer's)
  // sees the loaded values, and a realized tensor keeps its buffer.
  std::vector<Tensor> loaded;
  for (auto& [dst, t] : loads) {
    Tensor assigned = dst->assign(t);
    if (!assigned.ok()) return assigned.status();  // checked above: not expected
    loaded.push_back(assigned);
  }
  return o.realize ? Realize(loaded) : absl::OkStatus();
}

}  // namespace tg::nn
