// File: tinygrad/runtime/compile_cache.h
// Compiled-program cache shared by the device compilers: an in-memory map plus an on-disk
// directory (tinygrad's compile_cached/diskcache, as plain files instead of sqlite).
//
// Keys are stable 64-bit hashes of everything that determines the binary (compiler identity,
// flags, source), so entries are valid across processes. Disk entries carry a header with a
// checksum: an unreadable, truncated or corrupted entry is ignored (and overwritten by the next
// Put), never trusted. Writes go to a temporary file that is renamed into place, so readers in
// other processes never see half an entry. Thread-safe.
//
// Example:
//   CompileCache cache("/home/me/.cache/tinygrad-cc/clang_so");   // "" = memory only
//   if (std::optional<std::string> lib = cache.Get(key)) return *lib;
//   cache.Put(key, compiled);
//   // or, the usual Compile(): the cached entry, else a compile that is stored when it succeeds
//   return cache.GetOrCompile(key, [&] { return CompileUncached(src); });
#ifndef TINYGRAD_RUNTIME_COMPILE_CACHE_H_
#define TINYGRAD_RUNTIME_COMPILE_CACHE_H_

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"

namespace tg {

struct CompileCacheStats {
  int64_t memory_hits = 0;
  int64_t disk_hits = 0;
  int64_t misses = 0;        // Get found nothing usable
  int64_t bad_entries = 0;   // disk entries ignored as unreadable/corrupted
  int64_t write_errors = 0;  // disk writes that failed (the cache is best-effort)
};

// The disk cache dir of one compiler: <cache_dir>/compile_<table> (the reference's diskcache
// table names: compile_clang_so, compile_cuda_sm_90, ...), or "" (memory only) when
// `cachelevel` is 0 (CACHELEVEL=0) or there is no cache dir.
std::string CompileCacheDir(int cachelevel, const std::string& cache_dir, std::string_view table);

class CompileCache {
 public:
  // `dir` empty: memory only. The directory is created on the first Put.
  explicit CompileCache(std::string dir) : dir_(std::move(dir)) {}
  CompileCache(const CompileCache&) = delete;
  CompileCache& operator=(const CompileCache&) = delete;

  // The entry for `key`: memory first, then disk (a disk hit is kept in memory).
  std::optional<std::string> Get(uint64_t key);
  void Put(uint64_t key, std::string_view value);
  // The entry for `key`, else what `compile` answers (stored when it is a value; an error is
  // returned and nothing is stored).
  absl::StatusOr<std::string> GetOrCompile(uint64_t key,
                                           absl::FunctionRef<absl::StatusOr<std::string>()> compile);

  CompileCacheStats stats() const;
  const std::string& dir() const { return dir_; }
  // The file that holds `key` on disk ("" when memory only).
  std::string PathFor(uint64_t key) const;

 private:
  std::optional<std::string> ReadDisk(uint64_t key);

  const std::string dir_;
  mutable std::mutex mu_;
  absl::flat_hash_map<uint64_t, std::string> memory_;
  CompileCacheStats stats_;
};

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_COMPILE_CACHE_H_
