// File: tinygrad/engine/memory.cc
#include "tinygrad/engine/memory.h"

#include <map>
#include <string>
#include <tuple>


namespace tg {

absl::flat_hash_map<const Buffer*, std::shared_ptr<Buffer>> PlanMemory(
    std::span<const BufferList> items, const absl::flat_hash_set<const Buffer*>& keep) {
  absl::flat_hash_map<const Buffer*, std::shared_ptr<Buffer>> assigned;

  // Lifetimes of the plannable buffers, in first-appearance order.
  struct Life {
    std::shared_ptr<Buffer> buf;
    size_t first, last;
  };
  std::vector<Life> lives;
  absl::flat_hash_map<const Buffer*, size_t> index;
  for (size_t i = 0; i < items.size(); ++i) {
    for (const std::shared_ptr<Buffer>& b : items[i]) {
      if (b->has_contents() || b->base() != nullptr || keep.contains(b.get())) continue;
      auto [it, fresh] = index.try_emplace(b.get(), lives.size());
      if (fresh) lives.push_back({b, i, i});
      lives[it->second].last = i;
    }
  }

  // Walk the timeline: at item i, first free what died before i, then open what starts at i.
  using Key = std::tuple<std::string, DType, size_t>;
  std::map<Key, std::vector<std::shared_ptr<Buffer>>> pool;
  std::vector<std::vector<size_t>> frees_at(items.size() + 1);
  for (size_t l = 0; l < lives.size(); ++l) frees_at[lives[l].last + 1].push_back(l);
  std::vector<std::shared_ptr<Buffer>> target(lives.size());
  size_t next_open = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    for (size_t l : frees_at[i]) {
      const Buffer& b = *lives[l].buf;
      pool[{b.device(), b.dtype(), b.nbytes()}].push_back(target[l]);
    }
    for (; next_open < lives.size() && lives[next_open].first == i; ++next_open) {
      const Buffer& b = *lives[next_open].buf;
      auto& free_list = pool[{b.device(), b.dtype(), b.nbytes()}];
      if (free_list.empty()) {
        target[next_open] = lives[next_open].buf;
      } else {
        target[next_open] = free_list.back();
        free_list.pop_back();
        assigned[lives[next_open].buf.get()] = target[next_open];
      }
    }
  }
  return assigned;
}

}  // namespace tg
