// File: tinygrad/renderer/c/vector_acc.cc
#include "tinygrad/renderer/c/vector_acc.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"

namespace tg {
namespace {

// The DEFINE_REG that `u` is, directly or through AFTER aliases; nullopt for anything else.
std::optional<UOp> RegOf(UOp u) {
  while (u.op() == Ops::AFTER) u = u.src(0);
  if (u.op() == Ops::DEFINE_REG) return u;
  return std::nullopt;
}

// The constant slot of an INDEX (reg, CONST); nullopt for a computed or gated index.
std::optional<int64_t> ConstSlot(const UOp& index) {
  if (index.op() != Ops::INDEX || index.src().size() != 2 || index.src(1).op() != Ops::CONST) return std::nullopt;
  if (!index.src(1).arg().is_number() || !index.src(1).arg().number().is_int()) return std::nullopt;
  return index.src(1).arg().number().to_int64();
}

}  // namespace

VectorAccPlan PlanVectorAccs(std::span<const UOp> uops, int min_width) {
  VectorAccPlan plan;
  if (min_width <= 1) return plan;
  absl::flat_hash_set<UOp> rejected;
  // every use of a register must be an AFTER alias of it or a constant INDEX into it
  for (const UOp& u : uops) {
    for (size_t i = 0; i < u.src().size(); ++i) {
      std::optional<UOp> reg = RegOf(u.src(i));
      if (!reg) continue;
      bool ok = (u.op() == Ops::AFTER && i == 0) || (u.op() == Ops::INDEX && i == 0 && ConstSlot(u).has_value());
      if (!ok) rejected.insert(*reg);
    }
  }
  // the register slots each value is an elementwise function of: a constant-INDEX load of a
  // register is its slot; ALU ops, casts, GEPs and vector constructors pass their sources' slots
  // on; anything else (other loads, ranges) depends on none. Kept to at most two: a lane needs
  // exactly one. `uops` is in order, so sources come first.
  using Slot = std::pair<UOp, int64_t>;
  absl::flat_hash_map<UOp, std::vector<Slot>> slots_of;
  for (const UOp& u : uops) {
    std::vector<Slot> deps;
    if (u.op() == Ops::LOAD) {
      std::optional<UOp> reg;
      std::optional<int64_t> slot;
      if (u.src().size() == 1 && u.src(0).op() == Ops::INDEX) {
        reg = RegOf(u.src(0).src(0));
        slot = ConstSlot(u.src(0));
      }
      if (reg && slot) deps.emplace_back(*reg, *slot);
    } else if (GroupOp::ALU.contains(u.op()) || u.op() == Ops::CAST || u.op() == Ops::BITCAST ||
               u.op() == Ops::GEP || u.op() == Ops::VECTORIZE) {
      for (const UOp& s : u.src()) {
        auto it = slots_of.find(s);
        if (it == slots_of.end()) continue;
        for (const Slot& d : it->second) {
          if (deps.size() < 2 && std::find(deps.begin(), deps.end(), d) == deps.end()) deps.push_back(d);
        }
      }
    }
    if (!deps.empty()) slots_of[u] = std::move(deps);
  }
  // the wide vector constructors whose lanes each depend on one slot of one register (its loads,
  // or an epilogue of them such as max(acc+bias, 0)): its lane groups, in first-seen order
  absl::flat_hash_map<UOp, std::vector<std::vector<int64_t>>> groups;
  for (const UOp& u : uops) {
    if (u.op() != Ops::VECTORIZE || u.dtype().count() < min_width) continue;
    std::optional<UOp> group_reg;
    std::vector<int64_t> slots;
    bool one_slot_each = true;
    for (const UOp& s : u.src()) {
      auto it = slots_of.find(s);
      const std::vector<Slot>* deps = it == slots_of.end() ? nullptr : &it->second;
      if (deps == nullptr || deps->size() != 1) {
        one_slot_each = false;
        if (deps != nullptr) {
          for (const Slot& d : *deps) rejected.insert(d.first);
        }
        continue;
      }
      const UOp& reg = deps->front().first;
      if (group_reg && *group_reg != reg) {
        rejected.insert(reg);
        rejected.insert(*group_reg);
      }
      if (!group_reg) group_reg = reg;
      slots.push_back(deps->front().second);
    }
    if (!group_reg) continue;
    if (!one_slot_each) {
      rejected.insert(*group_reg);
      continue;
    }
    groups[*group_reg].push_back(std::move(slots));
  }
  // a register renders as vectors when its groups, all of one width, cover each slot once
  absl::flat_hash_map<UOp, absl::flat_hash_map<int64_t, VectorAccLane>> slot_lanes;
  for (const UOp& u : uops) {
    if (u.op() != Ops::DEFINE_REG || rejected.contains(u) || !groups.contains(u)) continue;
    if (u.dtype().base().count() != 1) continue;
    const std::vector<std::vector<int64_t>>& gs = groups[u];
    const int64_t size = u.dtype().size();
    const size_t width = gs.front().size();
    absl::flat_hash_map<int64_t, VectorAccLane> lanes;
    bool ok = size > 0 && size % static_cast<int64_t>(width) == 0;
    for (size_t g = 0; ok && g < gs.size(); ++g) {
      ok = gs[g].size() == width;
      for (size_t l = 0; ok && l < width; ++l) {
        const int64_t slot = gs[g][l];
        ok = slot >= 0 && slot < size && lanes.emplace(slot, VectorAccLane{static_cast<int64_t>(g), static_cast<int>(l)}).second;
      }
    }
    if (!ok || static_cast<int64_t>(lanes.size()) != size) continue;
    plan.width[u] = static_cast<int>(width);
    slot_lanes[u] = std::move(lanes);
  }
  for (const UOp& u : uops) {
    if (u.op() != Ops::INDEX || u.src().empty()) continue;
    std::optional<UOp> reg = RegOf(u.src(0));
    if (!reg || !slot_lanes.contains(*reg)) continue;
    plan.lanes[u] = slot_lanes[*reg].at(*ConstSlot(u));
  }
  return plan;
}

}  // namespace tg
