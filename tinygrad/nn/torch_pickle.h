// File: tinygrad/nn/torch_pickle.h
// The strict unpickler of PyTorch checkpoints (the part of tinygrad/nn/state.py's torch_load
// that its TorchPickle does): the pickle protocol-2 opcodes torch writes, and only the globals
// the reference accepts (torch's tensor rebuilders and storage classes, OrderedDict; numpy and
// _codecs objects as opaque values). Values are kept in a table and referred to by id; a
// tensor is its storage (a persistent id: dtype, key, numel), offset, size and stride, made
// into a Tensor by torch_load.cc. The pickle is user input: anything else is an error naming
// the opcode or global and its byte offset, and the stack, memo, object count and dims are
// bounded.
//
// Example:
//   Unpickler p(bytes, "model.pt member 'archive/data.pkl'");
//   ASSIGN_OR_RETURN(uint32_t root, p.Load(0));
//   const Value& v = p.at(root);   // a dict of names to tensors, usually
#ifndef TINYGRAD_NN_TORCH_PICKLE_H_
#define TINYGRAD_NN_TORCH_PICKLE_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/dtype/dtype.h"

namespace tg::torch_pickle {

using Bytes = std::span<const std::byte>;

// Bounds on what a hostile pickle can make us build.
inline constexpr size_t kMaxStack = size_t{1} << 20;    // stack entries and marks
inline constexpr size_t kMaxObjects = size_t{1} << 22;  // values one pickle creates
inline constexpr size_t kMaxDims = 64;                  // a tensor's rank

enum class Kind : uint8_t {
  kNone,
  kBool,
  kInt,
  kBigInt,
  kFloat,
  kStr,
  kBytes,
  kTuple,
  kList,
  kDict,
  kGlobal,   // a class or function (Global below)
  kStorage,  // a persistent id: a typed storage in the archive
  kTensor,   // a _rebuild_tensor(_v2) result
  kOpaque,   // a numpy / _codecs object: no tensors in it
};

enum class Global : uint8_t { kOrderedDict, kRebuildTensor, kStorageType, kOpaque };

struct Value {
  Kind kind = Kind::kNone;
  Global global = Global::kOpaque;
  DType dtype;                        // kGlobal kStorageType, kStorage
  int64_t i = 0;                      // kBool, kInt; kStorage: numel; kTensor: storage offset
  double f = 0;                       // kFloat
  std::string s;                      // kStr, kBytes, kBigInt (little-endian bytes); kGlobal: name;
                                      // kStorage: key
  std::vector<uint32_t> items;        // kTuple, kList; kDict: key, value, ...; kTensor: the storage
  std::vector<int64_t> size, stride;  // kTensor
};

class Unpickler {
 public:
  // `where` names the pickle in errors ("model.pt member 'archive/data.pkl'").
  Unpickler(Bytes data, std::string where) : data_(data), where_(std::move(where)) {}

  // Reads one pickle starting at `pos`; returns its value's id. pos() is then just past STOP.
  absl::StatusOr<uint32_t> Load(size_t pos);
  size_t pos() const { return pos_; }
  const Value& at(uint32_t id) const { return values_[id]; }
  size_t size() const { return values_.size(); }
  absl::Status Error(absl::string_view what) const {
    return absl::InvalidArgumentError(
        absl::StrCat("torch_load: ", where_, ": ", what, " (pickle byte ", op_pos_, ")"));
  }

 private:
  absl::StatusOr<uint32_t> New(Value v) {
    if (values_.size() >= kMaxObjects) return Error("too many objects");
    values_.push_back(std::move(v));
    return static_cast<uint32_t>(values_.size() - 1);
  }
  absl::Status Push(uint32_t id) {
    if (stack_.size() >= kMaxStack) return Error("pickle stack too deep");
    stack_.push_back(id);
    return absl::OkStatus();
  }
  absl::Status PushNew(Value v) {
    ASSIGN_OR_RETURN(uint32_t id, New(std::move(v)));
    return Push(id);
  }
  absl::StatusOr<uint32_t> Pop() {
    if (stack_.size() <= Floor()) return Error("pickle stack underflow");
    uint32_t id = stack_.back();
    stack_.pop_back();
    return id;
  }
  size_t Floor() const { return marks_.empty() ? 0 : marks_.back(); }
  absl::StatusOr<std::vector<uint32_t>> PopMark() {
    if (marks_.empty()) return Error("no MARK to pop to");
    size_t m = marks_.back();
    marks_.pop_back();
    std::vector<uint32_t> items(stack_.begin() + m, stack_.end());
    stack_.resize(m);
    return items;
  }
  absl::StatusOr<Bytes> Take(uint64_t n) {
    if (n > data_.size() - pos_) return Error("pickle truncated");
    Bytes b = data_.subspan(pos_, n);
    pos_ += n;
    return b;
  }
  absl::StatusOr<uint64_t> ReadUint(int n) {  // little-endian
    ASSIGN_OR_RETURN(Bytes b, Take(n));
    uint64_t v = 0;
    for (int k = n - 1; k >= 0; --k) v = (v << 8) | static_cast<uint8_t>(b[k]);
    return v;
  }
  absl::StatusOr<std::string> ReadLine() {
    for (size_t k = pos_; k < data_.size() && k - pos_ < 256; ++k) {
      if (data_[k] != std::byte{'\n'}) continue;
      std::string line(reinterpret_cast<const char*>(data_.data() + pos_), k - pos_);
      pos_ = k + 1;
      return line;
    }
    return Error("GLOBAL name not ended by a newline within 256 bytes");
  }
  absl::StatusOr<Value> Resolve(const std::string& module, const std::string& name);
  absl::Status Reduce(uint32_t func, uint32_t args);
  absl::StatusOr<uint32_t> Persistent(uint32_t pid);
  absl::StatusOr<std::vector<int64_t>> Ints(uint32_t id, absl::string_view what);

  Bytes data_;
  std::string where_;
  size_t pos_ = 0, op_pos_ = 0;
  std::deque<Value> values_;
  std::vector<uint32_t> stack_;
  std::vector<size_t> marks_;
  absl::flat_hash_map<uint64_t, uint32_t> memo_;
};

}  // namespace tg::torch_pickle

#endif  // TINYGRAD_NN_TORCH_PICKLE_H_
