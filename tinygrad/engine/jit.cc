// File: tinygrad/engine/jit.cc
// Port of tinygrad/engine/jit.py: CapturedJit (input replacement, extra view inputs, the
// replay loop) and the capture half of TinyJit.__call__.
#include "tinygrad/engine/jit.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/engine/buffer.h"
#include "tinygrad/engine/memory.h"

namespace tg {
namespace {

// The Buffers behind `inputs` (BUFFER UOps, or MSTACKs of them), each given once: a
// multi-device input's one per device, in device order (tinygrad's MultiBuffer.bufs, flattened
// into the inputs). One that
// holds nothing yet (an empty tensor) is allocated, as a kernel argument would be.
struct InputBuffer {
  std::shared_ptr<Buffer> buffer;
  size_t input;  // which of `inputs` it belongs to
};
absl::StatusOr<std::vector<InputBuffer>> InputBuffers(std::span<const UOp> inputs,
                                                      const DeviceOptions& options) {
  std::vector<InputBuffer> bufs;
  absl::flat_hash_set<const Buffer*> seen;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const UOp& u = inputs[i];
    std::vector<std::shared_ptr<Buffer>> shards;
    if (u && u.op() == Ops::BUFFER) {
      shards = BufferTable::Get().GetOrCreateShards(u);
    } else if (u && u.op() == Ops::MSTACK) {
      for (const UOp& s : u.src()) {
        if (s.op() != Ops::BUFFER) break;
        shards.push_back(BufferTable::Get().GetOrCreate(s));
      }
      if (shards.size() != u.src().size()) shards.clear();
    }
    if (shards.empty())
      return absl::InvalidArgumentError(absl::StrCat("JIT input ", i, " is not a buffer"));
    for (std::shared_ptr<Buffer>& b : shards) {
      // Views of the same memory are fine; the same Buffer twice is what the reference refuses.
      if (!seen.insert(b.get()).second)
        return absl::InvalidArgumentError(absl::StrCat("duplicate inputs to JIT: input ", i,
                                                       " is the buffer of an earlier input"));
      RETURN_IF_ERROR(b->EnsureAllocated(options));
      bufs.push_back({std::move(b), i});
    }
  }
  return bufs;
}

bool Contains(const std::vector<int64_t>& v, size_t x) {
  return std::find(v.begin(), v.end(), static_cast<int64_t>(x)) != v.end();
}

// The memory behind `b`: its base's for a view.
const Buffer* MemoryOf(const Buffer& b) { return b.base() != nullptr ? b.base().get() : &b; }

// Whether `item` writes its argument `i`: a kernel's outs, a copy's destination. Views run
// nothing.
bool Writes(const ExecItem& item, size_t i) {
  switch (item.kind) {
    case ExecItem::Kind::kKernel:
      return Contains(item.runner->spec.outs, i);
    case ExecItem::Kind::kCopy:
      return i == 0;
    case ExecItem::Kind::kView:
      return false;
  }
  return false;
}

// Whether `item` reads its argument `i`: a kernel's ins and whatever it does not only write
// (an out that is also an in is read), a copy's source.
bool Reads(const ExecItem& item, size_t i) {
  switch (item.kind) {
    case ExecItem::Kind::kKernel:
      return Contains(item.runner->spec.ins, i) || !Contains(item.runner->spec.outs, i);
    case ExecItem::Kind::kCopy:
      return i == 1;
    case ExecItem::Kind::kView:
      return false;
  }
  return false;
}

// JitOptions::prune (the reference's prune in TinyJit.__call__, with memory that carries state
// between replays counted as changing): removes from `items` those whose results no replay
// changes, given the memory `changing` whose contents differ between replays. Returns how many.
size_t PruneUnchangingItems(std::vector<ExecItem>& items,
                            absl::flat_hash_set<const Buffer*> changing) {
  // Memory read at or before an item that writes it, or written by two items, holds at a
  // replay's start what the last replay left, so its contents change from one to the next.
  struct Use {
    size_t first_read = SIZE_MAX, last_write = 0, writes = 0;
  };
  absl::flat_hash_map<const Buffer*, Use> uses;
  for (size_t j = 0; j < items.size(); ++j)
    for (size_t i = 0; i < items[j].bufs.size(); ++i) {
      if (items[j].kind == ExecItem::Kind::kView || items[j].bufs[i] == nullptr) continue;
      Use& u = uses[MemoryOf(*items[j].bufs[i])];
      if (Writes(items[j], i)) {
        u.last_write = j;
        ++u.writes;
      }
      if (Reads(items[j], i)) u.first_read = std::min(u.first_read, j);
    }
  for (const auto& [memory, u] : uses)
    if (u.writes >= 2 || (u.writes == 1 && u.first_read <= u.last_write)) changing.insert(memory);

  std::vector<ExecItem> kept;
  for (ExecItem& item : items) {
    bool changes = item.kind == ExecItem::Kind::kView;  // views run nothing: they stay
    if (item.kind == ExecItem::Kind::kKernel)
      for (const UOp& v : item.runner->spec.vars)
        changes |= !item.fixedvars.contains(v.arg()[0].str());
    for (const std::shared_ptr<Buffer>& b : item.bufs)
      changes |= b != nullptr && changing.contains(MemoryOf(*b));
    if (!changes) continue;
    if (item.kind != ExecItem::Kind::kView)
      for (size_t i = 0; i < item.bufs.size(); ++i)
        if (item.bufs[i] != nullptr && Writes(item, i)) changing.insert(MemoryOf(*item.bufs[i]));
    kept.push_back(std::move(item));
  }
  const size_t pruned = items.size() - kept.size();
  items = std::move(kept);
  return pruned;
}

// The reference's add_buffer + _internal_memory_planner over the captured items: replaces
// their intermediates with buffers of the JIT's own, planned together (sub-allocated).
// With `plan` false, only counts them.
JitMemory PlanIntermediates(std::vector<ExecItem>& items, bool plan) {
  // What keeps its buffer: what tensors name (after dropping what only the finished schedules
  // named), views and their bases, and what copies and views touch (the reference's
  // noopt_buffers). Input slots are empty already.
  BufferTable& table = BufferTable::Get();
  table.Sweep();
  absl::flat_hash_set<const Buffer*> fixed = table.Named();
  for (const ExecItem& ei : items)
    for (const std::shared_ptr<Buffer>& b : ei.bufs) {
      if (b == nullptr) continue;
      if (ei.kind != ExecItem::Kind::kKernel) fixed.insert(b.get());
      if (b->base() != nullptr) fixed.insert({b.get(), b->base().get()});
    }
  // An intermediate's memory holds nothing between replays, so its first use must write it
  // (a kernel's output it does not also read); anything else has contents to keep.
  absl::flat_hash_map<const Buffer*, std::shared_ptr<Buffer>> fresh;
  absl::flat_hash_set<const Buffer*> seen;
  for (const ExecItem& ei : items)
    for (size_t i = 0; i < ei.bufs.size(); ++i) {
      const std::shared_ptr<Buffer>& b = ei.bufs[i];
      if (b == nullptr || !seen.insert(b.get()).second || fixed.contains(b.get())) continue;
      const bool written = ei.kind == ExecItem::Kind::kKernel && Writes(ei, i) && !Reads(ei, i);
      if (written) fresh[b.get()] = std::make_shared<Buffer>(b->device(), b->size(), b->dtype());
    }

  JitMemory memory;
  for (const auto& [old, unused] : fresh) memory.captured_bytes += old->nbytes();
  if (!plan) {
    memory.planned_bytes = memory.captured_bytes;
    return memory;
  }
  std::vector<BufferList> lists;
  for (const ExecItem& ei : items) {
    BufferList& l = lists.emplace_back();
    for (const std::shared_ptr<Buffer>& b : ei.bufs)
      if (b != nullptr)
        if (auto it = fresh.find(b.get()); it != fresh.end()) l.push_back(it->second);
  }
  absl::flat_hash_map<const Buffer*, std::shared_ptr<Buffer>> planned =
      PlanMemory(lists, {}, {.sub_allocate = true});
  absl::flat_hash_set<const Buffer*> held;  // the memory the plan holds: arenas, unshared buffers
  for (ExecItem& ei : items)
    for (std::shared_ptr<Buffer>& b : ei.bufs) {
      if (b == nullptr) continue;
      auto it = fresh.find(b.get());
      if (it == fresh.end()) continue;
      auto p = planned.find(it->second.get());
      b = p != planned.end() ? p->second : it->second;
      const Buffer* base = b->base() != nullptr ? b->base().get() : b.get();
      if (held.insert(base).second) memory.planned_bytes += base->nbytes();
    }
  return memory;
}

}  // namespace

absl::StatusOr<JitCapture> JitCapture::Start() {
  ASSIGN_OR_RETURN(std::unique_ptr<ExecItemCapture> c, ExecItemCapture::Start());
  return JitCapture(std::move(c));
}

JitCapture::JitCapture(std::unique_ptr<ExecItemCapture> c) : capture_(std::move(c)) {}

absl::StatusOr<CapturedJit> CapturedJit::Make(JitCapture capture, std::span<const UOp> inputs,
                                              const JitOptions& options,
                                              std::span<const UOp> refreshed) {
  std::unique_ptr<ExecItemCapture> c = std::move(capture.capture_);
  if (c->items().empty()) return absl::FailedPreconditionError("didn't JIT anything!");
  ASSIGN_OR_RETURN(std::vector<InputBuffer> in, InputBuffers(inputs, c->options().device));

  CapturedJit jit;
  jit.items_ = std::move(c->items());
  jit.options_ = c->options();
  jit.jit_options_ = options;
  c.reset();  // the capture ends here
  jit.inputs_ = inputs.size();
  for (const InputBuffer& b : in)
    jit.expected_.push_back({b.buffer->device(), b.buffer->dtype(), b.buffer->size(), b.input});
  if (jit.options_.debug >= 1)
    std::cout << "JIT captured " << jit.items_.size() << " kernels with " << in.size()
              << " inputs\n";
  if (options.prune) {
    absl::flat_hash_set<const Buffer*> changing;
    for (const InputBuffer& b : in) changing.insert(MemoryOf(*b.buffer));
    std::vector<std::shared_ptr<Buffer>> kept_alive;  // the refreshed buffers, while comparing
    for (const UOp& u : refreshed) {
      if (!u || u.op() != Ops::BUFFER)
        return absl::InvalidArgumentError("JIT: a refreshed buffer is not a BUFFER");
      kept_alive.push_back(BufferTable::Get().GetOrCreate(u));
      changing.insert(MemoryOf(*kept_alive.back()));
    }
    const size_t captured = jit.items_.size();
    jit.pruned_ = PruneUnchangingItems(jit.items_, std::move(changing));
    if (jit.options_.debug >= 1)
      std::cout << "pruned from " << captured << " -> " << jit.items_.size() << " kernels\n";
  }

  // Input replacement (get_input_replace), views of inputs (extra_view_inputs), and the
  // variables kernels take. The inputs' slots are emptied: a replay fills them, and the capture
  // call's input buffers can be freed.
  absl::flat_hash_map<const Buffer*, size_t> input_index;
  for (size_t k = 0; k < in.size(); ++k) input_index[in[k].buffer.get()] = k;
  for (size_t j = 0; j < jit.items_.size(); ++j) {
    ExecItem& ei = jit.items_[j];
    for (size_t i = 0; i < ei.bufs.size(); ++i) {
      const std::shared_ptr<Buffer>& b = ei.bufs[i];
      if (auto it = input_index.find(b.get()); it != input_index.end()) {
        jit.input_slots_.push_back({j, i, it->second});
        jit.changing_.insert(j);
        ei.bufs[i] = nullptr;
      } else if (b->base() != nullptr) {
        if (auto base = input_index.find(b->base().get()); base != input_index.end()) {
          jit.view_slots_.push_back({j, i, base->second, b->size(), b->offset(), b->dtype()});
          jit.changing_.insert(j);
          ei.bufs[i] = nullptr;
        }
      }
    }
    if (ei.kind == ExecItem::Kind::kKernel)
      for (const UOp& v : ei.runner->spec.vars) {
        const std::string& name = v.arg()[0].str();
        if (!ei.fixedvars.contains(name)) {
          jit.variables_.insert(name);
          jit.changing_.insert(j);
        }
      }
  }
  jit.memory_ = PlanIntermediates(jit.items_, options.plan_memory);
  if (jit.options_.debug >= 1) {
    // An input no replayed item reads or writes (unused, or read only by pruned kernels).
    absl::flat_hash_set<size_t> found;
    for (const Slot& s : jit.input_slots_) found.insert(s.input);
    for (const ViewSlot& v : jit.view_slots_) found.insert(v.input);
    if (found.size() != in.size()) std::cout << "WARNING: some input tensors not found\n";
  }
  if (jit.options_.debug >= 1 && jit.memory_.planned_bytes != jit.memory_.captured_bytes)
    std::printf("JIT memory reduced from %.2f MB -> %.2f MB\n", jit.memory_.captured_bytes / 1e6,
                jit.memory_.planned_bytes / 1e6);
  return jit;
}

absl::Status CapturedJit::Replay(std::span<const UOp> inputs, const VarVals& var_vals) {
  if (inputs.size() != inputs_)
    return absl::InvalidArgumentError(absl::StrCat("args mismatch in JIT: captured with ", inputs_,
                                                   " inputs, called with ", inputs.size()));
  ASSIGN_OR_RETURN(std::vector<InputBuffer> in, InputBuffers(inputs, options_.device));
  for (size_t k = 0; k < std::max(in.size(), expected_.size()); ++k) {
    if (k < in.size() && k < expected_.size() && in[k].input == expected_[k].input) {
      const InputInfo& want = expected_[k];
      const Buffer& b = *in[k].buffer;
      if (b.device() == want.device && b.dtype() == want.dtype && b.size() == want.size) continue;
      return absl::InvalidArgumentError(
          absl::StrCat("args mismatch in JIT: input ", want.input, " was a buffer of ", want.size,
                       " ", want.dtype.name(), " on ", want.device, ", now ", b.size(), " ",
                       b.dtype().name(), " on ", b.device()));
    }
    const size_t input = k < in.size() ? in[k].input : expected_[k].input;
    return absl::InvalidArgumentError(absl::StrCat("args mismatch in JIT: input ", input,
                                                   " is on other devices than it was captured on"));
  }
  for (const std::string& name : variables_)
    if (!var_vals.contains(name))
      return absl::InvalidArgumentError(
          absl::StrCat("JIT replay: variable '", name, "' that the captured kernels take has no value"));

  for (const Slot& s : input_slots_) items_[s.item].bufs[s.arg] = in[s.input].buffer;
  for (const ViewSlot& v : view_slots_)
    items_[v.item].bufs[v.arg] =
        std::make_shared<Buffer>(in[v.input].buffer, v.size, v.dtype, v.offset);
  if (options_.debug >= 1 && items_.size() >= 10)
    std::cout << "jit execs " << items_.size() << " kernels\n";
  absl::Status status = RunSteps(var_vals);
  // _clear_inputs: the callers' buffers are theirs again.
  for (const Slot& s : input_slots_) items_[s.item].bufs[s.arg] = nullptr;
  for (const ViewSlot& v : view_slots_) items_[v.item].bufs[v.arg] = nullptr;
  return status;
}

absl::Status CapturedJit::RunSteps(const VarVals& var_vals) {
  if (steps_.empty()) {
    if (jit_options_.graph) {
      ASSIGN_OR_RETURN(
          steps_, PlanGraphs(items_, var_vals, options_, jit_options_.graph_options, changing_));
    } else {
      for (size_t i = 0; i < items_.size(); ++i) steps_.push_back({.item = i});
    }
  }
  for (const JitStep& step : steps_) {
    if (step.batch != nullptr) {
      RETURN_IF_ERROR(step.batch->Run(items_, var_vals, options_));
    } else {
      RETURN_IF_ERROR(RunExecItem(items_[step.item], var_vals, options_));
    }
  }
  return absl::OkStatus();
}

size_t CapturedJit::graphs() const {
  return std::count_if(steps_.begin(), steps_.end(),
                       [](const JitStep& s) { return s.batch != nullptr; });
}

}  // namespace tg
