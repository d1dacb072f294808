// File: tinygrad/runtime/compile_cache.cc
// The compiled-program cache (memory + checksummed files written atomically).
#include "tinygrad/runtime/compile_cache.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "tinygrad/base/stable_hash.h"

namespace tg {
namespace {

// Entry layout: magic, then little-endian u64 key, payload size and payload hash, then payload.
constexpr char kMagic[8] = {'T', 'G', 'C', 'C', 'L', 'I', 'B', '1'};
constexpr size_t kHeaderSize = sizeof(kMagic) + 3 * 8;

void PutU64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
uint64_t GetU64(const char* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
  return v;
}
uint64_t PayloadHash(std::string_view payload) {
  return StableHasher().AddBytes(payload).Finish();
}

}  // namespace

std::string CompileCacheDir(int cachelevel, const std::string& cache_dir, std::string_view table) {
  if (cachelevel <= 0 || cache_dir.empty()) return "";
  return cache_dir + "/compile_" + std::string(table);
}

absl::StatusOr<std::string> CompileCache::GetOrCompile(
    uint64_t key, absl::FunctionRef<absl::StatusOr<std::string>()> compile) {
  if (std::optional<std::string> hit = Get(key)) return *std::move(hit);
  absl::StatusOr<std::string> out = compile();
  if (out.ok()) Put(key, *out);
  return out;
}

std::string CompileCache::PathFor(uint64_t key) const {
  if (dir_.empty()) return "";
  char name[32];
  std::snprintf(name, sizeof(name), "%016llx.bin", static_cast<unsigned long long>(key));
  return dir_ + "/" + name;
}

std::optional<std::string> CompileCache::ReadDisk(uint64_t key) {
  std::ifstream in(PathFor(key), std::ios::binary);
  if (!in.good()) return std::nullopt;  // absent: a plain miss
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  bool ok = in.good() || in.eof();
  if (ok && data.size() >= kHeaderSize && std::memcmp(data.data(), kMagic, sizeof(kMagic)) == 0) {
    const char* h = data.data() + sizeof(kMagic);
    uint64_t stored_key = GetU64(h), size = GetU64(h + 8), hash = GetU64(h + 16);
    std::string_view payload = std::string_view(data).substr(kHeaderSize);
    if (stored_key == key && size == payload.size() && hash == PayloadHash(payload))
      return std::string(payload);
  }
  std::lock_guard<std::mutex> lock(mu_);
  ++stats_.bad_entries;
  return std::nullopt;
}

std::optional<std::string> CompileCache::Get(uint64_t key) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (auto it = memory_.find(key); it != memory_.end()) {
      ++stats_.memory_hits;
      return it->second;
    }
  }
  std::optional<std::string> disk = dir_.empty() ? std::nullopt : ReadDisk(key);
  std::lock_guard<std::mutex> lock(mu_);
  if (!disk) {
    ++stats_.misses;
    return std::nullopt;
  }
  ++stats_.disk_hits;
  memory_.emplace(key, *disk);
  return disk;
}

void CompileCache::Put(uint64_t key, std::string_view value) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    memory_.insert_or_assign(key, std::string(value));
  }
  if (dir_.empty()) return;
  std::string entry(kMagic, sizeof(kMagic));
  PutU64(entry, key);
  PutU64(entry, value.size());
  PutU64(entry, PayloadHash(value));
  entry.append(value);

  // temp file in the same directory + rename: readers see the old entry or the whole new one
  static std::atomic<uint64_t> counter{0};
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  std::string final_path = PathFor(key);
  std::string tmp_path = final_path + ".tmp." + std::to_string(::getpid()) + "." +
                         std::to_string(counter.fetch_add(1));
  bool ok = false;
  {
    std::ofstream out(tmp_path, std::ios::binary | std::ios::trunc);
    out.write(entry.data(), static_cast<std::streamsize>(entry.size()));
    out.close();
    ok = out.good();
  }
  if (ok) {
    std::filesystem::rename(tmp_path, final_path, ec);
    ok = !ec;
  }
  if (!ok) {
    std::filesystem::remove(tmp_path, ec);
    std::lock_guard<std::mutex> lock(mu_);
    ++stats_.write_errors;
  }
}

CompileCacheStats CompileCache::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stats_;
}

}  // namespace tg
