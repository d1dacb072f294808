// File: tinygrad/nn/module.h
// The state of a model: its named parameters and buffers, found by walking its module tree.
// Port of get_state_dict, get_parameters and load_state_dict (tinygrad/nn/state.py).
//
// The reference finds a model's tensors by reflection over Python attributes. Here each module
// lists them itself, in VisitState, with plain calls (no macros):
//
//   struct Block : nn::Module {
//     nn::Conv2d conv{3, 8, 3};
//     nn::BatchNorm bn{8};
//     void VisitState(nn::StateVisitor& v) override { v.Child("conv", conv); v.Child("bn", bn); }
//   };
//   struct Net : nn::Module {
//     std::vector<Block> blocks;   // "blocks.0.conv.weight", "blocks.1.bn.running_mean", ...
//     nn::Linear head{8, 10};
//     void VisitState(nn::StateVisitor& v) override {
//       v.Children("blocks", blocks);
//       v.Child("head", head);
//     }
//   };
//
//   std::map<std::string, Tensor> sd = nn::GetStateDict(net);       // names as the reference's
//   RETURN_IF_ERROR(SafeSave("net.safetensors", sd));
//   ASSIGN_OR_RETURN(auto loaded, SafeLoad("net.safetensors"));
//   RETURN_IF_ERROR(nn::LoadStateDict(net, loaded));
//
// Differences from the reference, on purpose:
// - Entries are parameters (trained) or buffers (saved and loaded, not trained: BatchNorm's
//   running stats and batch count, created with requires_grad false). The reference tells
//   them apart only by requires_grad; the kind lets GetParameters leave the buffers out.
// - LoadStateDict in strict mode also refuses entries the model does not have (the reference
//   prints a warning), and a dtype other than the model's; it checks every entry before it
//   changes any, so a refused load leaves the model as it was.
// - A loaded entry is assigned to the model's tensor (the reference replaces its graph): every
//   handle sees the loaded values, as with the reference, and a realized tensor keeps its
//   buffer.
#ifndef TINYGRAD_NN_MODULE_H_
#define TINYGRAD_NN_MODULE_H_

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "tinygrad/tensor/tensor.h"

namespace tg::nn {

enum class StateKind { kParameter, kBuffer };

class Module;

// Given to Module::VisitState: the module names each of its tensors and child modules through
// it. A full name is the path of names joined by dots; a vector's elements are named by index.
class StateVisitor {
 public:
  // Called for each tensor with its full name.
  using OnTensor = std::function<void(const std::string& name, Tensor& t, StateKind kind)>;
  explicit StateVisitor(OnTensor on_tensor, std::string prefix = "")
      : on_tensor_(std::move(on_tensor)), prefix_(std::move(prefix)) {}

  void Parameter(std::string_view name, Tensor& t) { Visit(name, t, StateKind::kParameter); }
  void Buffer(std::string_view name, Tensor& t) { Visit(name, t, StateKind::kBuffer); }
  // An absent optional tensor (a bias turned off) has no entry, as the reference's None.
  void Parameter(std::string_view name, std::optional<Tensor>& t) {
    if (t) Parameter(name, *t);
  }
  void Buffer(std::string_view name, std::optional<Tensor>& t) {
    if (t) Buffer(name, *t);
  }
  void Child(std::string_view name, Module& m);
  template <typename M>
  void Children(std::string_view name, std::vector<M>& ms) {
    for (size_t i = 0; i < ms.size(); ++i) ChildAt(name, i, ms[i]);
  }
  template <typename M>
  void Children(std::string_view name, std::vector<std::unique_ptr<M>>& ms) {
    for (size_t i = 0; i < ms.size(); ++i)
      if (ms[i]) ChildAt(name, i, *ms[i]);
  }

 private:
  void Visit(std::string_view name, Tensor& t, StateKind kind) {
    on_tensor_(prefix_ + std::string(name), t, kind);
  }
  void ChildAt(std::string_view name, size_t i, Module& m);

  OnTensor on_tensor_;
  std::string prefix_;  // "" or "blocks.0."
};

// A model or a part of one. Subclasses name their tensors and children in VisitState, in the
// order the reference's attributes are assigned (the order GetParameters gives).
class Module {
 public:
  virtual ~Module() = default;
  virtual void VisitState(StateVisitor& v) = 0;
};

// Every parameter and buffer by full name (handles: changing one changes the model's tensor).
// A name visited twice keeps its last tensor.
std::map<std::string, Tensor> GetStateDict(Module& m);
// The tensors in visit order. With buffers it is the reference's get_parameters, what to give
// an optimizer: it trains the parameters and realizes the buffers (requires_grad false) with
// each step, so BatchNorm's running-stat updates land with the step.
std::vector<Tensor> GetParameters(Module& m, bool include_buffers = true);

struct LoadStateDictOptions {
  // Every model entry must be in the state dict and every state dict entry in the model;
  // not strict: a missing entry keeps the model's tensor, an extra one is ignored.
  bool strict = true;
  // Realize the loaded tensors (in one schedule) before returning.
  bool realize = true;
};

// Assigns to each model tensor the state dict's entry of its name, moved to the model tensor's
// device. Shapes must be equal (or () and (1,), reshaped as the reference does) and dtypes
// equal; requires_grad and .grad stay the model tensor's. Errors (InvalidArgument, naming the
// entries; nothing is changed): missing or extra entries in strict mode, a shape or dtype
// mismatch, an errored tensor on either side; and a failed realize.
absl::Status LoadStateDict(Module& m, const std::map<std::string, Tensor>& state,
                           const LoadStateDictOptions& o = {});

}  // namespace tg::nn

#endif  // TINYGRAD_NN_MODULE_H_
