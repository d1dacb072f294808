// File: tinygrad/engine/memory.cc
#include "tinygrad/engine/memory.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <string>
#include <tuple>


namespace tg {
namespace {

// First-fit offsets in one growing arena (what tinygrad's TLSFAllocator gives it: any free
// range that fits; the arena's size is the highest end ever used).
class ArenaAllocator {
 public:
  size_t Alloc(size_t bytes) {
    for (auto it = free_.begin(); it != free_.end(); ++it) {
      if (it->second < bytes) continue;
      const size_t offset = it->first, left = it->second - bytes;
      free_.erase(it);
      if (left > 0) free_[offset + bytes] = left;
      return offset;
    }
    // Nothing fits: grow the arena, from a free range at its end if there is one.
    size_t offset = end_;
    if (!free_.empty() && std::prev(free_.end())->first + std::prev(free_.end())->second == end_) {
      offset = std::prev(free_.end())->first;
      free_.erase(std::prev(free_.end()));
    }
    end_ = offset + bytes;
    return offset;
  }
  void Free(size_t offset, size_t bytes) {
    auto [it, fresh] = free_.emplace(offset, bytes);
    if (auto next = std::next(it); next != free_.end() && offset + bytes == next->first) {
      it->second += next->second;
      free_.erase(next);
    }
    if (it != free_.begin()) {
      if (auto prev = std::prev(it); prev->first + prev->second == it->first) {
        prev->second += it->second;
        free_.erase(it);
      }
    }
  }
  size_t size() const { return end_; }

 private:
  std::map<size_t, size_t> free_;  // offset -> bytes
  size_t end_ = 0;
};

size_t RoundUp(size_t n, size_t block) { return (std::max<size_t>(n, 1) + block - 1) / block * block; }

}  // namespace

absl::flat_hash_map<const Buffer*, std::shared_ptr<Buffer>> PlanMemory(
    std::span<const BufferList> items, const absl::flat_hash_set<const Buffer*>& keep,
    const MemoryPlanOptions& options) {
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
  std::vector<std::vector<size_t>> frees_at(items.size() + 1);
  for (size_t l = 0; l < lives.size(); ++l) frees_at[lives[l].last + 1].push_back(l);

  if (options.sub_allocate) {
    // Walk the timeline: at item i, first free what died before i, then place what starts at i.
    std::map<std::string, ArenaAllocator> arenas;
    std::vector<size_t> offset(lives.size());
    size_t next_open = 0;
    for (size_t i = 0; i < items.size(); ++i) {
      for (size_t l : frees_at[i])
        arenas[lives[l].buf->device()].Free(offset[l], RoundUp(lives[l].buf->nbytes(), kSubAllocationBlock));
      for (; next_open < lives.size() && lives[next_open].first == i; ++next_open) {
        const Buffer& b = *lives[next_open].buf;
        offset[next_open] = arenas[b.device()].Alloc(RoundUp(b.nbytes(), kSubAllocationBlock));
      }
    }
    std::map<std::string, std::shared_ptr<Buffer>> arena_buffers;
    for (const auto& [device, arena] : arenas)
      arena_buffers[device] = std::make_shared<Buffer>(device, static_cast<int64_t>(arena.size()), dtypes::uint8);
    for (size_t l = 0; l < lives.size(); ++l) {
      const Buffer& b = *lives[l].buf;
      assigned[&b] = std::make_shared<Buffer>(arena_buffers[b.device()], b.size(), b.dtype(),
                                              static_cast<int64_t>(offset[l]));
    }
    return assigned;
  }

  // Whole buffers: a buffer freed before item i serves one of the same key opened at i.
  using Key = std::tuple<std::string, DType, size_t>;
  std::map<Key, std::vector<std::shared_ptr<Buffer>>> pool;
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
